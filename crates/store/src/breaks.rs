//! Breaks (51.7, 10.4): ours apply to every game (`game_id` NULL), a partner's to one game.

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use crate::Result;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct BreakRow {
    pub id: i64,
    pub game_id: Option<String>,
    pub from_date: NaiveDate,
    pub to_date: NaiveDate,
    pub notice_date: Option<NaiveDate>,
    pub ended_on: Option<NaiveDate>,
    pub created_at: String,
}

pub async fn insert_break(conn: &mut SqliteConnection, b: &BreakRow) -> Result<i64> {
    Ok(sqlx::query(
        "INSERT INTO breaks (game_id, from_date, to_date, notice_date, ended_on, created_at) \
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(&b.game_id)
    .bind(b.from_date)
    .bind(b.to_date)
    .bind(b.notice_date)
    .bind(b.ended_on)
    .bind(&b.created_at)
    .execute(conn)
    .await?
    .last_insert_rowid())
}

/// Our own breaks, oldest first.
pub async fn my_breaks(conn: &mut SqliteConnection) -> Result<Vec<BreakRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, from_date, to_date, notice_date, ended_on, created_at FROM breaks \
         WHERE game_id IS NULL ORDER BY from_date",
    )
    .fetch_all(conn)
    .await?)
}

/// The partner's breaks in one game.
pub async fn game_breaks(conn: &mut SqliteConnection, game: &str) -> Result<Vec<BreakRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, from_date, to_date, notice_date, ended_on, created_at FROM breaks \
         WHERE game_id = ? ORDER BY from_date",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

pub async fn end_break(conn: &mut SqliteConnection, id: i64, on: NaiveDate) -> Result<()> {
    sqlx::query("UPDATE breaks SET ended_on = ? WHERE id = ?")
        .bind(on)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Every partner break of every game, by game.
pub async fn all_game_breaks(conn: &mut SqliteConnection) -> Result<Vec<BreakRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, from_date, to_date, notice_date, ended_on, created_at FROM breaks \
         WHERE game_id IS NOT NULL ORDER BY game_id, from_date",
    )
    .fetch_all(conn)
    .await?)
}
