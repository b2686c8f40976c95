//! The outbox: what is to be sent, sent after the transaction that queued it commits.
//!
//! An item keeps its message (and so its Message-ID) across retries: a message sent twice
//! after a crash carries the same Message-ID, and the receiving ccmail ignores the second.

use sqlx::SqliteConnection;

use crate::{OutboxStatus, Result};

/// An item due for sending, with the raw message.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OutboxItem {
    pub id: i64,
    pub message: i64,
    pub envelope_from: String,
    pub recipients: String,
    pub attempts: i64,
    pub raw: Vec<u8>,
}

/// An item's state, for `games` and `show`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OutboxRow {
    pub id: i64,
    pub message: i64,
    pub game_id: Option<String>,
    pub subject: Option<String>,
    pub status: OutboxStatus,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub sent_at: Option<String>,
    /// When it is tried next, while queued (RFC 3339).
    pub next_attempt_at: String,
}

/// Where a letter of the outbox stands, as `ccmail outbox` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LetterState {
    /// Waiting for its first try (or in a sender's hands for it).
    Queued,
    /// Tried and failed for a reason that may pass; tried again at `next_attempt_at`.
    Retrying,
    /// Failed for good: kept, never tried again.
    Failed,
    Sent,
}

impl LetterState {
    /// The word of `ccmail outbox --json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Retrying => "retrying",
            Self::Failed => "failed",
            Self::Sent => "sent",
        }
    }

    /// From the stored status and how many tries failed: a queued item that was tried is
    /// retrying even while a sender holds it again (a claim clears its last error).
    pub fn of(status: OutboxStatus, attempts: i64, last_error: Option<&str>) -> LetterState {
        match status {
            OutboxStatus::Sent => Self::Sent,
            OutboxStatus::Failed => Self::Failed,
            OutboxStatus::Queued if attempts > 0 || last_error.is_some() => Self::Retrying,
            OutboxStatus::Queued => Self::Queued,
        }
    }
}

impl OutboxRow {
    pub fn state(&self) -> LetterState {
        LetterState::of(self.status, self.attempts, self.last_error.as_deref())
    }
}

/// A letter of the outbox with what `ccmail outbox` shows of it, its bytes included (its
/// To and Cc are read from them).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct OutboxLetter {
    /// The outbox item.
    pub id: i64,
    /// The stored message: the number every other command calls it by.
    pub message: i64,
    pub game_id: Option<String>,
    pub kind: crate::StoredKind,
    /// Every recipient, To and Cc, comma-separated.
    pub recipients: String,
    pub subject: Option<String>,
    pub status: OutboxStatus,
    pub attempts: i64,
    pub last_error: Option<String>,
    /// When it was queued (the message's creation), RFC 3339.
    pub queued_at: String,
    pub sent_at: Option<String>,
    pub next_attempt_at: String,
    pub raw: Vec<u8>,
}

impl OutboxLetter {
    pub fn state(&self) -> LetterState {
        LetterState::of(self.status, self.attempts, self.last_error.as_deref())
    }
}

pub async fn enqueue(
    conn: &mut SqliteConnection,
    message: i64,
    envelope_from: &str,
    recipients: &[String],
    now: &str,
) -> Result<i64> {
    Ok(sqlx::query(
        "INSERT INTO outbox (message, envelope_from, recipients, next_attempt_at) VALUES (?, ?, ?, ?)",
    )
    .bind(message)
    .bind(envelope_from)
    .bind(recipients.join(","))
    .bind(now)
    .execute(conn)
    .await?
    .last_insert_rowid())
}

/// Items queued and due at `now` (RFC 3339, compared as text: same offset everywhere).
pub async fn due(conn: &mut SqliteConnection, now: &str) -> Result<Vec<OutboxItem>> {
    Ok(sqlx::query_as(
        "SELECT o.id, o.message, o.envelope_from, o.recipients, o.attempts, m.raw \
         FROM outbox o JOIN messages m ON m.id = o.message \
         WHERE o.status = 'queued' AND o.next_attempt_at <= ? ORDER BY o.id",
    )
    .bind(now)
    .fetch_all(conn)
    .await?)
}

/// Takes a due item for one send attempt: true when this caller got it. Its next attempt is
/// pushed to `lease_until` meanwhile, so another sender (the daemon, `ccmail move`) that read
/// the same item from [`due`] finds it taken, and a sender that dies holding it lets it come
/// due again later. The last error is cleared: an item in flight has none.
pub async fn claim(
    conn: &mut SqliteConnection,
    id: i64,
    now: &str,
    lease_until: &str,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE outbox SET next_attempt_at = ?, last_error = NULL, in_flight = 1 \
         WHERE id = ? AND status = 'queued' AND next_attempt_at <= ?",
    )
    .bind(lease_until)
    .bind(id)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Makes every item that waits for a retry after a failure (queued, with an error) due at
/// `now`: the server answers again. Items in flight (claimed, no error) are left alone.
/// Returns how many were made due.
pub async fn retry_now(conn: &mut SqliteConnection, now: &str) -> Result<u64> {
    let done = sqlx::query(
        "UPDATE outbox SET next_attempt_at = ? \
         WHERE status = 'queued' AND last_error IS NOT NULL AND next_attempt_at > ?",
    )
    .bind(now)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

/// Makes every item still in flight due at `now` again: for a sender that holds the send lock
/// (no other sender is alive), such an item was left by one that died mid-send. Returns their
/// ids. The item keeps its bytes, so if the server had taken it, the copy sent again carries
/// the same Message-ID.
pub async fn release_orphans(conn: &mut SqliteConnection, now: &str) -> Result<Vec<i64>> {
    Ok(sqlx::query_scalar(
        "UPDATE outbox SET next_attempt_at = ?, in_flight = 0 \
         WHERE status = 'queued' AND in_flight = 1 RETURNING id",
    )
    .bind(now)
    .fetch_all(conn)
    .await?)
}

pub async fn mark_sent(conn: &mut SqliteConnection, id: i64, at: &str) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET status = 'sent', sent_at = ?, attempts = attempts + 1, last_error = NULL, \
         in_flight = 0 WHERE id = ?",
    )
    .bind(at)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    sqlx::query(
        "UPDATE messages SET status = 'sent' WHERE id = (SELECT message FROM outbox WHERE id = ?)",
    )
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A transient failure: try again at `next`.
pub async fn mark_retry(
    conn: &mut SqliteConnection,
    id: i64,
    next: &str,
    error: &str,
) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ?, in_flight = 0 \
         WHERE id = ?",
    )
    .bind(next)
    .bind(error)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// A permanent failure: kept, shown in `games`, not retried.
pub async fn mark_failed(conn: &mut SqliteConnection, id: i64, error: &str) -> Result<()> {
    sqlx::query(
        "UPDATE outbox SET status = 'failed', attempts = attempts + 1, last_error = ?, in_flight = 0 \
         WHERE id = ?",
    )
    .bind(error)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// Items not sent yet or failed, with their game.
pub async fn unsent(conn: &mut SqliteConnection) -> Result<Vec<OutboxRow>> {
    Ok(sqlx::query_as(
        "SELECT o.id, o.message, m.game_id, m.subject, o.status, o.attempts, o.last_error, o.sent_at, \
         o.next_attempt_at FROM outbox o JOIN messages m ON m.id = o.message WHERE o.status != 'sent' ORDER BY o.id",
    )
    .fetch_all(conn)
    .await?)
}

/// The outbox's letters in the order they were queued: those not sent (queued, retrying,
/// failed), and with `all` the sent ones too.
pub async fn letters(conn: &mut SqliteConnection, all: bool) -> Result<Vec<OutboxLetter>> {
    Ok(sqlx::query_as(
        "SELECT o.id, o.message, m.game_id, m.kind, o.recipients, m.subject, o.status, \
         o.attempts, o.last_error, m.created_at AS queued_at, o.sent_at, o.next_attempt_at, m.raw \
         FROM outbox o JOIN messages m ON m.id = o.message \
         WHERE ? OR o.status != 'sent' ORDER BY o.id",
    )
    .bind(all)
    .fetch_all(conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_letter_is_retrying_once_a_try_failed_and_sent_only_when_sent() {
        use OutboxStatus::*;
        let cases = [
            (Queued, 0, None, LetterState::Queued),
            // In a sender's hands again after a failure: its error is cleared meanwhile.
            (Queued, 1, None, LetterState::Retrying),
            (Queued, 3, Some("refused"), LetterState::Retrying),
            (Failed, 1, Some("550 no such user"), LetterState::Failed),
            (Sent, 1, None, LetterState::Sent),
            (Sent, 4, None, LetterState::Sent),
        ];
        for (status, attempts, error, want) in cases {
            assert_eq!(
                LetterState::of(status, attempts, error),
                want,
                "{status:?} {attempts} {error:?}"
            );
        }
    }
}
