//! The one call: a game's history and a date in, both clocks and the deadlines out.

use chrono::NaiveDate;
use shakmaty::Color;

use super::deadline;
use super::game::{ClockError, GameTime};
use super::report::{ClockReport, Clocks, SideClock};
use super::span::{DateSpan, counted_days, merge};
use super::types::Profile;

/// Both clocks, the running days and the deadlines of `game` as of `today`.
///
/// Fails only on a history that cannot be counted ([`GameTime::validate`]); never panics.
pub fn evaluate(game: &GameTime, today: NaiveDate) -> Result<ClockReport, ClockError> {
    game.validate()?;
    let skips = Skips::new(game);
    let ply_days = charge_plies(game, &skips);
    let extra_days = charge_extras(game, &skips);
    let ledger = Ledger {
        game,
        ply_days: &ply_days,
        extra_days: &extra_days,
    };
    let awaited = AwaitedMove::of(game, &skips, today);
    let running = awaited.map_or(0, |a| a.running);
    let side = |color| ledger.side_clock(color, &skips, awaited, today);
    let clock = Clocks {
        white: side(Color::White),
        black: side(Color::Black),
    };
    let deadlines = deadline::deadlines(&deadline::Facts {
        game,
        today,
        awaited,
        skips: &skips,
        clock: &clock,
    });
    Ok(ClockReport {
        to_move: awaited.map(|a| a.mover),
        ply_days,
        extra_days,
        clock,
        running_days: running,
        deadlines,
    })
}

/// The mover of ply `ply` (ply 1 is White's).
pub(crate) fn mover_of(ply: u32) -> Color {
    Color::from_white(ply % 2 == 1)
}

/// The ply of `color`'s move number `move_number`.
fn ply_of(color: Color, move_number: u32) -> u32 {
    let twice = move_number.saturating_mul(2);
    color.fold_wb(twice.saturating_sub(1), twice)
}

/// The days each clock skips in this game, as merged spans.
#[derive(Debug)]
pub(crate) struct Skips {
    profile: Profile,
    white: Vec<DateSpan>,
    black: Vec<DateSpan>,
    both: Vec<DateSpan>,
}

impl Skips {
    fn new(game: &GameTime) -> Skips {
        let of = |color: Color| {
            let spans = game
                .breaks
                .iter()
                .filter(|b| b.player == color)
                .filter_map(|b| b.effective(game.profile))
                .collect();
            merge(spans)
        };
        let (white, black) = (of(Color::White), of(Color::Black));
        let both = merge(white.iter().chain(&black).copied().collect());
        Skips {
            profile: game.profile,
            white,
            black,
            both,
        }
    }

    /// `color`'s own breaks in this game.
    pub(crate) fn own(&self, color: Color) -> &[DateSpan] {
        color.fold_wb(&self.white, &self.black)
    }

    /// The days `color`'s thinking time skips: his own breaks (51.7.4), or in the postal
    /// profile both players' breaks, which are charged to nobody (10.4.2).
    pub(crate) fn thinking(&self, color: Color) -> &[DateSpan] {
        match self.profile {
            Profile::Article51 => self.own(color),
            Profile::Postal104 => &self.both,
        }
    }
}

/// The day the clock of a move starts after: 51.4.5, days up to and including the start date
/// never count, and White's first move counts as received on the start date.
fn clock_start(game: &GameTime, ply: u32, received: NaiveDate) -> NaiveDate {
    if ply == 1 {
        game.start
    } else {
        received.max(game.start)
    }
}

/// Days charged per ply: the day formula, then 51.4.6 for accepted variations.
fn charge_plies(game: &GameTime, skips: &Skips) -> Vec<u32> {
    let mut days: Vec<u32> = (1u32..)
        .zip(&game.plies)
        .map(|(ply, p)| {
            let from = clock_start(game, ply, p.received);
            counted_days(from, p.sent, skips.thinking(mover_of(ply)))
        })
        .collect();
    if let Some(c) = game.carried {
        // The carried days stand for these plies (see `Carried`).
        for ply in 1..=c.through {
            set_free(&mut days, ply);
        }
    }
    for v in &game.variations {
        let (k, m) = (v.proposed_with, v.accepted_through);
        // The receiver's plies are k+1, k+3, …; his last accepted one carries his days.
        let receiver_last = if (m - k) % 2 == 1 { m } else { m - 1 };
        for ply in k + 1..=m {
            if ply != receiver_last {
                set_free(&mut days, ply); // 51.4.6: the rest of the variation costs 0
            }
        }
        if receiver_last != m {
            // His new move after the proposer's last accepted ply came in the same message.
            set_free(&mut days, m + 1);
        }
    }
    days
}

fn set_free(days: &mut [u32], ply: u32) {
    if let Some(d) = usize::try_from(ply - 1).ok().and_then(|i| days.get_mut(i)) {
        *d = 0;
    }
}

/// Days charged per extra period: the day formula less the free days (51.4.8).
fn charge_extras(game: &GameTime, skips: &Skips) -> Vec<u32> {
    game.extras
        .iter()
        .map(|e| {
            let from = e.from.max(game.start);
            counted_days(from, e.to, skips.thinking(e.player)).saturating_sub(e.kind.free_days())
        })
        .collect()
}

/// The move now awaited, as of the date asked.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AwaitedMove {
    /// Who makes it.
    pub(crate) mover: Color,
    /// When he received the previous move (given, or assumed per 51.2.3).
    pub(crate) received: NaiveDate,
    /// The day his clock started after.
    pub(crate) clock_from: NaiveDate,
    /// Days charged on it so far.
    pub(crate) running: u32,
}

impl AwaitedMove {
    fn of(game: &GameTime, skips: &Skips, today: NaiveDate) -> Option<AwaitedMove> {
        let super::game::Awaited::Move { received } = game.awaited else {
            return None;
        };
        let ply = game.ply_count().saturating_add(1);
        let mover = mover_of(ply);
        let received = received
            .or_else(|| game.plies.last().map(|p| p.sent))
            .unwrap_or(game.start);
        let clock_from = clock_start(game, ply, received);
        let running = counted_days(clock_from, today, skips.thinking(mover));
        Some(AwaitedMove {
            mover,
            received,
            clock_from,
            running,
        })
    }
}

/// The charged days of a game, summed per side and per ply.
#[derive(Debug)]
pub(crate) struct Ledger<'a> {
    game: &'a GameTime,
    ply_days: &'a [u32],
    extra_days: &'a [u32],
}

impl Ledger<'_> {
    /// `color`'s (thinking days, penalty days) recorded at plies up to `upto`.
    fn through(&self, color: Color, upto: u32) -> (u32, u32) {
        let plies: u32 = (1u32..)
            .zip(self.ply_days)
            .filter(|&(ply, _)| ply <= upto && mover_of(ply) == color)
            .fold(0, |sum, (_, d)| sum.saturating_add(*d));
        let extras: u32 = self
            .game
            .extras
            .iter()
            .zip(self.extra_days)
            .filter(|(e, _)| e.player == color && e.ply <= upto)
            .fold(0, |sum, (_, d)| sum.saturating_add(*d));
        let penalty: u32 = self
            .game
            .penalties
            .iter()
            .filter(|p| p.player == color && p.ply <= upto)
            .fold(0, |sum, p| sum.saturating_add(p.days));
        let carried = self
            .game
            .carried
            .filter(|c| c.through <= upto)
            .map_or(0, |c| c.of(color));
        (
            plies.saturating_add(extras).saturating_add(carried),
            penalty,
        )
    }

    /// `color`'s total (51.4.1) counted up to ply `upto`.
    pub(crate) fn total_through(&self, color: Color, upto: u32) -> u32 {
        let (days, penalty) = self.through(color, upto);
        days.saturating_add(penalty)
    }

    /// Moves `color` has made.
    pub(crate) fn moves_made(&self, color: Color) -> u32 {
        let n = self.game.ply_count();
        color.fold_wb(n.div_ceil(2), n / 2)
    }

    /// The first control `color` has passed over the limit (51.4.3).
    fn overstepped_at(&self, color: Color) -> Option<u32> {
        let control = self.game.control;
        let periods = self.moves_made(color) / control.moves();
        (1..=periods).find_map(|k| {
            let at = control.control_move(k);
            let total = self.total_through(color, ply_of(color, at));
            (total > control.limit(k)).then_some(at)
        })
    }

    /// The control move `color` has just made over the limit, unanswered (51.6.1): the game's
    /// last ply is his, it is his control move, and his total at it is over the limit.
    fn claimable_at(&self, color: Color) -> Option<u32> {
        let control = self.game.control;
        let last = self.game.ply_count();
        let made = self.moves_made(color);
        if last == 0 || mover_of(last) != color || !made.is_multiple_of(control.moves()) {
            return None;
        }
        let over = self.total_through(color, last) > control.limit(control.period_of(made));
        over.then_some(made)
    }

    fn side_clock(
        &self,
        color: Color,
        skips: &Skips,
        awaited: Option<AwaitedMove>,
        today: NaiveDate,
    ) -> SideClock {
        let control = self.game.control;
        let (days, penalty) = self.through(color, u32::MAX);
        let total = days.saturating_add(penalty);
        let period = control.period_of(self.moves_made(color).saturating_add(1));
        let limit = control.limit(period);
        let running = awaited
            .filter(|a| a.mover == color)
            .map_or(0, |a| a.running);
        SideClock {
            days,
            penalty,
            total,
            next_control: control.control_move(period),
            limit,
            left: i64::from(limit) - i64::from(total) - i64::from(running),
            on_break: skips.own(color).iter().any(|s| s.contains(today)),
            overstepped_at: self.overstepped_at(color),
            claimable_at: self.claimable_at(color),
        }
    }
}
