//! Properties over generated games: adding a break never increases the mover's days; totals
//! never decrease as a game goes on; days are never negative (nor more than the calendar
//! gives); and no input panics.

use chrono::{Days, NaiveDate};
use proptest::prelude::*;

use super::*;
use crate::clock::span::{counted_days, diff, merge, nth_counted_day};

fn day0() -> NaiveDate {
    d("01.01.2026")
}

fn plus(date: NaiveDate, days: i64) -> NaiveDate {
    if days >= 0 {
        date + Days::new(days.unsigned_abs())
    } else {
        date - Days::new(days.unsigned_abs())
    }
}

/// A break: (White's?, first day after day0, length, notice relative to the first day).
type RawBreak = (bool, i64, i64, Option<i64>);

fn raw_break() -> impl Strategy<Value = RawBreak> {
    (
        any::<bool>(),
        0i64..500,
        1i64..40,
        proptest::option::of(-5i64..45),
    )
}

fn to_break((white, from, len, notice): RawBreak) -> Break {
    let from = plus(day0(), from);
    Break {
        player: if white { White } else { Black },
        span: DateSpan::new(from, plus(from, len - 1)).unwrap(),
        notice: notice.map(|n| plus(from, n)),
    }
}

/// A game from day0 + `start`: each ply is (transit, thinking) in days; transit may be −1
/// (time zones). Penalties are (White's?, days, ply index modulo plies + 1).
#[derive(Debug, Clone)]
struct Raw {
    start: i64,
    postal: bool,
    me_white: bool,
    plies: Vec<(i64, i64)>,
    breaks: Vec<RawBreak>,
    penalties: Vec<(bool, u32, u32)>,
    after: i64,
}

fn raw_game() -> impl Strategy<Value = Raw> {
    (
        -10i64..30,
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec((-1i64..4, 0i64..25), 0..30),
        proptest::collection::vec(raw_break(), 0..4),
        proptest::collection::vec((any::<bool>(), 0u32..5, any::<u32>()), 0..3),
        0i64..80,
    )
        .prop_map(
            |(start, postal, me_white, plies, breaks, penalties, after)| Raw {
                start,
                postal,
                me_white,
                plies,
                breaks,
                penalties,
                after,
            },
        )
}

impl Raw {
    /// The game with its first `n` plies, and the day after the last one by `after` days.
    fn build(&self, n: usize) -> (GameTime, NaiveDate) {
        let start = plus(day0(), self.start);
        let mut g = GameTime::new(start, if self.me_white { White } else { Black });
        g.profile = if self.postal {
            Profile::Postal104
        } else {
            Profile::Article51
        };
        let mut last = start;
        for &(transit, think) in self.plies.iter().take(n) {
            let received = if g.plies.is_empty() {
                start
            } else {
                plus(last, transit)
            };
            last = plus(received, think);
            g.plies.push(Ply {
                received,
                sent: last,
            });
        }
        g.breaks = self.breaks.iter().copied().map(to_break).collect();
        let awaited = g.ply_count() + 1;
        g.penalties = self
            .penalties
            .iter()
            .map(|&(white, days, at)| Penalty {
                player: if white { White } else { Black },
                days,
                cause: PenaltyCause::Illegible,
                ply: 1 + at % awaited,
            })
            .collect();
        (g, plus(last, self.after))
    }

    fn full(&self) -> (GameTime, NaiveDate) {
        self.build(self.plies.len())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn adding_a_break_never_increases_the_movers_days(raw in raw_game(), extra in raw_break()) {
        let (g, today) = raw.full();
        let before = evaluate(&g, today).unwrap();
        let mut more = g.clone();
        more.breaks.push(to_break(extra));
        let after = evaluate(&more, today).unwrap();
        for (i, (a, b)) in after.ply_days.iter().zip(&before.ply_days).enumerate() {
            prop_assert!(a <= b, "ply {}: {} > {}", i + 1, a, b);
        }
        prop_assert!(after.running_days <= before.running_days);
        for color in [White, Black] {
            prop_assert!(after.clock.get(color).days <= before.clock.get(color).days);
            prop_assert!(after.clock.get(color).left >= before.clock.get(color).left);
        }
    }

    #[test]
    fn totals_never_decrease_as_the_game_goes_on(raw in raw_game()) {
        let mut previous = [0u32; 2];
        for n in 0..=raw.plies.len() {
            let (g, today) = raw.build(n);
            let r = evaluate(&g, today).unwrap();
            let now = [r.clock.white.total, r.clock.black.total];
            prop_assert!(now[0] >= previous[0] && now[1] >= previous[1], "{:?} < {:?} at ply {}", now, previous, n);
            previous = now;
        }
        // And as the days pass with no move: total + running never falls.
        let (g, today) = raw.full();
        let mut spent = 0;
        for later in 0..40 {
            let r = evaluate(&g, plus(today, later)).unwrap();
            let mover = r.to_move.unwrap();
            let now = r.clock.get(mover).total + r.running_days;
            prop_assert!(now >= spent);
            spent = now;
        }
    }

    #[test]
    fn days_are_never_negative_nor_more_than_the_calendar(raw in raw_game()) {
        let (g, today) = raw.full();
        let r = evaluate(&g, today).unwrap();
        let no_breaks = g.breaks.iter().all(|b| b.effective(g.profile).is_none());
        for (i, (p, days)) in g.plies.iter().zip(&r.ply_days).enumerate() {
            let from = if i == 0 { g.start } else { p.received.max(g.start) };
            let calendar = u32::try_from(diff(from, p.sent).max(0)).unwrap();
            prop_assert!(*days <= calendar, "ply {}: {} > {}", i + 1, days, calendar);
            if no_breaks {
                prop_assert_eq!(*days, calendar);
            }
        }
        for color in [White, Black] {
            let c = r.clock.get(color);
            prop_assert_eq!(c.total, c.days + c.penalty);
            let running = if r.to_move == Some(color) { r.running_days } else { 0 };
            prop_assert_eq!(c.left, i64::from(c.limit) - i64::from(c.total) - i64::from(running));
        }
        prop_assert!(r.deadlines.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn counted_days_plus_break_days_are_the_calendar(
        a in 0i64..400, len in 0i64..100, spans in proptest::collection::vec((0i64..500, 1i64..40), 0..5)
    ) {
        let received = plus(day0(), a);
        let sent = plus(received, len);
        let spans: Vec<DateSpan> = spans
            .iter()
            .map(|&(f, l)| DateSpan::new(plus(day0(), f), plus(day0(), f + l - 1)).unwrap())
            .collect();
        let merged = merge(spans);
        let counted = counted_days(received, sent, &merged);
        let mut day = received;
        let mut brute = 0;
        while day < sent {
            day = plus(day, 1);
            if !merged.iter().any(|s| s.contains(day)) {
                brute += 1;
            }
        }
        prop_assert_eq!(counted, brute);
    }

    #[test]
    fn the_nth_counted_day_is_where_the_count_reaches_n(
        a in 0i64..400, n in 0u32..60, spans in proptest::collection::vec((0i64..500, 1i64..40), 0..5)
    ) {
        let after = plus(day0(), a);
        let spans: Vec<DateSpan> = spans
            .iter()
            .map(|&(f, l)| DateSpan::new(plus(day0(), f), plus(day0(), f + l - 1)).unwrap())
            .collect();
        let merged = merge(spans);
        let day = nth_counted_day(after, n, &merged).unwrap();
        prop_assert_eq!(counted_days(after, day, &merged), n);
        if n > 0 {
            // The earliest such day: the day before counts one less.
            prop_assert_eq!(counted_days(after, plus(day, -1), &merged), n - 1);
        } else {
            prop_assert_eq!(day, after);
        }
    }

    #[test]
    fn no_input_panics(
        dates in proptest::collection::vec(any::<i32>(), 12),
        control in (any::<u32>(), any::<u32>()),
        variation in (any::<u32>(), any::<u32>()),
        penalty in (any::<u32>(), any::<u32>()),
    ) {
        let date = |i: usize| NaiveDate::from_num_days_from_ce_opt(dates[i] % 100_000_000)
            .unwrap_or(NaiveDate::MIN);
        let mut g = GameTime::new(date(0), White);
        g.control = Control::new(control.0, control.1).unwrap_or_default();
        g.plies = (1..5).map(|i| Ply { received: date(2 * i - 1), sent: date(2 * i) }).collect();
        g.variations = vec![Variation { proposed_with: variation.0, accepted_through: variation.1 }];
        g.penalties = vec![Penalty { player: Black, days: penalty.0, cause: PenaltyCause::LateRepeat, ply: penalty.1 }];
        if let Ok(s) = DateSpan::new(date(9).min(date(10)), date(9).max(date(10))) {
            g.breaks = vec![Break { player: Black, span: s, notice: Some(date(11)) }];
            let _ = check_break(Profile::Postal104, &[s], s);
            let _ = end_early(s, date(11));
        }
        g.correction = Some(date(11));
        let _ = evaluate(&g, date(9));
        g.variations.clear();
        g.penalties.clear();
        g.plies.sort_by_key(|p| p.sent);
        for p in &mut g.plies {
            p.received = p.received.min(p.sent);
        }
        let _ = evaluate(&g, NaiveDate::MAX);
        let _ = evaluate(&g, NaiveDate::MIN);
    }
}

#[test]
fn a_fixed_case_of_each_property_can_fail() {
    // The properties above are only worth their asserts: pin one case by hand.
    let raw = Raw {
        start: 0,
        postal: false,
        me_white: true,
        plies: vec![(0, 5), (0, 5)],
        breaks: vec![],
        penalties: vec![],
        after: 0,
    };
    let (g, today) = raw.full();
    assert_eq!(
        eval(&g, &today.format("%d.%m.%Y").to_string()).ply_days,
        vec![5, 5]
    );
    let mut more = g.clone();
    more.breaks.push(to_break((false, 6, 2, None))); // Black's 07.01–08.01
    assert_eq!(evaluate(&more, today).unwrap().ply_days, vec![5, 3]);
}
