//! `check`'s hints for a setup mistake: a port and a `security` that don't match, a port of
//! the other service, a host where nothing listens; and the starter config's placeholders,
//! which load fine but can reach no one.
//!
//! The hint comes from what the server sent ([`ccmail_mail::probe`]): where the failure
//! itself says it (a greeting that never came, a refused connection) from the failure, else
//! from a short second connection that only listens.

use std::time::Duration;

use ccmail::config::{Config, Security};
use ccmail_mail::imap::{Doing, ImapError};
use ccmail_mail::probe::{self, Heard, Hint, Service};
use ccmail_mail::smtp::{SmtpError, Step, Trouble};

use super::Report;

/// How long the second connection waits for each thing it listens for.
const LISTEN: Duration = Duration::from_secs(4);

/// The starter config's address (config/ccmail.example.toml; `init` without `--email`
/// leaves it).
// not the interface's: the example file's value
const STARTER_EMAIL: &str = "ivanov@example.org";

/// Where a failed connection was meant to go.
pub(super) struct Target<'a> {
    pub service: Service,
    pub host: &'a str,
    pub port: u16,
    pub security: Security,
    pub ca_file: Option<&'a std::path::Path>,
    /// The time-out the failed connection had.
    pub timeout: Duration,
}

impl Target<'_> {
    fn security(&self) -> ccmail_mail::tls::Security {
        match self.security {
            Security::Tls => ccmail_mail::tls::Security::Tls,
            Security::StartTls => ccmail_mail::tls::Security::StartTls,
            Security::Plain => ccmail_mail::tls::Security::Plain,
        }
    }
}

/// What the IMAP failure `e` says was heard, if it says (`Some(None)`: a configuration
/// error, nothing to listen for).
fn heard_imap(e: &ImapError) -> Option<Option<Heard>> {
    let timed_out = |source: &std::io::Error| source.kind() == std::io::ErrorKind::TimedOut;
    match e {
        ImapError::Config(_) | ImapError::Token(_) => Some(None),
        ImapError::Connect { source, .. } => Some(connect_error(source)),
        ImapError::Io { context, source } if timed_out(source) => match context {
            Doing::Connecting(_) => Some(Some(Heard::NoConnection)),
            Doing::Greeting(_) => Some(Some(Heard::Nothing)),
            Doing::TlsHandshake(_) => Some(Some(Heard::NoTlsAnswer)),
            _ => None,
        },
        _ => None,
    }
}

fn connect_error(source: &std::io::Error) -> Option<Heard> {
    match source.kind() {
        std::io::ErrorKind::ConnectionRefused => Some(Heard::Refused),
        _ => None,
    }
}

/// What the SMTP failure `e` says was heard, as [`heard_imap`].
fn heard_smtp(e: &SmtpError, plain_first: bool) -> Option<Option<Heard>> {
    match e {
        SmtpError::Config(_) | SmtpError::Token(_) | SmtpError::Address { .. } => Some(None),
        SmtpError::Build(_) => Some(None),
        // Before anything else, in plain text: the greeting that never came.
        SmtpError::Connection {
            reason:
                Trouble::NoAnswer {
                    step: Step::Greeting,
                    ..
                },
            ..
        } if plain_first => Some(Some(Heard::Nothing)),
        _ => None,
    }
}

/// After a failed IMAP connection: the hint line, if one fits.
pub(super) async fn after_imap(r: &mut Report, t: &Target<'_>, e: &ImapError) {
    match heard_imap(e) {
        Some(None) => {}
        Some(Some(heard)) => say(r, t, &heard, t.timeout),
        None => say(r, t, &listen(t).await, LISTEN),
    }
}

/// After a failed SMTP connection: the hint line, if one fits.
pub(super) async fn after_smtp(r: &mut Report, t: &Target<'_>, e: &SmtpError) {
    match heard_smtp(e, t.security != Security::Tls) {
        Some(None) => {}
        Some(Some(heard)) => say(r, t, &heard, t.timeout),
        None => say(r, t, &listen(t).await, LISTEN),
    }
}

async fn listen(t: &Target<'_>) -> Heard {
    probe::listen(t.host, t.port, t.security(), t.ca_file, LISTEN).await
}

/// The hint for what was `heard`, waiting at most `waited` for each thing.
fn say(r: &mut Report, t: &Target<'_>, heard: &Heard, waited: Duration) {
    let Some(hint) = probe::hint(t.service, t.security(), heard) else {
        return;
    };
    let step = match t.service {
        Service::Imap => "imap",
        Service::Smtp => "smtp",
    };
    let server = format!("{}:{}", t.host, t.port);
    let port = t.port.to_string();
    let seconds = waited.as_secs();
    let what = match hint {
        Hint::ImplicitTls => said!(r, "check-hint-implicit-tls", port = port),
        Hint::Silent => said!(r, "check-hint-silent", port = port, seconds = seconds),
        Hint::PlainFirst => said!(r, "check-hint-plain-first", port = port),
        Hint::OtherService(Service::Smtp) => said!(r, "check-hint-smtp-port", port = port),
        Hint::OtherService(Service::Imap) => said!(r, "check-hint-imap-port", port = port),
        Hint::NotMail => said!(
            r,
            "check-hint-not-mail",
            port = port,
            said = first_line(heard)
        ),
        Hint::SilentAfterTls => said!(r, "check-hint-silent-after-tls", seconds = seconds),
        Hint::ClosedAtOnce => said!(r, "check-hint-closed", server = &server),
        Hint::NothingListens => said!(r, "check-hint-nothing-listens", server = &server),
        Hint::Unreachable => {
            said!(
                r,
                "check-hint-unreachable",
                server = &server,
                seconds = seconds
            )
        }
        Hint::NoTlsAnswer => said!(
            r,
            "check-hint-no-tls-answer",
            server = &server,
            seconds = seconds
        ),
    };
    r.hint(step, what);
}

/// The first line of what was heard, quoted, at most 60 characters.
fn first_line(heard: &Heard) -> String {
    let (Heard::Plain(bytes) | Heard::InTls(bytes)) = heard else {
        return String::new();
    };
    let line = bytes.split(|&b| b == b'\n').next().unwrap_or(bytes);
    let text: String = String::from_utf8_lossy(line)
        .trim_end()
        .chars()
        .take(60)
        .collect();
    format!("{text:?}")
}

/// The config's keys that still hold the starter config's placeholders: the example address,
/// or a host in a domain reserved for examples (RFC 2606), where no mail server answers.
pub(super) fn placeholders(cfg: &Config) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    if is_placeholder_address(&cfg.player.email) {
        found.push(("email", cfg.player.email.clone()));
    }
    if let Some(i) = &cfg.imap {
        if is_example_host(&i.host) {
            // not the interface's: the config's key
            found.push(("[imap] host", i.host.clone()));
        }
        if is_placeholder_address(&i.username) {
            // not the interface's: the config's key
            found.push(("[imap] username", i.username.clone()));
        }
    }
    if let Some(s) = &cfg.smtp {
        if is_example_host(&s.host) {
            // not the interface's: the config's key
            found.push(("[smtp] host", s.host.clone()));
        }
        if s.username.as_deref().is_some_and(is_placeholder_address) {
            // not the interface's: the config's key
            found.push(("[smtp] username", s.username.clone().unwrap_or_default()));
        }
    }
    found
}

fn is_placeholder_address(address: &str) -> bool {
    address.trim().eq_ignore_ascii_case(STARTER_EMAIL)
}

/// A host in example.org, example.com or example.net, or under the `.example` top-level
/// domain: reserved for examples, never a mail server.
fn is_example_host(host: &str) -> bool {
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    ["example.org", "example.com", "example.net"]
        .iter()
        .any(|d| host == *d || host.ends_with(&format!(".{d}")))
        || host == "example"
        || host.ends_with(".example")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_the_starters_address_and_example_hosts() {
        for (address, is) in [
            ("ivanov@example.org", true),
            (" Ivanov@Example.ORG ", true),
            ("petrov@example.org", false),
            ("ivanov@mail.ru", false),
        ] {
            assert_eq!(is_placeholder_address(address), is, "{address}");
        }
        for (host, is) in [
            ("imap.example.org", true),
            ("smtp.example.org", true),
            ("example.com", true),
            ("mail.example.net.", true),
            ("imap.test.example", true),
            ("imap.gmail.com", false),
            ("127.0.0.1", false),
            ("myexample.org", false),
            ("example.org.ru", false),
        ] {
            assert_eq!(is_example_host(host), is, "{host}");
        }
    }
}
