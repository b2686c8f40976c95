//! Penalties (51.4.7) and thinking periods that are not moves (51.4.8).
//!
//! A penalty's cause, and the fault a correction request answers, are the core's
//! [`PenaltyCause`], stored by its name and read back through [`cause_at`] (a name this
//! version does not know stays an error for the caller to meet).

use ccmail_core::clock::{PenaltyCause, UnknownCause};
use chrono::NaiveDate;
use sqlx::sqlite::SqliteRow;
use sqlx::{FromRow, Row, SqliteConnection};

use crate::{ExtraPeriodKind, Result};

/// The cause named in column `index` of `row`, or `None` for NULL. A name this version does
/// not know (left by a newer one, or a damaged file) is kept as an `Err`: the row still reads,
/// and only what needs the cause (the game's clock) fails, for that game alone.
pub(crate) fn cause_at(row: &SqliteRow, index: usize) -> sqlx::Result<Option<Cause>> {
    let name: Option<&str> = row.try_get(index)?;
    Ok(name.map(|n| n.parse()))
}

/// `cause_at` for a column that is never NULL.
pub(crate) fn required_cause_at(row: &SqliteRow, index: usize) -> sqlx::Result<Cause> {
    cause_at(row, index)?.ok_or_else(|| sqlx::Error::ColumnDecode {
        index: index.to_string(),
        source: "a penalty without a cause".into(),
    })
}

/// A stored cause: the core's [`PenaltyCause`], or the name this version does not know.
pub type Cause = std::result::Result<PenaltyCause, UnknownCause>;

/// The stored name of a cause.
fn cause_name(c: &Cause) -> &str {
    match c {
        Ok(c) => c.as_str(),
        Err(UnknownCause(name)) => name,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PenaltyRow {
    pub id: i64,
    pub game_id: String,
    pub player: String,
    pub days: i64,
    pub cause: Cause,
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
    .bind(cause_name(&p.cause))
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
    pub kind: ExtraPeriodKind,
    pub fault: Option<Cause>,
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
    .bind(e.kind)
    .bind(e.fault.as_ref().map(cause_name))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A cause this version does not know reads as an `Err` with its name, by the penalty
    /// queries and by `attached` alike, and is written back unchanged.
    #[tokio::test]
    async fn an_unknown_cause_is_kept_and_read_as_an_error() {
        let store = crate::Store::memory().await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let unknown = Err(UnknownCause("no_such_cause".into()));
        let p = PenaltyRow {
            id: 0,
            game_id: "g1".into(),
            player: "black".into(),
            days: 2,
            cause: unknown.clone(),
            ply: 2,
            message: None,
            created_at: "x".into(),
        };
        sqlx::query("PRAGMA foreign_keys = OFF")
            .execute(&mut *conn)
            .await
            .unwrap();
        insert_penalty(&mut conn, &p).await.unwrap();
        assert_eq!(penalties(&mut conn, "g1").await.unwrap()[0].cause, unknown);
        assert_eq!(all_penalties(&mut conn).await.unwrap()[0].cause, unknown);
        let a = crate::attached(&mut conn, "g1").await.unwrap();
        assert_eq!(a.penalties[0].cause, unknown);
    }
}
