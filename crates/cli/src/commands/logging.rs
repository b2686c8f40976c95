//! Logs: `tracing` to standard error, filtered by `RUST_LOG` (e.g. `RUST_LOG=debug`,
//! `RUST_LOG=ccmail=debug,ccmail_mail=trace`); by default `info` for the daemon, whose log is
//! its report, and `warn` for the other commands, whose output is on standard output.
//!
//! Whatever `RUST_LOG` asks, the protocol crates' wire traces stay off: async-imap's trace is
//! every line on the wire, the `LOGIN` with the password and the player's mail among them;
//! lettre's, rustls' and the HTTP client's would carry `AUTH`, key material or the OAuth2
//! token requests. That is a layer of its own ([`NoWire`]) in front of the others, not a
//! directive added to `RUST_LOG`'s: a directive for a narrower target
//! (`async_imap::imap_stream=trace`) wins over one for the crate.

use std::io::IsTerminal;

use tracing::{Level, Metadata, Subscriber};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::{Context, Layer};

/// The crates whose debug and trace lines are the wire itself (their `log` records arrive
/// here with their module path as the target).
const WIRE: &[&str] = &[
    "async_imap",
    "imap_proto",
    "lettre",
    "rustls",
    "tokio_rustls",
    "rustls_pki_types",
    "webpki",
    "ureq",
    "ureq_proto",
    "hyper",
    "hyper_util",
    "reqwest",
    "h2",
];

/// Whether a line of `target` at `level` is the wire: debug or trace of a [`WIRE`] crate or
/// one of its modules. Their info, warnings and errors (a certificate refused) still show.
fn is_wire(target: &str, level: &Level) -> bool {
    let wire_crate = |name: &&str| {
        target
            .strip_prefix(*name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with("::"))
    };
    *level > Level::INFO && WIRE.iter().any(wire_crate)
}

/// Turns the wire's spans and events off for the whole subscriber, whatever the filters
/// after it let through.
struct NoWire;

impl<S: Subscriber> Layer<S> for NoWire {
    fn enabled(&self, metadata: &Metadata<'_>, _: Context<'_, S>) -> bool {
        !is_wire(metadata.target(), metadata.level())
    }
}

pub fn init(daemon: bool) {
    let default = if daemon { "info" } else { "warn" };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let log = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false);
    // The daemon's errors also go to the `on_error` hook, when one is set.
    let _ = tracing_subscriber::registry()
        .with(NoWire)
        .with(filter)
        .with(log)
        .with(ccmail::app::daemon::hooks::ErrorLayer)
        .try_init();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_is_the_debug_and_trace_of_the_protocol_crates() {
        let cases = [
            ("async_imap::imap_stream", Level::TRACE, true),
            ("async_imap", Level::DEBUG, true),
            ("imap_proto::parser::rfc3501", Level::TRACE, true),
            (
                "lettre::transport::smtp::client::async_connection",
                Level::DEBUG,
                true,
            ),
            ("rustls::client::hs", Level::TRACE, true),
            ("tokio_rustls", Level::DEBUG, true),
            ("ureq::unversioned::transport::tcp", Level::TRACE, true),
            ("ureq_proto::client", Level::DEBUG, true),
            ("async_imap::imap_stream", Level::INFO, false),
            ("rustls::conn", Level::WARN, false),
            ("lettre", Level::ERROR, false),
            ("ccmail_mail::imap", Level::TRACE, false),
            ("ccmail::app::daemon", Level::DEBUG, false),
            ("sqlx::query", Level::DEBUG, false),
            ("async_imapx", Level::TRACE, false),
            ("rustlsfoo::x", Level::TRACE, false),
            ("log", Level::TRACE, false),
        ];
        for (target, level, wire) in cases {
            assert_eq!(is_wire(target, &level), wire, "{target} {level}");
        }
    }
}
