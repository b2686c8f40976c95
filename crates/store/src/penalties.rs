//! Penalties (51.4.7) and thinking periods that are not moves (51.4.8).
//!
//! A penalty's cause, and the fault a correction request answers, are the core's
//! [`PenaltyCause`], stored by its name and read back through [`cause_at`].

use ccmail_core::clock::PenaltyCause;
use chrono::NaiveDate;
use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Row, SqliteConnection};

use crate::Result;

/// The cause named in column `index` of `row`, or `None` for NULL; a name that is no cause's is
/// a decoding error of that column.
pub(crate) fn cause_at(row: &SqliteRow, index: usize) -> sqlx::Result<Option<PenaltyCause>> {
    let Some(name) = row.try_get::<Option<&str>, _>(index)? else {
        return Ok(None);
    };
    name.parse()
        .map(Some)
        .map_err(|e| sqlx::Error::ColumnDecode {
            index: index.to_string(),
            source: Box::new(e),
        })
}

/// `cause_at` for a column that is never NULL.
pub(crate) fn required_cause_at(row: &SqliteRow, index: usize) -> sqlx::Result<PenaltyCause> {
    cause_at(row, index)?.ok_or_else(|| sqlx::Error::ColumnDecode {
        index: index.to_string(),
        source: "a penalty without a cause".into(),
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PenaltyRow {
    pub id: i64,
    pub game_id: String,
    pub player: String,
    pub days: i64,
    pub cause: PenaltyCause,
    pub ply: i64,
    pub message: Option<i64>,
    pub created_at: String,
}

/// Columns as [`penalties`] selects them.
impl FromRow<'_, SqliteRow> for PenaltyRow {
    fn from_row(r: &SqliteRow) -> sqlx::Result<Self> {
        Ok(PenaltyRow {
            id: r.try_get(0)?,
            game_id: r.try_get(1)?,
            player: r.try_get(2)?,
            days: r.try_get(3)?,
            cause: required_cause_at(r, 4)?,
            ply: r.try_get(5)?,
            message: r.try_get(6)?,
            created_at: r.try_get(7)?,
        })
    }
}

pub async fn insert_penalty(conn: &mut SqliteConnection, p: &PenaltyRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO penalties (game_id, player, days, cause, ply, message, created_at) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&p.game_id)
    .bind(&p.player)
    .bind(p.days)
    .bind(p.cause.as_str())
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

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraRow {
    pub id: i64,
    pub game_id: String,
    pub player: String,
    pub from_date: NaiveDate,
    pub to_date: NaiveDate,
    pub kind: String,
    pub fault: Option<PenaltyCause>,
    pub ply: i64,
}

/// Columns as [`extras`] selects them.
impl FromRow<'_, SqliteRow> for ExtraRow {
    fn from_row(r: &SqliteRow) -> sqlx::Result<Self> {
        Ok(ExtraRow {
            id: r.try_get(0)?,
            game_id: r.try_get(1)?,
            player: r.try_get(2)?,
            from_date: r.try_get(3)?,
            to_date: r.try_get(4)?,
            kind: r.try_get(5)?,
            fault: cause_at(r, 6)?,
            ply: r.try_get(7)?,
        })
    }
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
    .bind(e.fault.map(PenaltyCause::as_str))
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
