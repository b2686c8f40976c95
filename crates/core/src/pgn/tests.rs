use super::*;
use crate::notation::read_move;

/// The moves of `sans` from the initial position.
fn line(from: &Chess, sans: &[&str]) -> Vec<Move> {
    let mut pos = from.clone();
    sans.iter()
        .map(|t| {
            let m = read_move(&pos, t).unwrap();
            pos = pos.clone().play(m).unwrap();
            m
        })
        .collect()
}

fn after(sans: &[&str]) -> Chess {
    line(&Chess::default(), sans)
        .into_iter()
        .fold(Chess::default(), |p, m| p.play(m).unwrap())
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

#[test]
fn a_game_with_dates_a_variation_a_promotion_and_its_termination() {
    let played = [
        "e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7", "bxa8=Q",
    ];
    let moves = line(&Chess::default(), &played);
    let comments = (0..played.len() as u32)
        .map(|i| Some(dates_comment(day(2 + i), day(1 + i), 1)))
        .collect();
    let variations = vec![
        Rav {
            at: 3,
            moves: line(&after(&played[..3]), &["Qxd5", "Nc3"]),
        },
        Rav {
            at: 9,
            moves: line(&after(&played), &["e5", "Qxa7"]),
        },
    ];
    let game = PgnGame {
        tags: vec![
            ("Event".into(), "Кубок \"Ладья\"".into()),
            ("Result".into(), "*".into()),
            ("TimeControl".into(), time_control(10, 60)),
            (
                "Termination".into(),
                Ending::Unterminated.termination().into(),
            ),
        ],
        moves,
        comments,
        variations,
        final_comment: Ending::Unterminated.words(),
        result: "*".into(),
    };
    assert_eq!(
        write(&game).unwrap(),
        "[Event \"Кубок \\\"Ладья\\\"\"]\n[Result \"*\"]\n[TimeControl \"10/5184000\"]\n\
         [Termination \"unterminated\"]\n\n\
         1. e4 {[%ccsnt 2026.03.02] [%ccrcv 2026.03.01] [%ccdays 1]} 1... d5\n\
         {[%ccsnt 2026.03.03] [%ccrcv 2026.03.02] [%ccdays 1]} 2. exd5\n\
         {[%ccsnt 2026.03.04] [%ccrcv 2026.03.03] [%ccdays 1]} 2... c6\n\
         {[%ccsnt 2026.03.05] [%ccrcv 2026.03.04] [%ccdays 1]} (2... Qxd5 3. Nc3) 3. dxc6\n\
         {[%ccsnt 2026.03.06] [%ccrcv 2026.03.05] [%ccdays 1]} 3... Nf6\n\
         {[%ccsnt 2026.03.07] [%ccrcv 2026.03.06] [%ccdays 1]} 4. cxb7\n\
         {[%ccsnt 2026.03.08] [%ccrcv 2026.03.07] [%ccdays 1]} 4... Nbd7\n\
         {[%ccsnt 2026.03.09] [%ccrcv 2026.03.08] [%ccdays 1]} 5. bxa8=Q\n\
         {[%ccsnt 2026.03.10] [%ccrcv 2026.03.09] [%ccdays 1]} {Variation offered: 5...\n\
         e5 6. Qxa7} *\n\n"
    );
}

#[test]
fn a_mate_says_so_and_a_variation_before_a_black_move_numbers_it() {
    let played = ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"];
    let pos = after(&played);
    let ending = Ending::of(EndFacts {
        finished: true,
        result: "1-0",
        position: &pos,
        resigned: false,
        draw_agreed: false,
        adjudicated: false,
        out_of_time: [false; 2],
        recorded: None,
    });
    assert_eq!(ending.termination(), "normal");
    let game = PgnGame {
        moves: line(&Chess::default(), &played),
        variations: vec![Rav {
            at: 0,
            moves: line(&Chess::default(), &["d4"]),
        }],
        final_comment: ending.words(),
        result: "1-0".into(),
        ..PgnGame::default()
    };
    assert_eq!(
        write(&game).unwrap(),
        "\n1. e4 (1. d4) 1... e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# {Checkmate} 1-0\n\n"
    );
}

#[test]
fn an_illegal_move_or_variation_is_an_error_not_text() {
    let e4 = line(&Chess::default(), &["e4"]);
    let game = PgnGame {
        moves: [e4.clone(), e4.clone()].concat(),
        result: "*".into(),
        ..PgnGame::default()
    };
    assert_eq!(write(&game), Err(WriteError::IllegalMove { ply: 2 }));
    let game = PgnGame {
        moves: e4.clone(),
        variations: vec![Rav { at: 1, moves: e4 }],
        result: "*".into(),
        ..PgnGame::default()
    };
    assert_eq!(write(&game), Err(WriteError::IllegalVariation { ply: 2 }));
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn endings_as_the_facts_show_them() {
    let start = Chess::default();
    let stalemate: Chess = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let facts = |result, position| EndFacts {
        finished: true,
        result,
        position,
        resigned: false,
        draw_agreed: false,
        adjudicated: false,
        out_of_time: [false; 2],
        recorded: None,
    };
    let rows: [(EndFacts<'_>, Ending, &str, Option<&str>); 13] = [
        (
            EndFacts {
                finished: false,
                ..facts("*", &start)
            },
            Ending::Unterminated,
            "unterminated",
            None,
        ),
        (
            facts("1/2-1/2", &stalemate),
            Ending::Stalemate,
            "normal",
            Some("Stalemate"),
        ),
        (
            EndFacts {
                resigned: true,
                ..facts("0-1", &start)
            },
            Ending::Resignation(Color::White),
            "normal",
            Some("White resigns"),
        ),
        (
            EndFacts {
                draw_agreed: true,
                ..facts("1/2-1/2", &start)
            },
            Ending::Agreement,
            "normal",
            Some("Draw agreed"),
        ),
        (
            EndFacts {
                out_of_time: [false, true],
                ..facts("1-0", &start)
            },
            Ending::TimeForfeit(Color::Black),
            "time forfeit",
            Some("Black lost on time"),
        ),
        (
            EndFacts {
                adjudicated: true,
                out_of_time: [false, true],
                ..facts("1-0", &start)
            },
            Ending::Adjudication,
            "adjudication",
            Some("Decided by the arbiter"),
        ),
        (
            facts("1-0", &start),
            Ending::Adjudication,
            "adjudication",
            Some("Decided by the arbiter"),
        ),
        // A draw accepted with a move: the letter is a move's, and no arbiter was asked.
        (
            facts("1/2-1/2", &start),
            Ending::Agreement,
            "normal",
            Some("Draw agreed"),
        ),
        (
            EndFacts {
                adjudicated: true,
                ..facts("1/2-1/2", &start)
            },
            Ending::Adjudication,
            "adjudication",
            Some("Decided by the arbiter"),
        ),
        // What was recorded when the game ended comes before what the letters suggest: a
        // claim was made, and the arbiter gave the win on time.
        (
            EndFacts {
                adjudicated: true,
                recorded: Some(EndReason::TimeForfeit),
                ..facts("1-0", &start)
            },
            Ending::TimeForfeit(Color::Black),
            "time forfeit",
            Some("Black lost on time"),
        ),
        (
            EndFacts {
                recorded: Some(EndReason::Resignation),
                ..facts("1-0", &start)
            },
            Ending::Resignation(Color::Black),
            "normal",
            Some("Black resigns"),
        ),
        (
            EndFacts {
                recorded: Some(EndReason::Adjudication),
                ..facts("0-1", &start)
            },
            Ending::Adjudication,
            "adjudication",
            Some("Decided by the arbiter"),
        ),
        // Still going on, whatever was recorded.
        (
            EndFacts {
                finished: false,
                recorded: Some(EndReason::Agreement),
                ..facts("*", &start)
            },
            Ending::Unterminated,
            "unterminated",
            None,
        ),
    ];
    for (f, ending, termination, words) in rows {
        let got = Ending::of(f);
        assert_eq!(got, ending);
        assert_eq!(got.termination(), termination);
        assert_eq!(got.words().as_deref(), words);
    }
}

#[test]
fn long_games_wrap_at_80_columns() {
    let mut sans = Vec::new();
    for _ in 0..30 {
        sans.extend(["Nf3", "Nf6", "Ng1", "Ng8"]);
    }
    let text = write(&PgnGame {
        moves: line(&Chess::default(), &sans),
        comments: vec![Some(dates_comment(day(1), day(1), 0)); sans.len()],
        result: "*".into(),
        ..PgnGame::default()
    })
    .unwrap();
    assert!(text.lines().all(|l| l.len() <= 80));
    assert!(text.lines().all(|l| !l.ends_with("[%ccsnt")));
    assert!(text.trim_end().ends_with("[%ccdays 0]} *"));
}

#[test]
fn a_recorded_ending_reads_back_by_its_name() {
    for (reason, name) in EndReason::ALL {
        assert_eq!(reason.to_string(), name);
        assert_eq!(name.parse::<EndReason>(), Ok(reason));
    }
    assert_eq!(
        "resigned".parse::<EndReason>(),
        Err(EndReasonError("resigned".into()))
    );
}

#[test]
fn the_letter_that_ends_a_game_says_why() {
    let mate = after(&["f3", "e5", "g4", "Qh4"]);
    let bare_kings: Chess = "8/8/4k3/8/8/3K4/8/8 w - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let start = Chess::default();
    let rows = [
        (&mate, "0-1", false, EndReason::Checkmate),
        (
            &bare_kings,
            "1/2-1/2",
            false,
            EndReason::InsufficientMaterial,
        ),
        (&start, "1-0", true, EndReason::Resignation),
        (&start, "1/2-1/2", false, EndReason::Agreement),
    ];
    for (position, result, resigned, want) in rows {
        assert_eq!(
            Ending::by_letter(position, result, resigned),
            want,
            "{result}"
        );
    }
}

#[test]
fn the_arbiters_decision_is_a_loss_on_time_only_after_a_claim() {
    use EndReason::{Adjudication, Agreement, TimeForfeit};
    let rows = [
        ("1-0", true, false, Some(TimeForfeit)),
        ("0-1", true, false, Some(TimeForfeit)),
        ("1/2-1/2", true, false, Some(Adjudication)),
        ("1-0", false, false, Some(Adjudication)),
        ("1/2-1/2", false, false, Some(Adjudication)),
        ("1/2-1/2", false, true, Some(Agreement)),
        ("1-0", false, true, None),
        ("0-1", true, true, None),
    ];
    for (result, after_claim, friendly, want) in rows {
        assert_eq!(
            EndReason::of_decision(result, after_claim, friendly),
            want,
            "{result} after a claim: {after_claim}, friendly: {friendly}"
        );
    }
}
