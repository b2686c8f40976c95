//! The input: a game's dated history as the store keeps it, and the checks it must pass.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use shakmaty::Color;
use thiserror::Error;

use super::breaks::Break;
use super::types::{Control, Profile, color_serde};

/// One ply (half-move) as the clock sees it: when its mover received the previous move (R) and
/// when he sent this one (S). Ply 1 is White's first move.
///
/// For ply 1 `received` is not read: White's first move counts as received on the start date
/// (docs/rules.md, 51.4.5). The plies of an accepted variation carry the dates of the message
/// that carried them (see [`Variation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ply {
    /// R: the date the mover received the partner's previous move (his own time zone).
    pub received: NaiveDate,
    /// S: the date this move was sent (51.2.3: the actual send date).
    pub sent: NaiveDate,
}

/// A variation (51.3.7) proposed with ply `proposed_with` and accepted, move by move, up to and
/// including ply `accepted_through`.
///
/// Charging (51.4.6): the proposer is charged on the first move of the variation, the ply it
/// was proposed with, as any ply; his later plies in it cost 0. The receiver is charged on his
/// last accepted ply, with that ply's dates (the message that carried his acceptance); his
/// other accepted plies cost 0, and so does the new move he adds after a variation accepted up
/// to one of the proposer's plies (ply `accepted_through + 1`), since that message's days are
/// the ones already charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Variation {
    /// The ply that carried the proposal (the first move of the variation).
    pub proposed_with: u32,
    /// The last ply of the variation the receiver accepted (at least `proposed_with + 1`).
    pub accepted_through: u32,
}

/// What a penalty was given for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PenaltyCause {
    /// 51.3.4, 51.4.7: an illegible move.
    Illegible,
    /// 51.3.4, 51.4.7: an ambiguous move.
    Ambiguous,
    /// 51.3.4, 51.4.7: an impossible (illegal) move.
    Impossible,
    /// 51.3.5, 51.3.9: a message, or an accepted variation, without a reply move: counts as
    /// illegible (51.4.7).
    NoMove,
    /// 51.3.3, 51.4.7: the partner's last move repeated wrongly.
    WrongRepetition,
    /// 51.4.9: a repeat sent more than 3 days late when a letter was lost: the delay.
    LateRepeat,
}

impl PenaltyCause {
    pub const ALL: [PenaltyCause; 6] = [
        PenaltyCause::Illegible,
        PenaltyCause::Ambiguous,
        PenaltyCause::Impossible,
        PenaltyCause::NoMove,
        PenaltyCause::WrongRepetition,
        PenaltyCause::LateRepeat,
    ];

    /// The cause's name, as stored and as serde writes it (`wrong_repetition`).
    pub fn as_str(self) -> &'static str {
        match self {
            PenaltyCause::Illegible => "illegible",
            PenaltyCause::Ambiguous => "ambiguous",
            PenaltyCause::Impossible => "impossible",
            PenaltyCause::NoMove => "no_move",
            PenaltyCause::WrongRepetition => "wrong_repetition",
            PenaltyCause::LateRepeat => "late_repeat",
        }
    }

    /// The penalty the rules fix for this cause: 2 days (51.4.7), or `None` for a late repeat,
    /// whose penalty is the delay (51.4.9).
    pub fn rule_days(self) -> Option<u32> {
        match self {
            PenaltyCause::LateRepeat => None,
            _ => Some(2),
        }
    }
}

impl std::fmt::Display for PenaltyCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is no [`PenaltyCause`]'s.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{0:?} is not a penalty cause")]
pub struct UnknownCause(pub String);

impl std::str::FromStr for PenaltyCause {
    type Err = UnknownCause;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PenaltyCause::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCause(s.to_owned()))
    }
}

/// Penalty days (51.4.1: they count in the total, beside thinking days).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Penalty {
    /// Who is penalised.
    #[serde(with = "color_serde")]
    pub player: Color,
    /// How many days.
    pub days: u32,
    /// Why.
    pub cause: PenaltyCause,
    /// The ply it is recorded at: it counts in the player's total from that ply on, so one
    /// recorded on a control move counts towards that control. For a faulty message, the ply
    /// the message stood for (it may be the ply now awaited).
    pub ply: u32,
}

impl Penalty {
    /// The penalty the rules fix for `cause` (2 days, 51.4.7); a late repeat gets the delay
    /// (51.4.9) and must be built by hand.
    pub fn standard(player: Color, cause: PenaltyCause, ply: u32) -> Option<Penalty> {
        Some(Penalty {
            player,
            days: cause.rule_days()?,
            cause,
            ply,
        })
    }
}

/// Which thinking period that is not a move is charged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ExtraKind {
    /// The asker's delay from receiving a faulty message to sending the correction request
    /// (51.3.4). 51.4.8: up to 3 days of it are free when the fault is an impossible move or a
    /// wrong repetition; for other faults the whole delay is charged.
    CorrectionRequest {
        /// What was wrong with the message answered.
        fault: PenaltyCause,
    },
    /// The offender's days on the message that was rejected: from receiving the move it
    /// answered to sending it. His corrected move is then a ply counted from the day he
    /// received the correction request, so transit is never charged (51.4.3).
    RejectedMessage,
}

impl ExtraKind {
    /// Days of the period that are not charged (51.4.8).
    pub fn free_days(self) -> u32 {
        match self {
            ExtraKind::CorrectionRequest {
                fault: PenaltyCause::Impossible | PenaltyCause::WrongRepetition,
            } => 3,
            _ => 0,
        }
    }
}

/// A charged thinking period that is not a move: the day formula from `from` (exclusive) to
/// `to` (inclusive), less break days and [`ExtraKind::free_days`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExtraPeriod {
    /// Who is charged.
    #[serde(with = "color_serde")]
    pub player: Color,
    /// The day the period starts after (a receipt date).
    pub from: NaiveDate,
    /// The last day of the period (a send date).
    pub to: NaiveDate,
    /// What period it is.
    #[serde(flatten)]
    pub kind: ExtraKind,
    /// The ply it counts at, as for a [`Penalty`].
    pub ply: u32,
}

/// The move the game is waiting for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum Awaited {
    /// Nothing runs: the game is over, or suspended by a claim (51.6.3).
    Nothing,
    /// The next ply is awaited; its mover follows from the ply count (White moves first).
    Move {
        /// When its mover received the previous move. `None`: not known (our last move is
        /// sent, no word back yet): then the previous ply's send date (51.2.3), or the start
        /// date before the first move.
        received: Option<NaiveDate>,
    },
}

impl Default for Awaited {
    /// The next move, its receipt date not known.
    fn default() -> Self {
        Awaited::Move { received: None }
    }
}

/// A game's dated history: everything the clock needs, and nothing it would have to ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameTime {
    /// The official start date (51.4.5).
    pub start: NaiveDate,
    /// Which rules govern breaks.
    pub profile: Profile,
    /// The time control.
    pub control: Control,
    /// Our colour (for the repeat, claim and correction deadlines).
    #[serde(with = "color_serde")]
    pub me: Color,
    /// The plies made, in order.
    pub plies: Vec<Ply>,
    /// Accepted variations, in order of their plies.
    pub variations: Vec<Variation>,
    /// Penalties.
    pub penalties: Vec<Penalty>,
    /// Charged periods that are not moves.
    pub extras: Vec<ExtraPeriod>,
    /// Both players' breaks that bear on this game.
    pub breaks: Vec<Break>,
    /// The move now awaited.
    pub awaited: Awaited,
    /// The date we received a faulty message not yet answered by a correction request.
    pub correction: Option<NaiveDate>,
    /// Days used before ccmail kept the game (an imported game), in place of its first plies'.
    #[serde(default)]
    pub carried: Option<Carried>,
}

/// The days both players had used by ply `through` of a game brought in from elsewhere, as
/// the last message before the import stated them (or as its importer counted them).
///
/// The plies up to `through` are charged nothing of their own: their dates are not known, or
/// not known to be the ones the totals were counted from. Each side's days count as thinking
/// days recorded at ply `through`, so they count towards the controls from there on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Carried {
    /// The last ply the carried days stand for.
    pub through: u32,
    /// White's days by then.
    pub white: u32,
    /// Black's days by then.
    pub black: u32,
}

impl Carried {
    /// The days `color` carries.
    pub fn of(&self, color: Color) -> u32 {
        color.fold_wb(self.white, self.black)
    }
}

impl GameTime {
    /// A game not yet begun: Article 51, 10/60, no plies, White's first move awaited.
    pub fn new(start: NaiveDate, me: Color) -> GameTime {
        GameTime {
            start,
            profile: Profile::default(),
            control: Control::default(),
            me,
            plies: Vec::new(),
            variations: Vec::new(),
            penalties: Vec::new(),
            extras: Vec::new(),
            breaks: Vec::new(),
            awaited: Awaited::default(),
            correction: None,
            carried: None,
        }
    }

    /// The number of plies made, as a ply number.
    pub(crate) fn ply_count(&self) -> u32 {
        u32::try_from(self.plies.len()).unwrap_or(u32::MAX)
    }

    /// Checks the history for what the clock cannot count: see [`ClockError`].
    pub fn validate(&self) -> Result<(), ClockError> {
        for (ply, p) in (1u32..).zip(&self.plies) {
            // Ply 1's `received` is the start date by rule; moves before the start are free.
            if ply > 1 && p.sent < p.received {
                return Err(ClockError::SentBeforeReceived {
                    ply,
                    received: p.received,
                    sent: p.sent,
                });
            }
        }
        self.validate_variations()?;
        if let Some(c) = self.carried
            && c.through > self.ply_count()
        {
            return Err(ClockError::NoSuchPly {
                ply: c.through,
                last: self.ply_count(),
            });
        }
        let last = self.ply_count().saturating_add(1);
        for ply in self.penalties.iter().map(|p| p.ply) {
            if ply == 0 || ply > last {
                return Err(ClockError::NoSuchPly { ply, last });
            }
        }
        for e in &self.extras {
            if e.ply == 0 || e.ply > last {
                return Err(ClockError::NoSuchPly { ply: e.ply, last });
            }
            if e.to < e.from {
                return Err(ClockError::ReversedPeriod {
                    from: e.from,
                    to: e.to,
                });
            }
        }
        Ok(())
    }

    fn validate_variations(&self) -> Result<(), ClockError> {
        let mut free_from = 1;
        for v in &self.variations {
            let bad = v.proposed_with < free_from
                || v.accepted_through <= v.proposed_with
                || v.accepted_through > self.ply_count();
            if bad {
                return Err(ClockError::BadVariation {
                    proposed_with: v.proposed_with,
                    accepted_through: v.accepted_through,
                });
            }
            free_from = v.accepted_through;
        }
        Ok(())
    }
}

/// A history the clock cannot count. Nothing is guessed: the store fixes the row named.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ClockError {
    /// A ply's send date is before the date its mover received the previous move. Both dates
    /// are the mover's own (51.4.4), so this is a wrong row, not a time-zone effect.
    #[error("ply {ply}: sent {sent} before the previous move was received {received}")]
    SentBeforeReceived {
        /// The ply.
        ply: u32,
        /// Its R.
        received: NaiveDate,
        /// Its S.
        sent: NaiveDate,
    },
    /// A variation that does not lie in the game's plies after the previous variation.
    #[error(
        "variation proposed with ply {proposed_with} and accepted through ply {accepted_through} \
         does not fit the plies made or overlaps another"
    )]
    BadVariation {
        /// As given.
        proposed_with: u32,
        /// As given.
        accepted_through: u32,
    },
    /// A penalty or extra period recorded at a ply neither made nor awaited.
    #[error("recorded at ply {ply}, but only plies 1 to {last} exist or are awaited")]
    NoSuchPly {
        /// As given.
        ply: u32,
        /// The ply now awaited.
        last: u32,
    },
    /// An extra period that ends before it starts.
    #[error("a charged period cannot end ({to}) before it starts ({from})")]
    ReversedPeriod {
        /// As given.
        from: NaiveDate,
        /// As given.
        to: NaiveDate,
    },
}
