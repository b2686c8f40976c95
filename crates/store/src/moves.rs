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

/// A date as the store writes it, "YYYY-MM-DD", read byte by byte: `games` reads two per
/// move of every game.
fn date(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return s.parse().ok();
    }
    let num = |r: std::ops::Range<usize>| {
        b[r].iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    };
    NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)
}

/// A game's moves from its `record` (migrations/0002: one line per ply, in ply order,
/// "ply uci san received sent"). With `dates_only`, `uci`, `san` and `game_id` are left
/// empty: what the clock needs, without an allocation per move. Sorted by ply; `None` when a
/// line doesn't read or a ply comes twice.
pub fn unpack_record(game_id: &str, record: &str, dates_only: bool) -> Option<Vec<MoveRow>> {
    let mut rows = Vec::with_capacity(record.len() / 30 + 1);
    for line in record.split('\n').filter(|l| !l.is_empty()) {
        // The two dates are the last 21 bytes; the ply, uci and san come before them.
        let head = line.get(..line.len().checked_sub(22)?)?;
        let (received, sent) = (
            line.get(head.len() + 1..head.len() + 11)?,
            line.get(head.len() + 12..)?,
        );
        let mut f = head.splitn(3, ' ');
        let (ply, uci, san) = (f.next()?, f.next()?, f.next()?);
        let b = line.as_bytes();
        if san.contains(' ') || b[head.len()] != b' ' || b[head.len() + 11] != b' ' {
            return None;
        }
        let text = |s: &str| {
            if dates_only {
                String::new()
            } else {
                s.to_owned()
            }
        };
        rows.push(MoveRow {
            game_id: text(game_id),
            ply: ply.parse().ok()?,
            uci: text(uci),
            san: text(san),
            received: date(received)?,
            sent: date(sent)?,
            message: None,
        });
    }
    if !rows.windows(2).all(|w| w[0].ply < w[1].ply) {
        rows.sort_by_key(|r| r.ply);
        if !rows.windows(2).all(|w| w[0].ply < w[1].ply) {
            return None; // the same ply twice
        }
    }
    Some(rows)
}
