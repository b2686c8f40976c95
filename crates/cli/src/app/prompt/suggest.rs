//! A move the player typed that does not fit the position: what is wrong (the reader's
//! words, 51.3.4's three kinds) and what was probably meant — the disambiguation an
//! ambiguous move needs, the legal moves of the piece an impossible one names, the other
//! moves to the square it names, and whether a pin or a check is what stops it.
//!
//! Suggestions are written in the notation the player typed in: numeric with the SAN beside
//! it (`7163 (Nf3)`), Russian letters (`Кf3`), or SAN.

use ccmail_core::notation::{self, MoveError, MoveErrorKind, Notation};
use shakmaty::{Chess, File, Move, Piece, Position, Rank, Role, Square, attacks};

/// At most this many moves in one list; more are counted.
const LIST: usize = 12;

/// The error in words, with what was probably meant: one paragraph.
pub fn explain(pos: &Chess, e: &MoveError) -> String {
    let mut s = crate::t!(
        "prompt-not-playable",
        typed = &e.text,
        reason = e.reason_in(crate::i18n::language())
    );
    for hint in hints(pos, e) {
        s.push(' ');
        s.push_str(&hint);
    }
    s
}

/// What the text names, read loosely: enough to find the moves it was near.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Guess {
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    to: Option<Square>,
    castle: bool,
    typed: Typed,
}

/// The notation the player typed in, for the words back.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Typed {
    #[default]
    San,
    Russian,
    Numeric,
}

impl Guess {
    fn from(&self) -> Option<Square> {
        Some(Square::from_coords(self.from_file?, self.from_rank?))
    }
}

fn guess(text: &str) -> Guess {
    let text = text.trim();
    let mut g = Guess::default();
    if text.chars().any(|c| ('А'..='Я').contains(&c)) {
        g.typed = Typed::Russian;
    }
    let core: String = text
        .chars()
        .filter_map(|c| match c {
            'а' => Some('a'),
            'с' => Some('c'),
            'е' => Some('e'),
            '+' | '#' | '!' | '?' | 'x' | 'х' | ':' | '×' | '=' | '/' | '-' | '–' | '—' => {
                None
            }
            c => Some(c),
        })
        .collect();
    if !core.is_empty() && core.bytes().all(|b| b.is_ascii_digit()) {
        g.typed = Typed::Numeric;
        let d: Vec<u32> = core.bytes().map(|b| u32::from(b - b'0')).collect();
        if d.len() >= 4 && d[..4].iter().all(|x| (1..=8).contains(x)) {
            g.from_file = Some(File::new(d[0] - 1));
            g.from_rank = Some(Rank::new(d[1] - 1));
            g.to = Some(Square::from_coords(
                File::new(d[2] - 1),
                Rank::new(d[3] - 1),
            ));
        }
        return g;
    }
    if core
        .chars()
        .all(|c| matches!(c, 'O' | 'o' | '0' | 'О' | 'о'))
        && core.len() >= 2
    {
        g.castle = true;
        g.role = Some(Role::King);
        return g;
    }
    let (role, rest) = piece_prefix(&core);
    g.role = role;
    let chars: Vec<char> = rest.chars().collect();
    let squares: Vec<usize> = (0..chars.len().saturating_sub(1))
        .filter(|&i| File::from_char(chars[i]).is_some() && Rank::from_char(chars[i + 1]).is_some())
        .collect();
    let Some(&last) = squares.last() else {
        return g;
    };
    g.to = File::from_char(chars[last])
        .zip(Rank::from_char(chars[last + 1]))
        .map(|(f, r)| Square::from_coords(f, r));
    for &c in &chars[..last] {
        if let Some(f) = File::from_char(c) {
            g.from_file = Some(f);
        } else if let Some(r) = Rank::from_char(c) {
            g.from_rank = Some(r);
        }
    }
    if g.role.is_none() && g.from().is_none() {
        g.role = Some(Role::Pawn);
    }
    g
}

/// A leading piece letter, English or Russian (the reader's own table).
fn piece_prefix(s: &str) -> (Option<Role>, &str) {
    match ccmail_core::notation::piece_prefix(s) {
        Some((role, rest)) => (Some(role), rest),
        None => (None, s),
    }
}

fn hints(pos: &Chess, e: &MoveError) -> Vec<String> {
    let g = guess(&e.text);
    match e.kind {
        MoveErrorKind::Illegible => Vec::new(),
        MoveErrorKind::Ambiguous => ambiguous(pos, &g).into_iter().collect(),
        MoveErrorKind::Impossible => impossible(pos, &g),
    }
}

/// The moves the text fits, each written so that it fits only itself.
fn ambiguous(pos: &Chess, g: &Guess) -> Option<String> {
    let to = g.to?;
    let fits: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.to() == to
                && g.role.is_none_or(|r| r == m.role())
                && g.from_file
                    .is_none_or(|f| Some(f) == m.from().map(Square::file))
                && g.from_rank
                    .is_none_or(|r| Some(r) == m.from().map(Square::rank))
        })
        .collect();
    (fits.len() > 1).then(|| {
        crate::t!(
            "prompt-write",
            moves = or_list(&written_all(pos, &fits, g.typed))
        )
    })
}

fn impossible(pos: &Chess, g: &Guess) -> Vec<String> {
    let mut out = Vec::new();
    let legal = pos.legal_moves();
    if pos.is_check() {
        out.push(crate::t!("prompt-in-check"));
    }
    let mut listed: Vec<Move> = Vec::new();
    if g.castle {
        let king: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.role() == Role::King)
            .collect();
        out.push(piece_list(pos, Who::One(Role::King), &king, g.typed));
        return out;
    }
    if let Some(from) = g.from() {
        match pos.board().piece_at(from) {
            Some(p) if p.color == pos.turn() => {
                let moves: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| m.from() == Some(from))
                    .collect();
                out.push(piece_list(pos, Who::On(p.role, from), &moves, g.typed));
                listed = moves;
            }
            _ => {
                let mut ours: Vec<String> = Vec::new();
                for sq in [g.to, Some(from)].into_iter().flatten() {
                    if pos
                        .board()
                        .piece_at(sq)
                        .is_some_and(|p| p.color == pos.turn())
                    {
                        ours.push(sq.to_string());
                    }
                }
                if let Some(to) = g.to.filter(|_| !ours.is_empty()) {
                    // From and to swapped? The piece is on the square named second.
                    let back: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| m.from() == Some(to))
                        .collect();
                    if !back.is_empty() {
                        let p = pos.board().piece_at(to).map_or(Role::Pawn, |p| p.role);
                        out.push(piece_list(pos, Who::On(p, to), &back, g.typed));
                        listed = back;
                    }
                }
            }
        }
    } else if let Some(role) = g.role {
        let moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.role() == role && role_near(m, g))
            .collect();
        let count = (pos.our(role)).count();
        if count == 0 {
            out.push(crate::t!("prompt-no-such-piece", role = role_name(role)));
        } else {
            if let Some(pinned) = pinned_piece(pos, role, g) {
                out.push(pinned);
            }
            let who = if role == Role::Pawn {
                match g.to {
                    Some(to) => Who::PawnsNear(to.file()),
                    None => Who::Pawns,
                }
            } else if count == 1 {
                Who::One(role)
            } else {
                Who::Several(role)
            };
            out.push(piece_list(pos, who, &moves, g.typed));
        }
        listed = moves;
    }
    if let Some(to) = g.to {
        let others: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.to() == to && !listed.contains(m))
            .collect();
        if !others.is_empty() {
            out.push(crate::t!(
                "prompt-moves-to",
                square = to.to_string(),
                moves = list(&written_all(pos, &others, g.typed))
            ));
        }
    }
    out
}

/// For a pawn, only the moves on or next to the file the text names.
fn role_near(m: &Move, g: &Guess) -> bool {
    if m.role() != Role::Pawn {
        return true;
    }
    match g.to {
        Some(to) => m.to().file().distance(to.file()) <= 1,
        None => true,
    }
}

/// A piece of `role` that reaches the square but may not go there: pinned, or the king is
/// in check.
fn pinned_piece(pos: &Chess, role: Role, g: &Guess) -> Option<String> {
    let to = g.to?;
    if role == Role::Pawn || role == Role::King {
        return None;
    }
    let board = pos.board();
    if board.piece_at(to).is_some_and(|p| p.color == pos.turn()) {
        return None;
    }
    let piece = Piece {
        color: pos.turn(),
        role,
    };
    let sq = pos.our(role).into_iter().find(|&sq| {
        attacks::attacks(sq, piece, board.occupied()).contains(to)
            && g.from_file.is_none_or(|f| f == sq.file())
            && g.from_rank.is_none_or(|r| r == sq.rank())
    })?;
    let (role, square, to) = (role_name(role), sq.to_string(), to.to_string());
    Some(if pos.is_check() {
        crate::t!(
            "prompt-reaches-but-check",
            role = role,
            square = square,
            to = to
        )
    } else {
        crate::t!("prompt-pinned", role = role, square = square, to = to)
    })
}

/// Whose moves a hint lists.
#[derive(Debug, Clone, Copy)]
enum Who {
    /// The piece on a square.
    On(Role, Square),
    /// The player's pawns on or next to a file.
    PawnsNear(File),
    /// All the player's pawns.
    Pawns,
    /// The player's only piece of a kind.
    One(Role),
    /// The player's pieces of a kind.
    Several(Role),
}

/// The moves of `who`, or that it has none: one sentence.
fn piece_list(pos: &Chess, who: Who, moves: &[Move], typed: Typed) -> String {
    if moves.is_empty() {
        return match who {
            Who::On(role, sq) => crate::t!(
                "prompt-piece-on-stuck",
                role = role_name(role),
                square = sq.to_string()
            ),
            Who::PawnsNear(file) => {
                crate::t!("prompt-pawns-near-stuck", file = file.char().to_string())
            }
            Who::Pawns => crate::t!("prompt-pawns-stuck"),
            Who::One(role) => crate::t!("prompt-your-piece-stuck", role = role_name(role)),
            Who::Several(role) => crate::t!("prompt-your-pieces-stuck", role = role_name(role)),
        };
    }
    let moves = list(&written_all(pos, moves, typed));
    match who {
        Who::On(role, sq) => crate::t!(
            "prompt-piece-on-can-go",
            role = role_name(role),
            square = sq.to_string(),
            moves = moves
        ),
        Who::PawnsNear(file) => crate::t!(
            "prompt-pawns-near-can-go",
            file = file.char().to_string(),
            moves = moves
        ),
        Who::Pawns => crate::t!("prompt-pawns-can-go", moves = moves),
        Who::One(role) => crate::t!(
            "prompt-your-piece-can-go",
            role = role_name(role),
            moves = moves
        ),
        Who::Several(role) => crate::t!(
            "prompt-your-pieces-can-go",
            role = role_name(role),
            moves = moves
        ),
    }
}

fn written_all(pos: &Chess, moves: &[Move], typed: Typed) -> Vec<String> {
    moves.iter().map(|&m| written(pos, m, typed)).collect()
}

/// A move in the notation the player typed in.
fn written(pos: &Chess, m: Move, typed: Typed) -> String {
    match typed {
        Typed::Numeric => format!(
            "{} ({})",
            notation::write_move(pos, m, Notation::Numeric),
            notation::san(pos, m)
        ),
        Typed::Russian => notation::write_move(pos, m, Notation::SanRu),
        Typed::San => notation::write_move(pos, m, Notation::San),
    }
}

fn list(items: &[String]) -> String {
    if items.len() <= LIST {
        return items.join(", ");
    }
    crate::t!(
        "prompt-list-more",
        moves = items[..LIST].join(", "),
        count = items.len() - LIST
    )
}

fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => crate::t!("prompt-or", first = init.join(", "), last = last),
    }
}

/// A piece's English name: the catalogue's English words, and the key its other languages
/// choose their own words by.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccmail_core::notation::read_move;

    /// The position after `moves` (SAN, from the start).
    fn after(moves: &str) -> Chess {
        let mut pos = Chess::default();
        for m in moves.split_whitespace() {
            let mv = read_move(&pos, m).unwrap();
            pos.play_unchecked(mv);
        }
        pos
    }

    fn why(pos: &Chess, text: &str) -> String {
        let e = read_move(pos, text).expect_err("should not be playable");
        explain(pos, &e)
    }

    #[test]
    fn a_piece_that_cant_go_there_lists_its_moves_and_the_other_moves_to_the_square() {
        let pos = Chess::default();
        assert_eq!(
            why(&pos, "Ng3"),
            "Ng3 is not playable: no knight of White can go to g3. \
             Your knights can go: Na3, Nc3, Nf3, Nh3. Moves to g3: g3."
        );
    }

    #[test]
    fn numeric_gets_numeric_back_with_san_beside_it() {
        let pos = Chess::default();
        assert_eq!(
            why(&pos, "5255"),
            "5255 is not playable: the pawn on e2 can't go to e5. \
             The pawn on e2 can go: 5253 (e3), 5254 (e4)."
        );
    }

    #[test]
    fn russian_letters_get_russian_letters_back() {
        let pos = Chess::default();
        assert_eq!(
            why(&pos, "Кd2"),
            "Кd2 is not playable: no knight of White can go to d2. \
             Your knights can go: Кa3, Кc3, Кf3, Кh3."
        );
    }

    #[test]
    fn an_ambiguous_move_gets_the_disambiguation() {
        let pos = after("Nf3 Nf6 d3 d6");
        assert_eq!(
            why(&pos, "Nd2"),
            "Nd2 is not playable: it fits both Nb1-d2 and Nf3-d2. Write Nbd2 or Nfd2."
        );
    }

    #[test]
    fn a_pinned_piece_is_named() {
        // The knight on c3 is pinned by the bishop on b4 against the king on e1.
        let pos = after("e4 e5 Nc3 Bb4 d3 d6");
        assert_eq!(
            why(&pos, "Nd5"),
            "Nd5 is not playable: no knight of White can go to d5. \
             The knight on c3 is pinned: going to d5 would leave your king in check. \
             Your knights can go: Ne2, Nf3, Nh3."
        );
    }

    #[test]
    fn in_check_says_so() {
        let pos = after("e4 e5 Bc4 d6 Bxf7");
        assert_eq!(
            why(&pos, "Nf6"),
            "Nf6 is not playable: no knight of Black can go to f6. Your king is in check. \
             The knight on g8 reaches f6, but that does not answer the check. \
             Your knights can't move."
        );
    }

    #[test]
    fn a_square_with_no_piece_of_ours() {
        let pos = Chess::default();
        let text = why(&pos, "e3e4");
        assert!(
            text.starts_with("e3e4 is not playable: there is no piece on e3."),
            "{text}"
        );
    }

    #[test]
    fn castling_that_is_not_possible_lists_the_king_moves() {
        let pos = Chess::default();
        assert_eq!(
            why(&pos, "O-O"),
            "O-O is not playable: castling short is not possible here. Your king can't move."
        );
    }
}
