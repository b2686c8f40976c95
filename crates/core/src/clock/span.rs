//! Calendar arithmetic the whole clock rests on: inclusive date spans and the one day formula.
//!
//! The formula ("Dates and days" in docs/rules.md): a move received on day R and sent on day S
//! costs the calendar days d with R < d <= S that are not excluded (break days). Everything else in
//! the clock (running days, the repeat date, the arbiter-copy date) is the same count, run
//! forward or backward. No function here can panic: date overflow gives `None` or saturates.

use std::fmt;

use chrono::{Datelike, Days, NaiveDate};
use serde::{Deserialize, Serialize};

use super::breaks::BreakError;

/// Days from `a` to `b` (`b - a`), negative when `b` is earlier.
pub(crate) fn diff(a: NaiveDate, b: NaiveDate) -> i64 {
    b.signed_duration_since(a).num_days()
}

/// A day count as `u32`, 0 for a negative count (never reached by the callers, which only pass
/// counts they have shown to be non-negative) and saturating for absurd spans.
pub(crate) fn to_u32(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

/// An inclusive span of calendar days, `from` to `to`, both days included
/// (10.4.3: "беру перерыв с 10.10 по 25.10" is 16 days). It cannot be reversed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawSpan")]
pub struct DateSpan {
    from: NaiveDate,
    to: NaiveDate,
}

#[derive(Deserialize)]
struct RawSpan {
    from: NaiveDate,
    to: NaiveDate,
}

impl TryFrom<RawSpan> for DateSpan {
    type Error = BreakError;
    fn try_from(raw: RawSpan) -> Result<Self, BreakError> {
        Self::new(raw.from, raw.to)
    }
}

impl DateSpan {
    /// The span from `from` to `to`, both included; `to` before `from` is an error.
    pub fn new(from: NaiveDate, to: NaiveDate) -> Result<Self, BreakError> {
        if to < from {
            return Err(BreakError::Reversed { from, to });
        }
        Ok(Self { from, to })
    }

    /// The first day of the span.
    pub fn from(&self) -> NaiveDate {
        self.from
    }

    /// The last day of the span (included).
    pub fn to(&self) -> NaiveDate {
        self.to
    }

    /// How many days the span has, both ends included.
    pub fn days(&self) -> u32 {
        to_u32(diff(self.from, self.to) + 1)
    }

    /// Whether `day` falls inside the span.
    pub fn contains(&self, day: NaiveDate) -> bool {
        self.from <= day && day <= self.to
    }

    /// Whether the two spans share at least one day.
    pub fn overlaps(&self, other: &DateSpan) -> bool {
        self.from <= other.to && other.from <= self.to
    }

    /// The days of the span that fall in calendar year `year` (a span across New Year is split
    /// between the years, 51.7.1).
    pub fn days_in_year(&self, year: i32) -> u32 {
        let (Some(first), Some(last)) = (
            NaiveDate::from_ymd_opt(year, 1, 1),
            NaiveDate::from_ymd_opt(year, 12, 31),
        ) else {
            return 0;
        };
        let from = self.from.max(first);
        let to = self.to.min(last);
        if to < from {
            0
        } else {
            to_u32(diff(from, to) + 1)
        }
    }

    /// The calendar years the span touches, first to last.
    pub fn years(&self) -> std::ops::RangeInclusive<i32> {
        self.from.year()..=self.to.year()
    }

    /// The part of the span that lies in the half-open window (`after`, `upto`], as a day count.
    fn overlap_after(&self, after: NaiveDate, upto: NaiveDate) -> i64 {
        // Days d with after < d <= upto and from <= d <= to.
        let lo = diff(after, self.from).max(1); // offsets from `after`
        let hi = diff(after, self.to).min(diff(after, upto));
        (hi - lo + 1).max(0)
    }
}

impl fmt::Display for DateSpan {
    /// The 10.4.3 form "10.10.2026–25.10.2026" (dates as dd.mm.yyyy).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}–{}",
            self.from.format("%d.%m.%Y"),
            self.to.format("%d.%m.%Y")
        )
    }
}

/// Sorts spans and joins the ones that overlap or touch, so that no day is excluded twice
/// (in the postal104 profile both players' breaks stop a clock, and they may overlap).
pub(crate) fn merge(mut spans: Vec<DateSpan>) -> Vec<DateSpan> {
    spans.sort();
    let mut out: Vec<DateSpan> = Vec::with_capacity(spans.len());
    for span in spans {
        match out.last_mut() {
            Some(last) if last.to.succ_opt().is_none_or(|next| span.from <= next) => {
                last.to = last.to.max(span.to);
            }
            _ => out.push(span),
        }
    }
    out
}

/// The one formula: the days d with `received < d <= sent` that no span in `excluded` covers.
/// `excluded` must be merged (sorted, disjoint; see [`merge`]). A reply on the day of receipt,
/// or a "reply" dated before the receipt, costs 0.
pub(crate) fn counted_days(received: NaiveDate, sent: NaiveDate, excluded: &[DateSpan]) -> u32 {
    let calendar = diff(received, sent).max(0);
    let off: i64 = excluded
        .iter()
        .map(|s| s.overlap_after(received, sent))
        .sum();
    // Disjoint spans cover at most the whole window, so the count is never negative.
    to_u32(calendar - off)
}

/// The date on which the count started at `after` reaches `n` (the n-th counted day after
/// `after`), skipping the days in `excluded` (merged). `n = 0` gives `after` itself.
/// `None` only past the end of the calendar.
pub(crate) fn nth_counted_day(
    after: NaiveDate,
    n: u32,
    excluded: &[DateSpan],
) -> Option<NaiveDate> {
    let mut cursor = after;
    let mut remaining = u64::from(n);
    for span in excluded.iter().filter(|s| s.to > after) {
        if remaining == 0 {
            break;
        }
        // Counted days between the cursor and this span: cursor < d < span.from.
        let gap = u64::try_from(diff(cursor, span.from) - 1).unwrap_or(0);
        if gap >= remaining {
            break;
        }
        remaining -= gap;
        cursor = cursor.max(span.to);
    }
    cursor.checked_add_days(Days::new(remaining))
}
