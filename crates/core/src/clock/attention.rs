//! What a player must see first about the clocks: a side that has overstepped the control or
//! will at the next one (51.4.3, 51.6.1), and which deadlines are still open. `show` and
//! `games` print these; the decisions are here so that one table test reaches each.

use chrono::NaiveDate;
use shakmaty::Color;

use super::report::{Clocks, Deadline, DeadlineKind};

/// A clock that needs the player's attention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// `side` made its control move `at` over the limit and the other side has not answered
    /// it yet: the other side may claim a win on time, no later than that answer (51.6.1).
    Overstepped { side: Color, at: u32 },
    /// `side` is already `over` days past the limit of its next control move `at`: it will
    /// have overstepped when it makes that move, whenever that is (51.4.3).
    WillOverstep { side: Color, at: u32, over: u32 },
    /// `side` is to move with no day left before its control move `at`: a move sent today
    /// keeps within the limit, one sent tomorrow does not.
    LastDay { side: Color, at: u32 },
}

/// The warnings of both clocks, White's first. `to_move` is the side whose move is awaited
/// (`None` when nothing is).
pub fn warnings(clocks: &Clocks, to_move: Option<Color>) -> Vec<Warning> {
    let mut out = Vec::new();
    for side in [Color::White, Color::Black] {
        let c = clocks.get(side);
        if let Some(at) = c.claimable_at {
            out.push(Warning::Overstepped { side, at });
        } else if c.left < 0 {
            let over = u32::try_from(-c.left).unwrap_or(u32::MAX);
            out.push(Warning::WillOverstep {
                side,
                at: c.next_control,
                over,
            });
        } else if c.left == 0 && to_move == Some(side) {
            out.push(Warning::LastDay {
                side,
                at: c.next_control,
            });
        }
    }
    out
}

/// The deadlines still open, earliest first: a repeat (51.5.1) is met once a repeat was sent
/// on or after its date (`repeats_sent`: the send dates of our repeats in the game). Every
/// other deadline leaves the list by itself when it is met (the correction request sent, the
/// claim made, a move received), or stays, overdue, until then.
pub fn open_deadlines(deadlines: &[Deadline], repeats_sent: &[NaiveDate]) -> Vec<Deadline> {
    deadlines
        .iter()
        .filter(|d| d.kind != DeadlineKind::Repeat || !repeats_sent.iter().any(|s| *s >= d.date))
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::SideClock;

    fn side(left: i64, next_control: u32, claimable_at: Option<u32>) -> SideClock {
        SideClock {
            days: 0,
            penalty: 0,
            total: 0,
            next_control,
            limit: 60,
            left,
            on_break: false,
            overstepped_at: claimable_at,
            claimable_at,
        }
    }

    #[test]
    fn each_clock_is_warned_of_as_it_stands() {
        use Color::{Black, White};
        let rows: [(SideClock, SideClock, Option<Color>, Vec<Warning>); 7] = [
            (side(30, 10, None), side(30, 10, None), Some(White), vec![]),
            (
                side(-3, 10, None),
                side(30, 10, None),
                Some(White),
                vec![Warning::WillOverstep {
                    side: White,
                    at: 10,
                    over: 3,
                }],
            ),
            // Over the limit while waiting: it stays over until the control move.
            (
                side(30, 20, None),
                side(-1, 20, None),
                Some(White),
                vec![Warning::WillOverstep {
                    side: Black,
                    at: 20,
                    over: 1,
                }],
            ),
            // Black's control move 10 went over, and White has not answered it.
            (
                side(30, 20, None),
                side(55, 20, Some(10)),
                Some(White),
                vec![Warning::Overstepped {
                    side: Black,
                    at: 10,
                }],
            ),
            (
                side(0, 10, None),
                side(30, 10, None),
                Some(White),
                vec![Warning::LastDay {
                    side: White,
                    at: 10,
                }],
            ),
            // No day left, but not to move: nothing is running on his clock.
            (side(30, 10, None), side(0, 10, None), Some(White), vec![]),
            (side(0, 10, None), side(0, 10, None), None, vec![]),
        ];
        for (white, black, to_move, want) in rows {
            let clocks = Clocks { white, black };
            assert_eq!(warnings(&clocks, to_move), want, "{clocks:?} {to_move:?}");
        }
    }

    #[test]
    fn a_repeat_sent_on_or_after_its_date_is_met() {
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
        let at = |kind, d| Deadline { kind, date: day(d) };
        let list = [
            at(DeadlineKind::Repeat, 16),
            at(DeadlineKind::Silence40, 20),
            at(DeadlineKind::Repeat, 30),
        ];
        let rows: [(&[NaiveDate], Vec<Deadline>); 4] = [
            (&[], list.to_vec()),
            // Sent before it was due: a repeat of an earlier move, or too early.
            (&[day(15)], list.to_vec()),
            (&[day(16)], list[1..].to_vec()),
            // Silence is not met by a repeat: it stays, overdue, until a move comes.
            (&[day(17), day(30)], vec![list[1]]),
        ];
        for (sent, want) in rows {
            assert_eq!(open_deadlines(&list, sent), want, "{sent:?}");
        }
    }
}
