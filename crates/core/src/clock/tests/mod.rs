//! Tests of the rules clock: table rows that read like the rules, and properties.
//!
//! Dates are written `dd.mm.yyyy` as in the rules' own examples and parsed by [`d`].

// Each table spells its row type out where it is read, next to the rows.
#![allow(clippy::type_complexity)]

use chrono::NaiveDate;
use shakmaty::Color::{self, Black, White};

use super::*;

mod breaks;
mod charging;
mod days;
mod deadlines;
mod props;

/// `dd.mm.yyyy` → date; a typo in a test row fails the test loudly.
pub(super) fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%d.%m.%Y")
        .unwrap_or_else(|e| panic!("test date {text:?}: {e}"))
}

/// An inclusive span from two `dd.mm.yyyy` dates.
pub(super) fn span(from: &str, to: &str) -> DateSpan {
    DateSpan::new(d(from), d(to)).expect("test span")
}

/// A break of `player` from `from` to `to`, its notice in this game on `notice` (postal104).
pub(super) fn brk(player: Color, from: &str, to: &str, notice: Option<&str>) -> Break {
    Break {
        player,
        span: span(from, to),
        notice: notice.map(d),
    }
}

/// A game that started on `start`, we playing `me`, with the plies (R, S) given.
pub(super) fn game(start: &str, me: Color, plies: &[(&str, &str)]) -> GameTime {
    let mut g = GameTime::new(d(start), me);
    g.plies = plies
        .iter()
        .map(|&(r, s)| Ply {
            received: d(r),
            sent: d(s),
        })
        .collect();
    g
}

/// The report for `game` as of `today`, which must evaluate.
pub(super) fn eval(game: &GameTime, today: &str) -> ClockReport {
    evaluate(game, d(today)).expect("the game evaluates")
}

/// Black's days for one move received on `received` and sent on `sent`, under `profile`,
/// with `breaks` (White moved long before, on the day Black received his move).
pub(super) fn black_days(profile: Profile, received: &str, sent: &str, breaks: &[Break]) -> u32 {
    let mut g = game(
        "01.01.2020",
        White,
        &[("01.01.2020", received), (received, sent)],
    );
    g.profile = profile;
    g.breaks = breaks.to_vec();
    eval(&g, sent).ply_days[1]
}

/// `n` plies from 01.01.2026 with no transit, we being Black: White's moves cost
/// `white[i % len]` days, Black's 1 day each.
pub(super) fn steady(n: usize, white: &[i64]) -> GameTime {
    let mut g = GameTime::new(d("01.01.2026"), Black);
    let mut day = g.start;
    for i in 0..n {
        let cost = if i % 2 == 0 {
            white[(i / 2) % white.len()]
        } else {
            1
        };
        let sent = day + chrono::Duration::days(cost);
        g.plies.push(Ply {
            received: day,
            sent,
        });
        day = sent;
    }
    g
}

#[test]
fn helpers_read_dates_as_the_rules_write_them() {
    assert_eq!(
        d("08.10.2026"),
        NaiveDate::from_ymd_opt(2026, 10, 8).unwrap()
    );
    assert_eq!(span("10.10.2026", "25.10.2026").days(), 16);
    assert_eq!(Black, !White);
}
