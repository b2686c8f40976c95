//! Every message in and out, raw, with its dates and what was done with it (51.1.3).
//!
//! Deduplicated by Message-ID (per direction), and by the SHA-256 of the raw bytes when there
//! is none: the same mail fetched twice, applied twice or re-imported is stored once.

use sqlx::SqliteConnection;

use crate::{Result, content_hash};

/// A message to store. `raw` is kept byte for byte.
#[derive(Debug, Clone, Default)]
pub struct NewMessage<'a> {
    pub direction: &'a str,
    pub message_id: Option<&'a str>,
    pub raw: &'a [u8],
    pub game_id: Option<&'a str>,
    pub kind: &'a str,
    pub from_addr: Option<&'a str>,
    pub to_addrs: Option<&'a str>,
    pub subject: Option<&'a str>,
    pub date_header: Option<String>,
    pub received_at: Option<String>,
    pub status: &'a str,
    pub reason: Option<&'a str>,
    pub mailbox: Option<&'a str>,
    pub uid_validity: Option<i64>,
    pub uid: Option<i64>,
    pub created_at: &'a str,
}

/// A stored message, without its raw bytes (see [`raw`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct MessageRow {
    pub id: i64,
    pub direction: String,
    pub message_id: Option<String>,
    pub game_id: Option<String>,
    pub kind: String,
    pub from_addr: Option<String>,
    pub to_addrs: Option<String>,
    pub subject: Option<String>,
    pub date_header: Option<String>,
    pub received_at: Option<String>,
    pub status: String,
    pub reason: Option<String>,
    pub created_at: String,
}

const COLUMNS: &str = "id, direction, message_id, game_id, kind, from_addr, to_addrs, subject, \
    date_header, received_at, status, reason, created_at";

/// What [`insert_message`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inserted {
    New(i64),
    /// Already stored (same Message-ID or same bytes): its id. Nothing was written.
    Duplicate(i64),
}

impl Inserted {
    pub fn id(self) -> i64 {
        match self {
            Inserted::New(id) | Inserted::Duplicate(id) => id,
        }
    }
}

/// The stored message with this Message-ID, if any.
pub async fn find_by_message_id(
    conn: &mut SqliteConnection,
    direction: &str,
    message_id: &str,
) -> Result<Option<i64>> {
    Ok(
        sqlx::query_scalar("SELECT id FROM messages WHERE direction = ? AND message_id = ?")
            .bind(direction)
            .bind(message_id)
            .fetch_optional(conn)
            .await?,
    )
}

/// The stored message with this Message-ID or these exact bytes, if any, the one with the
/// Message-ID first.
pub async fn find_message(
    conn: &mut SqliteConnection,
    direction: &str,
    message_id: Option<&str>,
    raw: &[u8],
) -> Result<Option<i64>> {
    find(conn, Some(direction), message_id, raw).await
}

/// [`find_message`] in both directions, an incoming message first: what [`insert_incoming`]
/// finds a duplicate by.
pub async fn find_in_or_out(
    conn: &mut SqliteConnection,
    message_id: Option<&str>,
    raw: &[u8],
) -> Result<Option<i64>> {
    find(conn, None, message_id, raw).await
}

/// One query, on the unique indexes of (direction, Message-ID) and (direction, hash).
async fn find(
    conn: &mut SqliteConnection,
    direction: Option<&str>,
    message_id: Option<&str>,
    raw: &[u8],
) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT id FROM messages \
         WHERE direction IN (coalesce(?3, 'in'), coalesce(?3, 'out')) \
         AND (message_id = ?1 OR content_hash = ?2) \
         ORDER BY direction = 'out', message_id IS NOT ?1 LIMIT 1",
    )
    .bind(message_id)
    .bind(content_hash(raw))
    .bind(direction)
    .fetch_optional(conn)
    .await?)
}

/// Stores a message unless it is already there (the same direction, and the same Message-ID
/// or the same bytes: [`find_message`]).
pub async fn insert_message(conn: &mut SqliteConnection, m: &NewMessage<'_>) -> Result<Inserted> {
    insert_unless_found(conn, Some(m.direction), m).await
}

/// Stores an incoming message unless it is there in either direction ([`find_in_or_out`]),
/// in one statement when it is new: `apply`'s look for a duplicate and its insert.
pub async fn insert_incoming(conn: &mut SqliteConnection, m: &NewMessage<'_>) -> Result<Inserted> {
    insert_unless_found(conn, None, m).await
}

/// The insert, unless [`find`] (with `direction`) would find the message; then what it finds.
async fn insert_unless_found(
    conn: &mut SqliteConnection,
    direction: Option<&str>,
    m: &NewMessage<'_>,
) -> Result<Inserted> {
    let new: Option<i64> = sqlx::query_scalar(
        "INSERT INTO messages (direction, message_id, content_hash, raw, game_id, kind, \
         from_addr, to_addrs, subject, date_header, received_at, status, reason, mailbox, \
         uid_validity, uid, created_at) \
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17 \
         WHERE NOT EXISTS (SELECT 1 FROM messages \
           WHERE direction IN (coalesce(?18, 'in'), coalesce(?18, 'out')) \
           AND (message_id = ?2 OR content_hash = ?3)) \
         RETURNING id",
    )
    .bind(m.direction)
    .bind(m.message_id)
    .bind(content_hash(m.raw))
    .bind(m.raw)
    .bind(m.game_id)
    .bind(m.kind)
    .bind(m.from_addr)
    .bind(m.to_addrs)
    .bind(m.subject)
    .bind(&m.date_header)
    .bind(&m.received_at)
    .bind(m.status)
    .bind(m.reason)
    .bind(m.mailbox)
    .bind(m.uid_validity)
    .bind(m.uid)
    .bind(m.created_at)
    .bind(direction)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = new {
        return Ok(Inserted::New(id));
    }
    let found = find(conn, direction, m.message_id, m.raw).await?;
    // Not found in the same transaction as it was just found missing: only a message
    // deleted in between by a statement outside one.
    Ok(Inserted::Duplicate(found.ok_or(sqlx::Error::RowNotFound)?))
}

pub async fn message(conn: &mut SqliteConnection, id: i64) -> Result<Option<MessageRow>> {
    let sql = format!("SELECT {COLUMNS} FROM messages WHERE id = ?");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// The raw bytes of a stored message.
pub async fn raw(conn: &mut SqliteConnection, id: i64) -> Result<Option<Vec<u8>>> {
    Ok(sqlx::query_scalar("SELECT raw FROM messages WHERE id = ?")
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// A game's messages in and out, oldest first.
pub async fn game_messages(conn: &mut SqliteConnection, game: &str) -> Result<Vec<MessageRow>> {
    let sql = format!("SELECT {COLUMNS} FROM messages WHERE game_id = ? ORDER BY id");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(game)
        .fetch_all(conn)
        .await?)
}

/// The finished games that have no PGN sent to the arbiter yet (51.9.1): (created_at, id).
/// A friendly game (no arbiter, an empty address) has none to send.
pub async fn finished_without_pgn(conn: &mut SqliteConnection) -> Result<Vec<(String, String)>> {
    Ok(sqlx::query_as(
        "SELECT created_at, id FROM games WHERE status = 'finished' AND pgn_due \
         AND arbiter_email <> '' AND NOT EXISTS \
         (SELECT 1 FROM messages m WHERE m.game_id = games.id AND m.direction = 'out' \
          AND m.kind = 'pgn' AND m.date_header IS NOT NULL)",
    )
    .fetch_all(conn)
    .await?)
}

/// Messages that were held (unknown sender, no matching game, unreadable), oldest first.
pub async fn held(conn: &mut SqliteConnection) -> Result<Vec<MessageRow>> {
    let sql = format!("SELECT {COLUMNS} FROM messages WHERE status = 'held' ORDER BY id");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .fetch_all(conn)
        .await?)
}

/// Records what was done with a message.
pub async fn set_message_status(
    conn: &mut SqliteConnection,
    id: i64,
    status: &str,
    reason: Option<&str>,
    game: Option<&str>,
) -> Result<()> {
    sqlx::query(
        "UPDATE messages SET status = ?, reason = ?, game_id = COALESCE(?, game_id) WHERE id = ?",
    )
    .bind(status)
    .bind(reason)
    .bind(game)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(())
}

/// The Message-IDs of a game's thread, oldest first: what its next message names in
/// In-Reply-To and References. That is every message we sent or queued, and every one
/// received that was applied or taken as information. Never one held (from another address
/// or with a forged sender, 51.1.2; for a finished game; a wrong repetition): it is no part
/// of the game's correspondence unless the player accepts it. Nor one dismissed.
pub async fn thread_ids(conn: &mut SqliteConnection, game: &str) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar(
        "SELECT message_id FROM messages WHERE game_id = ? AND message_id IS NOT NULL \
         AND (direction = 'out' OR status IN ('applied', 'info')) ORDER BY id",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

/// The game a Message-ID belongs to (for In-Reply-To and References matching).
pub async fn game_of_message_id(
    conn: &mut SqliteConnection,
    message_id: &str,
) -> Result<Option<String>> {
    Ok(sqlx::query_scalar(
        // Both directions named, so that the lookup is one probe of `messages_by_id` per
        // direction rather than a pass over every message.
        "SELECT game_id FROM messages WHERE direction IN ('in', 'out') AND message_id = ? \
         AND game_id IS NOT NULL LIMIT 1",
    )
    .bind(message_id)
    .fetch_optional(conn)
    .await?
    .flatten())
}
