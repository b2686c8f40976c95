//! The app layer: games as the commands and the daemon see them, applying an incoming
//! message, composing an outgoing one. Each step that changes the store does it in one
//! transaction with what the rules require in answer.

pub mod apply;
pub mod chores;
pub mod compose;
pub mod conditional;
pub mod daemon;
pub mod errors;
pub mod game;
pub mod game_index;
pub mod outbox;
pub mod pgn;
mod play;
pub mod prompt;
pub mod verify;

use anyhow::{Context, anyhow};
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeZone};
use chrono_tz::Tz;

pub use play::{numbered, win_for};

/// The player: signature, game headers, the address ccmail sends from.
#[derive(Debug, Clone, Default)]
pub struct Me {
    pub name: String,
    pub surname: String,
    /// Lower case.
    pub email: String,
    /// `[security] authserv_id`: whose `Authentication-Results` vouch for a sender
    /// (`ccmail_core::trust`); `None`: senders are checked by address and envelope only.
    pub authserv_id: Option<String>,
}

/// The clock for everything: `--now` or the system's, in the player's time zone. A player's
/// own dates are local dates in that zone (RULES.md, "Dates and days").
#[derive(Debug, Clone)]
pub struct Clock {
    pub now: DateTime<Tz>,
    pub tz: Tz,
}

impl Clock {
    /// `when` is `YYYY-MM-DD` (noon local time) or RFC 3339; `None` is the system clock.
    pub fn new(when: Option<&str>, tz: Tz) -> anyhow::Result<Clock> {
        let now = match when {
            None => chrono::Utc::now().with_timezone(&tz),
            Some(text) => parse_when(text, tz)?,
        };
        Ok(Clock { now, tz })
    }

    pub fn today(&self) -> NaiveDate {
        self.now.date_naive()
    }

    /// The local date, in the player's zone, of an instant (a message's arrival).
    pub fn local_date(&self, at: DateTime<FixedOffset>) -> NaiveDate {
        at.with_timezone(&self.tz).date_naive()
    }

    /// Now as RFC 3339, for the store's timestamps.
    pub fn stamp(&self) -> String {
        self.now.fixed_offset().to_rfc3339()
    }
}

fn parse_when(text: &str, tz: Tz) -> anyhow::Result<DateTime<Tz>> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.with_timezone(&tz));
    }
    let date: NaiveDate = ccmail_core::wording::parse_date(text)
        .map_err(|_| anyhow!(crate::t!("app-now-not-a-date", text = format!("{text:?}"))))?;
    let noon = date.and_time(NaiveTime::from_hms_opt(12, 0, 0).expect("noon"));
    tz.from_local_datetime(&noon)
        .earliest()
        .with_context(|| crate::t!("app-no-noon", date = date, tz = tz.to_string()))
}

/// From this many items on, [`map_in_two_halves`] starts a second thread.
pub const PARALLEL_FROM: usize = 64;

/// `work` over `items`, its results in order: a handful of items here, from
/// [`PARALLEL_FROM`] on each half on a thread of its own ([`in_two_halves`]).
pub fn map_in_two_halves<T: Send, R: Send, E: Send>(
    items: Vec<T>,
    work: impl Fn(Vec<T>) -> Result<Vec<R>, E> + Sync,
) -> Result<Vec<R>, E> {
    if items.len() < PARALLEL_FROM {
        return work(items);
    }
    let (first, second) = in_two_halves(items, work);
    let mut first = first?;
    first.extend(second?);
    Ok(first)
}

/// `work` on each half of `items`, the second half on a thread of its own, and the two
/// results in order: for work per game that needs nothing from the other games (`games` on
/// a thousand of them).
pub fn in_two_halves<T: Send, R: Send>(
    mut items: Vec<T>,
    work: impl Fn(Vec<T>) -> R + Sync,
) -> (R, R) {
    let second = items.split_off(items.len() / 2);
    std::thread::scope(|s| {
        let other = s.spawn(|| work(second));
        (work(items), other.join().expect("a worker thread panicked"))
    })
}
