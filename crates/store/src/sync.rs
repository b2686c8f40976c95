//! Per-mailbox sync state: UIDVALIDITY and the last UID read.

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use crate::Result;

#[derive(Debug, Clone, Copy, PartialEq, Eq, sqlx::FromRow)]
pub struct SyncState {
    pub uid_validity: i64,
    pub last_uid: i64,
}

pub async fn sync_state(conn: &mut SqliteConnection, mailbox: &str) -> Result<Option<SyncState>> {
    Ok(
        sqlx::query_as("SELECT uid_validity, last_uid FROM sync_state WHERE mailbox = ?")
            .bind(mailbox)
            .fetch_optional(conn)
            .await?,
    )
}

pub async fn set_sync_state(
    conn: &mut SqliteConnection,
    mailbox: &str,
    state: SyncState,
    now: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO sync_state (mailbox, uid_validity, last_uid, updated_at) VALUES (?, ?, ?, ?) \
         ON CONFLICT (mailbox) DO UPDATE SET uid_validity = excluded.uid_validity, \
         last_uid = excluded.last_uid, updated_at = excluded.updated_at",
    )
    .bind(mailbox)
    .bind(state.uid_validity)
    .bind(state.last_uid)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(())
}

/// Records that `hook` was told about `what` in `game` on `day`; `false` when it was already
/// (the daemon's `on_deadline` runs once a day per deadline).
pub async fn hook_told_once(
    conn: &mut SqliteConnection,
    hook: &str,
    game: &str,
    what: &str,
    day: NaiveDate,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT OR IGNORE INTO hook_runs (hook, game_id, what, day) VALUES (?, ?, ?, ?)",
    )
    .bind(hook)
    .bind(game)
    .bind(what)
    .bind(day)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}
