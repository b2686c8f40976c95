//! Copies of sent mail in the player's own Sent folder (`[imap] sent_mailbox`).
//!
//! A sent message whose copy has been APPENDed records the folder in its `mailbox` column
//! (for mail in, the same column says where it was read). A sent message without one is
//! still to be copied, whoever sent it (the daemon, or `ccmail move` on its own).

use sqlx::SqliteConnection;

use crate::Result;

/// A sent message still to be copied, with its raw bytes.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct SentCopy {
    pub message: i64,
    pub raw: Vec<u8>,
}

/// Our sent messages that have no copy in a folder yet, oldest first.
pub async fn uncopied(conn: &mut SqliteConnection) -> Result<Vec<SentCopy>> {
    Ok(sqlx::query_as(
        "SELECT id AS message, raw FROM messages \
         WHERE direction = 'out' AND status = 'sent' AND mailbox IS NULL ORDER BY id",
    )
    .fetch_all(conn)
    .await?)
}

/// Records that a copy of `message` is in `mailbox`.
pub async fn set_copied(conn: &mut SqliteConnection, message: i64, mailbox: &str) -> Result<()> {
    sqlx::query("UPDATE messages SET mailbox = ? WHERE id = ? AND direction = 'out'")
        .bind(mailbox)
        .bind(message)
        .execute(conn)
        .await?;
    Ok(())
}
