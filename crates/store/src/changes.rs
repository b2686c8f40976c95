//! What a game was created or imported with, changed afterwards (`ccmail game set`), and the
//! record of each change (migrations/0012); a game put away (`game archive`) or removed with
//! its mail (`game delete`).
//!
//! The settings are written whole from the row the command changed, and each change is a row
//! of `game_changes` in the same transaction: a game never has a setting its record does not
//! explain.

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use crate::{GameRow, Result};

/// One recorded change of a game's setting.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GameChange {
    pub game_id: String,
    /// When (RFC 3339).
    pub at: String,
    /// The setting: `opponent`, `arbiter`, `lang`, `notation`, `control`, `rules`, `event`,
    /// `start`, `last-sent`, `attach-pgn`.
    pub field: String,
    /// Its value before and after, as shown ('' for none).
    pub old: String,
    pub new: String,
    /// For a change that moves a clock: both clocks before and after, in words; '' otherwise.
    pub clock: String,
}

/// Writes the settings `game set` may change from `g`: addresses, language, notation,
/// control, rules, event, start, `attach_pgn` and the ply whose send date is unknown. False when there is no
/// such game.
pub async fn update_settings(conn: &mut SqliteConnection, g: &GameRow) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE games SET opponent_email = ?, arbiter_email = ?, language = ?, notation = ?, \
         control_moves = ?, control_days = ?, rules = ?, event = ?, start_date = ?, \
         attach_pgn = ?, unknown_sent_ply = ? WHERE id = ?",
    )
    .bind(&g.opponent_email)
    .bind(&g.arbiter_email)
    .bind(&g.language)
    .bind(&g.notation)
    .bind(g.control_moves)
    .bind(g.control_days)
    .bind(&g.rules)
    .bind(&g.event)
    .bind(g.start_date)
    .bind(g.attach_pgn)
    .bind(g.unknown_sent_ply)
    .bind(&g.id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The send date of ply `ply` of `game` (our last move, whose date was not known).
pub async fn set_move_sent(
    conn: &mut SqliteConnection,
    game: &str,
    ply: i64,
    sent: NaiveDate,
) -> Result<()> {
    sqlx::query(
        "UPDATE moves SET sent = ?, received = MIN(received, ?) WHERE game_id = ? AND ply = ?",
    )
    .bind(sent)
    .bind(sent)
    .bind(game)
    .bind(ply)
    .execute(conn)
    .await?;
    Ok(())
}

/// A new start date for a game whose first move was taken as received on the old one
/// (51.2.3): that receipt date moves with it (never past the move's own send date).
pub async fn move_start(
    conn: &mut SqliteConnection,
    game: &str,
    old: NaiveDate,
    new: NaiveDate,
) -> Result<()> {
    sqlx::query(
        "UPDATE moves SET received = MIN(?, sent) WHERE game_id = ? AND ply = 1 AND received = ?",
    )
    .bind(new)
    .bind(game)
    .bind(old)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn insert_change(conn: &mut SqliteConnection, c: &GameChange) -> Result<()> {
    sqlx::query(
        "INSERT INTO game_changes (game_id, at, field, old, new, clock) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(&c.game_id)
    .bind(&c.at)
    .bind(&c.field)
    .bind(&c.old)
    .bind(&c.new)
    .bind(&c.clock)
    .execute(conn)
    .await?;
    Ok(())
}

/// The changes of `game`, oldest first.
pub async fn game_changes(conn: &mut SqliteConnection, game: &str) -> Result<Vec<GameChange>> {
    Ok(sqlx::query_as(
        "SELECT game_id, at, field, old, new, clock FROM game_changes WHERE game_id = ? \
         ORDER BY id",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

/// Archives `game` (or brings it back); false when there is no such game.
pub async fn set_archived(conn: &mut SqliteConnection, game: &str, archived: bool) -> Result<bool> {
    let done = sqlx::query("UPDATE games SET archived = ? WHERE id = ?")
        .bind(archived)
        .bind(game)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Removes `game` with everything kept of it: its moves, variations, penalties, breaks, plan,
/// changes, trusted senders, hook runs, its messages (raw mail included) and their letters
/// in the outbox, queued or sent. False when there is no such game.
pub async fn delete_game(conn: &mut SqliteConnection, game: &str) -> Result<bool> {
    for sql in [
        "DELETE FROM outbox WHERE message IN (SELECT id FROM messages WHERE game_id = ?1)",
        "DELETE FROM moves WHERE game_id = ?1",
        "DELETE FROM penalties WHERE game_id = ?1",
        "DELETE FROM extra_periods WHERE game_id = ?1",
        "DELETE FROM variations WHERE game_id = ?1",
        "DELETE FROM breaks WHERE game_id = ?1",
        "DELETE FROM trusted_senders WHERE game_id = ?1",
        "DELETE FROM hook_runs WHERE game_id = ?1",
        "DELETE FROM game_changes WHERE game_id = ?1",
        "DELETE FROM messages WHERE game_id = ?1",
    ] {
        sqlx::query(sql).bind(game).execute(&mut *conn).await?;
    }
    let done = sqlx::query("DELETE FROM games WHERE id = ?")
        .bind(game)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}
