//! Penalties (51.4.7) and thinking periods that are not moves (51.4.8).

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use crate::Result;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PenaltyRow {
    pub id: i64,
    pub game_id: String,
    pub player: String,
    pub days: i64,
    pub cause: String,
    pub ply: i64,
    pub message: Option<i64>,
    pub created_at: String,
}

pub async fn insert_penalty(conn: &mut SqliteConnection, p: &PenaltyRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO penalties (game_id, player, days, cause, ply, message, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&p.game_id)
    .bind(&p.player)
    .bind(p.days)
    .bind(&p.cause)
    .bind(p.ply)
    .bind(p.message)
    .bind(&p.created_at)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn penalties(conn: &mut SqliteConnection, game: &str) -> Result<Vec<PenaltyRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, player, days, cause, ply, message, created_at FROM penalties \
         WHERE game_id = ? ORDER BY id",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ExtraRow {
    pub id: i64,
    pub game_id: String,
    pub player: String,
    pub from_date: NaiveDate,
    pub to_date: NaiveDate,
    pub kind: String,
    pub fault: Option<String>,
    pub ply: i64,
}

pub async fn insert_extra(conn: &mut SqliteConnection, e: &ExtraRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO extra_periods (game_id, player, from_date, to_date, kind, fault, ply) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&e.game_id)
    .bind(&e.player)
    .bind(e.from_date)
    .bind(e.to_date)
    .bind(&e.kind)
    .bind(&e.fault)
    .bind(e.ply)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn extras(conn: &mut SqliteConnection, game: &str) -> Result<Vec<ExtraRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, player, from_date, to_date, kind, fault, ply FROM extra_periods \
         WHERE game_id = ? ORDER BY id",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

/// Every game's penalties, by game (one query for `games`).
pub async fn all_penalties(conn: &mut SqliteConnection) -> Result<Vec<PenaltyRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, player, days, cause, ply, message, created_at FROM penalties \
         ORDER BY game_id, id",
    )
    .fetch_all(conn)
    .await?)
}

/// Every game's extra periods, by game.
pub async fn all_extras(conn: &mut SqliteConnection) -> Result<Vec<ExtraRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, player, from_date, to_date, kind, fault, ply FROM extra_periods \
         ORDER BY game_id, id",
    )
    .fetch_all(conn)
    .await?)
}
