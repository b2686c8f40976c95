//! Writing PGN: the finished game for the arbiter (51.9.1), the adjudication package (51.9.4)
//! and `ccmail export --pgn`, in the form chess programs read.
//!
//! Tags in the Seven Tag Roster order, then the others; movetext in SAN with check signs,
//! `{comments}` after moves, variations in parentheses, wrapped at 80 columns. Every move is
//! checked against the position it is played in: an illegal one is an error, never text.
//!
//! # The documented format
//!
//! The tags ccmail writes, in this order (empty values left out):
//!
//! ```text
//! [Event "…"] [Site "Email"] [Date "2026.03.01"] [Round "-"] [White "…"] [Black "…"]
//! [Result "1-0"] [EventDate "2026.03.01"] [Mode "EM"] [WhiteNA "…"] [BlackNA "…"]
//! [TimeControl "10/5184000"] [Termination "normal"]
//! ```
//!
//! - `Date` and `EventDate` are the game's start date, `YYYY.MM.DD`.
//! - `TimeControl` is PGN's "moves/seconds" (standard 9.6.1): 10 moves in 60 days is
//!   `10/5184000`, one period that repeats.
//! - `Termination` is one of PGN's values: `normal` (checkmate, stalemate, resignation,
//!   agreement), `time forfeit`, `adjudication` (the arbiter decided) or `unterminated` (the
//!   game goes on). How it ended is said in words in a comment after the last move:
//!   `{Checkmate}`, `{Stalemate}`, `{Draw by insufficient material}`, `{White resigns}`,
//!   `{Draw agreed}`, `{Black lost on time}`, `{Decided by the arbiter}`.
//!
//! Each move of the game is followed by one comment with its dates:
//!
//! ```text
//! 5. Nf3 {[%ccsnt 2026.03.05] [%ccrcv 2026.03.04] [%ccdays 1]}
//! ```
//!
//! - `[%ccsnt YYYY.MM.DD]`: the date the move was sent (the command ChessBase and Scid read);
//! - `[%ccrcv YYYY.MM.DD]`: the date the mover received the previous move (for the first
//!   move of the game: the start date);
//! - `[%ccdays N]`: the days charged to the mover for this move.
//!
//! A game brought in already under way (`ccmail game import`) may have moves whose dates are
//! not known: they have no comment, and the last of them has its dates and both players' days
//! by then, which stand for theirs (White 41, Black 38):
//! `20... Nf6 {[%ccsnt 2026.06.24] [%ccrcv 2026.06.22] [%cctotal 41 38]}`.
//!
//! The three commands always come in this order, in one comment, separated by one space; a
//! line break may fall between two commands, never inside one. A variation offered in the
//! game follows the move it replaces, in parentheses, from that move's number:
//! `5. Nf3 {…} (5. Nc3 Nc6) 5... Nc6`. A variation offered after the last move played is
//! written as a comment after it: `{Variation offered: 12... Nf6 13. Nc3}`.

use chrono::NaiveDate;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{Chess, Color, Move, Position};

/// A game to write.
#[derive(Debug, Clone, Default)]
pub struct PgnGame {
    /// Tags in the order to write them; the Seven Tag Roster should come first.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<Move>,
    /// A comment after each move (same index), if any.
    pub comments: Vec<Option<String>>,
    /// The variations, written where they branch from `moves`.
    pub variations: Vec<Rav>,
    /// A comment after the last move (how the game ended, in words).
    pub final_comment: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// A variation: `moves` played instead of the game's moves from index `at` (0 is the first
/// move of the game). `at` may be the number of moves played: a variation offered after the
/// last move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rav {
    pub at: usize,
    pub moves: Vec<Move>,
}

/// A game that can't be written: a move is not legal where it stands.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("move {ply} of the game is not legal in its position")]
    IllegalMove { ply: usize },
    #[error("the variation from move {ply} has a move that is not legal in its position")]
    IllegalVariation { ply: usize },
    #[error("a variation starts at move {ply}, but the game has only {len} moves")]
    VariationTooFar { ply: usize, len: usize },
}

/// How a game ended, for `Termination` and the words after the last move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    /// This side resigned.
    Resignation(Color),
    Agreement,
    /// This side lost on time.
    TimeForfeit(Color),
    /// The arbiter decided (51.9).
    Adjudication,
    /// The game goes on.
    Unterminated,
}

/// What is known about how a game stands, to find its [`Ending`].
#[derive(Debug, Clone, Copy)]
pub struct EndFacts<'a> {
    pub finished: bool,
    /// `1-0`, `0-1` or `1/2-1/2` when finished.
    pub result: &'a str,
    pub position: &'a Chess,
    /// A resignation was sent or received.
    pub resigned: bool,
    /// A draw was accepted by message.
    pub draw_agreed: bool,
    /// The arbiter was asked to decide (a claim or an adjudication package), or his
    /// decision came by message.
    pub adjudicated: bool,
    /// The sides whose time ran out (51.4.7: over the limit at some control).
    pub out_of_time: [bool; 2],
    /// Why the game ended, as recorded when it ended; `None` for a game that ended before
    /// ccmail recorded it, whose ending is then read from the other facts.
    pub recorded: Option<EndReason>,
}

/// Why a game ended, as the store keeps it: an [`Ending`] without its side, which is the
/// loser of the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Resignation,
    Agreement,
    TimeForfeit,
    Adjudication,
}

impl EndReason {
    const ALL: [(EndReason, &'static str); 7] = [
        (EndReason::Checkmate, "checkmate"),
        (EndReason::Stalemate, "stalemate"),
        (EndReason::InsufficientMaterial, "insufficient_material"),
        (EndReason::Resignation, "resignation"),
        (EndReason::Agreement, "agreement"),
        (EndReason::TimeForfeit, "time_forfeit"),
        (EndReason::Adjudication, "adjudication"),
    ];

    /// The arbiter's decision on a suspended game (`ccmail game decision`): a win after a
    /// time-forfeit claim (51.6) is a loss on time; anything else the arbiter gives (after an
    /// adjudication package, 51.9.4, or a draw after a claim) is an adjudication. In a
    /// friendly game the players record the result themselves: a draw is their agreement,
    /// and a win says no more than its result (`None`).
    pub fn of_decision(result: &str, after_claim: bool, friendly: bool) -> Option<EndReason> {
        let decisive = matches!(result, "1-0" | "0-1");
        Some(match (friendly, decisive, after_claim) {
            (true, false, _) => EndReason::Agreement,
            (true, true, _) => return None,
            (false, true, true) => EndReason::TimeForfeit,
            (false, _, _) => EndReason::Adjudication,
        })
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = EndReason::ALL
            .iter()
            .find(|(r, _)| r == self)
            .map_or("", |(_, n)| n);
        f.write_str(name)
    }
}

/// A stored ending that is not one of [`EndReason`]'s names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a way a game ends")]
pub struct EndReasonError(pub String);

impl std::str::FromStr for EndReason {
    type Err = EndReasonError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EndReason::ALL
            .iter()
            .find(|(_, n)| *n == s)
            .map(|(r, _)| *r)
            .ok_or_else(|| EndReasonError(s.to_owned()))
    }
}

impl Ending {
    /// The ending the facts show: the position first, then a resignation or an agreed draw,
    /// then the arbiter's message, then the clock; a draw nothing else explains is agreed, a
    /// win nothing else explains is the arbiter's (`ccmail game decision`).
    pub fn of(f: EndFacts<'_>) -> Ending {
        let loser = match f.result {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            _ => None,
        };
        if !f.finished {
            Ending::Unterminated
        } else if let Some(reason) = f.recorded {
            Ending::with_reason(reason, loser)
        } else if f.position.is_checkmate() {
            Ending::Checkmate
        } else if f.position.is_stalemate() {
            Ending::Stalemate
        } else if f.position.is_insufficient_material() && loser.is_none() {
            Ending::InsufficientMaterial
        } else if let Some(l) = loser.filter(|_| f.resigned) {
            Ending::Resignation(l)
        } else if loser.is_none() && (f.draw_agreed || !f.adjudicated) {
            // A draw neither the position nor the arbiter made is the players' agreement
            // (accepted with a move, the letter is a move's).
            Ending::Agreement
        } else if f.adjudicated {
            Ending::Adjudication
        } else if let Some(l) = loser.filter(|l| f.out_of_time[l.fold_wb(0, 1)]) {
            Ending::TimeForfeit(l)
        } else {
            Ending::Adjudication
        }
    }

    /// The ending `reason` gives, its side being `loser` (the result's); a resignation or a
    /// loss on time without a loser (a drawn result) is taken as the arbiter's.
    fn with_reason(reason: EndReason, loser: Option<Color>) -> Ending {
        match (reason, loser) {
            (EndReason::Checkmate, _) => Ending::Checkmate,
            (EndReason::Stalemate, _) => Ending::Stalemate,
            (EndReason::InsufficientMaterial, _) => Ending::InsufficientMaterial,
            (EndReason::Resignation, Some(l)) => Ending::Resignation(l),
            (EndReason::Agreement, _) => Ending::Agreement,
            (EndReason::TimeForfeit, Some(l)) => Ending::TimeForfeit(l),
            (EndReason::Resignation | EndReason::TimeForfeit, None)
            | (EndReason::Adjudication, _) => Ending::Adjudication,
        }
    }

    /// Why the game ended, to record; `None` while it goes on.
    pub fn reason(self) -> Option<EndReason> {
        Some(match self {
            Ending::Checkmate => EndReason::Checkmate,
            Ending::Stalemate => EndReason::Stalemate,
            Ending::InsufficientMaterial => EndReason::InsufficientMaterial,
            Ending::Resignation(_) => EndReason::Resignation,
            Ending::Agreement => EndReason::Agreement,
            Ending::TimeForfeit(_) => EndReason::TimeForfeit,
            Ending::Adjudication => EndReason::Adjudication,
            Ending::Unterminated => return None,
        })
    }

    /// Why a letter that ends the game ended it: the position after its move (mate,
    /// stalemate, a draw with too little material), else a resignation, else (a draw) the
    /// players' agreement.
    pub fn by_letter(position: &Chess, result: &str, resigned: bool) -> EndReason {
        let f = EndFacts {
            finished: true,
            result,
            position,
            resigned,
            draw_agreed: !resigned,
            adjudicated: false,
            out_of_time: [false; 2],
            recorded: None,
        };
        Ending::of(f).reason().unwrap_or(EndReason::Agreement)
    }

    /// PGN's `Termination` value.
    pub fn termination(self) -> &'static str {
        match self {
            Ending::Checkmate
            | Ending::Stalemate
            | Ending::InsufficientMaterial
            | Ending::Resignation(_)
            | Ending::Agreement => "normal",
            Ending::TimeForfeit(_) => "time forfeit",
            Ending::Adjudication => "adjudication",
            Ending::Unterminated => "unterminated",
        }
    }

    /// How the game ended, in words, for the comment after the last move.
    pub fn words(self) -> Option<String> {
        let side = |c: Color| if c.is_white() { "White" } else { "Black" };
        Some(match self {
            Ending::Checkmate => "Checkmate".into(),
            Ending::Stalemate => "Stalemate".into(),
            Ending::InsufficientMaterial => "Draw by insufficient material".into(),
            Ending::Resignation(c) => format!("{} resigns", side(c)),
            Ending::Agreement => "Draw agreed".into(),
            Ending::TimeForfeit(c) => format!("{} lost on time", side(c)),
            Ending::Adjudication => "Decided by the arbiter".into(),
            Ending::Unterminated => return None,
        })
    }
}

/// `TimeControl` for `moves` moves in `days` days: PGN's "moves/seconds".
pub fn time_control(moves: u32, days: u32) -> String {
    format!("{moves}/{}", u64::from(days) * 86_400)
}

/// The comment of the last move whose days are carried: its dates as the store has them, and
/// both players' days by then instead of its own.
pub fn carried_comment(sent: NaiveDate, received: NaiveDate, (white, black): (i64, i64)) -> String {
    format!(
        "[%ccsnt {}] [%ccrcv {}] [%cctotal {white} {black}]",
        sent.format("%Y.%m.%d"),
        received.format("%Y.%m.%d")
    )
}

/// A move's dates comment: `[%ccsnt 2026.03.05] [%ccrcv 2026.03.04] [%ccdays 1]`.
pub fn dates_comment(sent: NaiveDate, received: NaiveDate, days: u32) -> String {
    format!(
        "[%ccsnt {}] [%ccrcv {}] [%ccdays {days}]",
        sent.format("%Y.%m.%d"),
        received.format("%Y.%m.%d")
    )
}

/// The SAN of `m` in `pos` with its check sign; `pos` then stands after it. `None` (and
/// `pos` unchanged) when the move is not legal.
fn play(pos: &mut Chess, m: Move) -> Option<String> {
    let san = San::from_move(pos, m);
    let next = pos.clone().play(m).ok()?;
    let suffix = Suffix::from_position(&next);
    *pos = next;
    Some(SanPlus { san, suffix }.to_string())
}

/// Movetext tokens, with what is needed to number a black move after a break.
#[derive(Default)]
struct Tokens {
    list: Vec<String>,
    /// The last token closed a comment or a variation (or nothing was written yet).
    broken: bool,
}

impl Tokens {
    fn mv(&mut self, pos: &Chess, san: String) {
        if pos.turn().is_white() {
            self.list.push(format!("{}.", pos.fullmoves()));
        } else if self.broken || self.list.is_empty() {
            self.list.push(format!("{}...", pos.fullmoves()));
        }
        self.list.push(san);
        self.broken = false;
    }

    /// A comment: braces taken out, words kept together inside `[%…]` commands.
    fn comment(&mut self, text: &str) {
        let clean = text.replace(['{', '}'], "");
        let mut words: Vec<String> = Vec::new();
        let mut open = false;
        for w in clean.split_whitespace() {
            match words.last_mut() {
                Some(last) if open => {
                    last.push(' ');
                    last.push_str(w);
                }
                _ => words.push(w.to_owned()),
            }
            if w.contains("[%") {
                open = true;
            }
            if w.contains(']') {
                open = false;
            }
        }
        if words.is_empty() {
            return;
        }
        let n = words.len();
        words[0].insert(0, '{');
        words[n - 1].push('}');
        self.list.extend(words);
        self.broken = true;
    }

    /// A variation from `pos` (before the move it replaces).
    fn variation(&mut self, pos: &Chess, moves: &[Move], ply: usize) -> Result<(), WriteError> {
        let mut pos = pos.clone();
        let mut inner = Tokens::default();
        for &m in moves {
            let before = pos.clone();
            let san = play(&mut pos, m).ok_or(WriteError::IllegalVariation { ply })?;
            inner.mv(&before, san);
        }
        if let Some(first) = inner.list.first_mut() {
            first.insert(0, '(');
            if let Some(last) = inner.list.last_mut() {
                last.push(')');
            }
            self.list.extend(inner.list);
            self.broken = true;
        }
        Ok(())
    }

    /// The tokens joined and wrapped at 80 columns.
    fn wrap(self) -> String {
        let mut out = String::new();
        let mut line = String::new();
        for token in self.list {
            if !line.is_empty() && line.chars().count() + 1 + token.chars().count() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        }
        out.push_str(&line);
        out
    }
}

/// Variation moves offered after the last move, as SAN with numbers.
fn pending_words(pos: &Chess, moves: &[Move], ply: usize) -> Result<String, WriteError> {
    let mut t = Tokens::default();
    t.variation(pos, moves, ply)?;
    let text = t.list.join(" ");
    Ok(text
        .trim_start_matches('(')
        .trim_end_matches(')')
        .to_owned())
}

/// The PGN text, ending with a blank line.
pub fn write(game: &PgnGame) -> Result<String, WriteError> {
    let mut out = String::new();
    for (name, value) in &game.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        let value: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    let len = game.moves.len();
    if let Some(v) = game.variations.iter().find(|v| v.at > len) {
        return Err(WriteError::VariationTooFar { ply: v.at + 1, len });
    }
    let mut t = Tokens::default();
    let mut pos = Chess::default();
    for (i, &m) in game.moves.iter().enumerate() {
        let before = pos.clone();
        let san = play(&mut pos, m).ok_or(WriteError::IllegalMove { ply: i + 1 })?;
        t.mv(&before, san);
        if let Some(Some(comment)) = game.comments.get(i) {
            t.comment(comment);
        }
        for v in game.variations.iter().filter(|v| v.at == i) {
            t.variation(&before, &v.moves, i + 1)?;
        }
    }
    for v in game.variations.iter().filter(|v| v.at == len) {
        let words = pending_words(&pos, &v.moves, len + 1)?;
        t.comment(&format!("Variation offered: {words}"));
    }
    if let Some(c) = &game.final_comment {
        t.comment(c);
    }
    t.list.push(game.result.clone());
    out.push_str(&t.wrap());
    out.push_str("\n\n");
    Ok(out)
}

#[cfg(test)]
mod tests;
