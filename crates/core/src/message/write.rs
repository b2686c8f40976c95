//! Writing the standard form (message-form.md), in Russian or English, byte-exact.
//!
//! Every 51.2.1 item has its line: header, record, the partner's last move with the date it
//! was sent and received, our move, its send date, the thinking time and both totals, and the
//! signature. Optional lines (variation, draw, resignation, break, repeat, notes) stand after
//! `Мой ход`/`My move`, each on its own line. Single-line fields never carry a line break or
//! another control character into the text or the subject.

use std::fmt::Write as _;
use std::str::FromStr;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

use super::dates::write_date;
use super::{BreakNotice, Signature, Totals};
use crate::notation::{Notation, write_move};

const RULE: &str = "----------------------------------------";

/// The language of a game's messages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    #[default]
    Ru,
    En,
}

impl Language {
    pub fn as_str(self) -> &'static str {
        match self {
            Language::Ru => "ru",
            Language::En => "en",
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A language name that is not `ru` or `en`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown language {0:?} (expected ru or en)")]
pub struct ParseLanguageError(pub String);

impl FromStr for Language {
    type Err = ParseLanguageError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "ru" => Ok(Language::Ru),
            "en" => Ok(Language::En),
            other => Err(ParseLanguageError(other.to_owned())),
        }
    }
}

/// The dates of the partner's last move, as we confirm them (51.2.1 items 3 and 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartnerMove {
    pub sent: NaiveDate,
    pub received: NaiveDate,
    /// How many moves at the end of the record are the partner's variation, accepted by
    /// this message (51.3.8): the partner's own last move is the one before them.
    pub accepted: usize,
}

/// Everything one outgoing message says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    pub language: Language,
    pub notation: Notation,
    pub event: String,
    pub start: NaiveDate,
    pub white: String,
    pub black: String,
    /// The record: every move so far, up to and including the partner's last one.
    pub moves: Vec<Move>,
    /// The dates of the partner's last move (`None` before any partner move).
    pub partner: Option<PartnerMove>,
    pub my_move: Option<Move>,
    /// A conditional continuation after `my_move`: the partner's reply, ours, … (51.3.7).
    pub variation: Vec<Move>,
    pub draw_offer: bool,
    pub draw_accept: bool,
    pub resign: bool,
    pub break_notice: Option<BreakNotice>,
    /// Set on a repeat (51.5.1): the date the repeated move was first sent.
    pub repeat_of: Option<NaiveDate>,
    /// Statements under 51.2.3: substituted or corrected dates, penalties, disagreements.
    pub notes: Vec<String>,
    /// The send date of this message.
    pub sent: NaiveDate,
    /// The thinking days of `my_move` (the line is written only with a move).
    pub move_days: u32,
    pub totals: Totals,
    pub signature: Signature,
}

struct Words {
    event: &'static str,
    start: &'static str,
    white: &'static str,
    black: &'static str,
    moves: &'static str,
    your_move: &'static str,
    sent_suffix: &'static str,
    received: &'static str,
    my_move: &'static str,
    variation: &'static str,
    draw_offer: &'static str,
    draw_accept: &'static str,
    resign: &'static str,
    notes: &'static str,
    sent: &'static str,
    move_days: &'static str,
    totals: &'static str,
    white_lower: &'static str,
    black_lower: &'static str,
}

const RU: Words = Words {
    event: "Турнир",
    start: "Старт",
    white: "Белые",
    black: "Черные",
    moves: "Ходы",
    your_move: "Ваш ход",
    sent_suffix: "отправлен",
    received: "Получен",
    my_move: "Мой ход",
    variation: "Вариант",
    draw_offer: "Предлагаю ничью",
    draw_accept: "Ничья принята",
    resign: "Сдаюсь",
    notes: "Замечания",
    sent: "Отправлен",
    move_days: "Время на ход",
    totals: "Итого дней",
    white_lower: "белые",
    black_lower: "черные",
};

const EN: Words = Words {
    event: "Event",
    start: "Start",
    white: "White",
    black: "Black",
    moves: "Moves",
    your_move: "Your move",
    sent_suffix: "sent",
    received: "Received",
    my_move: "My move",
    variation: "Variation",
    draw_offer: "I offer a draw",
    draw_accept: "Draw accepted",
    resign: "I resign",
    notes: "Notes",
    sent: "Sent",
    move_days: "Time for this move",
    totals: "Total days",
    white_lower: "White",
    black_lower: "Black",
};

impl Outgoing {
    fn words(&self) -> &'static Words {
        match self.language {
            Language::Ru => &RU,
            Language::En => &EN,
        }
    }

    fn date(&self, date: NaiveDate) -> String {
        write_date(date, self.language == Language::Ru)
    }
}

/// The body of the message in the standard form, ending with a line break.
pub fn write(o: &Outgoing) -> String {
    let w = o.words();
    let mut s = String::with_capacity(512 + o.moves.len() * 8);
    let _ = writeln!(s, "{}: {}", w.event, one_line(&o.event));
    let _ = writeln!(s, "{}: {}", w.start, o.date(o.start));
    let _ = writeln!(s, "{}: {}", w.white, one_line(&o.white));
    let _ = writeln!(s, "{}: {}", w.black, one_line(&o.black));
    s.push_str(RULE);
    s.push('\n');

    let mut pos = Chess::default();
    if !o.moves.is_empty() {
        let named = o.partner.map_or(0, |p| p.accepted);
        let (record, before_last) = numbered(&mut pos, &o.moves, o.notation, named);
        let _ = writeln!(s, "{}: {record}", w.moves);
        if let Some(partner) = o.partner {
            let _ = writeln!(
                s,
                "{} {before_last} {}: {}",
                w.your_move,
                w.sent_suffix,
                o.date(partner.sent)
            );
            let _ = writeln!(s, "{}: {}", w.received, o.date(partner.received));
        }
    }
    if let Some(m) = o.my_move {
        let mut after = pos.clone();
        let (mine, _) = numbered(&mut after, &[m], o.notation, 0);
        let _ = writeln!(s, "{}: {mine}", w.my_move);
        if !o.variation.is_empty() {
            let (variation, _) = numbered(&mut after, &o.variation, o.notation, 0);
            let _ = writeln!(s, "{}: {variation}", w.variation);
        }
    }
    for (on, text) in [
        (o.draw_offer, w.draw_offer),
        (o.draw_accept, w.draw_accept),
        (o.resign, w.resign),
    ] {
        if on {
            s.push_str(text);
            s.push('\n');
        }
    }
    if let Some(b) = o.break_notice {
        let _ = writeln!(s, "{}", break_phrase(o.language, b.from, b.to));
    }
    if let Some(date) = o.repeat_of {
        let _ = match o.language {
            Language::Ru => writeln!(s, "ПОВТОР хода от {}", o.date(date)),
            Language::En => writeln!(s, "REPEAT of the move sent {}", o.date(date)),
        };
    }
    if !o.notes.is_empty() {
        let _ = writeln!(s, "{}:", w.notes);
        for note in &o.notes {
            let _ = writeln!(s, "- {}", one_line(note));
        }
    }
    let _ = writeln!(s, "{}: {}", w.sent, o.date(o.sent));
    if o.my_move.is_some() {
        let _ = writeln!(s, "{}: {}", w.move_days, o.move_days);
    }
    let _ = writeln!(
        s,
        "{}: {} {}, {} {}",
        w.totals, w.white_lower, o.totals.white, w.black_lower, o.totals.black
    );
    s.push_str(RULE);
    s.push('\n');
    let _ = match &o.signature.email {
        Some(email) => writeln!(s, "{} <{}>", one_line(&o.signature.name), one_line(email)),
        None => writeln!(s, "{}", one_line(&o.signature.name)),
    };
    s
}

/// The break phrase of 10.4.3, both days included: `Беру перерыв с 10.10.2026 по 25.10.2026`.
pub fn break_phrase(language: Language, from: NaiveDate, to: NaiveDate) -> String {
    match language {
        Language::Ru => format!(
            "Беру перерыв с {} по {}",
            write_date(from, true),
            write_date(to, true)
        ),
        Language::En => format!(
            "Taking a break from {} to {}",
            write_date(from, false),
            write_date(to, false)
        ),
    }
}

/// The subject: `Кубок клуба 2026: Иванов – Петров, 3... 1716`.
pub fn subject(o: &Outgoing) -> String {
    let mut s = String::new();
    if o.repeat_of.is_some() {
        s.push_str(match o.language {
            Language::Ru => "ПОВТОР: ",
            Language::En => "REPEAT: ",
        });
    }
    let _ = write!(
        s,
        "{}: {} – {}",
        one_line(&o.event),
        one_line(&o.white),
        one_line(&o.black)
    );
    let w = o.words();
    let tail = if let Some(m) = o.my_move {
        let mut pos = super::play_all(&o.moves);
        Some(numbered(&mut pos, &[m], o.notation, 0).0)
    } else if o.resign {
        Some(w.resign.to_lowercase())
    } else if o.draw_accept {
        Some(w.draw_accept.to_lowercase())
    } else {
        None
    };
    if let Some(tail) = tail {
        let _ = write!(s, ", {tail}");
    }
    s
}

/// Moves from `pos` with numbers (`1. 5254 5755 2. 7163`, `3... 1716`), advancing `pos`.
/// Also returns the last move with its own number (`3. 6125`, `15... 2635`).
/// `moves` numbered from `pos` as a record, and the move `back` places before the last one
/// (0: the last) with its number.
fn numbered(pos: &mut Chess, moves: &[Move], notation: Notation, back: usize) -> (String, String) {
    let mut out = String::new();
    let mut last = String::new();
    let named = moves.len().saturating_sub(back + 1);
    for (i, &m) in moves.iter().enumerate() {
        let number = pos.fullmoves();
        let white = pos.turn().is_white();
        let text = write_move(pos, m, notation);
        if white {
            let _ = write!(out, "{}{number}. {text}", if i > 0 { " " } else { "" });
            if i == named {
                last = format!("{number}. {text}");
            }
        } else {
            if i == 0 {
                let _ = write!(out, "{number}... {text}");
            } else {
                let _ = write!(out, " {text}");
            }
            if i == named {
                last = format!("{number}... {text}");
            }
        }
        // legal: the outgoing message's moves, each found legal in turn from `pos`
        pos.play_unchecked(m);
    }
    (out, last)
}

/// A single-line field: control characters (CR, LF, tab, …) become spaces.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests;
