//! Logs: `tracing` to standard error, filtered by `RUST_LOG` (e.g. `RUST_LOG=debug`,
//! `RUST_LOG=ccmail=debug,ccmail_mail=trace`); by default `info` for the daemon, whose log is
//! its report, and `warn` for the other commands, whose output is on standard output.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

pub fn init(daemon: bool) {
    let default = if daemon { "info" } else { "warn" };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}
