//! Bringing in a game already under way: what a PGN game or a game's messages say about it,
//! and the clock's history that follows from that.
//!
//! The sources are what players have in the middle of a season: a PGN file from ChessBase,
//! Scid, lichess, cmail or ccmail's own export (one game or many), a partner's last message,
//! or an mbox of a game's mail. Each gives an [`Imported`]: the header, the moves, each ply's
//! dates as far as the source has them, the addresses, and the totals the last message
//! stated. [`Imported::history`] then turns the dates into the clock's plies: a ply whose
//! dates are all known is charged as any; the plies before the last one that is not are
//! charged nothing of their own, and the totals the source stated (or none) stand for them
//! ([`Carried`]).
//!
//! Pure: the caller reads the files, decodes the mail and knows the player; nothing here
//! touches a file, the clock or the store.

use chrono::NaiveDate;
use shakmaty::{Color, Move};

use crate::clock::{Carried, Control, Penalty, Ply};
use crate::message::{self, Envelope, Language, MessageKind, MoveMessage, Totals};
use crate::notation::{MoveError, Notation};

pub mod charset;
pub mod marks;
pub mod style;

/// One ply's dates, as far as the source gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlyDates {
    /// When the mover received the previous move.
    pub received: Option<NaiveDate>,
    /// When the move was sent.
    pub sent: Option<NaiveDate>,
}

/// A game as a source tells it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Imported {
    pub event: Option<String>,
    pub start: Option<NaiveDate>,
    pub white: Option<String>,
    pub black: Option<String>,
    /// The players' addresses (PGN `WhiteNA`/`BlackNA`, or who sent which message).
    pub white_email: Option<String>,
    pub black_email: Option<String>,
    /// Addresses the messages were copied to, the latest first: the arbiter's among them,
    /// when there is one.
    pub cc: Vec<String>,
    pub control: Option<Control>,
    /// The moves, legal from the initial position.
    pub moves: Vec<Move>,
    /// Each move's dates (same index as `moves`).
    pub dates: Vec<PlyDates>,
    /// Both totals as the last message stated them, after its move.
    pub totals: Option<Totals>,
    /// Both players' days by a ply whose dates and those before it are not known, as a PGN
    /// of ccmail's says them (`[%cctotal 41 38]`): the ply's index, and the days.
    pub carried_at: Option<(usize, Totals)>,
    /// `1-0`, `0-1` or `1/2-1/2` for a finished game.
    pub result: Option<String>,
    /// Who sent the last message, when the source is mail.
    pub sender: Option<String>,
    /// The day the last message arrived, when it is the partner's (his move is ours to
    /// answer from that day).
    pub last_received: Option<NaiveDate>,
    /// The language and notation the letters are written in, when they say.
    pub language: Option<Language>,
    pub notation: Option<Notation>,
    /// The PGN `Round` tag.
    pub round: Option<String>,
    /// The arbiter's address, as ccmail's export gives it (`ArbiterNA`).
    pub arbiter: Option<String>,
    /// Penalties as ccmail's export gives them (`[%ccpen white 2 impossible]` after a move).
    pub penalties: Vec<Penalty>,
    /// Extra periods (51.4.8) and the partner's breaks, likewise (`[%ccextra …]`,
    /// `[%ccbreak …]`).
    pub extras: Vec<marks::ExtraMark>,
    pub breaks: Vec<marks::BreakMark>,
}

/// The clock's history of an imported game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// Every ply's dates: the known ones, and for the plies the carried days stand for, the
    /// nearest date known (shown, never charged).
    pub plies: Vec<Ply>,
    pub carried: Option<Carried>,
    /// What was assumed, in words, for the player.
    pub notes: Vec<String>,
}

/// Why a source can't be imported.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// The PGN text can't be read after game `after`; `error` is the PGN reader's words.
    #[error("the PGN can't be read after game {after}: {error}")]
    Unreadable { after: usize, error: String },
    /// A move of a game's main line can't be played: the game (1-based), its players as the
    /// tags name them (`?` for none), the move as written and why.
    #[error("game {game} of the PGN ({white} – {black}): move {text} can't be played: {error}")]
    Unplayable {
        game: usize,
        white: String,
        black: String,
        text: String,
        error: Box<MoveError>,
    },
    /// No message of the source carries a move.
    #[error("no message in it carries a move of a game")]
    NoMove,
}

impl Imported {
    /// The colour of the player with `email` or, failing that, named `name` (`White`/`Black`
    /// tags, or the sender of the last message).
    pub fn color_of(&self, email: &str, name: &str) -> Option<Color> {
        let same = |a: &Option<String>| a.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(email));
        if same(&self.white_email) {
            return Some(Color::White);
        }
        if same(&self.black_email) {
            return Some(Color::Black);
        }
        if let (Some(sender), Some(mover)) = (&self.sender, self.last_mover()) {
            return Some(if sender.eq_ignore_ascii_case(email) {
                mover
            } else {
                !mover
            });
        }
        let named = |tag: &Option<String>| tag.as_deref().is_some_and(|t| names_match(t, name));
        match (named(&self.white), named(&self.black)) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    /// The address of `color`'s player, as the source gives it.
    pub fn email_of(&self, color: Color) -> Option<&str> {
        color
            .fold_wb(&self.white_email, &self.black_email)
            .as_deref()
    }

    /// Who made the last move.
    pub fn last_mover(&self) -> Option<Color> {
        (!self.moves.is_empty()).then(|| Color::from_white(self.moves.len() % 2 == 1))
    }

    /// The clock's plies from the dates known, with the carried days where some are not:
    /// a ply's receipt date is the one given, else (51.2.3) the previous ply's send date,
    /// else for ply 1 the start date.
    pub fn history(&self, start: NaiveDate) -> History {
        let n = self.moves.len();
        let date = |i: usize| self.dates.get(i).copied().unwrap_or_default();
        let received = |i: usize| {
            date(i).received.or(if i == 0 {
                Some(start)
            } else {
                date(i - 1).sent
            })
        };
        let known = |i: usize| match (received(i), date(i).sent) {
            (Some(r), Some(s)) => i == 0 || r <= s,
            _ => false,
        };
        let last_unknown = (0..n).rev().find(|&i| !known(i));
        let mut notes = Vec::new();
        let carried = match (last_unknown, self.totals) {
            (None, _) => None,
            (Some(i), _) if self.carried_at.is_some_and(|(k, _)| i <= k) => {
                self.carried_at.map(|(k, t)| Carried {
                    through: u32::try_from(k + 1).unwrap_or(u32::MAX),
                    white: t.white,
                    black: t.black,
                })
            }
            (Some(_), Some(t)) => Some(Carried {
                through: u32::try_from(n).unwrap_or(u32::MAX),
                white: t.white,
                black: t.black,
            }),
            (Some(i), None) => {
                notes.push(format!(
                    "moves up to {} have no dates and no totals were stated: \
                     their days count as 0",
                    move_label(i)
                ));
                Some(Carried {
                    through: u32::try_from(i + 1).unwrap_or(u32::MAX),
                    white: 0,
                    black: 0,
                })
            }
        };
        let mut plies = Vec::with_capacity(n);
        let mut last = start;
        for i in 0..n {
            let sent = date(i).sent.unwrap_or(last);
            let r = received(i).unwrap_or(last).min(sent);
            plies.push(Ply { received: r, sent });
            last = sent;
        }
        History {
            plies,
            carried,
            notes,
        }
    }
}

/// "12. Nf3" style label of ply index `i` (0-based) for the notes.
fn move_label(i: usize) -> String {
    let number = i / 2 + 1;
    if i.is_multiple_of(2) {
        format!("{number}. (White)")
    } else {
        format!("{number}... (Black)")
    }
}

/// Whether a PGN or header name (`Petrov, Petr`, `Петров П.`, `Petrov`) names the player
/// called `name`: some word of either, of three letters or more, is the other's.
fn names_match(tag: &str, name: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 3)
            .map(str::to_lowercase)
            .collect()
    };
    let ours = words(name);
    words(tag).iter().any(|w| ours.contains(w))
}

/// Every game of a PGN text. A game whose main line can't be played fails in words, naming
/// the game and the move.
pub fn from_pgn(text: &str) -> Result<Vec<Imported>, ImportError> {
    let games = message::read_pgn_games(text)
        .map_err(|(after, error)| ImportError::Unreadable { after, error })?;
    let mut out = Vec::new();
    for (n, game) in games.into_iter().enumerate() {
        if !game.has_moves() && game.tags.is_empty() {
            continue;
        }
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_owned())
                .filter(|v| !v.is_empty() && v != "?" && v != "-")
        };
        if let Some((_, err)) = &game.stopped {
            return Err(ImportError::Unplayable {
                game: n + 1,
                white: tag("White").unwrap_or_else(|| "?".into()),
                black: tag("Black").unwrap_or_else(|| "?".into()),
                text: game.unplayed.first().cloned().unwrap_or_else(|| "?".into()),
                error: Box::new(err.clone()),
            });
        }
        let mut dates = vec![PlyDates::default(); game.moves.len()];
        let mut carried_at = None;
        let mut penalties = Vec::new();
        let mut extras = Vec::new();
        let mut breaks = Vec::new();
        for (played, comment) in &game.comments {
            let Some(i) = played.checked_sub(1) else {
                continue;
            };
            penalties.extend(marks::penalties(comment, *played));
            extras.extend(marks::extras(comment));
            breaks.extend(marks::breaks(comment));
            if let Some(d) = dates.get_mut(i) {
                read_date_comment(comment, d);
            }
            if let Some(t) = carried_comment(comment) {
                carried_at = Some((i, t));
            }
        }
        let result = tag("Result").filter(|r| matches!(r.as_str(), "1-0" | "0-1" | "1/2-1/2"));
        out.push(Imported {
            event: tag("Event"),
            start: tag("EventDate")
                .and_then(|d| pgn_date(&d))
                .or_else(|| tag("Date").and_then(|d| pgn_date(&d))),
            white: tag("White"),
            black: tag("Black"),
            white_email: tag("WhiteNA").map(|a| a.to_lowercase()),
            black_email: tag("BlackNA").map(|a| a.to_lowercase()),
            control: tag("TimeControl").and_then(|t| time_control(&t)),
            round: tag("Round"),
            arbiter: tag("ArbiterNA").map(|a| a.to_lowercase()),
            penalties,
            extras,
            breaks,
            moves: game.moves,
            dates,
            carried_at,
            result,
            ..Imported::default()
        });
    }
    Ok(out)
}

/// A message of the game, read: its envelope, what ccmail read in it, the day it arrived,
/// its Cc addresses and its text.
#[derive(Debug, Clone)]
pub struct Letter<'a> {
    pub envelope: &'a Envelope,
    pub message: &'a MoveMessage,
    pub arrived: Option<NaiveDate>,
    pub cc: Vec<String>,
    pub text: &'a str,
}

/// A game from its messages, oldest first (an mbox, or just the partner's last message): the
/// message with the longest record gives the moves and the header; every message gives the
/// dates of the plies it speaks of — its own move's (its stated send date, else its `Date:`),
/// the receipt date it states, the send date it confirms of the move it answers, and, for a
/// message `me` did not send, the day it arrived as the receipt date of the move after it.
pub fn from_letters(letters: &[Letter<'_>], me: &str) -> Result<Imported, ImportError> {
    let moving = |l: &&Letter<'_>| {
        matches!(l.message.kind, MessageKind::Move | MessageKind::Repeat)
            && l.message.new_move.is_some()
    };
    let base = letters
        .iter()
        .filter(moving)
        .max_by_key(|l| l.message.moves.len())
        .ok_or(ImportError::NoMove)?;
    let m = base.message;
    let mut moves = m.moves.clone();
    moves.extend(m.new_move);
    let mut dates = vec![PlyDates::default(); moves.len()];
    for l in letters.iter().filter(moving) {
        let msg = l.message;
        let ply = msg.moves.len(); // index of its new move
        if msg.moves.iter().zip(&moves).any(|(a, b)| a != b) || ply >= moves.len() {
            continue; // another game's, or a record that went another way
        }
        if let Some(d) = dates.get_mut(ply) {
            d.sent = msg.sent.or(l.envelope.date_sent()).or(d.sent);
            d.received = msg.received.or(d.received);
        }
        if let (Some(i), Some(s)) = (ply.checked_sub(1), msg.partner_move_sent) {
            dates[i].sent = Some(s);
        }
        let from_me = l
            .envelope
            .from
            .as_deref()
            .is_some_and(|f| f.eq_ignore_ascii_case(me));
        if !from_me && let (Some(d), Some(a)) = (dates.get_mut(ply + 1), l.arrived) {
            d.received = Some(a);
        }
    }
    let mut cc: Vec<String> = Vec::new();
    for a in letters.iter().rev().flat_map(|l| &l.cc) {
        if !cc.contains(a) {
            cc.push(a.clone());
        }
    }
    let sender = base.envelope.from.clone().map(|s| s.to_lowercase());
    let mut white_email = m.white_email.clone();
    let mut black_email = m.black_email.clone();
    // Each message's sender plays the side of the move it carries.
    for l in letters.iter().filter(moving) {
        if let Some(from) = &l.envelope.from {
            let mover = Color::from_white(l.message.moves.len() % 2 == 0);
            let slot = mover.fold_wb(&mut white_email, &mut black_email);
            slot.get_or_insert_with(|| from.to_lowercase());
        }
    }
    let theirs = sender
        .as_deref()
        .is_some_and(|s| !s.eq_ignore_ascii_case(me));
    // The letter with the record speaks first; the others where it does not say.
    let in_order = std::iter::once(base).chain(letters.iter().filter(moving));
    let language = in_order.clone().find_map(|l| style::language_of(l.text));
    let notation = in_order.clone().find_map(|l| {
        let written = [&l.message.new_move_text, &l.message.partner_move_text];
        style::notation_of(written.into_iter().flatten().map(String::as_str))
    });
    Ok(Imported {
        event: m.header.event.clone(),
        start: m.header.start,
        white: m.header.white.clone(),
        black: m.header.black.clone(),
        white_email,
        black_email,
        cc,
        moves,
        dates,
        totals: m.total_days,
        sender,
        last_received: if theirs { base.arrived } else { None },
        language,
        notation,
        ..Imported::default()
    })
}

/// Reads the date commands of one comment into `d`: `[%ccsnt 2026.03.05]` (ChessBase, Scid;
/// a time after a comma is allowed), ccmail's `[%ccrcv 2026.03.04]`, and the comment of
/// ccmail's earlier exports, `received 2026-03-04, sent 2026-03-05, 1 day(s)`.
fn read_date_comment(comment: &str, d: &mut PlyDates) {
    let mut rest = comment;
    while let Some(at) = rest.find("[%") {
        let body = &rest[at + 2..];
        let end = body.find(']').unwrap_or(body.len());
        let mut words = body[..end].split_whitespace();
        let name = words.next().unwrap_or_default();
        let value = words.next().unwrap_or_default();
        let date = pgn_date(value.split(',').next().unwrap_or_default());
        match name {
            "ccsnt" => d.sent = date.or(d.sent),
            "ccrcv" => d.received = date.or(d.received),
            _ => {}
        }
        rest = &body[end..];
    }
    // The words may be wrapped across lines: take them one by one.
    let words: Vec<&str> = comment.split_whitespace().collect();
    let word_after = |label: &str| {
        let at = words.iter().position(|w| *w == label)?;
        words
            .get(at + 1)?
            .trim_end_matches(',')
            .parse::<NaiveDate>()
            .ok()
    };
    if d.received.is_none() {
        d.received = word_after("received");
    }
    if d.sent.is_none() {
        d.sent = word_after("sent");
    }
}

/// Both players' days in ccmail's `[%cctotal 41 38]`.
fn carried_comment(comment: &str) -> Option<Totals> {
    let at = comment.find("[%cctotal")?;
    let body = &comment[at + "[%cctotal".len()..];
    let mut numbers = body[..body.find(']')?].split_whitespace().map(str::parse);
    Some(Totals {
        white: numbers.next()?.ok()?,
        black: numbers.next()?.ok()?,
    })
}

/// A PGN date `2026.03.05` (or `2026-03-05`); `None` with `??` in it.
fn pgn_date(text: &str) -> Option<NaiveDate> {
    let t = text.trim().replace('-', ".");
    NaiveDate::parse_from_str(&t, "%Y.%m.%d").ok()
}

/// A PGN `TimeControl` of one period of moves in seconds (`10/5184000`, 10 moves in 60
/// days), or ccmail's earlier `10/60d`. Anything else (lichess's `180+2`) is not a
/// correspondence control.
fn time_control(text: &str) -> Option<Control> {
    let (moves, rest) = text.split_once('/')?;
    let moves: u32 = moves.trim().parse().ok()?;
    let days = match rest.strip_suffix('d') {
        Some(d) => d.parse().ok()?,
        None => {
            let seconds: u64 = rest.split(':').next()?.parse().ok()?;
            if !seconds.is_multiple_of(86_400) {
                return None;
            }
            u32::try_from(seconds / 86_400).ok()?
        }
    };
    Control::new(moves, days).ok()
}

#[cfg(test)]
mod tests;
