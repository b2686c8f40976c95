//! Line editing at the prompt (rustyline): Tab completes the legal moves of the position (and
//! of the variation typed so far) and the command words; while the line is one legal move,
//! a hint beside it shows that move in SAN and numeric, so a numeric player sees `7163` is
//! `Nf3` before pressing Enter.

use std::borrow::Cow;

use ccmail::app::prompt::input::WORDS;
use ccmail_core::notation::{self, Notation, strip_move_number};
use rustyline::completion::Completer;
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hint, Hinter};
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use shakmaty::{Chess, Position};

/// The position the line is typed against (none at the confirmation question).
#[derive(Debug, Default)]
pub struct MoveHelper {
    pub pos: Option<Chess>,
    pub colour: bool,
}

impl MoveHelper {
    /// The position after the words before the cursor's word, if they are all moves (or
    /// move numbers, or `draw`); `None` once a note starts or a word is not a move.
    fn position_at(&self, before: &str) -> Option<Chess> {
        let mut pos = self.pos.clone()?;
        for token in before.split_whitespace() {
            let token = match strip_move_number(token) {
                Some((_, _, "")) => continue,
                Some((_, _, rest)) => rest,
                None => token,
            };
            if token.eq_ignore_ascii_case("draw") {
                continue;
            }
            let m = notation::read_move(&pos, token).ok()?;
            pos.play_unchecked(m);
        }
        Some(pos)
    }
}

impl Completer for MoveHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        cursor: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..cursor]
            .rfind(char::is_whitespace)
            .map_or(0, |i| i + 1);
        let word = &line[start..cursor];
        let Some(pos) = self.position_at(&line[..start]) else {
            return Ok((start, Vec::new()));
        };
        let mut out: Vec<String> = Vec::new();
        for m in pos.legal_moves() {
            for n in [Notation::San, Notation::Numeric] {
                let text = notation::write_move(&pos, m, n);
                if text.starts_with(word) && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
        if !word.is_empty() {
            out.extend(
                WORDS
                    .iter()
                    .filter(|w| w.starts_with(word))
                    .map(|w| w.to_string()),
            );
        }
        out.sort();
        Ok((start, out))
    }
}

/// The hint beside a legal move: shown, never inserted into the line.
#[derive(Debug)]
pub struct MoveHint(String);

impl Hint for MoveHint {
    fn display(&self) -> &str {
        &self.0
    }

    fn completion(&self) -> Option<&str> {
        None
    }
}

impl Hinter for MoveHelper {
    type Hint = MoveHint;

    fn hint(&self, line: &str, cursor: usize, _ctx: &Context<'_>) -> Option<MoveHint> {
        if cursor < line.len() {
            return None;
        }
        let pos = self.pos.as_ref()?;
        let token = line.trim();
        if token.is_empty() || token.contains(char::is_whitespace) {
            return None;
        }
        let m = notation::read_move(pos, token).ok()?;
        let san = notation::write_move(pos, m, Notation::San);
        let numeric = notation::write_move(pos, m, Notation::Numeric);
        let padding = if line.ends_with(' ') { "" } else { "  " };
        Some(MoveHint(format!("{padding}= {san} ({numeric})")))
    }
}

impl Highlighter for MoveHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.colour {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        false
    }
}

impl Validator for MoveHelper {}

impl Helper for MoveHelper {}
