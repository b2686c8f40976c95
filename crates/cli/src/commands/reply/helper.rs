//! Line editing at the prompt (rustyline): Tab completes the legal moves of the position (and
//! of the variation typed so far) and the command words, English and Russian; after a Russian
//! piece letter (Кр Ф Л С К) it offers the moves in Russian letters. While the line is one
//! legal move,
//! a hint beside it shows that move in SAN and numeric, so a numeric player sees `7163` is
//! `Nf3` before pressing Enter.

use std::borrow::Cow;

use ccmail::app::prompt::input::{is_draw_word, words};
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
            if is_draw_word(token) {
                continue;
            }
            let m = notation::read_move(&pos, token).ok()?;
            // legal: from notation::read_move in this position
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
        // A word begun in Cyrillic is a Russian piece letter (or a Russian command word).
        let russian = word.chars().next().is_some_and(|c| !c.is_ascii());
        let notations: &[Notation] = if russian {
            &[Notation::SanRu]
        } else {
            &[Notation::San, Notation::Numeric]
        };
        let lower = word.to_lowercase();
        for m in pos.legal_moves() {
            for &n in notations {
                let text = notation::write_move(&pos, m, n);
                let starts = text.starts_with(word) || text.to_lowercase().starts_with(&lower);
                if starts && !out.contains(&text) {
                    out.push(text);
                }
            }
        }
        if !word.is_empty() {
            out.extend(words().filter(|w| w.starts_with(word)).map(str::to_owned));
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

#[cfg(test)]
mod tests {
    use super::*;
    use rustyline::history::DefaultHistory;

    /// What Tab offers at the end of `line` in `pos`.
    fn tab(pos: &Chess, line: &str) -> Vec<String> {
        let helper = MoveHelper {
            pos: Some(pos.clone()),
            colour: false,
        };
        let history = DefaultHistory::new();
        let (_, got) = helper
            .complete(line, line.len(), &Context::new(&history))
            .unwrap();
        got
    }

    #[test]
    fn tab_completes_russian_piece_letters_and_russian_words() {
        let start = Chess::default();
        let rows: [(&str, &[&str]); 8] = [
            ("N", &["Na3", "Nc3", "Nf3", "Nh3"]),
            ("К", &["Кa3", "Кc3", "Кf3", "Кh3"]),
            // Typed in small letters, as the reader accepts it too.
            ("к", &["Кa3", "Кc3", "Кf3", "Кh3"]),
            ("Ф", &[]),
            ("при", &["принимаю"]),
            ("ни", &["ничью", "ничья"]),
            ("сд", &["сдаюсь"]),
            // After a move and a Russian draw word the variation goes on.
            (
                "e4 ничью e5 К",
                &["Кa3", "Кc3", "Кe2", "Кf3", "Кh3", "Крe2"],
            ),
        ];
        for (line, want) in rows {
            assert_eq!(tab(&start, line), want, "{line:?}");
        }
        // Кр is the king: after 1. e4 e5 it has one square.
        let pos = ["e4", "e5"].iter().fold(start, |p, t| {
            let m = notation::read_move(&p, t).unwrap();
            p.play(m).unwrap()
        });
        assert_eq!(tab(&pos, "Кр"), ["Крe2"]);
        assert_eq!(tab(&pos, "С"), ["Сa6", "Сb5", "Сc4", "Сd3", "Сe2"]);
    }
}
