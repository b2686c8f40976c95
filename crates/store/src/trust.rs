//! What the store keeps for verifying senders: the addresses the player trusts without
//! verification, per game, and the key of ccmail's Message-IDs.

use sqlx::SqliteConnection;

use crate::Result;

/// Trusts `address` without verification in `game` from `since` on (idempotent).
pub async fn trust_sender(
    conn: &mut SqliteConnection,
    game: &str,
    address: &str,
    since: &str,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO trusted_senders (game_id, address, since) VALUES (?, ?, ?) \
         ON CONFLICT DO NOTHING",
    )
    .bind(game)
    .bind(address.to_lowercase())
    .bind(since)
    .execute(conn)
    .await?;
    Ok(())
}

/// Whether the player trusts `address` without verification in `game`.
pub async fn is_trusted_sender(
    conn: &mut SqliteConnection,
    game: &str,
    address: &str,
) -> Result<bool> {
    let found: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM trusted_senders WHERE game_id = ? AND address = ?")
            .bind(game)
            .bind(address.to_lowercase())
            .fetch_optional(conn)
            .await?;
    Ok(found.is_some())
}

/// The addresses trusted without verification in `game`.
pub async fn trusted_senders(conn: &mut SqliteConnection, game: &str) -> Result<Vec<String>> {
    Ok(
        sqlx::query_scalar(
            "SELECT address FROM trusted_senders WHERE game_id = ? ORDER BY address",
        )
        .bind(game)
        .fetch_all(conn)
        .await?,
    )
}

/// The secret `name`, made by `fresh` and kept the first time it is asked for.
pub async fn secret(
    conn: &mut SqliteConnection,
    name: &str,
    fresh: impl FnOnce() -> Vec<u8>,
) -> Result<Vec<u8>> {
    let kept: Option<Vec<u8>> = sqlx::query_scalar("SELECT value FROM secrets WHERE name = ?")
        .bind(name)
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(kept) = kept {
        return Ok(kept);
    }
    sqlx::query("INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT DO NOTHING")
        .bind(name)
        .bind(fresh())
        .execute(&mut *conn)
        .await?;
    Ok(
        sqlx::query_scalar("SELECT value FROM secrets WHERE name = ?")
            .bind(name)
            .fetch_one(conn)
            .await?,
    )
}

/// The first of `ids` that is a message we sent (or queued) in `game`.
pub async fn ours_in_game(
    conn: &mut SqliteConnection,
    game: &str,
    ids: &[&str],
) -> Result<Option<String>> {
    if ids.is_empty() {
        return Ok(None);
    }
    let marks = vec!["?"; ids.len()].join(",");
    let sql = format!(
        "SELECT message_id FROM messages WHERE direction = 'out' AND game_id = ? \
         AND message_id IN ({marks}) LIMIT 1"
    );
    // Only `?` marks are put into the text; every value is bound.
    let mut q = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(game);
    for id in ids {
        q = q.bind(*id);
    }
    Ok(q.fetch_optional(conn).await?)
}
