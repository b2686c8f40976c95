//! Breaks: the yearly allowance, checking a proposed break, ending one early, and which days a
//! break takes off a clock in one game.
//!
//! A player's breaks are his in all games at once (51.7.1, 10.4.1), so the allowance is kept per
//! player, not per game: the store passes the spans the player has taken. Days are counted per
//! calendar year, and a break across New Year counts in both years, each year getting the days
//! that fall in it.
//!
//! - Article 51 profile (51.7.1): one or several breaks, at most 30 days a year in all.
//! - Postal 10.4 profile (10.4.1): one break a year, at most 30 days long; a break across New
//!   Year is that one break in both years.
//!
//! 51.7.3: a break can be ended early; the days not taken go back to the year's allowance.

use chrono::{Days, NaiveDate};
use serde::{Deserialize, Serialize};
use shakmaty::Color;
use thiserror::Error;

use super::span::DateSpan;
use super::types::Profile;

/// 51.7.1, 10.4.1: at most 30 break days in a calendar year.
pub const YEARLY_BREAK_DAYS: u32 = 30;

/// Why a break was refused, or a break could not be ended.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BreakError {
    /// The last day comes before the first.
    #[error("a break cannot end ({to}) before it starts ({from})")]
    Reversed {
        /// First day asked.
        from: NaiveDate,
        /// Last day asked.
        to: NaiveDate,
    },
    /// The break shares days with one already taken.
    #[error("the break overlaps the break {existing} already taken")]
    Overlaps {
        /// The break already taken.
        existing: DateSpan,
    },
    /// 51.7.1: the year's 30 days would be exceeded.
    #[error(
        "{year}: {used} break days already taken, {asked} more asked, at most {allowed} a year (51.7.1)"
    )]
    OverAllowance {
        /// The calendar year that would go over.
        year: i32,
        /// Days already taken in that year.
        used: u32,
        /// Days of the proposed break in that year.
        asked: u32,
        /// The yearly allowance.
        allowed: u32,
    },
    /// 10.4.1: the postal profile allows one break a calendar year.
    #[error("{year} already has its one break {existing} (10.4.1)")]
    SecondBreakInYear {
        /// The calendar year.
        year: i32,
        /// The break already taken that year.
        existing: DateSpan,
    },
    /// 10.4.1: one break of at most 30 days.
    #[error("a break of {days} days is longer than the {allowed} days allowed (10.4.1)")]
    TooLong {
        /// Length of the proposed break.
        days: u32,
        /// The longest break allowed.
        allowed: u32,
    },
    /// Ending a break "early" on a day after it has ended anyway.
    #[error("the break {span} is over by {back_on}: nothing to end early")]
    NotEarly {
        /// The break.
        span: DateSpan,
        /// The day play was to resume.
        back_on: NaiveDate,
    },
}

/// One player's break as it bears on one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Break {
    /// Who is on break.
    #[serde(with = "super::types::color_serde")]
    pub player: Color,
    /// The announced days, both included (10.4.3).
    pub span: DateSpan,
    /// Postal104 only: the date of the notice to the partner in this game, `None` when he was
    /// never told. 10.4.2 dates it "по штемпелю", by the postmark: the store passes the date
    /// the notice was sent to him (not the day it arrived). Ignored by the Article 51 profile.
    pub notice: Option<NaiveDate>,
}

impl Break {
    /// The days this break takes off the clocks in this game.
    ///
    /// Article 51: the announced span. Postal104 (10.4.2): with no notice the break does not
    /// count in this game; a notice dated after the first day moves the start to the
    /// notice's date; a notice after the last day leaves nothing.
    pub fn effective(&self, profile: Profile) -> Option<DateSpan> {
        match profile {
            Profile::Article51 => Some(self.span),
            Profile::Postal104 => {
                let notice = self.notice?;
                DateSpan::new(self.span.from().max(notice), self.span.to()).ok()
            }
        }
    }
}

/// Break days `taken` uses in calendar `year` (a break across New Year gives each year its own
/// days).
pub fn days_used(taken: &[DateSpan], year: i32) -> u32 {
    taken
        .iter()
        .map(|s| s.days_in_year(year))
        .fold(0, u32::saturating_add)
}

/// Break days still free in `year` under `profile`: 30 less the days used (Article 51); in the
/// postal profile 30 if the year has no break yet, else 0.
pub fn days_left(profile: Profile, taken: &[DateSpan], year: i32) -> u32 {
    match profile {
        Profile::Article51 => YEARLY_BREAK_DAYS.saturating_sub(days_used(taken, year)),
        Profile::Postal104 if days_used(taken, year) > 0 => 0,
        Profile::Postal104 => YEARLY_BREAK_DAYS,
    }
}

/// Checks a proposed break against the breaks already `taken` (all games, 51.7.1).
///
/// Article 51: it must not overlap a break taken, and each calendar year it touches must stay
/// within 30 days in all. Postal104 (10.4.1): also at most 30 days long, and no other break in
/// any year it touches.
pub fn check_break(
    profile: Profile,
    taken: &[DateSpan],
    proposed: DateSpan,
) -> Result<(), BreakError> {
    if let Some(existing) = taken.iter().find(|s| s.overlaps(&proposed)) {
        return Err(BreakError::Overlaps {
            existing: *existing,
        });
    }
    match profile {
        Profile::Article51 => {
            for year in proposed.years() {
                let used = days_used(taken, year);
                let asked = proposed.days_in_year(year);
                if used.saturating_add(asked) > YEARLY_BREAK_DAYS {
                    return Err(BreakError::OverAllowance {
                        year,
                        used,
                        asked,
                        allowed: YEARLY_BREAK_DAYS,
                    });
                }
            }
        }
        Profile::Postal104 => {
            if proposed.days() > YEARLY_BREAK_DAYS {
                return Err(BreakError::TooLong {
                    days: proposed.days(),
                    allowed: YEARLY_BREAK_DAYS,
                });
            }
            for year in proposed.years() {
                if let Some(existing) = taken.iter().find(|s| s.days_in_year(year) > 0) {
                    return Err(BreakError::SecondBreakInYear {
                        year,
                        existing: *existing,
                    });
                }
            }
        }
    }
    Ok(())
}

/// A break ended early (51.7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndedBreak {
    /// What is left of the break: `None` when it is called off before its first day.
    pub kept: Option<DateSpan>,
    /// Days not taken, given back to the allowance.
    pub returned: u32,
}

/// Ends `span` early: `back_on` is the first day of play again, so the break's last day
/// becomes the day before. Ending on or before the first day calls the break off whole.
/// Ending after the last day is [`BreakError::NotEarly`]; on the day after it, 0 days return.
pub fn end_early(span: DateSpan, back_on: NaiveDate) -> Result<EndedBreak, BreakError> {
    let day_after = span.to().checked_add_days(Days::new(1));
    if day_after.is_some_and(|d| back_on > d) {
        return Err(BreakError::NotEarly { span, back_on });
    }
    let kept = back_on
        .checked_sub_days(Days::new(1))
        .and_then(|last| DateSpan::new(span.from(), last.min(span.to())).ok());
    let returned = span.days() - kept.map_or(0, |k| k.days());
    Ok(EndedBreak { kept, returned })
}
