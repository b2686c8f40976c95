//! A stored game as PGN (crates/core/src/pgn.rs has the format): for the arbiter (51.9.1),
//! the adjudication package (51.9.4) and `ccmail export --pgn`. This module gathers what the
//! writer needs from the store — the dates and days of each move, the variations offered,
//! and how the game ended: as recorded when it ended, or, for a game that ended before ccmail
//! recorded it, read from the final position, the game's messages and the clock.

use ccmail_core::clock::ClockReport;
use ccmail_core::message::MessageKind;
use ccmail_core::pgn::{self, EndFacts, EndReason, Ending, PgnGame, Rav};
use ccmail_store::{self as store, MessageRow, StoredKind, VariationRow};
use chrono::NaiveDate;
use shakmaty::{Chess, Color, Move, Position};

use super::game::{Game, uci_move};

/// The game as PGN, ending with a blank line.
pub async fn pgn(
    conn: &mut store::SqliteConnection,
    game: &Game,
    today: NaiveDate,
    my_email: &str,
) -> anyhow::Result<String> {
    let messages = store::game_messages(conn, game.id()).await?;
    pgn_with(game, &messages, today, my_email)
}

/// The game as the letter of ours of `kind` being written leaves it: its PGN attachment. Only
/// that letter can have ended a game still going on, so the stored messages are not needed.
pub fn pgn_after_letter(
    game: &Game,
    kind: &StoredKind,
    today: NaiveDate,
    my_email: &str,
) -> anyhow::Result<String> {
    let letter = MessageRow {
        direction: store::Direction::Out,
        kind: kind.clone(),
        status: store::MessageStatus::Queued,
        ..MessageRow::default()
    };
    pgn_with(game, &[letter], today, my_email)
}

/// [`pgn`] with the game's messages read already.
pub fn pgn_with(
    game: &Game,
    messages: &[MessageRow],
    today: NaiveDate,
    my_email: &str,
) -> anyhow::Result<String> {
    let report = game.report(today)?;
    let r = &game.row;
    let ending = ending(game, messages, &report);
    let (white_na, black_na) = if game.me.is_white() {
        (my_email.to_owned(), r.opponent_email.clone())
    } else {
        (r.opponent_email.clone(), my_email.to_owned())
    };
    let result = match (ending, r.result.as_deref()) {
        (Ending::Unterminated, _) | (_, None) => "*".to_owned(),
        (_, Some(result)) => result.to_owned(),
    };
    let or_unknown = |s: &str| {
        if s.is_empty() {
            "?".to_owned()
        } else {
            s.to_owned()
        }
    };
    let or_none = |s: &str| {
        if s.is_empty() {
            "-".to_owned()
        } else {
            s.to_owned()
        }
    };
    let start = r.start_date.format("%Y.%m.%d").to_string();
    let roster = [
        ("Event", or_unknown(&r.event)),
        ("Site", "Email".to_owned()),
        ("Date", start.clone()),
        ("Round", or_none(&r.round)),
        ("White", or_unknown(&r.white)),
        ("Black", or_unknown(&r.black)),
        ("Result", result.clone()),
    ];
    let more = [
        ("EventDate", start),
        ("Mode", "EM".to_owned()),
        ("WhiteNA", white_na),
        ("BlackNA", black_na),
        // Not a standard tag: ccmail's, so that the game comes back rated (`game import`).
        ("ArbiterNA", r.arbiter_email.clone()),
        (
            "TimeControl",
            pgn::time_control(game.control.moves(), game.control.days()),
        ),
        ("Termination", ending.termination().to_owned()),
    ];
    let comments = game
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            // An imported game's moves before the days it carried have no dates of their own.
            let carried = usize::try_from(game.row.carried_through).unwrap_or(0);
            let dates = if i + 1 < carried {
                None
            } else if i + 1 == carried {
                Some(pgn::carried_comment(
                    m.sent,
                    m.received,
                    (game.row.carried_white, game.row.carried_black),
                ))
            } else {
                let days = report.ply_days.get(i).copied().unwrap_or(0);
                Some(pgn::dates_comment(m.sent, m.received, days))
            };
            if i + 1 == game.moves.len() {
                with_marks(dates, game)
            } else {
                dates
            }
        })
        .collect();
    let g = PgnGame {
        tags: roster
            .into_iter()
            .chain(more.into_iter().filter(|(_, v)| !v.is_empty()))
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
        moves: game.plies.clone(),
        comments,
        variations: game
            .variations
            .iter()
            .filter_map(|v| rav(&game.plies, v))
            .collect(),
        final_comment: ending.words(),
        result,
    };
    Ok(pgn::write(&g)?)
}

/// The last move's comment with what the clock counts beside the moves' dates, in ccmail's
/// own commands (core `import::marks`): each penalty `[%ccpen black 2 wrong_repetition 4]`,
/// extra period `[%ccextra black 2026.03.05 2026.03.08 correction_request impossible 4]` and
/// break of the partner's `[%ccbreak 2026.04.01 2026.04.10 2026.03.30 -]`. `game import`
/// reads them back, so that an exported game comes back with both clocks.
fn with_marks(comment: Option<String>, game: &Game) -> Option<String> {
    let day = |d: NaiveDate| d.format("%Y.%m.%d").to_string();
    let or_none = |d: Option<NaiveDate>| d.map_or_else(|| "-".to_owned(), day);
    let mut marks = Vec::new();
    for p in &game.penalties {
        if let Ok(cause) = &p.cause {
            marks.push(format!(
                "[%ccpen {} {} {} {}]",
                p.player,
                p.days,
                cause.as_str(),
                p.ply
            ));
        }
    }
    for e in &game.extras {
        let kind = match e.kind {
            store::ExtraPeriodKind::CorrectionRequest => "correction_request",
            store::ExtraPeriodKind::RejectedMessage => "rejected_message",
        };
        let fault = match &e.fault {
            Some(Ok(f)) => f.as_str(),
            Some(Err(_)) => continue,
            None => "-",
        };
        marks.push(format!(
            "[%ccextra {} {} {} {kind} {fault} {}]",
            e.player,
            day(e.from_date),
            day(e.to_date),
            e.ply
        ));
    }
    for b in &game.partner_breaks {
        marks.push(format!(
            "[%ccbreak {} {} {} {}]",
            day(b.from_date),
            day(b.to_date),
            or_none(b.notice_date),
            or_none(b.ended_on)
        ));
    }
    if marks.is_empty() {
        return comment;
    }
    let marks = marks.join(" ");
    Some(match comment {
        Some(c) => format!("{c} {marks}"),
        None => marks,
    })
}

/// How the game ended: as recorded when it ended; else the position, then the messages (a
/// resignation, an accepted draw, the arbiter's), then the clock (a side over the limit).
pub fn ending(game: &Game, messages: &[MessageRow], report: &ClockReport) -> Ending {
    let out_of_time = [
        report.clock.white.overstepped_at.is_some(),
        report.clock.black.overstepped_at.is_some(),
    ];
    let any = |dir: store::Direction, kinds: &[StoredKind]| {
        messages.iter().any(|m| {
            m.direction == dir
                && kinds.contains(&m.kind)
                && (dir == store::Direction::Out || m.status == store::MessageStatus::Applied)
        })
    };
    Ending::of(EndFacts {
        finished: game.row.status == store::GameStatus::Finished,
        result: game.row.result.as_deref().unwrap_or("*"),
        position: &game.position(),
        resigned: any(
            store::Direction::In,
            &[StoredKind::Is(MessageKind::Resignation)],
        ) || any(store::Direction::Out, &[StoredKind::RESIGN]),
        draw_agreed: any(
            store::Direction::In,
            &[StoredKind::Is(MessageKind::DrawAccept)],
        ) || any(store::Direction::Out, &[StoredKind::DRAW]),
        adjudicated: any(
            store::Direction::In,
            &[StoredKind::ADJUDICATION, StoredKind::CLAIM],
        ) || any(
            store::Direction::Out,
            &[StoredKind::ADJUDICATION, StoredKind::CLAIM],
        ),
        out_of_time,
        recorded: recorded_ending(game),
    })
}

/// How a finished game ended, in words in the interface language (`Black resigns`,
/// `Checkmate`); `None` while it goes on. The recorded ending needs nothing else; a game that
/// ended before endings were recorded is read again whole, with its messages. (The PGN's own
/// comment, [`Ending::words`], stays in English.)
pub async fn ending_words(
    conn: &mut store::SqliteConnection,
    game: &Game,
    report: &ClockReport,
) -> anyhow::Result<Option<String>> {
    if game.row.status != store::GameStatus::Finished {
        return Ok(None);
    }
    if recorded_ending(game).is_some() {
        return Ok(said(ending(game, &[], report)));
    }
    let whole = match Game::load(conn, game.id()).await? {
        Some(g) => g,
        None => return Ok(None),
    };
    let messages = store::game_messages(conn, game.id()).await?;
    Ok(said(ending(&whole, &messages, report)))
}

/// An ending in words in the interface language; `None` for a game that goes on.
fn said(ending: Ending) -> Option<String> {
    let side = |c: Color| {
        if c.is_white() {
            crate::t!("white")
        } else {
            crate::t!("black")
        }
    };
    Some(match ending {
        Ending::Checkmate => crate::t!("show-ending-checkmate"),
        Ending::Stalemate => crate::t!("show-ending-stalemate"),
        Ending::InsufficientMaterial => crate::t!("show-ending-insufficient-material"),
        Ending::Resignation(c) => crate::t!("show-ending-resignation", side = side(c)),
        Ending::Agreement => crate::t!("show-ending-agreement"),
        Ending::TimeForfeit(c) => crate::t!("show-ending-time-forfeit", side = side(c)),
        Ending::Adjudication => crate::t!("show-ending-adjudication"),
        Ending::Unterminated => return None,
    })
}

/// The ending recorded for `game` (`None` when none was, or the name is unknown).
pub fn recorded_ending(game: &Game) -> Option<EndReason> {
    game.row.ending.as_deref().and_then(|e| e.parse().ok())
}

/// Why the letter that ends a game ends it, to record: `plies` are the game's moves with the
/// letter's own; `resigned` when the letter resigns.
pub fn ending_by_letter(plies: &[Move], result: &str, resigned: bool) -> EndReason {
    Ending::by_letter(&ccmail_core::message::play_all(plies), result, resigned)
}

/// A stored variation where it leaves the played line: the moves it shares with the game
/// (an accepted part) are left out; `None` when nothing is left or it does not replay.
fn rav(plies: &[Move], v: &VariationRow) -> Option<Rav> {
    let mut at = usize::try_from(v.proposed_with).ok()?;
    let mut pos: Chess = plies
        .get(..at)?
        .iter()
        .try_fold(Chess::default(), |p, &m| p.play(m).ok())?;
    let mut moves = Vec::new();
    for uci in v.moves.split_whitespace() {
        let m = uci_move(&pos, uci)?;
        if moves.is_empty() && plies.get(at) == Some(&m) {
            at += 1;
        } else {
            moves.push(m);
        }
        pos = pos.play(m).ok()?;
    }
    (!moves.is_empty()).then_some(Rav { at, moves })
}
