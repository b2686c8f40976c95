//! The output: both clocks, the running days and the deadlines of a game as of a date, in the
//! shapes of `ccmail show --json` (docs/cli.md: `clock`, `running_days`, `deadlines`,
//! `moves[].days`).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::types::color_serde;

/// One side's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SideClock {
    /// Thinking days charged: the plies, plus the extra periods (51.4.8).
    pub days: u32,
    /// Penalty days (51.4.7, 51.4.9).
    pub penalty: u32,
    /// `days + penalty` (51.4.1).
    pub total: u32,
    /// The next control move N·k: the first control at or after the side's next move.
    pub next_control: u32,
    /// The cumulative limit at that control, D·k (51.4.3).
    pub limit: u32,
    /// `limit − total`, less the running days if this side is to move. Negative when over.
    pub left: i64,
    /// Whether the side is on a break today that counts in this game.
    pub on_break: bool,
    /// The first control move after which the side's total was over the limit (a penalty
    /// recorded on the control move counts towards it), or `None`.
    pub overstepped_at: Option<u32>,
    /// The control move this side has just made over its limit, while the other side has not
    /// answered it: the claim of 51.6.1 can still be made. `None` otherwise. (Not in the JSON:
    /// the `claim` deadline says it there.)
    #[serde(skip)]
    pub claimable_at: Option<u32>,
}

/// Both clocks, as `{"white": …, "black": …}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Clocks {
    /// White's clock.
    pub white: SideClock,
    /// Black's clock.
    pub black: SideClock,
}

impl Clocks {
    /// The clock of `color`.
    pub fn get(&self, color: Color) -> &SideClock {
        color.fold_wb(&self.white, &self.black)
    }
}

/// What a deadline is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineKind {
    /// 51.5.1: repeat our move, copy to the arbiter: no answer in 14 days.
    Repeat,
    /// 51.4.10: copy all mail to the arbiter: a side has 5 or fewer days left.
    ArbiterCc,
    /// 51.5.3: 40 days without a move: the arbiter must know by then.
    #[serde(rename = "silence_40")]
    Silence40,
    /// 51.6.1: the last chance to claim the opponent's time forfeit: with our reply.
    Claim,
    /// 51.3.4: ask the partner to correct a faulty message, at once.
    Correction,
}

/// A dated deadline, `{"kind": "repeat", "date": "2026-03-16"}`. Ordered by date, then kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deadline {
    /// What for.
    pub kind: DeadlineKind,
    /// The day it is due (already passed when it is overdue).
    pub date: NaiveDate,
}

impl Ord for Deadline {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.date, self.kind).cmp(&(other.date, other.kind))
    }
}

impl PartialOrd for Deadline {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Everything the rest of ccmail asks about time, for one game as of one date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClockReport {
    /// Who is to move, `None` when nothing is awaited.
    #[serde(serialize_with = "color_serde::option::serialize")]
    pub to_move: Option<Color>,
    /// Days charged for each ply, in order (`moves[].days`).
    pub ply_days: Vec<u32>,
    /// Days charged for each extra period, in the order given.
    pub extra_days: Vec<u32>,
    /// Both clocks.
    pub clock: Clocks,
    /// Days charged so far on the move now awaited, as of the date asked (0 when none).
    pub running_days: u32,
    /// Deadlines, earliest first.
    pub deadlines: Vec<Deadline>,
}
