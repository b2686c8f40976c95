//! A server that keeps failing. One failed connection is a warning: servers restart, links
//! drop, and the daemon tries again with backoff. One that still fails after [`ESCALATE_AFTER`]
//! is something the player must hear of: it is logged once at error level, which fires
//! `on_error` once ([`super::hooks::ErrorLayer`]); the failures after it stay warnings, and the
//! end of the outage is logged at info level, with how long it lasted.
//!
//! How long a failure has lasted is measured on the daemon's own monotonic clock (a changed
//! system time or a server's clock do not move it). The decision is [`level`], a pure
//! function of that duration; [`Outage`] keeps the start for a loop, and takes the instant
//! as an argument, so neither needs a test to wait fifteen minutes.

use std::time::{Duration, Instant};

/// How long a connection or login may keep failing before it is an error.
pub const ESCALATE_AFTER: Duration = Duration::from_secs(15 * 60);

/// The variable that shortens [`ESCALATE_AFTER`] for the end-to-end tests (seconds), so that
/// they need not wait fifteen minutes. Not for use otherwise: docs/cli.md names it as such.
pub const TEST_ESCALATE_AFTER: &str = "CCMAIL_TEST_ESCALATE_AFTER_SECS";

/// [`ESCALATE_AFTER`], or the tests' [`TEST_ESCALATE_AFTER`] when it is set to a number.
pub fn escalate_after() -> Duration {
    std::env::var(TEST_ESCALATE_AFTER)
        .ok()
        .and_then(|secs| secs.trim().parse().ok())
        .map_or(ESCALATE_AFTER, Duration::from_secs)
}

/// How a failure is logged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A warning: the daemon tries again.
    Warn,
    /// An error, once an outage: the player is told (`on_error`).
    Error,
}

/// How to log a failure when failures began `failing_for` ago, and `told` says whether this
/// outage was logged at error level already: an error once it lasts longer than `after`,
/// once.
pub fn level(failing_for: Duration, told: bool, after: Duration) -> Level {
    if !told && failing_for > after {
        Level::Error
    } else {
        Level::Warn
    }
}

/// One server's failures since it last worked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outage {
    since: Option<Instant>,
    told: bool,
    /// How long failures last before they are an error: [`ESCALATE_AFTER`].
    after: Duration,
}

impl Default for Outage {
    fn default() -> Self {
        Outage::new(ESCALATE_AFTER)
    }
}

impl Outage {
    pub fn new(after: Duration) -> Outage {
        Outage {
            since: None,
            told: false,
            after,
        }
    }

    /// A failure at `now`: how to log it, and for how long the server has failed.
    pub fn failed(&mut self, now: Instant) -> (Level, Duration) {
        let since = *self.since.get_or_insert(now);
        let failing_for = now.saturating_duration_since(since);
        let level = level(failing_for, self.told, self.after);
        self.told |= level == Level::Error;
        (level, failing_for)
    }

    /// The server worked at `now`: how long the outage it ends lasted, when it is worth a
    /// line in the log — it was told of as an error, or lasted a minute or more (a shorter
    /// one is a dropped connection, said by the reconnect's own lines).
    pub fn recovered(&mut self, now: Instant) -> Option<Duration> {
        let since = self.since.take()?;
        let told = std::mem::take(&mut self.told);
        let lasted = now.saturating_duration_since(since);
        (told || lasted >= Duration::from_secs(60)).then_some(lasted)
    }
}

/// A duration in whole minutes, at least 1, for the log.
pub fn minutes(d: Duration) -> u64 {
    (d.as_secs() / 60).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: Duration = Duration::from_secs(60);

    #[test]
    fn a_failure_is_an_error_once_it_lasts_more_than_the_limit_and_only_once() {
        let after = 15 * MIN;
        let cases = [
            (Duration::ZERO, false, Level::Warn),
            (MIN, false, Level::Warn),
            (14 * MIN, false, Level::Warn),
            (15 * MIN, false, Level::Warn),
            (15 * MIN + Duration::from_secs(1), false, Level::Error),
            (16 * MIN, false, Level::Error),
            (10 * 60 * MIN, false, Level::Error),
            // Told already: the rest of the outage stays warnings.
            (16 * MIN, true, Level::Warn),
            (10 * 60 * MIN, true, Level::Warn),
        ];
        for (failing_for, told, want) in cases {
            assert_eq!(
                level(failing_for, told, after),
                want,
                "{failing_for:?} told={told}"
            );
        }
    }

    #[test]
    fn an_outage_escalates_once_and_ends_on_the_first_success() {
        let t0 = Instant::now();
        let mut o = Outage::default();
        assert_eq!(o.recovered(t0), None, "nothing failed");
        let steps: Vec<Level> = [0, 1, 2, 4, 8, 16, 21, 26, 120]
            .iter()
            .map(|&m| o.failed(t0 + m * MIN).0)
            .collect();
        use Level::{Error, Warn};
        assert_eq!(
            steps,
            [Warn, Warn, Warn, Warn, Warn, Error, Warn, Warn, Warn]
        );
        assert_eq!(o.recovered(t0 + 121 * MIN), Some(121 * MIN));
        assert_eq!(o.recovered(t0 + 122 * MIN), None, "once");
        // A new outage starts afresh, and is told of again.
        assert_eq!(o.failed(t0 + 200 * MIN), (Warn, Duration::ZERO));
        assert_eq!(o.failed(t0 + 216 * MIN), (Error, 16 * MIN));
        // A blip of a few seconds ends without a line; one of a minute or more with one.
        let mut blip = Outage::default();
        blip.failed(t0);
        assert_eq!(blip.recovered(t0 + Duration::from_secs(5)), None);
        blip.failed(t0);
        assert_eq!(blip.recovered(t0 + MIN), Some(MIN));
    }

    #[test]
    fn minutes_are_whole_and_at_least_one() {
        assert_eq!(minutes(Duration::from_secs(5)), 1);
        assert_eq!(minutes(16 * MIN + Duration::from_secs(59)), 16);
    }
}
