//! Moves with their dates, and conditional variations.

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use crate::Result;

/// A move made: ply 1 is White's first. `received` is when the mover received the previous
/// move (ply 1: the start date), `sent` when this move was sent.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    pub game_id: String,
    pub ply: i64,
    pub uci: String,
    pub san: String,
    pub received: NaiveDate,
    pub sent: NaiveDate,
    pub message: Option<i64>,
}

pub async fn insert_move(conn: &mut SqliteConnection, m: &MoveRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO moves (game_id, ply, uci, san, received, sent, message) \
         VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&m.game_id)
    .bind(m.ply)
    .bind(&m.uci)
    .bind(&m.san)
    .bind(m.received)
    .bind(m.sent)
    .bind(m.message)
    .execute(conn)
    .await?;
    Ok(())
}

/// Corrects the receipt date of a move (51.2.3: the partner states when our move arrived).
pub async fn set_move_received(
    conn: &mut SqliteConnection,
    game: &str,
    ply: i64,
    received: NaiveDate,
) -> Result<()> {
    sqlx::query("UPDATE moves SET received = ? WHERE game_id = ? AND ply = ?")
        .bind(received)
        .bind(game)
        .bind(ply)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn moves(conn: &mut SqliteConnection, game: &str) -> Result<Vec<MoveRow>> {
    Ok(sqlx::query_as(
        "SELECT game_id, ply, uci, san, received, sent, message FROM moves \
         WHERE game_id = ? ORDER BY ply",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

/// The moves of every game that is not finished (with `all`, of every game), by game and
/// ply: one query for `games`.
pub async fn all_moves(conn: &mut SqliteConnection, all: bool) -> Result<Vec<MoveRow>> {
    let sql = if all {
        "SELECT game_id, ply, uci, san, received, sent, message FROM moves ORDER BY game_id, ply"
    } else {
        "SELECT m.game_id, m.ply, m.uci, m.san, m.received, m.sent, m.message FROM moves m \
         JOIN games g ON g.id = m.game_id WHERE g.status != 'finished' ORDER BY m.game_id, m.ply"
    };
    Ok(sqlx::query_as(sql).fetch_all(conn).await?)
}

/// A conditional variation (51.3.7).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct VariationRow {
    pub id: i64,
    pub game_id: String,
    pub proposed_by: String,
    pub proposed_with: i64,
    /// The moves after `proposed_with`, UCI, separated by spaces.
    pub moves: String,
    pub accepted_through: Option<i64>,
}

pub async fn insert_variation(conn: &mut SqliteConnection, v: &VariationRow) -> Result<i64> {
    let id = sqlx::query(
        "INSERT INTO variations (game_id, proposed_by, proposed_with, moves, accepted_through) \
         VALUES (?, ?, ?, ?, ?)",
    )
    .bind(&v.game_id)
    .bind(&v.proposed_by)
    .bind(v.proposed_with)
    .bind(&v.moves)
    .bind(v.accepted_through)
    .execute(conn)
    .await?
    .last_insert_rowid();
    Ok(id)
}

pub async fn variations(conn: &mut SqliteConnection, game: &str) -> Result<Vec<VariationRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, proposed_by, proposed_with, moves, accepted_through \
         FROM variations WHERE game_id = ? ORDER BY proposed_with",
    )
    .bind(game)
    .fetch_all(conn)
    .await?)
}

pub async fn accept_variation(conn: &mut SqliteConnection, id: i64, through: i64) -> Result<()> {
    sqlx::query("UPDATE variations SET accepted_through = ? WHERE id = ?")
        .bind(through)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Every game's variations, by game.
pub async fn all_variations(conn: &mut SqliteConnection) -> Result<Vec<VariationRow>> {
    Ok(sqlx::query_as(
        "SELECT id, game_id, proposed_by, proposed_with, moves, accepted_through \
         FROM variations ORDER BY game_id, proposed_with",
    )
    .fetch_all(conn)
    .await?)
}

/// One game's moves packed in one row: `ply`, `uci`, `san`, `received` and `sent` are
/// space-separated lists (the `message` column is left out). Fetching one row per game instead
/// of one per move is what keeps `games` fast with tens of thousands of moves.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PackedMoves {
    pub game_id: String,
    pub ply: String,
    pub uci: String,
    pub san: String,
    pub received: String,
    pub sent: String,
}

/// `YYYY-MM-DD`, without the generic parser's cost (60,000 of them for `games`).
fn date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return s.parse().ok();
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<u32>().ok();
    NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)
}

impl PackedMoves {
    /// The rows, unpacked and in ply order; `None` if the lists don't line up.
    pub fn unpack(&self) -> Option<Vec<MoveRow>> {
        let fields = [&self.ply, &self.uci, &self.san, &self.received, &self.sent];
        let lists: Vec<Vec<&str>> = fields
            .iter()
            .map(|f| f.split(' ').filter(|s| !s.is_empty()).collect())
            .collect();
        let n = lists[0].len();
        // Dates only: no moves were packed (and none are allocated).
        let dates_only = lists[1].is_empty() && lists[2].is_empty();
        let fits = |i: usize, l: &Vec<&str>| l.len() == n || (dates_only && (i == 1 || i == 2));
        if !lists.iter().enumerate().all(|(i, l)| fits(i, l)) {
            return None;
        }
        let text =
            |list: &Vec<&str>, i: usize| list.get(i).map_or_else(String::new, |s| (*s).to_owned());
        let mut rows = (0..n)
            .map(|i| {
                Some(MoveRow {
                    // Dates only: the game is the caller's (packed.game_id); nothing allocated.
                    game_id: if dates_only {
                        String::new()
                    } else {
                        self.game_id.clone()
                    },
                    ply: lists[0][i].parse().ok()?,
                    uci: text(&lists[1], i),
                    san: text(&lists[2], i),
                    received: date(lists[3][i])?,
                    sent: date(lists[4][i])?,
                    message: None,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        // group_concat follows the scan order (the primary key's); make sure of it.
        if !rows.windows(2).all(|w| w[0].ply < w[1].ply) {
            rows.sort_by_key(|r| r.ply);
        }
        Some(rows)
    }
}

/// Every game's moves (not finished games only, unless `all`), one packed row per game.
/// With `dates_only`, `uci` and `san` come back empty (and unpack to empty strings, as does
/// each row's `game_id`): what the clock needs, at half the cost.
pub async fn all_moves_packed(
    conn: &mut SqliteConnection,
    all: bool,
    dates_only: bool,
) -> Result<Vec<PackedMoves>> {
    let filter = if all {
        ""
    } else {
        "WHERE m.game_id IN (SELECT id FROM games WHERE status != 'finished')"
    };
    let (uci, san) = if dates_only {
        ("''", "''")
    } else {
        ("group_concat(m.uci, ' ')", "group_concat(m.san, ' ')")
    };
    let sql = format!(
        "SELECT m.game_id, group_concat(m.ply, ' ') AS ply, {uci} AS uci, {san} AS san, \
         group_concat(m.received, ' ') AS received, group_concat(m.sent, ' ') AS sent \
         FROM moves m {filter} GROUP BY m.game_id"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .fetch_all(conn)
        .await?)
}
