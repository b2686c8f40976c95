//! The board as text, from either side, for `parse`, `show` and the prompt.
//!
//! Unicode pieces (♔…♟) or ASCII letters (K…p); the last move's squares can be marked. Colour
//! is the caller's business: this only lays out characters.

use shakmaty::{Chess, Color, File, Move, Position, Rank, Square};

/// How to draw the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyphs {
    /// ♔♕♖♗♘♙ ♚♛♜♝♞♟, `·` for an empty square.
    Unicode,
    /// KQRBNP kqrbnp, `.` for an empty square.
    Ascii,
}

/// Draws `pos` with `side` at the bottom, files and ranks labelled. Squares of `last` are
/// bracketed (`[♘]`) so the move stands out without colour.
pub fn render(pos: &Chess, side: Color, glyphs: Glyphs, last: Option<(Square, Square)>) -> String {
    let ranks: Vec<Rank> = match side {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let files: Vec<File> = match side {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let mut out = String::new();
    for &rank in &ranks {
        out.push(rank.char());
        out.push(' ');
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            let glyph = match pos.board().piece_at(sq) {
                Some(p) => match glyphs {
                    Glyphs::Unicode => unicode(p.color, p.role.char()),
                    Glyphs::Ascii => p.char(),
                },
                None => match glyphs {
                    Glyphs::Unicode => '·',
                    Glyphs::Ascii => '.',
                },
            };
            let marked = last.is_some_and(|(a, b)| a == sq || b == sq);
            let (l, r) = if marked { ('[', ']') } else { (' ', ' ') };
            out.push(l);
            out.push(glyph);
            out.push(r);
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("  ");
    for &file in &files {
        out.push(' ');
        out.push(file.char());
        out.push(' ');
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// The from- and to-square of a move as a person sees it (castling: the king's).
pub fn squares(pos_before: &Chess, m: Move) -> Option<(Square, Square)> {
    let to = match m.castling_side() {
        Some(side) => side.king_to(pos_before.turn()),
        None => m.to(),
    };
    Some((m.from()?, to))
}

fn unicode(color: Color, role: char) -> char {
    let white = "♔♕♖♗♘♙";
    let black = "♚♛♜♝♞♟";
    let i = "kqrbnp".find(role).unwrap_or(5);
    let set = if color.is_white() { white } else { black };
    set.chars().nth(i).unwrap_or('?')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::read_move;

    #[test]
    fn initial_position_from_both_sides() {
        let pos = Chess::default();
        let white = render(&pos, Color::White, Glyphs::Ascii, None);
        assert_eq!(white.lines().next(), Some("8  r  n  b  q  k  b  n  r"));
        assert_eq!(white.lines().last(), Some("   a  b  c  d  e  f  g  h"));
        let black = render(&pos, Color::Black, Glyphs::Unicode, None);
        assert_eq!(black.lines().next(), Some("1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖"));
        assert_eq!(black.lines().last(), Some("   h  g  f  e  d  c  b  a"));
    }

    #[test]
    fn last_move_is_bracketed() {
        let pos = Chess::default();
        let m = read_move(&pos, "Nf3").unwrap();
        let last = squares(&pos, m);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let text = render(&after, Color::White, Glyphs::Ascii, last);
        assert_eq!(text.lines().nth(5), Some("3  .  .  .  .  . [N] .  ."));
        assert_eq!(text.lines().nth(7), Some("1  R  N  B  Q  K  B [.] R"));
    }
}
