//! What a PGN in a message means for the move message: a body's PGN gathered line by line and
//! read whole by [`pgn_text`], the attached ones, whose colour the sender plays, and which
//! comments are the sender's new word.
//!
//! message-form.md: the last PGN move is the sender's new move only when it is the sender's
//! colour (WhiteNA/BlackNA name the From address, or the White/Black tag the From name) — a
//! resigning sender's PGN may end with the recipient's move. A comment speaks for the side
//! it names, or else for the side whose move it follows; only those after the last move are
//! new (an old offer further up the record is not the sender's new one).

use shakmaty::{Chess, Color, Move, Position};

use super::pgn_text::{self, Game};
use super::{Line, Reader, Words, fold, is_letter, is_move_line, strip_brackets};
use crate::message::{Envelope, ProblemCode};
use crate::notation;

/// A PGN of the body, from its first tag line on, while its lines come in.
#[derive(Debug, Default)]
pub(super) struct PgnBlock {
    text: String,
    /// Inside a `{…}` comment at the end of the text so far.
    in_comment: bool,
    /// A line of movetext has come.
    movetext: bool,
}

impl PgnBlock {
    /// Whether `text`, the next line, is still the PGN: anything inside a comment; tag lines
    /// and blank lines before the movetext; lines of movetext, comments and escapes.
    fn takes(&self, text: &str) -> bool {
        if self.in_comment {
            return true;
        }
        if text.is_empty() || is_tag_line(text) {
            return !self.movetext;
        }
        if text.starts_with(['%', ';']) {
            return true;
        }
        let mut comments = String::new();
        let plain = strip_brackets(&text.replace('}', "} "), &mut comments);
        let plain = plain.split(';').next().unwrap_or("");
        plain.trim().is_empty() || is_move_line(plain)
    }

    fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
        if text.is_empty() || text.starts_with('%') {
            return;
        }
        self.movetext |= !is_tag_line(text);
        for c in text.chars() {
            match c {
                '}' if self.in_comment => self.in_comment = false,
                '{' if !self.in_comment => self.in_comment = true,
                ';' if !self.in_comment && self.movetext => break,
                _ => {}
            }
        }
    }
}

/// Whether a line is PGN tag pairs: `[Name "value"]`, one or several.
pub(super) fn is_tag_line(text: &str) -> bool {
    let Some(inner) = text.strip_prefix('[') else {
        return false;
    };
    let name = inner
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    name > 0 && inner[name..].trim_start().starts_with('"') && text.ends_with(']')
}

/// The side that made the `n`th move of a game (none before the first).
fn mover_of(n: usize) -> Option<Color> {
    match n {
        0 => None,
        n if n % 2 == 1 => Some(Color::White),
        _ => Some(Color::Black),
    }
}

/// The words of a name, folded, of two letters or more: `Holm, Anders` → `holm`, `anders`.
fn name_words(name: &str) -> Vec<String> {
    fold(name)
        .split(|c: char| !is_letter(c))
        .filter(|w| w.chars().count() >= 2)
        .map(str::to_owned)
        .collect()
}

impl Reader {
    /// Takes a line into the body's PGN, if it is one of it; whether it was.
    pub(super) fn pgn_block_line(&mut self, text: &str) -> bool {
        if let Some(block) = &mut self.pgn_block {
            if block.takes(text) {
                block.push(text);
                return true;
            }
            self.end_pgn_block();
        }
        if is_tag_line(text) {
            let mut block = PgnBlock::default();
            block.push(text);
            self.pgn_block = Some(block);
            return true;
        }
        false
    }

    /// Reads the body's PGN gathered so far: its tags, and its game if it is the first.
    fn end_pgn_block(&mut self) {
        let Some(block) = self.pgn_block.take() else {
            return;
        };
        if let Some(game) = self.pgn_game(&block.text) {
            self.body_game.get_or_insert(game);
        }
    }

    /// A PGN text's game (its tags taken into the header); a broken one is a problem.
    fn pgn_game(&mut self, text: &str) -> Option<Game> {
        match pgn_text::read_pgn(text) {
            Ok(game) => {
                let game = game?;
                for (name, value) in &game.tags {
                    self.tag(name, value.trim());
                }
                game.has_moves().then_some(game)
            }
            Err(e) => {
                if !self.msg.problems.iter().any(|p| p.detail == e) {
                    // pgn-reader's own words, in both.
                    self.problem(ProblemCode::IllegibleMove, e.clone(), e);
                }
                None
            }
        }
    }

    /// After the body's last line: its PGN and the attached ones, then what the whole
    /// message decides — whose the record's last move is, and a new move written twice.
    pub(super) fn pgn_parts(&mut self, pgn: &[String], envelope: &Envelope) {
        self.end_pgn_block();
        let mut game = self.body_game.take();
        for part in pgn {
            if let Some(g) = self.pgn_game(part) {
                game.get_or_insert(g);
            }
        }
        let sender = self.sender_colour(envelope);
        // A chess program's game is written as a move message, whatever else it lacks.
        self.msg.labelled |= game.is_some() || !pgn.is_empty();
        if let Some(game) = game.filter(|_| self.record.trim().is_empty()) {
            self.pgn_record(&game);
            self.pgn_comments(&game, sender);
        }
        self.sender = sender;
    }

    /// The game's main line as the record, in SAN; the moves from one that can't be played
    /// on as written, for the replay to name it.
    fn pgn_record(&mut self, game: &Game) {
        let mut pos = Chess::default();
        let mut text = String::new();
        for &m in &game.moves {
            text.push(' ');
            text.push_str(&notation::san(&pos, m));
            // legal: the main line, found by notation::read_move in turn from the start
            pos.play_unchecked(m);
        }
        for written in &game.unplayed {
            text.push(' ');
            text.push_str(written);
        }
        self.record_text(&text);
        self.pgn = true;
    }

    /// The sender's new word in the comments after the game's last move.
    fn pgn_comments(&mut self, game: &Game, sender: Option<Color>) {
        let last = game.plies();
        for (_, text) in game.comments.iter().filter(|(after, _)| *after == last) {
            let line = Line::new(text);
            if line.has(Words::Decline) {
                continue;
            }
            // An agreement is both sides' word.
            if line.has(Words::DrawAccept) {
                self.msg.draw_accept = true;
                continue;
            }
            let named = match (line.has(Words::White), line.has(Words::Black)) {
                (true, false) => Some(Color::White),
                (false, true) => Some(Color::Black),
                _ => None,
            };
            let side = named.or(mover_of(last));
            if sender.is_some() && side.is_some() && side != sender {
                continue;
            }
            self.msg.draw_offer |= line.has(Words::DrawOffer);
            self.msg.resign |= line.has(Words::Resign);
        }
    }

    /// The sender's colour, as a PGN tells it: the address in WhiteNA or BlackNA, else the
    /// From name in the White or Black tag (more of its words in one than in the other).
    fn sender_colour(&self, envelope: &Envelope) -> Option<Color> {
        let from = envelope.from.as_deref().map(str::trim);
        let is_from = |na: &Option<String>| {
            na.as_deref()
                .zip(from)
                .is_some_and(|(na, from)| na.trim().eq_ignore_ascii_case(from))
        };
        match (
            is_from(&self.msg.white_email),
            is_from(&self.msg.black_email),
        ) {
            (true, false) => return Some(Color::White),
            (false, true) => return Some(Color::Black),
            _ => {}
        }
        let name = name_words(envelope.from_name.as_deref()?);
        let shared = |tag: &Option<String>| {
            tag.as_deref().map_or(0, |t| {
                name_words(t).iter().filter(|w| name.contains(w)).count()
            })
        };
        let [white, black] = &self.pgn_players;
        match shared(white).cmp(&shared(black)) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// A record whose last move would be taken for the new move, when that move is not the
    /// sender's colour: the record ends with the recipient's move, and there is no new one.
    pub(super) fn last_move_if_the_sender_s(&mut self, moves: usize) {
        let Some(sender) = self.sender else {
            return;
        };
        let takes_last = self.my_move.is_none() && (!self.standard || self.pgn);
        if takes_last && mover_of(moves).is_some_and(|last| last != sender) {
            self.standard = true;
            self.pgn = false;
        }
    }

    /// Whether the record, `tokens` long and read through up to `pos` (before its last move,
    /// `last`), already ends with the sender's new move, repeated on the move line: then the
    /// move counts once, on the move line.
    pub(super) fn repeats_new_move(&self, tokens: usize, pos: &Chess, last: Move) -> bool {
        let Some(mine) = self.my_move.as_deref() else {
            return false;
        };
        // Numbered, the move line says whose move it is: a record that ends with the other
        // side's move (both castled, say) does not repeat it.
        if self
            .my_move_side
            .is_some_and(|side| mover_of(tokens) != Some(side))
        {
            return false;
        }
        notation::read_move(pos, mine).is_ok_and(|m| m == last)
    }
}
