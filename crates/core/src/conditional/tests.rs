use shakmaty::{Chess, Move, Position};

use super::*;
use crate::notation;

/// The moves of `sans` played one after another from `pos`.
fn line_from(pos: &Chess, sans: &str) -> Vec<Move> {
    let mut pos = pos.clone();
    sans.split_whitespace()
        .map(|s| {
            let m = notation::read_move(&pos, s).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// After 1.e4, White's offer 1...e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 (the Ruy Lopez).
fn after_e4() -> Chess {
    let mut pos = Chess::default();
    let e4 = notation::read_move(&pos, "e4").unwrap();
    pos.play_unchecked(e4);
    pos
}

const OFFER: &str = "e5 Nf3 Nc6 Bb5 a6 Ba4";

#[test]
fn a_typed_line_is_read_against_the_offer() {
    let pos = after_e4();
    let offer = line_from(&pos, OFFER);
    let r = |repeated, followed| Ok(Reading { repeated, followed });
    let rows: &[(&str, Result<Reading, AcceptError>)] = &[
        // Whole, then our reply.
        ("e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6", r(6, 6)),
        // Whole, then our reply and a new offer of ours.
        ("e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7", r(6, 6)),
        // In part, up to their move, then the offer's next move: three followed.
        ("e5 Nf3 Nc6", r(2, 3)),
        // In part, then a deviation.
        ("e5 Nf3 d6", r(2, 2)),
        ("e5 Nf3 Nc6 Bb5 Nf6", r(4, 4)),
        // Up to our own move, then a new offer of ours after it.
        ("e5 Nf3 Nc6 Bc4 Bc5", r(2, 3)),
        // Only its first move: an ordinary reply that follows it.
        ("e5", r(0, 1)),
        ("e5 Nc3", r(0, 1)),
        // Another reply altogether.
        ("c5 Nf3 d6", r(0, 0)),
        // Accepted up to their move, and no reply (51.3.9).
        ("e5 Nf3", Err(AcceptError::NoReply)),
        ("e5 Nf3 Nc6 Bb5 a6 Ba4", Err(AcceptError::NoReply)),
    ];
    for (typed, want) in rows {
        let line = line_from(&pos, typed);
        assert_eq!(&read_line(&offer, &line, Take::Typed), want, "{typed}");
    }
    assert_eq!(read_line(&offer, &[], Take::Typed), Err(AcceptError::Empty));
    // No offer at all: the line is a move and our own offer.
    let line = line_from(&pos, "e5 Nf3 Nc6");
    assert_eq!(read_line(&[], &line, Take::Typed), r(0, 0));
    // Not read as an acceptance (`move` without --accept-variation): a reply that follows
    // the offer's first move, and our own offer after it.
    assert_eq!(read_line(&offer, &line, Take::Nothing), r(0, 1));
}

#[test]
fn accepting_a_part_asks_for_a_reply_only_after_their_move() {
    // The offer has six half-moves: 1...e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4.
    assert_eq!(accepted_part(6, None, true), Ok(6));
    assert_eq!(accepted_part(6, None, false), Err(AcceptError::NoReply));
    assert_eq!(accepted_part(6, Some(2), true), Ok(2));
    assert_eq!(accepted_part(6, Some(2), false), Err(AcceptError::NoReply));
    // The third is ours, and is the reply.
    assert_eq!(accepted_part(6, Some(3), false), Ok(3));
    assert_eq!(
        accepted_part(6, Some(3), true),
        Err(AcceptError::ExtraReply { asked: 3 })
    );
    for asked in [0, 7] {
        assert_eq!(
            accepted_part(6, Some(asked), true),
            Err(AcceptError::OutOfRange { asked, len: 6 })
        );
    }
    // An offer that ends with our move, taken whole, needs no reply.
    assert_eq!(accepted_part(5, None, false), Ok(5));
}

#[test]
fn an_explicit_part_is_read_as_asked() {
    let pos = after_e4();
    let offer = line_from(&pos, OFFER);
    let r = |repeated, followed| Ok(Reading { repeated, followed });
    // The first two, then the offer's next move and our own offer that happens to continue
    // it: the message repeats two moves, as asked.
    let line = line_from(&pos, "e5 Nf3 Nc6 Bb5 a6");
    assert_eq!(read_line(&offer, &line, Take::First(2)), r(2, 3));
    // The first three: the third is the reply.
    let line = line_from(&pos, "e5 Nf3 Nc6");
    assert_eq!(read_line(&offer, &line, Take::First(3)), r(2, 3));
    // The whole of it and a deviation.
    let line = line_from(&pos, "e5 Nf3 Nc6 Bb5 a6 Ba4 b5");
    assert_eq!(read_line(&offer, &line, Take::First(6)), r(6, 6));
    let line = line_from(&pos, "e5 Nf3 Nc6 Bb5");
    assert_eq!(
        read_line(&offer, &line, Take::First(4)),
        Err(AcceptError::NoReply)
    );
}

#[test]
fn a_plan_answers_the_expected_move_and_ends_on_any_other() {
    // Black's plan after 1.e4 e5: 2.Nf3 Nc6 3.Bb5 a6, set when White was to play move 2.
    let mut pos = Chess::default();
    let start = line_from(&pos, "e4 e5");
    for &m in &start {
        pos.play_unchecked(m);
    }
    let plan = line_from(&pos, "Nf3 Nc6 Bb5 a6");
    let game = |more: &str| {
        let mut plies = start.clone();
        plies.extend(line_from(&pos, more));
        plies
    };
    let from = 3;
    // Nothing yet.
    assert_eq!(
        plan_step(&plan, from, &game(""), false, true),
        PlanStep::Wait
    );
    // The expected move: our reply is due, and the plan goes on from ply 5.
    assert_eq!(
        plan_step(&plan, from, &game("Nf3"), false, true),
        PlanStep::Play {
            reply: plan[1],
            rest: plan[2..].to_vec(),
            next: 5
        }
    );
    // Our planned reply played (by hand): nothing to answer until they move again.
    assert_eq!(
        plan_step(&plan, from, &game("Nf3 Nc6"), false, true),
        PlanStep::Wait
    );
    assert_eq!(
        plan_step(&plan, from, &game("Nf3 Nc6 Bb5"), false, true),
        PlanStep::Play {
            reply: plan[3],
            rest: vec![],
            next: 7
        }
    );
    assert_eq!(
        plan_step(&plan, from, &game("Nf3 Nc6 Bb5 a6"), false, true),
        PlanStep::End(PlanEnd::Done)
    );
    // Another move ends it.
    let other = game("Nc3");
    assert_eq!(
        plan_step(&plan, from, &other, false, true),
        PlanStep::End(PlanEnd::Deviated {
            ply: 3,
            expected: plan[0],
            played: other[2]
        })
    );
    // The expected move with a draw offer: the player decides.
    assert_eq!(
        plan_step(&plan, from, &game("Nf3"), true, true),
        PlanStep::End(PlanEnd::DrawOffered)
    );
    // A game over or suspended.
    assert_eq!(
        plan_step(&plan, from, &game("Nf3"), false, false),
        PlanStep::End(PlanEnd::NotGoingOn)
    );
}

#[test]
fn a_plan_is_pairs_of_their_move_and_ours() {
    assert_eq!(check_plan(0), Err(PlanError::TooShort));
    assert_eq!(check_plan(1), Err(PlanError::TooShort));
    assert_eq!(check_plan(2), Ok(()));
    assert_eq!(check_plan(3), Err(PlanError::NoReply));
    assert_eq!(check_plan(4), Ok(()));
}
