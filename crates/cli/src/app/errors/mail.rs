//! The mail crate's errors in the interface's words. A server's reply, the network's and
//! the libraries' own words pass through as they are.

use ccmail_mail::imap::{Ended, ImapError};
use ccmail_mail::mime::MimeError;
use ccmail_mail::smtp::SmtpError;
use ccmail_mail::tls::TlsError;

use crate::i18n::Catalogue;

/// `cause` in the interface's words, if it is one of the mail crate's errors (or the
/// `io::Error` it makes for a connection that ended: a time-out, a closed connection).
pub(super) fn in_words(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    let c = crate::i18n::current();
    if let Some(e) = cause.downcast_ref::<ImapError>() {
        Some(imap(e, c))
    } else if let Some(e) = cause.downcast_ref::<SmtpError>() {
        Some(smtp(e, c))
    } else if let Some(e) = cause.downcast_ref::<TlsError>() {
        Some(tls(e, c))
    } else if let Some(e) = cause.downcast_ref::<MimeError>() {
        // The words of a message that is not one are the mail crate's own, and English.
        Some(e.to_string())
    } else if let Some(e) = cause.downcast_ref::<Ended>() {
        Some(ended(e, c))
    } else {
        cause
            .downcast_ref::<std::io::Error>()
            .and_then(ended_in)
            .map(|e| ended(e, c))
    }
}

/// The crate's own words for a connection that ended, inside an `io::Error`.
fn ended_in(e: &std::io::Error) -> Option<&Ended> {
    e.get_ref()?.downcast_ref::<Ended>()
}

/// An `io::Error` of the network's (its words as they are), or of the crate's (in `c`'s).
fn io(e: &std::io::Error, c: &Catalogue) -> String {
    ended_in(e).map_or_else(|| e.to_string(), |ended_| ended(ended_, c))
}

fn ended(e: &Ended, c: &Catalogue) -> String {
    match e {
        Ended::NoAnswer { seconds } => {
            c.text("err-mail-no-answer", &[("seconds", (*seconds).into())])
        }
        Ended::Closed => c.text("err-mail-closed", &[]),
        Ended::Bye(reply) => c.text("err-mail-bye", &[("reply", reply.into())]),
    }
}

/// An IMAP error in `c`'s words.
fn imap(e: &ImapError, c: &Catalogue) -> String {
    match e {
        ImapError::Config(reason) => c.text("err-mail-imap-config", &[("reason", reason.into())]),
        ImapError::Connect { server, source } => c.text(
            "err-mail-imap-connect",
            &[("server", server.into()), ("error", io(source, c).into())],
        ),
        ImapError::Tls { server, reason, .. } => c.text(
            "err-mail-imap-tls",
            &[("server", server.into()), ("reason", reason.into())],
        ),
        ImapError::Login { user, reply } => c.text(
            "err-mail-imap-login",
            &[("user", user.into()), ("reply", reply.into())],
        ),
        ImapError::Token(e) => c.text("err-mail-imap-token", &[("error", e.to_string().into())]),
        ImapError::Protocol { command, reply } => c.text(
            "err-mail-imap-protocol",
            &[("command", command.into()), ("reply", reply.into())],
        ),
        ImapError::Io { context, source } => c.text(
            "err-mail-imap-io",
            &[("context", context.into()), ("error", io(source, c).into())],
        ),
    }
}

/// An SMTP error in `c`'s words.
fn smtp(e: &SmtpError, c: &Catalogue) -> String {
    match e {
        SmtpError::Config(reason) => c.text("err-mail-smtp-config", &[("reason", reason.into())]),
        SmtpError::Address { address, reason } => c.text(
            "err-mail-smtp-address",
            &[
                ("address", format!("{address:?}").into()),
                ("reason", reason.into()),
            ],
        ),
        SmtpError::Build(reason) => c.text("err-mail-smtp-build", &[("reason", reason.into())]),
        SmtpError::Rejected {
            server,
            code,
            reply,
        } => c.text(
            "err-mail-smtp-rejected",
            &[
                ("server", server.into()),
                ("code", code.to_string().into()),
                ("reply", reply.into()),
            ],
        ),
        SmtpError::Login {
            server,
            user,
            reason,
        } => c.text(
            "err-mail-smtp-login",
            &[
                ("server", server.into()),
                ("user", user.into()),
                ("reason", reason.into()),
            ],
        ),
        SmtpError::Token(e) => c.text("err-mail-smtp-token", &[("error", e.to_string().into())]),
        SmtpError::Tls { server, reason } => c.text(
            "err-mail-smtp-tls",
            &[("server", server.into()), ("reason", reason.into())],
        ),
        SmtpError::Connection { server, reason } => c.text(
            "err-mail-smtp-connection",
            &[("server", server.into()), ("reason", reason.into())],
        ),
        SmtpError::Protocol { server, reason } => c.text(
            "err-mail-smtp-protocol",
            &[("server", server.into()), ("reason", reason.into())],
        ),
    }
}

/// A TLS preparation error in `c`'s words.
fn tls(e: &TlsError, c: &Catalogue) -> String {
    match e {
        TlsError::CaFileRead { path, source } => c.text(
            "err-mail-ca-file-read",
            &[
                ("path", path.display().to_string().into()),
                ("error", source.to_string().into()),
            ],
        ),
        TlsError::CaFileContent { path, reason } => c.text(
            "err-mail-ca-file-content",
            &[
                ("path", path.display().to_string().into()),
                ("reason", reason.into()),
            ],
        ),
        TlsError::InvalidHostName(host) => c.text(
            "err-mail-invalid-host-name",
            &[("host", format!("{host:?}").into())],
        ),
        TlsError::Config(e) => c.text("err-mail-tls-config", &[("error", e.to_string().into())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;
    use std::io;

    fn en() -> Catalogue {
        Catalogue::new(Lang::En)
    }

    fn ru() -> Catalogue {
        Catalogue::new(Lang::Ru)
    }

    fn timed_out() -> ImapError {
        ImapError::Io {
            context: "NOOP".into(),
            source: io::Error::new(io::ErrorKind::TimedOut, Ended::NoAnswer { seconds: 30 }),
        }
    }

    #[test]
    fn the_english_is_the_errors_own() {
        let imap_errors = [
            ImapError::Config("x".into()),
            ImapError::Connect {
                server: "imap.example.org:993".into(),
                source: io::Error::from(io::ErrorKind::ConnectionRefused),
            },
            ImapError::Tls {
                server: "imap.example.org:993".into(),
                reason: "invalid peer certificate: UnknownIssuer".into(),
                transient: false,
            },
            ImapError::Login {
                user: "bob".into(),
                reply: "[AUTHENTICATIONFAILED] Authentication failed.".into(),
            },
            ImapError::Protocol {
                command: "SELECT \"Chess\"".into(),
                reply: "Mailbox doesn't exist: Chess".into(),
            },
            timed_out(),
            ImapError::Io {
                context: "IDLE".into(),
                source: io::Error::new(io::ErrorKind::ConnectionAborted, Ended::Closed),
            },
        ];
        for e in &imap_errors {
            assert_eq!(imap(e, &en()), e.to_string());
        }
        let smtp_errors = [
            SmtpError::Rejected {
                server: "smtp.example.org:465".into(),
                code: 550,
                reply: "5.1.1 <x@example.org>: Recipient address rejected".into(),
            },
            SmtpError::Address {
                address: "bob@".into(),
                reason: "Missing domain".into(),
            },
            SmtpError::Login {
                server: "smtp.example.org:465".into(),
                user: "bob".into(),
                reason: "r".into(),
            },
            SmtpError::Connection {
                server: "smtp.example.org:465".into(),
                reason: "Connection refused (os error 111)".into(),
            },
        ];
        for e in &smtp_errors {
            assert_eq!(smtp(e, &en()), e.to_string());
        }
        let e = TlsError::InvalidHostName("bad host".into());
        assert_eq!(tls(&e, &en()), e.to_string());
    }

    #[test]
    fn in_russian_the_servers_words_stay_its_own() {
        let e = ImapError::Login {
            user: "bob".into(),
            reply: "[AUTHENTICATIONFAILED] Authentication failed.".into(),
        };
        assert_eq!(
            imap(&e, &ru()),
            "IMAP-сервер не принял вход пользователя bob: [AUTHENTICATIONFAILED] Authentication \
             failed."
        );
        assert_eq!(
            imap(&timed_out(), &ru()),
            "соединение с IMAP-сервером, NOOP: нет ответа в течение 30 с"
        );
        let e = SmtpError::Rejected {
            server: "smtp.example.org:465".into(),
            code: 451,
            reply: "4.7.1 Try again later".into(),
        };
        assert_eq!(
            smtp(&e, &ru()),
            "SMTP-сервер smtp.example.org:465 ответил 451: 4.7.1 Try again later"
        );
    }

    /// The `io::Error` under an `ImapError::Io` is the next cause of the chain: in the
    /// interface's words too, so that it is found in the text before it and said once.
    #[test]
    fn the_crates_io_error_is_its_own_cause_in_words() {
        let e = timed_out();
        let source = std::error::Error::source(&e).expect("the io::Error");
        let said = ended(&Ended::NoAnswer { seconds: 30 }, crate::i18n::current());
        assert_eq!(in_words(source), Some(said));
        let network = io::Error::from(io::ErrorKind::ConnectionReset);
        assert_eq!(in_words(&network), None);
    }
}
