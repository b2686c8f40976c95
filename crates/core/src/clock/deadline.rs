//! The deadlines of a game as of a date. The interpretation is written down in the module doc
//! of [`crate::clock`]; each function here cites its clause.

use chrono::{Days, NaiveDate};

use super::evaluate::{AwaitedMove, Skips};
use super::game::GameTime;
use super::report::{Clocks, Deadline, DeadlineKind};
use super::span::nth_counted_day;

/// 51.5.1: a move unanswered for 14 days is repeated.
const REPEAT_AFTER: u32 = 14;
/// 51.5.3: 40 days without a move.
const SILENCE_DAYS: u64 = 40;
/// 51.4.10: five or fewer days left before the control move.
const ARBITER_CC_LEFT: i64 = 5;

/// What the deadlines are worked out from.
#[derive(Debug)]
pub(crate) struct Facts<'a> {
    pub(crate) game: &'a GameTime,
    pub(crate) today: NaiveDate,
    pub(crate) awaited: Option<AwaitedMove>,
    pub(crate) skips: &'a Skips,
    pub(crate) clock: &'a Clocks,
}

/// All deadlines, earliest first.
pub(crate) fn deadlines(facts: &Facts<'_>) -> Vec<Deadline> {
    let mut out = Vec::new();
    // 51.3.4: a faulty message is answered by a correction request at once.
    if let Some(date) = facts.game.correction {
        out.push(Deadline {
            kind: DeadlineKind::Correction,
            date,
        });
    }
    if let Some(awaited) = facts.awaited {
        out.extend(repeats(facts, awaited));
        out.extend(arbiter_cc(facts, awaited));
        out.extend(silence(facts));
        out.extend(claim(facts, awaited));
    }
    out.sort();
    out
}

/// 51.5.1: our move unanswered 14 days after it was sent is repeated, then again 14 days after
/// each repeat. The days counted are the partner's thinking days on it (assumed received on
/// our send date, 51.2.3): his break days don't count. Gives the repeat now due (the latest
/// on or before today, or the first if none is due yet) and the one after it. None while a
/// faulty message of his waits for our correction request: he did answer.
fn repeats(facts: &Facts<'_>, awaited: AwaitedMove) -> Vec<Deadline> {
    let game = facts.game;
    let ours = game.ply_count();
    if awaited.mover == game.me || ours == 0 || game.correction.is_some() {
        return Vec::new();
    }
    let Some(sent) = game.plies.last().map(|p| p.sent) else {
        return Vec::new();
    };
    let skip = facts.skips.thinking(awaited.mover);
    let counted = super::span::counted_days(sent, facts.today, skip);
    let due = (counted / REPEAT_AFTER).max(1);
    [due, due.saturating_add(1)]
        .into_iter()
        .filter_map(|n| nth_counted_day(sent, n.saturating_mul(REPEAT_AFTER), skip))
        .map(|date| Deadline {
            kind: DeadlineKind::Repeat,
            date,
        })
        .collect()
}

/// 51.4.10: from the first day on which either side has 5 or fewer days left before his
/// control move, all mail is copied to the arbiter. Today if a side is already there; else
/// the day the mover's running days bring him there (if he has not moved by then). The side
/// not to move loses no days until he is to move again, so he adds nothing.
fn arbiter_cc(facts: &Facts<'_>, awaited: AwaitedMove) -> Option<Deadline> {
    let waiting = facts.clock.get(!awaited.mover);
    let moving = facts.clock.get(awaited.mover);
    let date = if waiting.left <= ARBITER_CC_LEFT || moving.left <= ARBITER_CC_LEFT {
        facts.today
    } else {
        // left = limit − total − running: it reaches 5 when running reaches limit − total − 5.
        let before_running = moving.left + i64::from(awaited.running);
        let need = u32::try_from(before_running - ARBITER_CC_LEFT).ok()?;
        nth_counted_day(
            awaited.clock_from,
            need,
            facts.skips.thinking(awaited.mover),
        )?
    };
    Some(Deadline {
        kind: DeadlineKind::ArbiterCc,
        date,
    })
}

/// 51.5.3: 40 calendar days after the last move was sent (the start date before any move).
fn silence(facts: &Facts<'_>) -> Option<Deadline> {
    let game = facts.game;
    let last = game.plies.last().map_or(game.start, |p| p.sent);
    Some(Deadline {
        kind: DeadlineKind::Silence40,
        date: last.checked_add_days(Days::new(SILENCE_DAYS))?,
    })
}

/// 51.6.1: when the opponent's last move is a control move (his 10th, 20th …) and his total
/// at it is over the limit, we may claim, no later than our reply to it. The claim is due at
/// once: dated the day we received that move.
fn claim(facts: &Facts<'_>, awaited: AwaitedMove) -> Option<Deadline> {
    let opponent = !facts.game.me;
    if awaited.mover != facts.game.me {
        return None;
    }
    facts.clock.get(opponent).claimable_at?;
    Some(Deadline {
        kind: DeadlineKind::Claim,
        date: awaited.received,
    })
}
