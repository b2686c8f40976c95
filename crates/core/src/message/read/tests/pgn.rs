//! A PGN in the body or attached: read through `pgn-reader` (tags several to a line,
//! comments, variations), whose last move is the sender's only when it is the sender's
//! colour, and whose comments speak for a side.

use super::*;

const TAGS: &str = "\
[Event \"Email correspondence game\"] [Site \"NET\"] [Date \"2026.02.09\"]
[Round \"-\"] [White \"Per Lindqvist\"] [Black \"Anders Holm\"] [Result \"*\"]
[WhiteNA \"p.lindqvist@example.net\"]
[BlackNA \"anders.holm@example.com\"]
[Mode \"EM\"] [CmailGameName \"lindqvist-holm\"]
";

const MOVETEXT: &str = "\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3
O-O 9. h3 Na5 10. Bc2 c5 11. d4 Qc7 12. Nbd2 cxd4 13. cxd4 Nc6 14. Nb3 a5
15. Be3 a4 16. Nbd2 Bd7 17. Rc1 Qb7 18. Qe2 Rfe8 19. Bd3 exd4 20. Nxd4";

const UP_TO_19: usize = 38;

fn from(address: &str, name: &str) -> Envelope {
    Envelope {
        from: Some(address.into()),
        from_name: Some(name.into()),
        subject: None,
        date: Some(DateTime::parse_from_rfc2822("Wed, 15 Apr 2026 18:02:48 +0200").unwrap()),
        replies: false,
        automatic: false,
    }
}

fn white() -> Envelope {
    from("p.lindqvist@example.net", "Per Lindqvist")
}

fn black() -> Envelope {
    from("anders.holm@example.com", "Anders Holm")
}

fn new_san(msg: &MoveMessage) -> Option<String> {
    msg.new_move
        .map(|m| notation::san(&msg.position_before(), m))
}

#[test]
fn tags_several_to_a_line_fill_the_header() {
    let text = format!("{TAGS}\n{MOVETEXT} *\n");
    for msg in [
        read(&text, &[], &white()),
        read("", std::slice::from_ref(&text), &white()),
    ] {
        assert_eq!(
            msg.header.event.as_deref(),
            Some("Email correspondence game")
        );
        assert_eq!(msg.header.start, Some(d("2026-02-09")));
        assert_eq!(msg.header.white.as_deref(), Some("Per Lindqvist"));
        assert_eq!(msg.header.black.as_deref(), Some("Anders Holm"));
        assert_eq!(msg.black_email.as_deref(), Some("anders.holm@example.com"));
        assert_eq!(msg.moves.len(), UP_TO_19);
        assert_eq!(new_san(&msg).as_deref(), Some("Nxd4"));
        assert_eq!(codes(&msg), [ProblemCode::MissingDate]);
    }
}

#[test]
fn a_pgn_ending_with_the_recipient_s_move_has_no_new_move() {
    // Black resigns after White's 20. Nxd4: the last move is the recipient's.
    for resigns in [" {Black resigns} 0-1\n", "\n{\nBlack resigns\n}\n0-1\n"] {
        let text = format!("{TAGS}\n{MOVETEXT}{resigns}");
        let msg = read(&text, &[], &black());
        assert_eq!(new_san(&msg), None, "{resigns:?}");
        assert_eq!(msg.moves.len(), UP_TO_19 + 1);
        assert!(msg.resign);
        assert!(!msg.has(ProblemCode::NoMove), "{:?}", msg.problems);
    }
    // Without the addresses, the sender is told by the name in From.
    let tags = "[Event \"Cup\"]\n[White \"Lindqvist, Per\"]\n[Black \"Holm, Anders\"]\n";
    let text = format!("{tags}\n{MOVETEXT} {{Black resigns}} 0-1\n");
    let msg = read(&text, &[], &from("holm@other.example", "Anders Holm"));
    assert_eq!(new_san(&msg), None);
    assert!(msg.resign);
    // The same PGN from White: the last move is White's new one.
    let msg = read(&format!("{tags}\n{MOVETEXT} *\n"), &[], &white());
    assert_eq!(new_san(&msg).as_deref(), Some("Nxd4"));
}

#[test]
fn draw_comments_speak_for_their_side_and_only_the_last_is_new() {
    // White's new move with an offer after it, braces on lines of their own.
    let text = format!("{TAGS}\n{MOVETEXT}\n{{\nWhite offers a draw\n}}\n*\n");
    let msg = read(&text, &[], &white());
    assert_eq!(new_san(&msg).as_deref(), Some("Nxd4"));
    assert!(msg.draw_offer);
    // An old offer of White's further up is not White's new one.
    let old = MOVETEXT.replace("10. Bc2", "10. Bc2 {White offers a draw}");
    let msg = read(&format!("{TAGS}\n{old} *\n"), &[], &white());
    assert!(!msg.draw_offer);
    // Nor is a comment after the new move naming the other side.
    let text = format!("{TAGS}\n{MOVETEXT} {{Black offers a draw}} *\n");
    assert!(!read(&text, &[], &white()).draw_offer);
    // An offer without a side speaks for the side whose move it follows.
    let text = format!("{TAGS}\n{MOVETEXT} {{offers a draw}} *\n");
    assert!(read(&text, &[], &white()).draw_offer);
    // Black agrees to White's offer: no move of Black's, a draw accepted.
    let text = format!("{TAGS}\n{MOVETEXT} {{White offers a draw}} {{Draw agreed}} 1/2-1/2\n");
    let msg = read(&text, &[], &black());
    assert!(msg.draw_accept);
    assert!(!msg.draw_offer);
    assert_eq!(new_san(&msg), None);
    assert!(!msg.has(ProblemCode::NoMove));
}

#[test]
fn variations_nags_escapes_and_a_diagram_are_not_the_main_line() {
    let movetext = MOVETEXT
        .replace("2. Nf3", "2. Nf3 $1 (2. f4 exf4 3. Nf3 (3. Bc4))")
        .replace(
            "9. h3",
            "9. h3!? {\n r n b q k b n r\n - - - - P - - -\n}\n% 9... Bb7\n",
        );
    let msg = read(&format!("{TAGS}\n{movetext} *\n"), &[], &white());
    assert_eq!(msg.moves.len(), UP_TO_19);
    assert_eq!(new_san(&msg).as_deref(), Some("Nxd4"));
}

#[test]
fn a_broken_pgn_attachment_is_a_problem_in_words() {
    let text = "[Event \"Cup\"]\n\n1. e4 e5 {never closed 2. Nf3";
    let msg = read("", &[text.to_owned()], &white());
    let p = msg
        .problems
        .iter()
        .find(|p| p.code == ProblemCode::IllegibleMove)
        .expect("a problem");
    assert!(p.detail.contains("unterminated comment"), "{}", p.detail);
    let text = "[Event \"Cup\"]\n\n1. e4 e5 2. Ke3 Nc6 3. Nf3 *";
    let msg = read("", &[text.to_owned()], &white());
    assert!(msg.has(ProblemCode::ImpossibleMove), "{:?}", msg.problems);
    assert_eq!(sans(&msg.moves), ["e4", "e5"]);
}

#[test]
fn a_move_line_beside_a_pgn_that_ends_with_it_is_one_move() {
    let pgn = format!("{TAGS}\n{MOVETEXT} *\n");
    let msg = read("My move: 20. Nxd4\n", &[pgn], &white());
    assert_eq!(msg.moves.len(), UP_TO_19);
    assert_eq!(new_san(&msg).as_deref(), Some("Nxd4"));
    assert!(!msg.has(ProblemCode::ImpossibleMove));
}

#[test]
fn a_body_pgn_s_termination_and_comments_are_not_the_sender_s_words() {
    for termination in ["adjudication", "time forfeit"] {
        let text = format!(
            "{TAGS}[Termination \"{termination}\"]\n\n{MOVETEXT}\n\
             {{[%ccsnt 2026.03.05] [%ccrcv 2026.03.04] [%ccdays 1]}} (20. Bxd4) 20... Nxd4 \
             {{Decided by the arbiter}} *\n"
        );
        let msg = read(&text, &[], &black());
        assert_eq!(msg.kind, MessageKind::Move, "{termination}");
        assert_eq!(msg.moves.len(), UP_TO_19 + 1, "{termination}");
        assert_eq!(new_san(&msg).as_deref(), Some("Nxd4"), "{termination}");
    }
}
