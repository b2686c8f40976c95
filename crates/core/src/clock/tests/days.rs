//! Thinking days per move: the day formula, breaks, the start clamp, both profiles.

use super::*;
use Profile::{Article51, Postal104};

/// (sentence, profile, received, sent, breaks, Black's days)
type Row = (
    &'static str,
    Profile,
    &'static str,
    &'static str,
    Vec<Break>,
    u32,
);

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
fn rows() -> Vec<Row> {
    let own = |from, to| brk(Black, from, to, Some("01.09.2026"));
    let own_no_notice = |from, to| brk(Black, from, to, None);
    let partners = |from, to| brk(White, from, to, Some("01.09.2026"));
    vec![
        // 10.4.3, the three worked examples (break 10.10–25.10 is 16 days).
        (
            "10.4.3: received 08.10, answered 27.10, break 10.10–25.10: 27 − 8 − 16 = 3",
            Article51,
            "08.10.2026",
            "27.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            3,
        ),
        (
            "10.4.3: received 08.10, answered 20.10 during the break: the day before it, 1",
            Article51,
            "08.10.2026",
            "20.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            1,
        ),
        (
            "10.4.3: received 10.10 during the break, answered 26.10: the day after it, 1",
            Article51,
            "10.10.2026",
            "26.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            1,
        ),
        (
            "10.4.3 under postal104 (notice in time): the same 3",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            3,
        ),
        (
            "10.4.3 under postal104, answered during the break: 1",
            Postal104,
            "08.10.2026",
            "20.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            1,
        ),
        (
            "10.4.3 under postal104, received during the break: 1",
            Postal104,
            "10.10.2026",
            "26.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            1,
        ),
        // The formula without breaks.
        (
            "a same-day reply costs 0",
            Article51,
            "05.03.2026",
            "05.03.2026",
            vec![],
            0,
        ),
        (
            "a next-day reply costs 1",
            Article51,
            "05.03.2026",
            "06.03.2026",
            vec![],
            1,
        ),
        (
            "across a month end, 28.02 to 03.03 in 2026 (no 29th): 3",
            Article51,
            "28.02.2026",
            "03.03.2026",
            vec![],
            3,
        ),
        (
            "across a month end in a leap year, 28.02 to 02.03.2028: 3 (29.02 counts)",
            Article51,
            "28.02.2028",
            "02.03.2028",
            vec![],
            3,
        ),
        (
            "across the year end, 30.12.2026 to 02.01.2027: 3",
            Article51,
            "30.12.2026",
            "02.01.2027",
            vec![],
            3,
        ),
        (
            "31 days across 31.01 to 03.03.2026",
            Article51,
            "31.01.2026",
            "03.03.2026",
            vec![],
            31,
        ),
        // Breaks, Article 51.
        (
            "51.7.5: a break that starts before the move is received and ends after the reply: 0",
            Article51,
            "12.10.2026",
            "20.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            0,
        ),
        (
            "51.7.6: received during a break 01.10–10.10, answered 15.10: 11.10 to 15.10, 5",
            Article51,
            "05.10.2026",
            "15.10.2026",
            vec![own("01.10.2026", "10.10.2026")],
            5,
        ),
        (
            "two breaks inside one move, 5 days each, in a 30-day move: 20",
            Article51,
            "01.03.2026",
            "31.03.2026",
            vec![
                own("05.03.2026", "09.03.2026"),
                own("20.03.2026", "24.03.2026"),
            ],
            20,
        ),
        (
            "a break across New Year 25.12–05.01 inside a move 20.12 to 10.01: 21 − 12 = 9",
            Article51,
            "20.12.2026",
            "10.01.2027",
            vec![own("25.12.2026", "05.01.2027")],
            9,
        ),
        (
            "a break that ended on the day of receipt takes nothing: 10.10 to 12.10, 2",
            Article51,
            "10.10.2026",
            "12.10.2026",
            vec![own("01.10.2026", "10.10.2026")],
            2,
        ),
        (
            "a break that starts the day after the reply takes nothing",
            Article51,
            "01.10.2026",
            "09.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            8,
        ),
        (
            "a reply sent on the break's first day: only the day before, 1",
            Article51,
            "08.10.2026",
            "10.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            1,
        ),
        (
            "51.7.4: the partner's break does not stop the mover's clock: 19",
            Article51,
            "08.10.2026",
            "27.10.2026",
            vec![partners("10.10.2026", "25.10.2026")],
            19,
        ),
        (
            "Article 51 does not read notices: a break with none still counts: 3",
            Article51,
            "08.10.2026",
            "27.10.2026",
            vec![own_no_notice("10.10.2026", "25.10.2026")],
            3,
        ),
        // The postal104 differences (10.4.2).
        (
            "postal104: the partner's break stops the mover's clock too: 3",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![partners("10.10.2026", "25.10.2026")],
            3,
        ),
        (
            "postal104: a break with no notice in this game does not count: 19",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![own_no_notice("10.10.2026", "25.10.2026")],
            19,
        ),
        (
            "postal104: a notice dated 15.10 (late) starts the break then: 19 − 11 = 8",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![brk(Black, "10.10.2026", "25.10.2026", Some("15.10.2026"))],
            8,
        ),
        (
            "postal104: a notice dated after the break's end leaves nothing: 19",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![brk(Black, "10.10.2026", "25.10.2026", Some("26.10.2026"))],
            19,
        ),
        (
            "postal104: a notice on the break's last day leaves that one day: 18",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![brk(Black, "10.10.2026", "25.10.2026", Some("25.10.2026"))],
            18,
        ),
        (
            "postal104: both players' overlapping breaks 10.10–20.10 and 15.10–25.10 skip 16: 3",
            Postal104,
            "08.10.2026",
            "27.10.2026",
            vec![
                partners("10.10.2026", "20.10.2026"),
                own("15.10.2026", "25.10.2026"),
            ],
            3,
        ),
        (
            "postal104 10.4.4: a move received and sent inside one's own break costs 0",
            Postal104,
            "12.10.2026",
            "20.10.2026",
            vec![own("10.10.2026", "25.10.2026")],
            0,
        ),
    ]
}

#[test]
fn thinking_days_rows() {
    for (sentence, profile, received, sent, breaks, expected) in rows() {
        assert_eq!(
            black_days(profile, received, sent, &breaks),
            expected,
            "{sentence}"
        );
    }
}

#[test]
fn the_start_clamp() {
    // 51.4.5: White's first move counts as received on the start date.
    let g = game("01.03.2026", White, &[("20.02.2026", "04.03.2026")]);
    assert_eq!(
        eval(&g, "04.03.2026").ply_days,
        vec![3],
        "R of ply 1 is the start"
    );
    let g = game("01.03.2026", White, &[("01.03.2026", "01.03.2026")]);
    assert_eq!(
        eval(&g, "01.03.2026").ply_days,
        vec![0],
        "first move on the start date"
    );
    let g = game("01.03.2026", White, &[("01.03.2026", "25.02.2026")]);
    assert_eq!(
        eval(&g, "01.03.2026").ply_days,
        vec![0],
        "first move before the start"
    );
    // Black's reply received before the start: only days after the start count.
    let g = game(
        "01.03.2026",
        White,
        &[("01.03.2026", "24.02.2026"), ("25.02.2026", "04.03.2026")],
    );
    assert_eq!(eval(&g, "04.03.2026").ply_days, vec![0, 3]);
    let g = game(
        "01.03.2026",
        White,
        &[("01.03.2026", "24.02.2026"), ("25.02.2026", "27.02.2026")],
    );
    assert_eq!(
        eval(&g, "04.03.2026").ply_days,
        vec![0, 0],
        "both before the start"
    );
    // A break over the start date: only its days after the start matter.
    let mut g = game("01.03.2026", White, &[("01.03.2026", "05.03.2026")]);
    g.breaks = vec![brk(White, "25.02.2026", "03.03.2026", None)];
    assert_eq!(eval(&g, "05.03.2026").ply_days, vec![2]);
}

#[test]
fn a_whole_game_sums_per_side() {
    // Replies across a month end and a year end, one same-day reply.
    let g = game(
        "28.12.2026",
        White,
        &[
            ("28.12.2026", "30.12.2026"), // 1. White: 2
            ("31.12.2026", "02.01.2027"), // 1... Black: 2 across New Year
            ("03.01.2027", "03.01.2027"), // 2. White: same day, 0
            ("04.01.2027", "01.02.2027"), // 2... Black: 28 across a month end
        ],
    );
    let r = eval(&g, "05.02.2027");
    assert_eq!(r.ply_days, vec![2, 2, 0, 28]);
    assert_eq!((r.clock.white.days, r.clock.black.days), (2, 30));
    // White to move; his receipt of 2... not known, so 01.02, its send date: running 4.
    assert_eq!(r.to_move, Some(White));
    assert_eq!(r.running_days, 4);
    assert_eq!(r.clock.white.left, 60 - 2 - 4);
    assert_eq!(r.clock.black.left, 60 - 30);
}

#[test]
fn time_zones_may_put_receipt_the_day_before_the_send_date() {
    // Moscow sends at 00:30 on the 6th, New York receives on the 5th: allowed.
    let g = game(
        "01.03.2026",
        Black,
        &[("01.03.2026", "06.03.2026"), ("05.03.2026", "07.03.2026")],
    );
    assert_eq!(eval(&g, "07.03.2026").ply_days, vec![5, 2]);
}

#[test]
fn a_ply_sent_before_it_was_received_is_an_error() {
    let g = game(
        "01.03.2026",
        White,
        &[("01.03.2026", "02.03.2026"), ("05.03.2026", "04.03.2026")],
    );
    assert_eq!(
        evaluate(&g, d("10.03.2026")),
        Err(ClockError::SentBeforeReceived {
            ply: 2,
            received: d("05.03.2026"),
            sent: d("04.03.2026"),
        })
    );
}

#[test]
fn running_days_skip_the_movers_break_and_on_break_shows_it() {
    let mut g = game("01.03.2026", White, &[("01.03.2026", "02.03.2026")]);
    g.breaks = vec![brk(Black, "05.03.2026", "09.03.2026", None)];
    let r = eval(&g, "07.03.2026");
    // Black received on 02.03 (assumed); 03.03 and 04.03 count, 05–07 are his break.
    assert_eq!(r.running_days, 2);
    assert!(r.clock.black.on_break);
    assert!(!r.clock.white.on_break);
    let r = eval(&g, "12.03.2026");
    assert_eq!(r.running_days, 5);
    assert!(!r.clock.black.on_break);
}

#[test]
fn postal104_the_partners_break_stops_the_running_clock_where_notified() {
    let mut g = game("01.03.2026", White, &[("01.03.2026", "02.03.2026")]);
    g.profile = Postal104;
    g.breaks = vec![brk(White, "05.03.2026", "09.03.2026", Some("03.03.2026"))];
    let r = eval(&g, "12.03.2026");
    assert_eq!(
        r.running_days, 5,
        "Black's clock stopped during White's break"
    );
    // With no notice in this game the break does not apply, not even to White's on_break.
    g.breaks[0].notice = None;
    let r = eval(&g, "07.03.2026");
    assert_eq!(r.running_days, 5);
    assert!(!r.clock.white.on_break);
}
