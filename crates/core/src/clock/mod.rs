//! The rules clock: thinking days, penalties, time controls, breaks and deadlines of a game,
//! worked out from its dated history. docs/rules.md digests the rules it follows; clauses
//! are cited by number.
//!
//! Pure: it has no clock of its own. Today is an argument, and so is everything else; the
//! store builds a [`GameTime`] from its rows, and [`evaluate`] gives both clocks, the running
//! days and the deadlines in the shapes of `ccmail show --json`. Breaks have their own small
//! API for the yearly allowance ([`check_break`], [`end_early`], [`days_used`]).
//!
//! # Counting days
//!
//! A move received on day R and sent on day S costs the calendar days d with R < d <= S on
//! which the mover is not on break (docs/rules.md, "Dates and days"; 51.4.4, 51.7.4–6,
//! 10.4.3). A same-day reply costs 0. Days up to and including the start date never count, and White's
//! first move counts as received on the start date (51.4.5). A ply whose S is before its R is
//! an error ([`ClockError::SentBeforeReceived`]): both dates are the mover's own, so no time
//! zone explains it, and the clock does not guess. (R of one ply may be the day before S of
//! the previous one: that is the two players' time zones, and is allowed.)
//!
//! # Decisions where the rules leave room
//!
//! - **Variations (51.4.6).** The proposer's days are those of the ply he proposed with; his
//!   later plies in the variation cost 0. The receiver's days are charged on his *last
//!   accepted ply* (the literal "по последнему принятому ходу"), with that ply's dates; his
//!   other accepted plies cost 0, and so does the new move he adds after a variation accepted
//!   up to one of the proposer's plies: one message, one period, charged once.
//! - **Penalties** count from the ply they are recorded at; one recorded on a control move
//!   counts towards that control (51.4.7 with 51.4.3). 51.4.9 (late repeat) is the delay.
//! - **51.4.8.** The correction request's delay is an extra period charged to the asker; its
//!   first 3 days are free when the fault was an impossible move or a wrong repetition (the
//!   clause names only those two), otherwise all of it is charged. The offender's days on the
//!   rejected message are an extra period too; his corrected move then counts from the day he
//!   got the request, so the request's transit is charged to nobody (51.4.3).
//! - **Breaks.** Article 51: a break skips its taker's days only (51.7.4); notices are not
//!   read (a late break the arbiter allowed, 51.7.7, is simply recorded). Postal104: a break
//!   skips both clocks in a game (10.4.2); with no notice in that game it does not count
//!   there; a late notice moves its start in that game to the notice's date, which 10.4.2
//!   takes from the postmark, so the store passes the notice's send date. A move sent
//!   during one's own break costs only the days before the break (10.4.3's second example,
//!   10.4.4): the break goes on.
//! - **Yearly allowance.** Per calendar year, a break across New Year split between the two
//!   years. Article 51: several breaks, 30 days a year in all, so a break across New Year may
//!   be longer than 30 days in all. Postal104: one break a year, at most 30 days long; across
//!   New Year it is the one break of both years. Ending early: the day given is the first day
//!   of play again; the days from it to the old last day are returned.
//! - **Running days** of the awaited move are counted from the day its mover received the
//!   previous move; when that is not known (our move sent, no word back) from our send date
//!   (51.2.3: a missing receipt date is taken as the send date).
//! - **Overstepping** is judged at the control move itself (51.6.1 claims are made then):
//!   `overstepped_at` names the first control move after which the total was over the limit.
//!   A side over the limit before his control move shows it as negative `left`.
//!
//! # Deadlines
//!
//! Each deadline is a date, and a date in the past means overdue. Listed earliest first.
//!
//! - `repeat` (51.5.1): while the partner is to move on our last move, 14 days after its send
//!   date, not counting the days his clock skips (his breaks; in postal104 both players'),
//!   then every 14 such days after that. The list holds the repeat now due (the latest on or
//!   before today, else the first) and the next one. None while a correction is pending: he
//!   did answer.
//! - `arbiter_cc` (51.4.10): the first day either side has 5 or fewer days left before his
//!   next control move: today if a side is already there, else the day the mover's running
//!   days bring him to 5 (if he has not moved by then). The side not to move spends nothing
//!   while he waits, so he adds a date only when he is already at 5 or fewer.
//! - `silence_40` (51.5.3): 40 calendar days after the last move was sent (after the start
//!   date before any move), while a move is awaited.
//! - `claim` (51.6.1): when the opponent's last move is his control move, his total at it is
//!   over the limit and we are to reply: the claim goes no later than our reply, so it is due
//!   at once, dated the day we received that move.
//! - `correction` (51.3.4): a faulty message received and no correction request sent yet: due
//!   at once, dated the day it was received.
//!
//! A game with nothing awaited (over, or suspended by a claim) has no deadlines but a pending
//! correction.

mod attention;
mod breaks;
mod deadline;
mod evaluate;
mod game;
mod report;
mod span;
mod types;

#[cfg(test)]
mod tests;

pub use attention::{Warning, open_deadlines, warnings};
pub use breaks::{
    Break, BreakError, EndedBreak, YEARLY_BREAK_DAYS, check_break, days_left, days_used, end_early,
};
pub use evaluate::evaluate;
pub use game::{
    Awaited, Carried, ClockError, ExtraKind, ExtraPeriod, GameTime, Penalty, PenaltyCause, Ply,
    UnknownCause, Variation,
};
pub use report::{ClockReport, Clocks, Deadline, DeadlineKind, SideClock};
pub use span::DateSpan;
pub use types::{Control, ControlParseError, Profile, ProfileParseError};
