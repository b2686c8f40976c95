//! Moves decided before the position is on the board: the partner's offered variation as we
//! accept it (51.3.7–9), and our own plan, the conditional replies we keep to ourselves.
//!
//! Both are decisions over lists of moves, so they live here where a table test reaches them.
//! The caller reads the moves (any notation) against the position and gives them as
//! [`Move`]s; these functions say what the message repeats and which move is ours
//! ([`read_line`]), and what a plan does when the partner has moved ([`plan_step`]).
//!
//! # Accepting a variation
//!
//! The partner offers, with their move, a continuation: our reply, theirs, ours, … A player
//! accepts it by playing it. Written out, the accepted moves are repeated in the message's
//! record in the same order (51.3.8), and the message's own move is our reply after them:
//!
//! - accepted up to one of *their* moves (an even number of half-moves), the reply is a move
//!   of our own choosing, which may be the offer's next move or not (a deviation); an
//!   acceptance without it is illegible (51.3.9);
//! - accepted up to one of *our* moves (an odd number), that move is the reply, and the record
//!   repeats the moves before it.
//!
//! A single move equal to the offer's first is an ordinary reply that happens to follow it.
//!
//! # A plan
//!
//! A plan is the partner's expected move, our reply, the next expected move, … When the
//! partner's moves since the plan was set are its beginning and our reply comes next, that
//! reply is due. Anything else ends it: a different move, a draw offer with the expected one
//! (the player decides on a draw, never a plan), a game no longer going on.

use shakmaty::Move;
use thiserror::Error;

/// What a line of moves that may begin with the partner's offer says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// How many of the line's first moves the message repeats as accepted (51.3.8); the reply
    /// is the move after them and the rest of the line is our own new offer.
    pub repeated: usize,
    /// How many of the offer's moves the line plays, reply included: the offer is accepted
    /// through the ply it was proposed with plus this.
    pub followed: usize,
}

/// Why an acceptance can't be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum AcceptError {
    /// The line is the offer's moves up to one of the partner's, and nothing after it.
    #[error(
        "the accepted moves end with your partner's move: your reply must follow them \
         (an accepted variation with no reply counts as illegible, 51.3.9)"
    )]
    NoReply,
    /// A part of the offer was asked for that it does not have.
    #[error("the variation offered has {len} half-moves: {asked} can't be accepted")]
    OutOfRange { asked: usize, len: usize },
    /// The part asked for ends with our own move, and another move was given besides.
    #[error(
        "the first {asked} half-moves of the variation end with your own move, which is then \
         your reply: give no other move"
    )]
    ExtraReply { asked: usize },
    /// Nothing to play at all.
    #[error("no move given")]
    Empty,
}

/// How a line of moves is to be read against the partner's offer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Not as an acceptance: the first move is our reply, the rest our own offer.
    Nothing,
    /// As the player typed it at the prompt: the moves it shares with the offer, from the
    /// start, are accepted when there are at least two.
    Typed,
    /// The first this many half-moves of the offer, as checked by [`accepted_part`].
    First(usize),
}

/// Reads `line` (our moves from the position before our reply: any accepted moves, the reply,
/// then our own offer) against the partner's open `offer`: how much of it the message repeats
/// as accepted. See the module documentation.
pub fn read_line(offer: &[Move], line: &[Move], take: Take) -> Result<Reading, AcceptError> {
    if line.is_empty() {
        return Err(AcceptError::Empty);
    }
    let repeated = match take {
        Take::Nothing => 0,
        Take::First(asked) => asked - asked % 2,
        Take::Typed => match offer.iter().zip(line).take_while(|(a, b)| a == b).count() {
            0 | 1 => 0,
            k if k % 2 == 1 => k - 1,
            k if line.len() > k => k,
            _ => return Err(AcceptError::NoReply),
        },
    };
    if repeated >= line.len() {
        return Err(AcceptError::NoReply);
    }
    let followed = repeated + usize::from(offer.get(repeated) == line.get(repeated));
    Ok(Reading { repeated, followed })
}

/// Checks "accept the first `asked` half-moves of an offer of `len` (all of them with `None`)",
/// with or without a reply of our own: how many half-moves of the offer the line then starts
/// with. A part that ends with the partner's move needs our reply after it (51.3.9); one that
/// ends with ours has its reply already.
pub fn accepted_part(
    len: usize,
    asked: Option<usize>,
    has_reply: bool,
) -> Result<usize, AcceptError> {
    let asked = asked.unwrap_or(len);
    if asked == 0 || asked > len {
        return Err(AcceptError::OutOfRange { asked, len });
    }
    match (asked % 2 == 1, has_reply) {
        (true, true) => Err(AcceptError::ExtraReply { asked }),
        (false, false) => Err(AcceptError::NoReply),
        _ => Ok(asked),
    }
}

/// What is wrong with a plan as given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PlanError {
    #[error(
        "a plan is your partner's expected move and your reply, then the next pair, …: \
         give at least two moves"
    )]
    TooShort,
    #[error("the plan ends with a move of your partner's: add your reply to it, or leave it out")]
    NoReply,
}

/// Checks a plan of `len` moves: pairs of the partner's expected move and our reply.
pub fn check_plan(len: usize) -> Result<(), PlanError> {
    match len {
        0 | 1 => Err(PlanError::TooShort),
        n if n % 2 == 1 => Err(PlanError::NoReply),
        _ => Ok(()),
    }
}

/// What a plan does now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanStep {
    /// The partner has not yet made the move the plan waits for.
    Wait,
    /// Our planned reply is due: send `reply`; the plan goes on as `rest` from ply `next`.
    Play {
        reply: Move,
        rest: Vec<Move>,
        next: usize,
    },
    /// The plan is over; the move is the player's.
    End(PlanEnd),
}

/// Why a plan ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanEnd {
    /// Ply `ply` (1-based) is not the move the plan has there.
    Deviated {
        ply: usize,
        expected: Move,
        played: Move,
    },
    /// The expected move came with a draw offer: the player answers that.
    DrawOffered,
    /// The game is over or suspended.
    NotGoingOn,
    /// Every planned reply has been played.
    Done,
}

/// A plan of `moves` whose first is expected as ply `from` (1-based), in a game whose moves are
/// `plies`. `draw_offered` is an open draw offer of the partner's; `going_on` whether the game
/// is active.
pub fn plan_step(
    moves: &[Move],
    from: usize,
    plies: &[Move],
    draw_offered: bool,
    going_on: bool,
) -> PlanStep {
    if !going_on {
        return PlanStep::End(PlanEnd::NotGoingOn);
    }
    if from == 0 || plies.len() < from {
        return PlanStep::Wait;
    }
    let played = &plies[from - 1..];
    if let Some(i) = played.iter().zip(moves).position(|(p, m)| p != m) {
        return PlanStep::End(PlanEnd::Deviated {
            ply: from + i,
            expected: moves[i],
            played: played[i],
        });
    }
    let k = played.len();
    if k >= moves.len() {
        return PlanStep::End(PlanEnd::Done);
    }
    if k.is_multiple_of(2) {
        // Our planned move was played, by us, and the plan was not moved on: nothing of the
        // partner's to answer yet.
        return PlanStep::Wait;
    }
    if draw_offered {
        return PlanStep::End(PlanEnd::DrawOffered);
    }
    PlanStep::Play {
        reply: moves[k],
        rest: moves[k + 1..].to_vec(),
        next: from + k + 1,
    }
}

#[cfg(test)]
mod tests;
