//! The daemon's failed tries at reading a message (migrations/0013), and the pass under way.
//!
//! A message whose reading crashed the daemon (a panic, a memory limit) or failed with an error
//! would be read again at every start, and the UID after it never reached. So a pass records
//! that it is under way; one left behind says that it died, and the next pass reads one
//! message at a time, recording which it reads. A message with two failed tries is held
//! unread, and the pass moves on.

use sqlx::SqliteConnection;

use crate::Result;

/// A pass that was left under way: it died.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassLeft {
    /// The message it was reading, when it read one at a time.
    pub reading_uid: Option<i64>,
    /// The machine's count of processes killed for want of memory when it began.
    pub oom_kills: Option<i64>,
}

/// Records that a pass of `mailbox` starts, reading after `after_uid`, with the machine's
/// count of processes killed for want of memory; returns the last pass of it if it died
/// there: left under way, after the same UID, under the same UIDVALIDITY.
pub async fn begin_read_pass(
    conn: &mut SqliteConnection,
    mailbox: &str,
    (uid_validity, after_uid): (i64, i64),
    oom_kills: Option<i64>,
    now: &str,
) -> Result<Option<PassLeft>> {
    type Row = (i64, i64, Option<i64>, Option<i64>);
    let left: Option<Row> = sqlx::query_as(
        "SELECT uid_validity, after_uid, reading_uid, oom_kills FROM read_passes \
         WHERE mailbox = ?",
    )
    .bind(mailbox)
    .fetch_optional(&mut *conn)
    .await?;
    sqlx::query(
        "INSERT INTO read_passes (mailbox, uid_validity, after_uid, reading_uid, oom_kills, \
         started_at) VALUES (?, ?, ?, NULL, ?, ?) ON CONFLICT (mailbox) DO UPDATE SET \
         uid_validity = excluded.uid_validity, after_uid = excluded.after_uid, \
         reading_uid = NULL, oom_kills = excluded.oom_kills, started_at = excluded.started_at",
    )
    .bind(mailbox)
    .bind(uid_validity)
    .bind(after_uid)
    .bind(oom_kills)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(left
        .filter(|&(v, a, _, _)| (v, a) == (uid_validity, after_uid))
        .map(|(_, _, reading_uid, oom_kills)| PassLeft {
            reading_uid,
            oom_kills,
        }))
}

/// Records that the pass of `mailbox` reads the message `uid` now (one at a time).
pub async fn set_reading_uid(conn: &mut SqliteConnection, mailbox: &str, uid: i64) -> Result<()> {
    sqlx::query("UPDATE read_passes SET reading_uid = ? WHERE mailbox = ?")
        .bind(uid)
        .bind(mailbox)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records that the pass of `mailbox` ended (it finished, or failed with an error it told).
pub async fn end_read_pass(conn: &mut SqliteConnection, mailbox: &str) -> Result<()> {
    sqlx::query("DELETE FROM read_passes WHERE mailbox = ?")
        .bind(mailbox)
        .execute(conn)
        .await?;
    Ok(())
}

/// The failed tries recorded for the message `uid` (0 for none).
pub async fn read_tries(
    conn: &mut SqliteConnection,
    mailbox: &str,
    uid_validity: i64,
    uid: i64,
) -> Result<(i64, Option<String>)> {
    let row: Option<(i64, Option<String>)> = sqlx::query_as(
        "SELECT tries, last_error FROM read_tries WHERE mailbox = ? AND uid_validity = ? AND uid = ?",
    )
    .bind(mailbox)
    .bind(uid_validity)
    .bind(uid)
    .fetch_optional(conn)
    .await?;
    Ok(row.unwrap_or((0, None)))
}

/// Whether any failed try is recorded for a message after `after_uid`.
pub async fn has_read_tries_after(
    conn: &mut SqliteConnection,
    mailbox: &str,
    uid_validity: i64,
    after_uid: i64,
) -> Result<bool> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM read_tries WHERE mailbox = ? AND uid_validity = ? AND uid > ?",
    )
    .bind(mailbox)
    .bind(uid_validity)
    .bind(after_uid)
    .fetch_one(conn)
    .await?;
    Ok(n > 0)
}

/// Counts one more try at the message `uid`, with the error it failed with (`None`: recorded
/// before the try, which counts as failed unless [`clear_read_try`] follows).
pub async fn add_read_try(
    conn: &mut SqliteConnection,
    mailbox: &str,
    uid_validity: i64,
    uid: i64,
    error: Option<&str>,
    now: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO read_tries (mailbox, uid_validity, uid, tries, last_error, updated_at) \
         VALUES (?, ?, ?, 1, ?, ?) ON CONFLICT (mailbox, uid_validity, uid) DO UPDATE SET \
         tries = tries + 1, last_error = COALESCE(excluded.last_error, last_error), \
         updated_at = excluded.updated_at",
    )
    .bind(mailbox)
    .bind(uid_validity)
    .bind(uid)
    .bind(error)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Forgets the tries at the message `uid`: it was read, or held.
pub async fn clear_read_try(
    conn: &mut SqliteConnection,
    mailbox: &str,
    uid_validity: i64,
    uid: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM read_tries WHERE mailbox = ? AND uid_validity = ? AND uid = ?")
        .bind(mailbox)
        .bind(uid_validity)
        .bind(uid)
        .execute(conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Store;

    #[tokio::test]
    async fn a_pass_left_under_way_and_the_tries_of_a_message() {
        let store = Store::memory().await.unwrap();
        let c = &mut *store.conn().await.unwrap();
        let now = "2026-03-01T12:00:00+03:00";
        assert_eq!(
            begin_read_pass(c, "box", (7, 10), Some(3), now)
                .await
                .unwrap(),
            None
        );
        set_reading_uid(c, "box", 11).await.unwrap();
        // Left under way after UID 10: the next pass after 10 knows it died there, reading 11.
        let left = PassLeft {
            reading_uid: Some(11),
            oom_kills: Some(3),
        };
        let again = begin_read_pass(c, "box", (7, 10), Some(4), now)
            .await
            .unwrap();
        assert_eq!(again, Some(left));
        let left = PassLeft {
            reading_uid: None,
            oom_kills: Some(4),
        };
        let again = begin_read_pass(c, "box", (7, 10), None, now).await.unwrap();
        assert_eq!(again, Some(left));
        // After another UID, or another UIDVALIDITY, it made progress or starts afresh.
        assert_eq!(
            begin_read_pass(c, "box", (7, 12), None, now).await.unwrap(),
            None
        );
        assert_eq!(
            begin_read_pass(c, "box", (8, 12), None, now).await.unwrap(),
            None
        );
        end_read_pass(c, "box").await.unwrap();
        assert_eq!(
            begin_read_pass(c, "box", (8, 12), None, now).await.unwrap(),
            None
        );

        assert_eq!(read_tries(c, "box", 7, 11).await.unwrap(), (0, None));
        add_read_try(c, "box", 7, 11, None, now).await.unwrap();
        add_read_try(c, "box", 7, 11, Some("disk I/O error"), now)
            .await
            .unwrap();
        add_read_try(c, "box", 7, 11, None, now).await.unwrap();
        let three = (3, Some("disk I/O error".to_owned()));
        assert_eq!(read_tries(c, "box", 7, 11).await.unwrap(), three);
        assert!(has_read_tries_after(c, "box", 7, 10).await.unwrap());
        assert!(!has_read_tries_after(c, "box", 7, 11).await.unwrap());
        assert!(!has_read_tries_after(c, "box", 8, 10).await.unwrap());
        clear_read_try(c, "box", 7, 11).await.unwrap();
        assert_eq!(read_tries(c, "box", 7, 11).await.unwrap(), (0, None));
        assert!(!has_read_tries_after(c, "box", 7, 10).await.unwrap());
    }
}
