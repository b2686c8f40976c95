//! A game as the app sees it: the stored rows turned into positions, the clock's input and
//! the `show --json` object of cli.md.

use std::collections::HashMap;

use anyhow::{Context, anyhow};
use ccmail_core::clock::{
    self, Awaited, Break, Carried, ClockReport, Control, DateSpan, ExtraKind, ExtraPeriod,
    GameTime, Penalty, Ply, Profile, Variation,
};
use ccmail_core::message::Language;
use ccmail_core::notation::Notation;
use ccmail_store::{
    self as store, Attached, BreakRow, ExtraRow, GameRow, MoveRow, PenaltyRow, VariationRow,
};
use chrono::{Days, NaiveDate};
use serde_json::Value;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Position, fen::Fen};

/// One game with everything stored about it.
#[derive(Debug, Clone)]
pub struct Game {
    pub row: GameRow,
    pub me: Color,
    pub profile: Profile,
    pub control: Control,
    pub notation: Notation,
    pub language: Language,
    pub moves: Vec<MoveRow>,
    /// The moves as chess moves, in order.
    pub plies: Vec<Move>,
    pub penalties: Vec<PenaltyRow>,
    pub extras: Vec<ExtraRow>,
    pub my_breaks: Vec<BreakRow>,
    pub partner_breaks: Vec<BreakRow>,
    pub variations: Vec<VariationRow>,
}

/// The partner's answer to our move whose send date was never given (an import without it):
/// when his letter did not say when he received our move either, nothing dates his thinking
/// time, so his answer is charged nothing of its own, as the moves before the import are
/// (the days carried stand for it too). His letter's receipt date, when it gave one, is
/// charged as any.
fn answer_to_an_undated_move(row: &mut GameRow, moves: &[MoveRow]) {
    let Ok(ours) = usize::try_from(row.unknown_sent_ply) else {
        return;
    };
    let (Some(our), Some(answer)) = (
        ours.checked_sub(1).and_then(|i| moves.get(i)),
        moves.get(ours),
    ) else {
        return;
    };
    if row.carried_through == row.unknown_sent_ply && answer.received <= our.sent {
        row.carried_through += 1;
    }
}

pub fn color(name: &str) -> anyhow::Result<Color> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(anyhow!(crate::t!(
            "show-not-a-colour",
            name = format!("{other:?}")
        ))),
    }
}

pub fn color_name(c: Color) -> &'static str {
    if c.is_white() { "white" } else { "black" }
}

impl Game {
    /// Loads one game, or `None` if there is no game with that id.
    pub async fn load(
        conn: &mut store::SqliteConnection,
        id: &str,
    ) -> anyhow::Result<Option<Game>> {
        let Some(row) = store::game_with_record(conn, id).await? else {
            return Ok(None);
        };
        Game::load_rest(conn, row).await.map(Some)
    }

    /// Loads the rest of a game whose row was read already, with its record of moves: the
    /// moves come from the record, everything else attached to the game from one query.
    pub async fn load_rest(
        conn: &mut store::SqliteConnection,
        row: store::GameWithRecord,
    ) -> anyhow::Result<Game> {
        let attached = store::attached(conn, &row.game.id).await?;
        let moves = row.moves(false)?;
        Game::from_parts(row.game, moves, attached)
    }

    /// Loads every game that is not finished (with `all`, every game) in a handful of queries.
    pub async fn load_all(
        conn: &mut store::SqliteConnection,
        all: bool,
    ) -> anyhow::Result<Vec<Game>> {
        Game::load_many(conn, all, false).await
    }

    /// As [`Game::load_all`], for the clock only: each move's dates, no moves. `plies` is
    /// empty, so there is no position; `to_move`, the clock and the deadlines are right.
    pub async fn load_all_dates(
        conn: &mut store::SqliteConnection,
        all: bool,
    ) -> anyhow::Result<Vec<Game>> {
        Game::load_many(conn, all, true).await
    }

    async fn load_many(
        conn: &mut store::SqliteConnection,
        all: bool,
        dates_only: bool,
    ) -> anyhow::Result<Vec<Game>> {
        let rows = store::games_with_records(conn, all).await?;
        // Each game's attached rows, from one query per kind for all games.
        let mut parts: HashMap<String, Attached> = HashMap::with_capacity(rows.len());
        for p in store::all_penalties(conn).await? {
            parts
                .entry(p.game_id.clone())
                .or_default()
                .penalties
                .push(p);
        }
        for e in store::all_extras(conn).await? {
            parts.entry(e.game_id.clone()).or_default().extras.push(e);
        }
        for b in store::all_game_breaks(conn).await? {
            let id = b.game_id.clone().unwrap_or_default();
            parts.entry(id).or_default().partner_breaks.push(b);
        }
        for v in store::all_variations(conn).await? {
            parts
                .entry(v.game_id.clone())
                .or_default()
                .variations
                .push(v);
        }
        let my_breaks = store::my_breaks(conn).await?;
        let games: Vec<_> = rows
            .into_iter()
            .map(|r| {
                let p = parts.remove(&r.game.id).unwrap_or_default();
                (r, p)
            })
            .collect();
        let build = |part: Vec<(store::GameWithRecord, Attached)>| {
            part.into_iter()
                .map(|(r, attached)| {
                    let moves = r.moves(dates_only)?;
                    let attached = Attached {
                        my_breaks: my_breaks.clone(),
                        ..attached
                    };
                    if dates_only {
                        Game::without_plies(r.game, moves, attached)
                    } else {
                        Game::from_parts(r.game, moves, attached)
                    }
                })
                .collect::<anyhow::Result<Vec<Game>>>()
        };
        // Unpacking and replaying a thousand games' moves is most of `games`: the second half
        // goes to a thread of its own.
        super::map_in_two_halves(games, build)
    }

    /// A game from its rows, its moves replayed into `plies`.
    pub fn from_parts(
        row: GameRow,
        moves: Vec<MoveRow>,
        attached: Attached,
    ) -> anyhow::Result<Game> {
        let mut game = Game::without_plies(row, moves, attached)?;
        let mut pos = Chess::default();
        for m in &game.moves {
            let mv = uci_move(&pos, &m.uci).ok_or_else(|| {
                anyhow!(crate::t!(
                    "show-move-does-not-replay",
                    ply = m.ply,
                    uci = &m.uci,
                    game = &game.row.id
                ))
            })?;
            // legal: from uci_move, which UciMove::to_move checked in this position
            pos.play_unchecked(mv);
            game.plies.push(mv);
        }
        Ok(game)
    }

    /// A game from its rows without replaying the moves (`plies` empty).
    fn without_plies(mut row: GameRow, moves: Vec<MoveRow>, a: Attached) -> anyhow::Result<Game> {
        answer_to_an_undated_move(&mut row, &moves);
        let context = || crate::t!("show-game-in-database", game = &row.id);
        let me = color(&row.my_color).with_context(context)?;
        let profile: Profile = row.rules.parse().with_context(context)?;
        let control = Control::new(row.control_moves as u32, row.control_days as u32)
            .with_context(context)?;
        let notation: Notation = row.notation.parse().with_context(context)?;
        let language: Language = row.language.parse().with_context(context)?;
        Ok(Game {
            me,
            profile,
            control,
            notation,
            language,
            plies: Vec::new(),
            moves,
            penalties: a.penalties,
            extras: a.extras,
            my_breaks: a.my_breaks,
            partner_breaks: a.partner_breaks,
            variations: a.variations,
            row,
        })
    }

    pub fn id(&self) -> &str {
        &self.row.id
    }

    pub fn opponent(&self) -> Color {
        !self.me
    }

    pub fn position(&self) -> Chess {
        ccmail_core::message::play_all(&self.plies)
    }

    pub fn to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The arbiter's address; `None` in a friendly game (stored as an empty address).
    pub fn arbiter(&self) -> Option<&str> {
        Some(self.row.arbiter_email.as_str()).filter(|a| !a.is_empty())
    }

    pub fn is_active(&self) -> bool {
        self.row.status == store::GameStatus::Active
    }

    /// Our last move's send date is not known (a game imported without it), and it is the
    /// partner's move: his clock can't run.
    pub fn last_sent_unknown(&self) -> bool {
        self.row.unknown_sent_ply > 0
            && usize::try_from(self.row.unknown_sent_ply).is_ok_and(|p| p == self.moves.len())
    }

    pub fn my_turn(&self) -> bool {
        self.is_active() && self.to_move() == self.me
    }

    /// The clock's input (51.4, 51.5, 51.7).
    pub fn game_time(&self) -> anyhow::Result<GameTime> {
        let mut t = GameTime::new(self.row.start_date, self.me);
        t.profile = self.profile;
        t.control = self.control;
        t.plies = self
            .moves
            .iter()
            .map(|m| Ply {
                received: m.received,
                sent: m.sent,
            })
            .collect();
        t.variations = self
            .variations
            .iter()
            .filter_map(|v| {
                Some(Variation {
                    proposed_with: v.proposed_with as u32,
                    accepted_through: v.accepted_through? as u32,
                })
            })
            .collect();
        for p in &self.penalties {
            t.penalties.push(Penalty {
                player: color(&p.player)?,
                days: p.days as u32,
                cause: p.cause.clone()?,
                ply: p.ply as u32,
            });
        }
        for e in &self.extras {
            let kind = match (e.kind, &e.fault) {
                (store::ExtraPeriodKind::CorrectionRequest, Some(f)) => {
                    ExtraKind::CorrectionRequest { fault: f.clone()? }
                }
                _ => ExtraKind::RejectedMessage,
            };
            t.extras.push(ExtraPeriod {
                player: color(&e.player)?,
                from: e.from_date,
                to: e.to_date,
                kind,
                ply: e.ply as u32,
            });
        }
        for (b, player) in self
            .my_breaks
            .iter()
            .map(|b| (b, self.me))
            .chain(self.partner_breaks.iter().map(|b| (b, self.opponent())))
        {
            let Some(span) = break_span(b) else { continue };
            // Our notice goes out when the break is announced: its date is the row's.
            let notice = b
                .notice_date
                .or_else(|| b.created_at.get(..10)?.parse().ok());
            t.breaks.push(Break {
                player,
                span,
                notice,
            });
        }
        t.awaited = if !self.is_active() || self.last_sent_unknown() {
            // The partner's clock has no day to run from: nothing is due from it (no repeat,
            // no 40 days) until the player gives the date (`game set --last-sent`).
            Awaited::Nothing
        } else if self.to_move() == self.me {
            Awaited::Move {
                received: self.row.awaited_received,
            }
        } else {
            Awaited::Move { received: None }
        };
        t.correction = self.row.correction_due;
        t.carried = (self.row.carried_through > 0).then(|| Carried {
            through: u32::try_from(self.row.carried_through).unwrap_or(u32::MAX),
            white: u32::try_from(self.row.carried_white).unwrap_or(0),
            black: u32::try_from(self.row.carried_black).unwrap_or(0),
        });
        Ok(t)
    }

    /// Both clocks and the deadlines as of `today`.
    pub fn report(&self, today: NaiveDate) -> anyhow::Result<ClockReport> {
        let t = self.game_time()?;
        clock::evaluate(&t, today)
            .with_context(|| crate::t!("show-clock-of-game", game = self.id()))
    }

    /// The `show --json` object of cli.md.
    pub fn to_json(&self, today: NaiveDate, problems: Vec<Value>) -> anyhow::Result<Value> {
        let report = self.report(today)?;
        Ok(serde_json::to_value(self.json_with(&report, &problems))?)
    }

    /// The `show --json` object from a report already made (`games --json` sorts by it),
    /// serialised as it is: no `Value` tree per move for a listing of 60,000 moves.
    pub fn json_with<'a>(&'a self, report: &'a ClockReport, problems: &'a [Value]) -> GameJson<'a> {
        let r = &self.row;
        GameJson {
            id: &r.id,
            event: &r.event,
            start: r.start_date,
            white: &r.white,
            black: &r.black,
            my_color: &r.my_color,
            opponent: &r.opponent_email,
            arbiter: self.arbiter(),
            rules: self.profile.to_string(),
            control: ControlJson {
                moves: self.control.moves(),
                days: self.control.days(),
            },
            status: r.status.as_str(),
            archived: r.archived,
            result: r.result.as_deref(),
            to_move: self.is_active().then(|| color_name(self.to_move())),
            fen: Fen::from_position(&self.position(), EnPassantMode::Legal).to_string(),
            moves: self
                .moves
                .iter()
                .enumerate()
                .map(|(i, row)| MoveJson {
                    ply: row.ply,
                    san: &row.san,
                    numeric: &row.uci,
                    received: row.received,
                    sent: row.sent,
                    days: report.ply_days.get(i).copied(),
                })
                .collect(),
            clock: &report.clock,
            running_days: report.running_days,
            deadlines: &report.deadlines,
            draw_offered_by: r.draw_offered_by.as_deref(),
            offered_variation: self.offered_sans(),
            plan: self.plan_sans(),
            problems,
        }
    }
}

/// A game as `show --json` and `games --json` print it (cli.md).
#[derive(Debug, serde::Serialize)]
pub struct GameJson<'a> {
    id: &'a str,
    event: &'a str,
    start: NaiveDate,
    white: &'a str,
    black: &'a str,
    my_color: &'a str,
    opponent: &'a str,
    /// `null` in a friendly game.
    arbiter: Option<&'a str>,
    rules: String,
    control: ControlJson,
    status: &'a str,
    /// Put away with `game archive`: listed by `games --all` only.
    archived: bool,
    result: Option<&'a str>,
    to_move: Option<&'static str>,
    fen: String,
    moves: Vec<MoveJson<'a>>,
    clock: &'a clock::Clocks,
    running_days: u32,
    deadlines: &'a [clock::Deadline],
    draw_offered_by: Option<&'a str>,
    /// The partner's open offer (51.3.7), in SAN.
    offered_variation: Vec<String>,
    /// Our plan, in SAN, the partner's expected move first.
    plan: Vec<String>,
    problems: &'a [Value],
}

#[derive(Debug, serde::Serialize)]
struct ControlJson {
    moves: u32,
    days: u32,
}

#[derive(Debug, serde::Serialize)]
struct MoveJson<'a> {
    ply: i64,
    san: &'a str,
    #[serde(serialize_with = "numeric_json")]
    numeric: &'a str,
    #[serde(serialize_with = "date_json")]
    received: NaiveDate,
    #[serde(serialize_with = "date_json")]
    sent: NaiveDate,
    days: Option<u32>,
}

/// A date as cli.md writes it, `YYYY-MM-DD`, written straight from its numbers: `games --json`
/// writes two per move, and chrono's `Display` through serde's `collect_str` was a seventh of
/// the command's time.
fn date_json<S: serde::Serializer>(d: &NaiveDate, s: S) -> Result<S::Ok, S::Error> {
    use chrono::Datelike;
    let year = match u32::try_from(d.year()) {
        Ok(y) if y <= 9999 => y,
        _ => return s.collect_str(d),
    };
    let digit = |n: u32| b'0' + (n % 10) as u8;
    let (m, day) = (d.month(), d.day());
    let text = [
        digit(year / 1000),
        digit(year / 100),
        digit(year / 10),
        digit(year),
        b'-',
        digit(m / 10),
        digit(m),
        b'-',
        digit(day / 10),
        digit(day),
    ];
    s.serialize_str(std::str::from_utf8(&text).expect("ASCII digits"))
}

/// A stored UCI move in numeric notation ([`numeric_of_uci`]), without a `String` per move.
fn numeric_json<S: serde::Serializer>(uci: &&str, s: S) -> Result<S::Ok, S::Error> {
    let mut text = [0u8; 8];
    match uci.len() {
        4 | 5 => {
            for (i, &c) in uci.as_bytes().iter().enumerate() {
                text[i] = numeric_byte(i, c);
            }
            match std::str::from_utf8(&text[..uci.len()]) {
                Ok(t) => s.serialize_str(t),
                Err(_) => s.serialize_str(&numeric_of_uci(uci)),
            }
        }
        _ => s.serialize_str(&numeric_of_uci(uci)),
    }
}

/// The days a stored break covers: an early end cuts it the day before play resumes.
pub fn break_span(b: &BreakRow) -> Option<DateSpan> {
    let to = match b.ended_on {
        Some(on) => on.checked_sub_days(Days::new(1))?.min(b.to_date),
        None => b.to_date,
    };
    DateSpan::new(b.from_date, to).ok()
}

/// ICCF numeric notation from a stored UCI move: files a–h are 1–8, castling is already the
/// king's move in UCI (`e1g1` → `5171`), a promotion adds 1–4 for Q R B N.
pub fn numeric_of_uci(uci: &str) -> String {
    uci.chars()
        .enumerate()
        .map(|(i, c)| match u8::try_from(c) {
            Ok(b) => char::from(numeric_byte(i, b)),
            Err(_) => c,
        })
        .collect()
}

/// Byte `i` of a UCI move in numeric notation: files a–h become 1–8, a promotion piece
/// q/r/b/n becomes 1–4.
fn numeric_byte(i: usize, c: u8) -> u8 {
    match (i, c) {
        (4, b'q') => b'1',
        (4, b'r') => b'2',
        (4, b'b') => b'3',
        (4, b'n') => b'4',
        (0 | 2, b'a'..=b'h') => b'1' + (c - b'a'),
        (_, c) => c,
    }
}

/// A UCI move (as stored) in `pos`: `None` unless it is legal there (`UciMove::to_move`
/// checks it).
pub fn uci_move(pos: &Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

/// A move in the UCI form the store keeps.
pub fn to_uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

#[cfg(test)]
mod tests;
