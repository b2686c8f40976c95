//! Writing PGN: the finished game for the arbiter (51.9.1) and `ccmail export --pgn`.
//!
//! Tags in the Seven Tag Roster order, then any others; movetext in SAN with check signs,
//! optional `{comments}` after moves (dates, days), wrapped at 80 columns.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

/// A game to write.
#[derive(Debug, Clone, Default)]
pub struct PgnGame {
    /// Tags in the order to write them; the Seven Tag Roster should come first.
    pub tags: Vec<(String, String)>,
    pub moves: Vec<Move>,
    /// A comment after each move (same index), if any.
    pub comments: Vec<Option<String>>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// The PGN text, ending with a blank line.
pub fn write(game: &PgnGame) -> String {
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
    let mut tokens: Vec<String> = Vec::new();
    let mut pos = Chess::default();
    for (i, &m) in game.moves.iter().enumerate() {
        if pos.turn().is_white() {
            tokens.push(format!("{}.", pos.fullmoves()));
        } else if i == 0 || game.comments.get(i - 1).is_some_and(Option::is_some) {
            tokens.push(format!("{}...", pos.fullmoves()));
        }
        tokens.push(SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string());
        if let Some(Some(comment)) = game.comments.get(i) {
            let clean = comment.replace(['{', '}'], "");
            let mut words = clean.split_whitespace();
            if let Some(first) = words.next() {
                tokens.push(format!("{{{first}"));
                tokens.extend(words.map(str::to_owned));
                if let Some(last) = tokens.last_mut() {
                    last.push('}');
                }
            }
        }
    }
    tokens.push(game.result.clone());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 80 {
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
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::read_move;

    #[test]
    fn tags_movetext_comments_and_wrapping() {
        let mut pos = Chess::default();
        let moves: Vec<Move> = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"]
            .iter()
            .map(|t| {
                let m = read_move(&pos, t).unwrap();
                pos.play_unchecked(m);
                m
            })
            .collect();
        let mut comments = vec![None; 7];
        comments[1] = Some("sent 2026-03-02, 1 day".to_owned());
        let game = PgnGame {
            tags: vec![
                ("Event".into(), "Кубок \"Ладья\"".into()),
                ("Result".into(), "1-0".into()),
            ],
            moves,
            comments,
            result: "1-0".into(),
        };
        assert_eq!(
            write(&game),
            "[Event \"Кубок \\\"Ладья\\\"\"]\n[Result \"1-0\"]\n\n\
             1. e4 e5 {sent 2026-03-02, 1 day} 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
        );
    }

    #[test]
    fn long_games_wrap_at_80_columns() {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        for _ in 0..30 {
            for t in ["Nf3", "Nf6", "Ng1", "Ng8"] {
                let m = read_move(&pos, t).unwrap();
                pos.play_unchecked(m);
                moves.push(m);
            }
        }
        let text = write(&PgnGame {
            moves,
            result: "*".into(),
            ..PgnGame::default()
        });
        assert!(text.lines().all(|l| l.len() <= 80));
        assert!(text.trim_end().ends_with("Ng8 *"));
    }
}
