//! Deadlines (51.5.1, 51.4.10, 51.5.3, 51.6.1, 51.3.4) and the JSON shapes of `show --json`.

use serde_json::json;

use super::*;
use DeadlineKind::{ArbiterCc, Claim, Correction, Repeat, Silence40};

fn dl(kind: DeadlineKind, date: &str) -> Deadline {
    Deadline {
        kind,
        date: d(date),
    }
}

/// We are White and sent 1. on 02.03.2026; Black has not answered.
fn waiting_for_black() -> GameTime {
    game("01.03.2026", White, &[("01.03.2026", "02.03.2026")])
}

#[test]
fn the_cli_example_clock_and_deadlines() {
    let r = eval(&waiting_for_black(), "05.03.2026");
    assert_eq!(r.running_days, 3);
    assert_eq!(
        serde_json::to_value(r.clock).unwrap(),
        json!({
            "white": {"days": 1, "penalty": 0, "total": 1, "next_control": 10, "limit": 60,
                      "left": 59, "on_break": false, "overstepped_at": null},
            "black": {"days": 0, "penalty": 0, "total": 0, "next_control": 10, "limit": 60,
                      "left": 57, "on_break": false, "overstepped_at": null}
        })
    );
    // 51.5.1 repeat on day 14 and day 28; 51.5.3 day 40; 51.4.10 when Black's 55th day
    // leaves him 5.
    assert_eq!(
        r.deadlines,
        vec![
            dl(Repeat, "16.03.2026"),
            dl(Repeat, "30.03.2026"),
            dl(Silence40, "11.04.2026"),
            dl(ArbiterCc, "26.04.2026"),
        ]
    );
    assert_eq!(
        serde_json::to_value(&r.deadlines[..1]).unwrap(),
        json!([{"kind": "repeat", "date": "2026-03-16"}])
    );
    let report = serde_json::to_value(&r).unwrap();
    assert_eq!(report["to_move"], json!("black"));
    assert_eq!(report["running_days"], json!(3));
    assert_eq!(report["ply_days"], json!([1]));
}

#[test]
fn deadline_kinds_serialize_as_cli_md_names_them() {
    let names: Vec<String> = [Repeat, ArbiterCc, Silence40, Claim, Correction]
        .iter()
        .map(|k| serde_json::to_string(k).unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "\"repeat\"",
            "\"arbiter_cc\"",
            "\"silence_40\"",
            "\"claim\"",
            "\"correction\""
        ]
    );
}

#[test]
fn repeat_rows() {
    // (sentence, profile, breaks, today, the two repeats listed)
    let rows: [(&str, Profile, Vec<Break>, &str, [&str; 2]); 7] = [
        (
            "51.5.1: 14 days after our send date, then 14 more",
            Profile::Article51,
            vec![],
            "05.03.2026",
            ["16.03.2026", "30.03.2026"],
        ),
        (
            "the partner's break 05.03–09.03 does not count: 5 days later",
            Profile::Article51,
            vec![brk(Black, "05.03.2026", "09.03.2026", None)],
            "05.03.2026",
            ["21.03.2026", "04.04.2026"],
        ),
        (
            "our own break does not move the repeat (Article 51)",
            Profile::Article51,
            vec![brk(White, "05.03.2026", "09.03.2026", None)],
            "05.03.2026",
            ["16.03.2026", "30.03.2026"],
        ),
        (
            "postal104: our own break stops his clock too, so it moves the repeat",
            Profile::Postal104,
            vec![brk(White, "05.03.2026", "09.03.2026", Some("01.03.2026"))],
            "05.03.2026",
            ["21.03.2026", "04.04.2026"],
        ),
        (
            "day 14 itself: the first repeat is due today",
            Profile::Article51,
            vec![],
            "16.03.2026",
            ["16.03.2026", "30.03.2026"],
        ),
        (
            "day 18: the first repeat is overdue, the second next",
            Profile::Article51,
            vec![],
            "20.03.2026",
            ["16.03.2026", "30.03.2026"],
        ),
        (
            "day 29: the second is due, the third is next",
            Profile::Article51,
            vec![],
            "31.03.2026",
            ["30.03.2026", "13.04.2026"],
        ),
    ];
    for (sentence, profile, breaks, today, expected) in rows {
        let mut g = waiting_for_black();
        g.profile = profile;
        g.breaks = breaks;
        let repeats: Vec<NaiveDate> = eval(&g, today)
            .deadlines
            .iter()
            .filter(|x| x.kind == Repeat)
            .map(|x| x.date)
            .collect();
        assert_eq!(repeats, expected.map(d), "{sentence}");
    }
}

#[test]
fn the_partners_break_moves_the_arbiter_copy_date_too() {
    let mut g = waiting_for_black();
    g.breaks = vec![brk(Black, "05.03.2026", "09.03.2026", None)];
    let r = eval(&g, "05.03.2026");
    assert!(r.deadlines.contains(&dl(ArbiterCc, "01.05.2026")));
    assert!(
        r.deadlines.contains(&dl(Silence40, "11.04.2026")),
        "silence: plain days"
    );
}

#[test]
fn a_known_receipt_date_starts_the_running_days_but_not_the_repeat() {
    let mut g = waiting_for_black();
    g.awaited = Awaited::Move {
        received: Some(d("04.03.2026")),
    };
    let r = eval(&g, "06.03.2026");
    assert_eq!(r.running_days, 2);
    assert_eq!(r.deadlines[0], dl(Repeat, "16.03.2026"));
}

#[test]
fn when_we_are_to_move_there_is_no_repeat() {
    let mut g = waiting_for_black();
    g.me = Black;
    let r = eval(&g, "05.03.2026");
    assert_eq!(
        r.deadlines,
        vec![dl(Silence40, "11.04.2026"), dl(ArbiterCc, "26.04.2026")]
    );
}

#[test]
fn a_pending_correction_is_due_at_once_and_stops_the_repeat() {
    let mut g = waiting_for_black();
    g.correction = Some(d("05.03.2026"));
    let r = eval(&g, "06.03.2026");
    assert_eq!(
        r.deadlines,
        vec![
            dl(Correction, "05.03.2026"),
            dl(Silence40, "11.04.2026"),
            dl(ArbiterCc, "26.04.2026"),
        ]
    );
}

#[test]
fn before_the_first_move_silence_counts_from_the_start() {
    let g = GameTime::new(d("01.03.2026"), Black);
    let r = eval(&g, "02.03.2026");
    assert_eq!(
        r.deadlines,
        vec![dl(Silence40, "10.04.2026"), dl(ArbiterCc, "25.04.2026")]
    );
}

/// Control 2/6; we are Black. White: 2 days on 1., `second` days on 2. (sent 06.03 + second).
/// Black: 1 day on 1... We received 2. on `received`.
fn claim_game(second: i64, received: &str) -> GameTime {
    let sent = d("06.03.2026") + chrono::Duration::days(second);
    let mut g = game(
        "01.03.2026",
        Black,
        &[("01.03.2026", "03.03.2026"), ("04.03.2026", "05.03.2026")],
    );
    g.plies.push(Ply {
        received: d("06.03.2026"),
        sent,
    });
    g.control = Control::new(2, 6).unwrap();
    g.awaited = Awaited::Move {
        received: Some(d(received)),
    };
    g
}

#[test]
fn claim_rows() {
    // (sentence, White's 2nd move days, control, we are, claim date)
    let rows: [(&str, i64, (u32, u32), Color, Option<&str>); 5] = [
        (
            "51.6.1: White's total 7 > 6 at his control move 2: claim with our reply",
            5,
            (2, 6),
            Black,
            Some("12.03.2026"),
        ),
        (
            "exactly the limit, 6 of 6: nothing to claim",
            4,
            (2, 6),
            Black,
            None,
        ),
        (
            "White over, but his move 2 is no control move under 3/5: no claim yet",
            5,
            (3, 5),
            Black,
            None,
        ),
        (
            "we are White, over ourselves: Black is to move, no claim for us",
            5,
            (2, 6),
            White,
            None,
        ),
        (
            "under 1/3 every move is a control move: 7 > 6 at move 2",
            5,
            (1, 3),
            Black,
            Some("12.03.2026"),
        ),
    ];
    for (sentence, second, (moves, days), me, expected) in rows {
        let mut g = claim_game(second, "12.03.2026");
        g.control = Control::new(moves, days).unwrap();
        g.me = me;
        let claims: Vec<NaiveDate> = eval(&g, "13.03.2026")
            .deadlines
            .iter()
            .filter(|x| x.kind == Claim)
            .map(|x| x.date)
            .collect();
        assert_eq!(
            claims,
            expected.map(d).into_iter().collect::<Vec<_>>(),
            "{sentence}"
        );
    }
}

#[test]
fn after_our_reply_the_claim_is_gone() {
    let mut g = claim_game(5, "12.03.2026");
    g.plies.push(Ply {
        received: d("12.03.2026"),
        sent: d("13.03.2026"),
    });
    g.awaited = Awaited::Move { received: None };
    let r = eval(&g, "14.03.2026");
    assert!(
        r.deadlines.iter().all(|x| x.kind != Claim),
        "{:?}",
        r.deadlines
    );
    assert_eq!(r.clock.white.overstepped_at, Some(2));
}

#[test]
fn a_full_list_is_sorted_by_date() {
    let mut g = claim_game(5, "12.03.2026");
    g.correction = Some(d("13.03.2026"));
    let r = eval(&g, "13.03.2026");
    // White has 12 − 7 = 5 left at his next control: copies to the arbiter from today.
    assert_eq!(r.clock.white.left, 5);
    assert_eq!(
        r.deadlines,
        vec![
            dl(Claim, "12.03.2026"),
            dl(ArbiterCc, "13.03.2026"),
            dl(Correction, "13.03.2026"),
            dl(Silence40, "20.04.2026"),
        ]
    );
}

#[test]
fn arbiter_copy_rows() {
    // (sentence, days after our move, the arbiter_cc date)
    let g = steady_for_cc();
    let last = g.plies.last().unwrap().sent;
    for (sentence, after, expected) in [
        (
            "Black has 51 left: the copy starts when 46 more days pass",
            0,
            46,
        ),
        ("the day before he reaches 5: still ahead", 45, 46),
        ("on the day he reaches 5: today", 46, 46),
        ("past it, with 4 left: today", 47, 47),
        ("over the limit: today", 60, 60),
    ] {
        let r = evaluate(&g, last + chrono::Duration::days(after)).unwrap();
        let cc: Vec<NaiveDate> = r
            .deadlines
            .iter()
            .filter(|x| x.kind == ArbiterCc)
            .map(|x| x.date)
            .collect();
        assert_eq!(
            cc,
            vec![last + chrono::Duration::days(expected)],
            "{sentence}"
        );
    }
}

/// 19 plies: White (us) 3 days a move, Black 1 day a move: Black has 60 − 9 = 51 left.
fn steady_for_cc() -> GameTime {
    let mut g = steady(19, &[3]);
    g.me = White;
    g
}

#[test]
fn the_waiting_side_at_five_days_left_needs_the_arbiter_copy_at_once() {
    // 17 plies: White has made 9 moves and waits; Black, to move, has plenty.
    for (sentence, white, expected_after) in [
        ("White 55 of 60: 5 left, the copy is due today", 7, 0),
        (
            "White 54 of 60: 6 left, only Black's running days matter",
            6,
            60 - 8 - 5,
        ),
    ] {
        let g = steady(17, &[6, 6, 6, 6, 6, 6, 6, 6, white]);
        let last = g.plies.last().unwrap().sent;
        let r = evaluate(&g, last).unwrap();
        assert_eq!(r.to_move, Some(Black), "{sentence}");
        let cc: Vec<NaiveDate> = r
            .deadlines
            .iter()
            .filter(|x| x.kind == ArbiterCc)
            .map(|x| x.date)
            .collect();
        assert_eq!(
            cc,
            vec![last + chrono::Duration::days(expected_after)],
            "{sentence}"
        );
    }
}

#[test]
fn inputs_round_trip_through_json() {
    let mut g = claim_game(5, "12.03.2026");
    g.profile = Profile::Postal104;
    g.breaks = vec![brk(Black, "05.03.2026", "09.03.2026", Some("04.03.2026"))];
    g.penalties = vec![Penalty::standard(White, PenaltyCause::NoMove, 3).unwrap()];
    g.extras = vec![ExtraPeriod {
        player: Black,
        from: d("10.03.2026"),
        to: d("11.03.2026"),
        kind: ExtraKind::CorrectionRequest {
            fault: PenaltyCause::Impossible,
        },
        ply: 4,
    }];
    let text = serde_json::to_string(&g).unwrap();
    assert!(
        text.contains(r#""kind":"correction_request","fault":"impossible""#),
        "{text}"
    );
    assert!(text.contains(r#""control":{"moves":2,"days":6}"#), "{text}");
    let back: GameTime = serde_json::from_str(&text).unwrap();
    assert_eq!(back, g);
}
