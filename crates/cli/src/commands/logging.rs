//! Logs: `tracing` to standard error, filtered by `RUST_LOG` (e.g. `RUST_LOG=debug`,
//! `RUST_LOG=ccmail=debug,ccmail_mail=trace`); by default `info` for the daemon, whose log is
//! its report, and `warn` for the other commands, whose output is on standard output.
//!
//! Whatever `RUST_LOG` asks, the protocol crates' wire traces stay off: async-imap's trace is
//! every line on the wire, the `LOGIN` with the password and the player's mail among them
//! (lettre's would be the same, with `AUTH`, if its `tracing` feature were on).

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The crates whose trace (or debug) lines are the wire itself: at most `info` for them.
const WIRE: [&str; 2] = ["async_imap=info", "lettre=info"];

pub fn init(daemon: bool) {
    let default = if daemon { "info" } else { "warn" };
    let mut filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    for directive in WIRE {
        if let Ok(d) = directive.parse() {
            filter = filter.add_directive(d);
        }
    }
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false);
    // The daemon's errors also go to the `on_error` hook, when one is set.
    let _ = tracing_subscriber::registry()
        .with(filter)
        .with(log)
        .with(ccmail::app::daemon::hooks::ErrorLayer)
        .try_init();
}
