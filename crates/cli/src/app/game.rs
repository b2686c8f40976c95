//! A game as the app sees it: the stored rows turned into positions, the clock's input and
//! the `show --json` object of cli.md.

use std::collections::HashMap;

use anyhow::{Context, anyhow};
use ccmail_core::clock::{
    self, Awaited, Break, ClockReport, Control, DateSpan, ExtraKind, ExtraPeriod, GameTime,
    Penalty, PenaltyCause, Ply, Profile, Variation,
};
use ccmail_core::message::Language;
use ccmail_core::notation::Notation;
use ccmail_store::{self as store, BreakRow, ExtraRow, GameRow, MoveRow, PenaltyRow, VariationRow};
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

/// The rows of one game, as loaded.
#[derive(Debug, Default)]
pub struct Parts {
    pub moves: Vec<MoveRow>,
    pub penalties: Vec<PenaltyRow>,
    pub extras: Vec<ExtraRow>,
    pub partner_breaks: Vec<BreakRow>,
    pub variations: Vec<VariationRow>,
}

pub fn color(name: &str) -> anyhow::Result<Color> {
    match name {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        other => Err(anyhow!("{other:?} is not a colour (white or black)")),
    }
}

pub fn color_name(c: Color) -> &'static str {
    if c.is_white() { "white" } else { "black" }
}

pub fn cause(name: &str) -> anyhow::Result<PenaltyCause> {
    serde_json::from_value(Value::String(name.to_owned()))
        .map_err(|_| anyhow!("{name:?} is not a penalty cause"))
}

pub fn cause_name(c: PenaltyCause) -> String {
    serde_json::to_value(c)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

impl Game {
    /// Loads one game, or `None` if there is no game with that id.
    pub async fn load(
        conn: &mut store::SqliteConnection,
        id: &str,
    ) -> anyhow::Result<Option<Game>> {
        let Some(row) = store::game(conn, id).await? else {
            return Ok(None);
        };
        Game::load_rest(conn, row).await.map(Some)
    }

    /// Loads the rest of a game whose row was read already.
    pub async fn load_rest(
        conn: &mut store::SqliteConnection,
        row: GameRow,
    ) -> anyhow::Result<Game> {
        let id = row.id.as_str();
        let parts = Parts {
            moves: store::moves(conn, id).await?,
            penalties: store::penalties(conn, id).await?,
            extras: store::extras(conn, id).await?,
            partner_breaks: store::game_breaks(conn, id).await?,
            variations: store::variations(conn, id).await?,
        };
        let my_breaks = store::my_breaks(conn).await?;
        Game::from_parts(row, parts, my_breaks)
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
        let rows = store::games_with_moves(conn, all, dates_only).await?;
        let mut parts: HashMap<String, Parts> = HashMap::with_capacity(rows.len());
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
        rows.into_iter()
            .map(|(row, moves)| {
                let p = Parts {
                    moves,
                    ..parts.remove(&row.id).unwrap_or_default()
                };
                if dates_only {
                    Game::without_plies(row, p, my_breaks.clone())
                } else {
                    Game::from_parts(row, p, my_breaks.clone())
                }
            })
            .collect()
    }

    /// A game from its rows, its moves replayed into `plies`.
    pub fn from_parts(
        row: GameRow,
        parts: Parts,
        my_breaks: Vec<BreakRow>,
    ) -> anyhow::Result<Game> {
        let mut game = Game::without_plies(row, parts, my_breaks)?;
        let mut pos = Chess::default();
        for m in &game.moves {
            let mv = uci_move(&pos, &m.uci).ok_or_else(|| {
                anyhow!(
                    "move {} ({}) of {} does not replay",
                    m.ply,
                    m.uci,
                    game.row.id
                )
            })?;
            pos.play_unchecked(mv);
            game.plies.push(mv);
        }
        Ok(game)
    }

    /// A game from its rows without replaying the moves (`plies` empty).
    fn without_plies(row: GameRow, parts: Parts, my_breaks: Vec<BreakRow>) -> anyhow::Result<Game> {
        let context = || format!("game {} in the database", row.id);
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
            moves: parts.moves,
            penalties: parts.penalties,
            extras: parts.extras,
            my_breaks,
            partner_breaks: parts.partner_breaks,
            variations: parts.variations,
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

    pub fn is_active(&self) -> bool {
        self.row.status == "active"
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
                cause: cause(&p.cause)?,
                ply: p.ply as u32,
            });
        }
        for e in &self.extras {
            let kind = match (e.kind.as_str(), &e.fault) {
                ("correction_request", Some(f)) => {
                    ExtraKind::CorrectionRequest { fault: cause(f)? }
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
        t.awaited = if !self.is_active() {
            Awaited::Nothing
        } else if self.to_move() == self.me {
            Awaited::Move {
                received: self.row.awaited_received,
            }
        } else {
            Awaited::Move { received: None }
        };
        t.correction = self.row.correction_due;
        Ok(t)
    }

    /// Both clocks and the deadlines as of `today`.
    pub fn report(&self, today: NaiveDate) -> anyhow::Result<ClockReport> {
        let t = self.game_time()?;
        clock::evaluate(&t, today).with_context(|| format!("the clock of game {}", self.id()))
    }

    /// The `show --json` object of cli.md.
    pub fn to_json(&self, today: NaiveDate, problems: Vec<Value>) -> anyhow::Result<Value> {
        let report = self.report(today)?;
        Ok(serde_json::to_value(self.json_with(&report, problems))?)
    }

    /// The `show --json` object from a report already made (`games --json` sorts by it),
    /// serialised as it is: no `Value` tree per move for a listing of 60,000 moves.
    pub fn json_with<'a>(&'a self, report: &'a ClockReport, problems: Vec<Value>) -> GameJson<'a> {
        let r = &self.row;
        GameJson {
            id: &r.id,
            event: &r.event,
            start: r.start_date,
            white: &r.white,
            black: &r.black,
            my_color: &r.my_color,
            opponent: &r.opponent_email,
            arbiter: &r.arbiter_email,
            rules: self.profile.to_string(),
            control: ControlJson {
                moves: self.control.moves(),
                days: self.control.days(),
            },
            status: &r.status,
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
                    numeric: numeric_of_uci(&row.uci),
                    received: row.received,
                    sent: row.sent,
                    days: report.ply_days.get(i).copied(),
                })
                .collect(),
            clock: &report.clock,
            running_days: report.running_days,
            deadlines: &report.deadlines,
            draw_offered_by: r.draw_offered_by.as_deref(),
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
    arbiter: &'a str,
    rules: String,
    control: ControlJson,
    status: &'a str,
    result: Option<&'a str>,
    to_move: Option<&'static str>,
    fen: String,
    moves: Vec<MoveJson<'a>>,
    clock: &'a clock::Clocks,
    running_days: u32,
    deadlines: &'a [clock::Deadline],
    draw_offered_by: Option<&'a str>,
    problems: Vec<Value>,
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
    numeric: String,
    received: NaiveDate,
    sent: NaiveDate,
    days: Option<u32>,
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
        .map(|(i, c)| match (i, c) {
            (4, 'q') => '1',
            (4, 'r') => '2',
            (4, 'b') => '3',
            (4, 'n') => '4',
            (0 | 2, 'a'..='h') => char::from(b'1' + (c as u8 - b'a')),
            (_, c) => c,
        })
        .collect()
}

/// Plays a UCI move (as stored) in `pos`.
pub fn uci_move(pos: &Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

/// A move in the UCI form the store keeps.
pub fn to_uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// The game as PGN for the arbiter (51.9.1) and `export`: the roster, `Mode "EM"`, both
/// addresses, and each move's dates and days as a comment.
pub fn pgn(game: &Game, today: NaiveDate, my_email: &str) -> anyhow::Result<String> {
    let report = game.report(today)?;
    let r = &game.row;
    let (white_na, black_na) = if game.me.is_white() {
        (my_email.to_owned(), r.opponent_email.clone())
    } else {
        (r.opponent_email.clone(), my_email.to_owned())
    };
    let result = r.result.clone().unwrap_or_else(|| "*".into());
    let tags = [
        ("Event", r.event.clone()),
        ("Site", "Email".to_owned()),
        ("Date", r.start_date.format("%Y.%m.%d").to_string()),
        ("Round", "-".to_owned()),
        ("White", r.white.clone()),
        ("Black", r.black.clone()),
        ("Result", result.clone()),
        ("Mode", "EM".to_owned()),
        ("WhiteNA", white_na),
        ("BlackNA", black_na),
        (
            "TimeControl",
            format!("{}/{}d", game.control.moves(), game.control.days()),
        ),
    ];
    let comments = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            Some(format!(
                "received {}, sent {}, {} day(s)",
                m.received,
                m.sent,
                report.ply_days.get(i).copied().unwrap_or(0)
            ))
        })
        .collect();
    let g = ccmail_core::pgn::PgnGame {
        tags: tags
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
        moves: game.plies.clone(),
        comments,
        result,
    };
    Ok(ccmail_core::pgn::write(&g))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccmail_core::notation;

    #[test]
    fn numeric_from_uci_matches_the_notation_writer() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
            "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1",
        ];
        for fen in fens {
            let pos: Chess = Fen::from_ascii(fen.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            for m in pos.legal_moves() {
                assert_eq!(
                    numeric_of_uci(&to_uci(m)),
                    notation::write_move(&pos, m, Notation::Numeric),
                    "{m:?} in {fen}"
                );
            }
        }
    }
}
