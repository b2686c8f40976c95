use super::{Gate, unverified};
use crate::clock::PenaltyCause;
use crate::judge::{Action, Draw, Ending, Fault, Play, Said, Verdict as Judged};
use crate::message::BreakNotice;
use chrono::NaiveDate;
use shakmaty::Chess;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
}

/// White's first move, e4, with what the letter says besides: a draw offer, a break, a
/// continuation, an ending, as `judge::play` words them.
fn e4(draw: bool, brk: bool, variation: bool, result: Option<Ending>) -> Play {
    let m = crate::notation::read_move(&Chess::default(), "e4").unwrap();
    let mut summary = vec![Said::new(
        "applied 1. e4 by White",
        "применён ход белых 1. e4",
    )];
    if draw {
        summary.push(Said::new("offers a draw", "предлагает ничью"));
    }
    if brk {
        summary.push(Said::new("a break", "перерыв"));
    }
    if let Some(e) = result {
        summary.push(Said::new(format!("{e:?}"), format!("{e:?}")));
        summary.push(Said::new("1-0", "1-0"));
    }
    Play {
        moves: vec![m],
        accepted: 0,
        offer_followed: 0,
        received: day(2),
        sent: day(3),
        variation: if variation { vec![m] } else { Vec::new() },
        draw: if draw { Draw::Offered } else { Draw::Unchanged },
        result: result.map(|e| ("1-0", e)),
        break_notice: brk.then_some(BreakNotice {
            from: day(5),
            to: day(9),
        }),
        notes: Vec::new(),
        cc_answer: false,
        summary,
        stated_totals: None,
    }
}

fn ending(e: Ending) -> Judged {
    let mut p = e4(false, false, false, Some(e));
    p.moves.clear();
    p.summary = vec![
        Said::new("White resigns", "белые сдаются"),
        Said::new("0-1", "0-1"),
    ];
    Judged::Play(p)
}

fn record(actions: Vec<Action>, en: &str) -> Judged {
    Judged::Record {
        actions,
        summary: Said::new(en, en),
    }
}

/// The table: what the judgment would do, and whether an unverified letter may do it.
#[test]
fn an_unverified_letter_may_only_move() {
    let fault = Judged::Fault(Fault {
        cause: PenaltyCause::Impossible,
        what: Said::new("an impossible move", "невозможный ход"),
        received: day(2),
        sent: day(3),
    });
    let brk = BreakNotice {
        from: day(5),
        to: day(9),
    };
    let cases: Vec<(Judged, bool)> = vec![
        (Judged::Play(e4(false, false, false, None)), true),
        (Judged::Play(e4(true, true, true, None)), true),
        (
            Judged::Play(e4(false, false, false, Some(Ending::Checkmate))),
            true,
        ),
        (
            Judged::Play(e4(false, false, false, Some(Ending::Resignation))),
            true,
        ),
        (ending(Ending::Resignation), false),
        (ending(Ending::Agreement), false),
        (fault, false),
        (
            record(
                vec![Action::NewAddress("x@evil.test".into())],
                "new address",
            ),
            false,
        ),
        (record(vec![Action::Break(brk)], "a break"), false),
        (record(vec![Action::EndBreak(day(6))], "break ends"), false),
        (record(vec![Action::ResendOurLast], "lost move"), false),
        (record(vec![Action::Suspend], "a claim"), false),
        (record(vec![Action::CcAnswer], "a repeat"), true),
        (record(Vec::new(), "a note"), true),
        (Judged::Hold(Said::new("doubt", "сомнение")), false),
    ];
    for (i, (judged, acts)) in cases.into_iter().enumerate() {
        let gate = unverified(judged.clone());
        assert_eq!(
            matches!(gate, Gate::Act(_)),
            acts,
            "row {i}: {judged:?} -> {gate:?}"
        );
    }
}

#[test]
fn the_move_acts_and_the_rest_is_said() {
    let Gate::Act(Judged::Play(p)) = unverified(Judged::Play(e4(true, true, true, None))) else {
        panic!("not acted on")
    };
    assert_eq!(p.moves.len(), 1);
    // Offers are the player's to answer: kept.
    assert_eq!(p.draw, Draw::Offered);
    assert_eq!(p.variation.len(), 1);
    assert_eq!(p.break_notice, None);
    let said: Vec<&str> = p.summary.iter().map(|s| s.en.as_str()).collect();
    assert_eq!(
        said,
        [
            "applied 1. e4 by White",
            "offers a draw",
            "not acted on, unverified (set [security] authserv_id): the break notice"
        ]
    );
    let Gate::Act(Judged::Play(p)) = unverified(Judged::Play(e4(
        false,
        false,
        false,
        Some(Ending::Resignation),
    ))) else {
        panic!("not acted on")
    };
    assert_eq!(p.result, None);
    assert!(p.summary.last().unwrap().en.ends_with(": the resignation"));
    // Mate is the move's own doing.
    let Gate::Act(Judged::Play(p)) = unverified(Judged::Play(e4(
        false,
        true,
        false,
        Some(Ending::Checkmate),
    ))) else {
        panic!("not acted on")
    };
    assert_eq!(p.result, Some(("1-0", Ending::Checkmate)));
    let said: Vec<&str> = p.summary.iter().map(|s| s.en.as_str()).collect();
    assert_eq!(
        said,
        [
            "applied 1. e4 by White",
            "Checkmate",
            "1-0",
            "not acted on, unverified (set [security] authserv_id): the break notice"
        ]
    );
}

#[test]
fn what_is_held_says_why() {
    let Gate::Hold(why) = unverified(ending(Ending::Resignation)) else {
        panic!("acted on")
    };
    assert_eq!(
        why.en,
        "White resigns; 0-1; unverified: set [security] authserv_id (`ccmail check` \
         proposes it) to act on such letters"
    );
    assert!(
        why.ru
            .starts_with("белые сдаются; 0-1; отправитель не подтверждён"),
        "{why:?}"
    );
    let fault = Judged::Fault(Fault {
        cause: PenaltyCause::Impossible,
        what: Said::new("an impossible move", "невозможный ход"),
        received: day(2),
        sent: day(3),
    });
    let Gate::Hold(why) = unverified(fault) else {
        panic!("acted on")
    };
    assert_eq!(
        why.en,
        "an impossible move; it would cost the partner 2 penalty days and send a correction \
         request (51.4.7); unverified: set [security] authserv_id (`ccmail check` proposes \
         it) to act on such letters"
    );
}
