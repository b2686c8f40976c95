use super::*;

/// The value of the tag `name`, if the game has it.
fn tag<'a>(game: &'a Game, name: &str) -> Option<&'a str> {
    game.tags
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn sans(moves: &[Move]) -> Vec<String> {
    notation::sans(&Chess::default(), moves)
}

#[test]
fn tags_several_to_a_line_movetext_comments_nags_and_variations() {
    let text = "\
[Event \"Cup\"] [Site \"Email\"] [Date \"2026.03.01\"]
[White \"Lindqvist, Per\"][Black \"Holm, Anders\"]
[Annotator \"a \\\"quoted\\\" name\"]

1. e4 {the king's pawn
across two lines} e5 $1 2. Nf3 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6!? ; a remark
% an escape line: 3. Qh5
3. Bb5 {[%ccsnt 2026.03.02]} a6 4. Ba4 *
";
    let game = read_pgn(text).unwrap().unwrap();
    assert_eq!(tag(&game, "Event"), Some("Cup"));
    assert_eq!(tag(&game, "Site"), Some("Email"));
    assert_eq!(tag(&game, "Date"), Some("2026.03.01"));
    assert_eq!(tag(&game, "White"), Some("Lindqvist, Per"));
    assert_eq!(tag(&game, "Black"), Some("Holm, Anders"));
    assert_eq!(tag(&game, "Annotator"), Some("a \"quoted\" name"));
    assert_eq!(
        sans(&game.moves),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    );
    assert_eq!(
        game.comments,
        [
            (1, "the king's pawn\nacross two lines".to_owned()),
            (5, "[%ccsnt 2026.03.02]".to_owned())
        ]
    );
    assert!(game.stopped.is_none());
}

#[test]
fn the_first_game_with_moves_is_taken() {
    let text = "[Event \"Tags only\"]\n\n*\n\n[Event \"Second\"]\n\n1. d4 d5 *\n\n[Event \"Third\"]\n\n1. c4 *\n";
    let game = read_pgn(text).unwrap().unwrap();
    assert_eq!(tag(&game, "Event"), Some("Second"));
    assert_eq!(sans(&game.moves), ["d4", "d5"]);
    let game = read_pgn("[Event \"Tags only\"]\n\n*\n").unwrap().unwrap();
    assert_eq!(tag(&game, "Event"), Some("Tags only"));
    assert!(game.moves.is_empty());
    assert!(read_pgn("").unwrap().is_none());
}

#[test]
fn a_board_diagram_in_a_comment_is_not_moves() {
    let text = "\
[Event \"Email correspondence game\"]

1. e4 e5 2. Nf3 {
  +---+---+---+---+---+---+---+---+
8 | r |   | b | q | k | b | n | r |
  +---+---+---+---+---+---+---+---+
7 | p | p | p | p |   | p | p | p |

r n b q k b n r
- - - - P - - -
    a   b   c   d   e   f   g   h
} Nc6 *
";
    let game = read_pgn(text).unwrap().unwrap();
    assert_eq!(sans(&game.moves), ["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn a_broken_pgn_is_words_not_a_panic() {
    let game = read_pgn("1. e4 e5 2. Ke3 Nc6 *").unwrap().unwrap();
    assert_eq!(sans(&game.moves), ["e4", "e5"]);
    let (pos, e) = game.stopped.unwrap();
    assert_eq!(pos.fullmoves().get(), 2);
    assert_eq!(e.text, "Ke3");
    assert_eq!(game.unplayed, ["Ke3", "Nc6"]);
    let err = read_pgn("[Event \"Cup\n1. e4").map(|g| g.map(|g| g.moves.len()));
    assert!(err.is_ok() || err.unwrap_err().contains("PGN"));
    let err = read_pgn("1. e4 {never closed e5 2. Nf3").unwrap_err();
    assert!(err.contains("unterminated comment"), "{err}");
    for junk in [
        "[",
        "{",
        "(((",
        "1.",
        "]]]\"",
        "[A \"\\",
        "\u{feff}%",
        "1. e4 (e5 (",
    ] {
        let _ = read_pgn(junk);
    }
}
