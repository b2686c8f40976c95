//! A hand-typed record as in PGN: comments in braces across lines, `;` comments, NAGs,
//! remarks after a move, duplicates in brackets, a board diagram — none of them moves
//! (51.3.6); and a new move both ending the record and on the move line is one move.

use super::*;

fn read_at(text: &str) -> MoveMessage {
    read(text, &[], &envelope("Tue, 6 Oct 2026 10:00:00 +0300"))
}

fn new_san(msg: &MoveMessage) -> Option<String> {
    msg.new_move
        .map(|m| notation::san(&msg.position_before(), m))
}

#[test]
fn a_new_move_ending_the_record_and_on_the_move_line_is_one_move() {
    for mine in ["3. Bb5", "3. 6125", "3.Сb5+", "Bf1-b5"] {
        let text = format!("Партия: 1. e4 e5 2. Nf3 Nc6 3. Bb5\nМой ход: {mine}\n");
        let msg = read_at(&text);
        assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3", "Nc6"], "{mine}");
        assert_eq!(new_san(&msg).as_deref(), Some("Bb5"), "{mine}");
        assert!(
            !msg.has(ProblemCode::ImpossibleMove),
            "{mine}: {:?}",
            msg.problems
        );
    }
    // A record that ends before the new move is left as it is.
    let msg = read_at("Партия: 1. e4 e5 2. Nf3 Nc6\nМой ход: 3. Bb5\n");
    assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(new_san(&msg).as_deref(), Some("Bb5"));
}

#[test]
fn castling_after_the_partner_castled_is_a_move_of_its_own() {
    // The record ends with White's 6. O-O; Black's 6... O-O is not a repeat of it.
    let record = "Ходы: 1. Nf3 Nf6 2. Nc3 Nc6 3. e3 e6 4. d3 d6 5. Be2 Be7 6. O-O";
    let msg = read_at(&format!("{record}\nМой ход: 6... O-O\n"));
    assert_eq!(msg.moves.len(), 11, "{:?}", msg.problems);
    assert_eq!(new_san(&msg).as_deref(), Some("O-O"));
    // Numbered as White's, it is White's own move repeated: one move.
    let msg = read_at(&format!("{record}\nМой ход: 6. O-O\n"));
    assert_eq!(msg.moves.len(), 10, "{:?}", msg.problems);
    assert_eq!(new_san(&msg).as_deref(), Some("O-O"));
}

#[test]
fn comments_remarks_and_duplicates_in_a_hand_typed_record_are_not_moves() {
    let text = "\
Партия: 1. e4 Nf6 2. e5 d5 {Алехин
не любил
эту линию} 3. exd6 e.p. exd6 ; теперь размен
4. Bb5+ шах c6 $6 5. Qe2+ (!) Be7 (5... Qe7) ; а не Фe7
Мой ход: 6. Ba4 (2514)
";
    let msg = read_at(text);
    assert_eq!(
        sans(&msg.moves),
        [
            "e4", "Nf6", "e5", "d5", "exd6", "exd6", "Bb5", "c6", "Qe2", "Be7"
        ]
    );
    assert_eq!(new_san(&msg).as_deref(), Some("Ba4"));
    assert!(
        !msg.has(ProblemCode::ImpossibleMove) && !msg.has(ProblemCode::IllegibleMove),
        "{:?}",
        msg.problems
    );
    let text = "Партия: 1. f3 e5 2. g4 Шах? Qh4# мат\n";
    let msg = read_at(&format!("{text}Мой ход: 3. a3\n"));
    assert_eq!(
        sans(&msg.moves),
        ["f3", "e5", "g4", "Qh4"],
        "{:?}",
        msg.problems
    );
}

#[test]
fn a_semicolon_between_moves_is_not_a_comment() {
    let msg = read_at("Партия: 1. e4; e5; 2. Nf3; Nc6;\nМой ход: 3. Bb5\n");
    assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn a_board_diagram_is_not_moves() {
    let text = "\
Партия: 1. e4 e5 2. Nf3 Nc6
Позиция:
r . b q k b n r
p p p p . p p p
. . n . . . . .
- - - - p - - -
- - - - P - - -
  +---+---+---+
8 | r |   | b |
  a b c d e f g h
Мой ход: 3. Bb5
";
    let msg = read_at(text);
    assert_eq!(
        sans(&msg.moves),
        ["e4", "e5", "Nf3", "Nc6"],
        "{:?}",
        msg.problems
    );
    assert_eq!(new_san(&msg).as_deref(), Some("Bb5"));
}
