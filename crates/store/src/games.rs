//! Games: the header, the players' addresses, the rules profile, status and result.

use chrono::NaiveDate;
use sqlx::SqliteConnection;

use crate::{GameStatus, MoveRow, Result, StoreError};

/// One game as stored. The status is typed ([`GameStatus`]); the other enumerations are kept
/// as their names ('white', 'article51', …) and the app layer parses them into its types.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    pub id: String,
    pub event: String,
    pub start_date: NaiveDate,
    pub white: String,
    pub black: String,
    pub my_color: String,
    pub opponent_email: String,
    pub arbiter_email: String,
    pub rules: String,
    pub control_moves: i64,
    pub control_days: i64,
    pub notation: String,
    pub language: String,
    pub status: GameStatus,
    pub result: Option<String>,
    pub draw_offered_by: Option<String>,
    pub correction_due: Option<NaiveDate>,
    pub awaited_received: Option<NaiveDate>,
    pub reply_notes: String,
    pub answer_cc_arbiter: bool,
    pub created_at: String,
    /// An imported game's carried days (migrations/0007): the last ply they stand for (0:
    /// none), and each side's days by then.
    pub carried_through: i64,
    pub carried_white: i64,
    pub carried_black: i64,
    /// Whether the finished game's PGN is ccmail's to send (51.9.1): not for a game brought
    /// in finished.
    pub pgn_due: bool,
    /// Our move messages carry the game so far as a PGN attachment.
    pub attach_pgn: bool,
    /// The player's plan (migrations/0009): UCI moves, the partner's expected move first;
    /// empty for none. Set only by [`set_plan`]: a new game has none.
    pub plan: String,
    /// The ply the plan's first move is expected as.
    pub plan_from: i64,
    /// Why the finished game ended (migrations/0008), by the core's `EndReason` name; `None`
    /// while it goes on, or when it ended before ccmail recorded it.
    pub ending: Option<String>,
    /// The PGN Round tag of an imported game, '' for none (migrations/0012).
    pub round: String,
    /// Out of `games` and the daemon's chores, kept whole (`ccmail game archive`).
    pub archived: bool,
    /// The ply of our move whose send date is not known (an import without dates), 0 for
    /// none: while it is the last, the partner's clock, the repeat and the silence rule wait.
    pub unknown_sent_ply: i64,
}

impl GameRow {
    /// A new active game with the rules' defaults (article51, 10 moves / 60 days, numeric
    /// notation, Russian, White) and nothing pending; callers set the rest with
    /// `GameRow { event, white, …, ..GameRow::new(id, start, created_at) }`.
    pub fn new(id: &str, start_date: NaiveDate, created_at: &str) -> GameRow {
        GameRow {
            id: id.to_owned(),
            event: String::new(),
            start_date,
            white: String::new(),
            black: String::new(),
            my_color: "white".into(),
            opponent_email: String::new(),
            arbiter_email: String::new(),
            rules: "article51".into(),
            control_moves: 10,
            control_days: 60,
            notation: "numeric".into(),
            language: "ru".into(),
            status: GameStatus::Active,
            result: None,
            draw_offered_by: None,
            correction_due: None,
            awaited_received: None,
            reply_notes: String::new(),
            answer_cc_arbiter: false,
            created_at: created_at.to_owned(),
            carried_through: 0,
            carried_white: 0,
            carried_black: 0,
            pgn_due: true,
            attach_pgn: false,
            plan: String::new(),
            plan_from: 0,
            ending: None,
            round: String::new(),
            archived: false,
            unknown_sent_ply: 0,
        }
    }
}

const COLUMNS: &str = "id, event, start_date, white, black, my_color, opponent_email, \
    arbiter_email, rules, control_moves, control_days, notation, language, status, result, \
    draw_offered_by, correction_due, awaited_received, reply_notes, answer_cc_arbiter, created_at, \
    carried_through, carried_white, carried_black, pgn_due, attach_pgn, plan, plan_from, ending, \
    round, archived, unknown_sent_ply";

pub async fn insert_game(conn: &mut SqliteConnection, g: &GameRow) -> Result<()> {
    sqlx::query(
        "INSERT INTO games (id, event, start_date, white, black, my_color, opponent_email, \
         arbiter_email, rules, control_moves, control_days, notation, language, status, result, \
         draw_offered_by, correction_due, awaited_received, reply_notes, answer_cc_arbiter, \
         created_at, carried_through, carried_white, carried_black, pgn_due, attach_pgn, ending, \
         round, archived, unknown_sent_ply) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&g.id)
    .bind(&g.event)
    .bind(g.start_date)
    .bind(&g.white)
    .bind(&g.black)
    .bind(&g.my_color)
    .bind(&g.opponent_email)
    .bind(&g.arbiter_email)
    .bind(&g.rules)
    .bind(g.control_moves)
    .bind(g.control_days)
    .bind(&g.notation)
    .bind(&g.language)
    .bind(g.status)
    .bind(&g.result)
    .bind(&g.draw_offered_by)
    .bind(g.correction_due)
    .bind(g.awaited_received)
    .bind(&g.reply_notes)
    .bind(g.answer_cc_arbiter)
    .bind(&g.created_at)
    .bind(g.carried_through)
    .bind(g.carried_white)
    .bind(g.carried_black)
    .bind(g.pgn_due)
    .bind(g.attach_pgn)
    .bind(&g.ending)
    .bind(&g.round)
    .bind(g.archived)
    .bind(g.unknown_sent_ply)
    .execute(conn)
    .await?;
    Ok(())
}

pub async fn game(conn: &mut SqliteConnection, id: &str) -> Result<Option<GameRow>> {
    let sql = format!("SELECT {COLUMNS} FROM games WHERE id = ?");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// One game's row with its record of moves: its moves without a query of their own.
pub async fn game_with_record(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<Option<GameWithRecord>> {
    let sql = format!("SELECT {COLUMNS}, record FROM games WHERE id = ?");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_optional(conn)
        .await?)
}

/// A game's row with its moves still packed in `record` (migrations/0002): a caller with many
/// games unpacks them where it likes ([`GameWithRecord::moves`]), on more than one thread.
#[derive(Debug, sqlx::FromRow)]
pub struct GameWithRecord {
    #[sqlx(flatten)]
    pub game: GameRow,
    pub record: String,
}

impl GameWithRecord {
    /// The moves, in ply order. With `dates_only`, the moves' `uci`, `san` and `game_id` are
    /// left empty ([`crate::unpack_record`]).
    pub fn moves(&self, dates_only: bool) -> Result<Vec<MoveRow>> {
        crate::unpack_record(&self.game.id, &self.record, dates_only).ok_or_else(|| {
            StoreError::Corrupt(crate::Corrupted::Moves {
                game: self.game.id.clone(),
            })
        })
    }
}

/// As [`games`], each with its record of moves, not unpacked yet.
pub async fn games_with_records(
    conn: &mut SqliteConnection,
    all: bool,
) -> Result<Vec<GameWithRecord>> {
    let filter = if all {
        ""
    } else {
        "WHERE status != 'finished' AND NOT archived"
    };
    let sql = format!("SELECT {COLUMNS}, record FROM games {filter} ORDER BY created_at, id");
    // The rows are read first and decoded after: decoding (and so freeing) each row while
    // sqlx's thread still reads the next ones, as `query_as` does, took twice as long for a
    // thousand games (28 ms against 14, warm) — both threads allocating and freeing SQLite
    // values at once.
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .fetch_all(conn)
        .await?;
    Ok(rows
        .iter()
        .map(sqlx::FromRow::from_row)
        .collect::<std::result::Result<_, _>>()?)
}

/// As [`games`], each with its moves, read from the game's `record` (one row per game, not
/// one per move). With `dates_only`, the moves' `uci`, `san` and `game_id` are left empty.
pub async fn games_with_moves(
    conn: &mut SqliteConnection,
    all: bool,
    dates_only: bool,
) -> Result<Vec<(GameRow, Vec<MoveRow>)>> {
    games_with_records(conn, all)
        .await?
        .into_iter()
        .map(|r| {
            let moves = r.moves(dates_only)?;
            Ok((r.game, moves))
        })
        .collect()
}

/// Active and suspended games not archived (with `all`, finished and archived ones too),
/// oldest first.
pub async fn games(conn: &mut SqliteConnection, all: bool) -> Result<Vec<GameRow>> {
    let filter = if all {
        ""
    } else {
        "WHERE status != 'finished' AND NOT archived"
    };
    let sql = format!("SELECT {COLUMNS} FROM games {filter} ORDER BY created_at, id");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .fetch_all(conn)
        .await?)
}

/// Games with this opponent address (any status), each with its record of moves.
pub async fn games_with(
    conn: &mut SqliteConnection,
    opponent: &str,
) -> Result<Vec<GameWithRecord>> {
    let sql =
        format!("SELECT {COLUMNS}, record FROM games WHERE opponent_email = ? ORDER BY created_at");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(opponent)
        .fetch_all(conn)
        .await?)
}

pub async fn set_status(
    conn: &mut SqliteConnection,
    id: &str,
    status: GameStatus,
    result: Option<&str>,
) -> Result<()> {
    sqlx::query("UPDATE games SET status = ?, result = ? WHERE id = ?")
        .bind(status)
        .bind(result)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records why a finished game ended (an `EndReason` name), or clears it.
pub async fn set_ending(conn: &mut SqliteConnection, id: &str, ending: Option<&str>) -> Result<()> {
    sqlx::query("UPDATE games SET ending = ? WHERE id = ?")
        .bind(ending)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn set_draw_offer(conn: &mut SqliteConnection, id: &str, by: Option<&str>) -> Result<()> {
    sqlx::query("UPDATE games SET draw_offered_by = ? WHERE id = ?")
        .bind(by)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn set_correction_due(
    conn: &mut SqliteConnection,
    id: &str,
    due: Option<NaiveDate>,
) -> Result<()> {
    sqlx::query("UPDATE games SET correction_due = ? WHERE id = ?")
        .bind(due)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn set_opponent_email(conn: &mut SqliteConnection, id: &str, email: &str) -> Result<()> {
    sqlx::query("UPDATE games SET opponent_email = ? WHERE id = ?")
        .bind(email)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// The date the side to move received the last move, while it is ours to answer.
pub async fn set_awaited_received(
    conn: &mut SqliteConnection,
    id: &str,
    received: Option<NaiveDate>,
) -> Result<()> {
    sqlx::query("UPDATE games SET awaited_received = ? WHERE id = ?")
        .bind(received)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Adds a line to the notes kept for our next reply, and with `cc` has it go Cc the arbiter
/// (51.5.1), in one statement. False when there is no such game.
pub async fn add_reply_note(
    conn: &mut SqliteConnection,
    id: &str,
    note: &str,
    cc: bool,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE games SET \
           reply_notes = CASE reply_notes WHEN '' THEN ?1 ELSE reply_notes || char(10) || ?1 END, \
           answer_cc_arbiter = answer_cc_arbiter OR ?2 \
         WHERE id = ?3",
    )
    .bind(note)
    .bind(cc)
    .bind(id)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Replaces the notes kept for our next reply, and whether it goes Cc the arbiter (51.5.1).
pub async fn set_reply_notes(
    conn: &mut SqliteConnection,
    id: &str,
    notes: &str,
    cc_arbiter: bool,
) -> Result<()> {
    sqlx::query("UPDATE games SET reply_notes = ?, answer_cc_arbiter = ? WHERE id = ?")
        .bind(notes)
        .bind(cc_arbiter)
        .bind(id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Sets the plan of `game` (`moves` UCI, separated by spaces; '' clears it), its first move
/// expected as ply `from`.
pub async fn set_plan(
    conn: &mut SqliteConnection,
    game: &str,
    moves: &str,
    from: i64,
) -> Result<()> {
    sqlx::query("UPDATE games SET plan = ?, plan_from = ? WHERE id = ?")
        .bind(moves)
        .bind(if moves.is_empty() { 0 } else { from })
        .bind(game)
        .execute(conn)
        .await?;
    Ok(())
}

/// Whether our move messages in `game` carry a PGN attachment; `false` when there is no such
/// game.
pub async fn set_attach_pgn(conn: &mut SqliteConnection, game: &str, on: bool) -> Result<bool> {
    let done = sqlx::query("UPDATE games SET attach_pgn = ? WHERE id = ?")
        .bind(on)
        .bind(game)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() == 1)
}
