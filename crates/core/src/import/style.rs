//! The language and notation a letter is written in: an imported game answers its partner as
//! his letters speak, not as the player's config says new games do.
//!
//! The language is the labels' (`Ходы:`, `Мой ход`, `Отправлен` against `Moves:`, `My move`,
//! `Sent`): a name or a greeting in the other script does not decide it. The notation is the
//! first move written that only one notation writes that way: four or five digits (numeric),
//! a Russian piece letter or a `:` capture (Russian SAN), a Latin piece letter or an `x`
//! capture (SAN). A pawn's `e4` is written alike in both SANs and decides nothing.

use crate::message::Language;
use crate::notation::Notation;

/// The labels of the standard form (51.2) at the start of a line, by language, lower case.
const RUSSIAN: &[&str] = &[
    "ходы",
    "мой ход",
    "ваш ход",
    "турнир",
    "старт",
    "отправлен",
    "получен",
    "итого",
    "время на ход",
    "белые",
    "черные",
    "чёрные",
];
const ENGLISH: &[&str] = &[
    "moves",
    "my move",
    "your move",
    "event",
    "start",
    "sent",
    "received",
    "total days",
    "time for this move",
    "white",
    "black",
];

/// The language of a letter's text, by its labels; `None` when they don't say.
pub fn language_of(text: &str) -> Option<Language> {
    let mut ru = 0usize;
    let mut en = 0usize;
    for line in text.lines() {
        let line = line.trim_start().to_lowercase();
        let labelled = |labels: &[&str]| labels.iter().any(|l| line.starts_with(l));
        if labelled(RUSSIAN) {
            ru += 1;
        } else if labelled(ENGLISH) {
            en += 1;
        }
    }
    match ru.cmp(&en) {
        std::cmp::Ordering::Greater => Some(Language::Ru),
        std::cmp::Ordering::Less => Some(Language::En),
        std::cmp::Ordering::Equal => None,
    }
}

/// The notation of the first of `moves` (moves as written, a move number allowed before
/// each) that only one notation writes that way; `None` when none does.
pub fn notation_of<'a>(moves: impl IntoIterator<Item = &'a str>) -> Option<Notation> {
    moves
        .into_iter()
        .flat_map(str::split_whitespace)
        .find_map(|token| notation_of_move(without_number(token)))
}

/// `20...Кf3` → `Кf3`; `20.` → ``.
fn without_number(token: &str) -> &str {
    let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    }
}

fn notation_of_move(m: &str) -> Option<Notation> {
    let m = m.trim_end_matches(['+', '#', '!', '?', ',', ';']);
    if (4..=5).contains(&m.len()) && m.bytes().all(|b| b.is_ascii_digit()) {
        return Some(Notation::Numeric);
    }
    let first = m.chars().next()?;
    if matches!(first, 'К' | 'Л' | 'С' | 'Ф') || (m.contains(':') && m.len() <= 8) {
        return Some(Notation::SanRu);
    }
    let san_shape = m
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, 'x' | '=' | '-'));
    if san_shape && (matches!(first, 'N' | 'B' | 'R' | 'Q' | 'K') || m.contains('x')) {
        return Some(Notation::San);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_language_is_the_labels() {
        for (text, language) in [
            (
                "Ходы: 1. 5254\nМой ход: 1... 5755\nОтправлен: 02.03.2026\n",
                Some(Language::Ru),
            ),
            (
                "Dear Pyotr,\nMoves: 1. e4\nMy move: 1... c5\nSent: 2026-03-02\n",
                Some(Language::En),
            ),
            (
                "Moves: 1. e4\nMy move: 1... c5\n\nПетров Пётр\n",
                Some(Language::En),
            ),
            (
                "Привет!\nТурнир: Cup\nМой ход: 1... c5\nRegards\n",
                Some(Language::Ru),
            ),
            ("1. e4 c5 *\n", None),
        ] {
            assert_eq!(language_of(text), language, "{text}");
        }
    }

    #[test]
    fn the_notation_is_the_first_move_only_one_writes_so() {
        for (moves, notation) in [
            (vec!["20... 5767"], Some(Notation::Numeric)),
            (vec!["20. 4436"], Some(Notation::Numeric)),
            (vec!["17181"], Some(Notation::Numeric)),
            (vec!["15.Кd2", "e4"], Some(Notation::SanRu)),
            (vec!["e:d5"], Some(Notation::SanRu)),
            (vec!["Nf3+"], Some(Notation::San)),
            (vec!["exd5"], Some(Notation::San)),
            (vec!["1...e5", "2.Nf3"], Some(Notation::San)),
            (vec!["e4"], None),
            (vec!["O-O"], None),
            (vec![], None),
        ] {
            assert_eq!(notation_of(moves.iter().copied()), notation, "{moves:?}");
        }
    }
}
