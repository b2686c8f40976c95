//! Who is charged what: variations (51.4.6), penalties (51.4.7, 51.4.9), the correction
//! periods (51.4.8) and the time control (51.4.3).

use super::*;

/// Seven plies from 01.03.2026; White proposes a variation with ply 3 (his move 2), and plies
/// 4–6 come in Black's one message, received 11.03 and sent 15.03.
fn variation_game() -> GameTime {
    game(
        "01.03.2026",
        White,
        &[
            ("01.03.2026", "03.03.2026"), // 1. W: 2
            ("04.03.2026", "06.03.2026"), // 1... B: 2
            ("07.03.2026", "10.03.2026"), // 2. W: 3, proposes 2... 3. 3... 4.
            ("11.03.2026", "15.03.2026"), // 2... B (accepted)
            ("11.03.2026", "15.03.2026"), // 3. W (accepted)
            ("11.03.2026", "15.03.2026"), // 3... B (his own, or accepted)
            ("16.03.2026", "17.03.2026"), // 4. W: 1
        ],
    )
}

fn with_variations(mut g: GameTime, v: &[(u32, u32)]) -> GameTime {
    g.variations = v
        .iter()
        .map(|&(proposed_with, accepted_through)| Variation {
            proposed_with,
            accepted_through,
        })
        .collect();
    g
}

#[test]
fn variation_rows() {
    let rows: [(&str, &[(u32, u32)], [u32; 7]); 5] = [
        (
            "no variation: every ply its own days",
            &[],
            [2, 2, 3, 4, 4, 4, 1],
        ),
        (
            "accepted in part, up to the proposer's ply 5: Black's days on his last accepted \
             ply 4, the proposer's ply 5 and Black's new move 6 cost 0",
            &[(3, 5)],
            [2, 2, 3, 4, 0, 0, 1],
        ),
        (
            "accepted whole, up to Black's ply 6: charged there, plies 4 and 5 cost 0",
            &[(3, 6)],
            [2, 2, 3, 0, 0, 4, 1],
        ),
        (
            "accepted only Black's first move (ply 4): charged there; ply 5 is a new message",
            &[(3, 4)],
            [2, 2, 3, 4, 4, 4, 1],
        ),
        (
            "Black's free new move 6 proposes a variation White accepts at ply 7: 6 stays 0",
            &[(3, 5), (6, 7)],
            [2, 2, 3, 4, 0, 0, 1],
        ),
    ];
    for (sentence, variations, expected) in rows {
        let r = eval(&with_variations(variation_game(), variations), "17.03.2026");
        assert_eq!(r.ply_days, expected, "{sentence}");
    }
}

#[test]
fn the_receivers_days_count_towards_the_control_of_his_last_accepted_move() {
    // Control 2 moves / 6 days: Black's move 2 is ply 4, his last accepted one.
    let mut g = with_variations(variation_game(), &[(3, 5)]);
    g.control = Control::new(2, 6).unwrap();
    g.plies[1].sent = d("07.03.2026"); // 1... B: 3
    let r = eval(&g, "17.03.2026");
    assert_eq!(r.ply_days, vec![2, 3, 3, 4, 0, 0, 1]);
    assert_eq!(
        r.clock.black.overstepped_at,
        Some(2),
        "3 + 4 = 7 > 6 at move 2"
    );
    assert_eq!(r.clock.white.overstepped_at, None, "2 + 3 = 5 at move 2");
}

#[test]
fn variations_that_do_not_fit_are_errors() {
    for (sentence, v) in [
        (
            "accepted through the ply it was proposed with",
            vec![(3, 3)],
        ),
        ("accepted beyond the plies made", vec![(3, 8)]),
        ("overlapping another", vec![(3, 5), (4, 6)]),
        ("proposed with ply 0", vec![(0, 2)]),
    ] {
        let g = with_variations(variation_game(), &v);
        assert!(
            matches!(
                evaluate(&g, d("17.03.2026")),
                Err(ClockError::BadVariation { .. })
            ),
            "{sentence}"
        );
    }
}

/// Three plies, control 2/6: White 2 + 4 = 6 at his move 2 (ply 3), Black 1.
fn control_game() -> GameTime {
    let mut g = game(
        "01.03.2026",
        Black,
        &[
            ("01.03.2026", "03.03.2026"),
            ("04.03.2026", "05.03.2026"),
            ("06.03.2026", "10.03.2026"),
        ],
    );
    g.control = Control::new(2, 6).unwrap();
    g
}

#[test]
fn penalty_rows() {
    let illegible = |ply| Penalty::standard(White, PenaltyCause::Illegible, ply).unwrap();
    let rows: [(&str, Vec<Penalty>, u32, u32, Option<u32>); 5] = [
        (
            "no penalty: exactly on the limit, 6 of 6",
            vec![],
            0,
            6,
            None,
        ),
        (
            "51.4.7: a penalty landing on the control move counts towards it: 8 > 6",
            vec![illegible(3)],
            2,
            8,
            Some(2),
        ),
        (
            "a penalty recorded at the next ply counts towards the next control",
            vec![illegible(4)],
            2,
            8,
            None,
        ),
        (
            "a penalty recorded at an earlier ply counts too",
            vec![Penalty::standard(White, PenaltyCause::WrongRepetition, 1).unwrap()],
            2,
            8,
            Some(2),
        ),
        (
            "51.4.9: a late repeat costs the delay, here 5 days, recorded while Black is to move",
            vec![Penalty {
                player: White,
                days: 5,
                cause: PenaltyCause::LateRepeat,
                ply: 4,
            }],
            5,
            11,
            None,
        ),
    ];
    for (sentence, penalties, penalty, total, overstepped) in rows {
        let mut g = control_game();
        g.penalties = penalties;
        let r = eval(&g, "10.03.2026");
        let w = r.clock.white;
        assert_eq!(
            (w.days, w.penalty, w.total),
            (6, penalty, total),
            "{sentence}"
        );
        assert_eq!(w.overstepped_at, overstepped, "{sentence}");
        assert_eq!(r.clock.black.penalty, 0, "{sentence}");
    }
}

#[test]
fn the_rules_fix_two_days_for_every_fault_but_a_late_repeat() {
    use PenaltyCause::*;
    for cause in [Illegible, Ambiguous, Impossible, NoMove, WrongRepetition] {
        let p = Penalty::standard(Black, cause, 2).unwrap();
        assert_eq!((p.days, p.cause, p.ply), (2, cause, 2));
    }
    assert_eq!(Penalty::standard(Black, LateRepeat, 2), None);
    assert_eq!(LateRepeat.rule_days(), None);
}

#[test]
fn penalty_at_a_ply_not_made_nor_awaited_is_an_error() {
    let mut g = control_game();
    g.penalties = vec![Penalty::standard(White, PenaltyCause::Ambiguous, 5).unwrap()];
    assert_eq!(
        evaluate(&g, d("10.03.2026")),
        Err(ClockError::NoSuchPly { ply: 5, last: 4 })
    );
    g.penalties[0].ply = 0;
    assert_eq!(
        evaluate(&g, d("10.03.2026")),
        Err(ClockError::NoSuchPly { ply: 0, last: 4 })
    );
}

#[test]
fn correction_periods_51_4_8() {
    let request = |fault| ExtraKind::CorrectionRequest { fault };
    let rows = [
        (
            "an impossible move, request sent 5 days later: 3 free, 2 charged to the asker",
            request(PenaltyCause::Impossible),
            "15.03.2026",
            2,
        ),
        (
            "an impossible move, request sent within 3 days: nothing charged",
            request(PenaltyCause::Impossible),
            "13.03.2026",
            0,
        ),
        (
            "a wrongly repeated move, request after 4 days: 1 charged",
            request(PenaltyCause::WrongRepetition),
            "14.03.2026",
            1,
        ),
        (
            "an illegible move: no allowance, 2 days charged",
            request(PenaltyCause::Illegible),
            "12.03.2026",
            2,
        ),
        (
            "the offender's days on the rejected message are charged to him",
            ExtraKind::RejectedMessage,
            "14.03.2026",
            4,
        ),
    ];
    for (sentence, kind, to, expected) in rows {
        let mut g = control_game();
        g.control = Control::default();
        g.extras = vec![ExtraPeriod {
            player: Black,
            from: d("10.03.2026"),
            to: d(to),
            kind,
            ply: 4,
        }];
        let r = eval(&g, "16.03.2026");
        assert_eq!(r.extra_days, vec![expected], "{sentence}");
        assert_eq!(r.clock.black.days, 1 + expected, "{sentence}");
        assert_eq!(r.clock.black.penalty, 0, "{sentence}");
    }
}

#[test]
fn an_extra_period_counts_towards_the_control_of_its_ply_and_skips_breaks() {
    let mut g = control_game();
    g.breaks = vec![brk(White, "07.03.2026", "07.03.2026", None)];
    g.extras = vec![ExtraPeriod {
        player: White,
        from: d("04.03.2026"),
        to: d("08.03.2026"),
        kind: ExtraKind::RejectedMessage,
        ply: 3,
    }];
    let r = eval(&g, "10.03.2026");
    // White's ply 3 loses 07.03 to the break: 3 days. The period 05–08.03 less 07.03: 3.
    assert_eq!(r.ply_days, vec![2, 1, 3]);
    assert_eq!(r.extra_days, vec![3]);
    assert_eq!(r.clock.white.total, 8);
    assert_eq!(r.clock.white.overstepped_at, Some(2));
    g.extras[0].to = d("03.03.2026");
    assert_eq!(
        evaluate(&g, d("10.03.2026")),
        Err(ClockError::ReversedPeriod {
            from: d("04.03.2026"),
            to: d("03.03.2026"),
        })
    );
}

#[test]
fn control_rows_at_10_60() {
    // (sentence, plies, White's cost per move, White's overstepped_at, next_control, limit)
    let rows: [(&str, usize, &[i64], Option<u32>, u32, u32); 5] = [
        (
            "19 plies, White 10 moves of 6 days: 60, exactly the limit",
            19,
            &[6],
            None,
            20,
            120,
        ),
        (
            "a control overstepped by one day: 9 moves of 6 and one of 7 = 61 at move 10",
            19,
            &[6, 6, 6, 6, 6, 6, 6, 6, 6, 7],
            Some(10),
            20,
            120,
        ),
        (
            "before the control: 9 moves made, next is 10",
            17,
            &[6],
            None,
            10,
            60,
        ),
        (
            "cumulative: 61 at move 10, 111 of 120 at move 20: the overstep stays at 10",
            39,
            &[6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
            Some(10),
            30,
            180,
        ),
        (
            "cumulative: 7 a move, 70 > 60 at move 10, 140 > 120 at 20: the first is 10",
            41,
            &[7],
            Some(10),
            30,
            180,
        ),
    ];
    for (sentence, n, white, overstepped, next_control, limit) in rows {
        let g = steady(n, white);
        let r = eval(&g, "01.01.2027");
        let w = r.clock.white;
        assert_eq!(w.overstepped_at, overstepped, "{sentence}");
        assert_eq!(
            (w.next_control, w.limit),
            (next_control, limit),
            "{sentence}"
        );
        assert_eq!(r.clock.black.overstepped_at, None, "{sentence}");
    }
}

#[test]
fn left_is_limit_less_total_less_running_for_the_side_to_move_and_may_go_negative() {
    let g = steady(19, &[6]); // White 60 in 10 moves, Black 9 days in 9 moves, Black to move
    let last = g.plies.last().unwrap().sent;
    let r = evaluate(&g, last + chrono::Duration::days(55)).unwrap();
    assert_eq!(r.to_move, Some(Black));
    assert_eq!(r.running_days, 55);
    assert_eq!(r.clock.black.total, 9);
    assert_eq!(
        r.clock.black.left,
        60 - 9 - 55,
        "-4: over before his 10th move"
    );
    assert_eq!(
        r.clock.black.overstepped_at, None,
        "judged at the control move"
    );
    assert_eq!(r.clock.white.left, 120 - 60, "White waits: no running days");
}

#[test]
fn a_fresh_game_under_the_defaults() {
    let g = GameTime::new(d("01.03.2026"), White);
    let r = eval(&g, "04.03.2026");
    assert_eq!(r.to_move, Some(White));
    assert_eq!(
        r.running_days, 3,
        "White's first move counts from the start date"
    );
    let w = r.clock.white;
    assert_eq!((w.total, w.next_control, w.limit, w.left), (0, 10, 60, 57));
    assert_eq!(r.clock.black.left, 60);
    assert_eq!(r.ply_days, Vec::<u32>::new());
}

#[test]
fn a_finished_game_runs_no_clock() {
    let mut g = control_game();
    g.awaited = Awaited::Nothing;
    let r = eval(&g, "30.03.2026");
    assert_eq!((r.to_move, r.running_days), (None, 0));
    assert_eq!(r.clock.black.left, 6 - 1);
    assert_eq!(r.deadlines, vec![]);
}

/// An imported game at move 20: the partner's last message stated White 31, Black 27 after
/// his 20th move (ply 39); the plies before it are charged nothing of their own.
fn imported_at_move_20() -> GameTime {
    let mut g = steady(39, &[2]);
    g.carried = Some(Carried {
        through: 39,
        white: 31,
        black: 27,
    });
    g
}

#[test]
fn carried_days_stand_for_the_plies_before_the_import() {
    let mut g = imported_at_move_20();
    let last = g.plies[38].sent;
    // We (Black) received White's 20th move the day after it was sent.
    g.awaited = Awaited::Move {
        received: Some(last + chrono::Days::new(1)),
    };
    let r = evaluate(&g, last + chrono::Days::new(4)).expect("evaluates");
    assert!(r.ply_days.iter().all(|&d| d == 0), "{:?}", r.ply_days);
    assert_eq!((r.clock.white.total, r.clock.black.total), (31, 27));
    assert_eq!(
        r.running_days, 3,
        "our move runs from the day we received his"
    );
    // Black is to make his 20th move: the second control, 120 days.
    assert_eq!(
        (r.clock.black.limit, r.clock.black.left),
        (120, 120 - 27 - 3)
    );
    assert_eq!(r.clock.white.overstepped_at, None);
}

#[test]
fn plies_after_the_import_are_charged_as_any() {
    let mut g = imported_at_move_20();
    let last = g.plies[38].sent;
    let received = last + chrono::Days::new(1);
    g.plies.push(Ply {
        received,
        sent: received + chrono::Days::new(2),
    });
    let r = eval(&g, "01.01.2027");
    assert_eq!(r.ply_days[39], 2);
    assert_eq!((r.clock.white.total, r.clock.black.total), (31, 29));
}

#[test]
fn carried_days_count_at_their_ply_for_the_controls() {
    // Carried at ply 19 (White's 10th move, the first control) over White's 60 days.
    let mut g = steady(20, &[1]);
    g.carried = Some(Carried {
        through: 19,
        white: 61,
        black: 5,
    });
    let r = eval(&g, "01.06.2026");
    assert_eq!(r.clock.white.overstepped_at, Some(10));
    assert_eq!(r.clock.black.total, 5 + 1, "Black's ply 20 is his own");
}

#[test]
fn carried_days_past_the_plies_made_are_refused() {
    let mut g = steady(4, &[1]);
    g.carried = Some(Carried {
        through: 5,
        white: 1,
        black: 1,
    });
    assert_eq!(
        evaluate(&g, d("01.06.2026")),
        Err(ClockError::NoSuchPly { ply: 5, last: 4 })
    );
}

/// Each cause's name is the one serde writes, and reads back as the cause; any other word is
/// no cause.
#[test]
fn penalty_causes_round_trip_through_their_names() {
    for c in PenaltyCause::ALL {
        assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        assert_eq!(c.as_str().parse::<PenaltyCause>(), Ok(c));
        assert_eq!(c.to_string(), c.as_str());
    }
    assert!("late".parse::<PenaltyCause>().is_err());
}
