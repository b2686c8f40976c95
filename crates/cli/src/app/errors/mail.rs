//! The mail crate's errors in the interface's words. A server's reply, the network's and
//! the libraries' own words pass through as they are.

use ccmail_mail::config::Misconfig;
use ccmail_mail::imap::{Doing, Ended, ImapError, Malformed, Reply};
use ccmail_mail::mime::{Beginning, MimeError, NotAMessage};
use ccmail_mail::oauth2::LoginRefusal;
use ccmail_mail::smtp::{BuildProblem, SmtpError, Step, Trouble};
use ccmail_mail::tls::{CaProblem, TlsError, TlsFailure};

use crate::i18n::Catalogue;

/// `cause` in the interface's words, if it is one of the mail crate's errors (or the
/// `io::Error` it makes for a connection that ended — a time-out, a closed connection — or
/// for a server's answer it could not read).
pub(super) fn in_words(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    let c = crate::i18n::current();
    if let Some(e) = cause.downcast_ref::<ImapError>() {
        Some(imap(e, c))
    } else if let Some(e) = cause.downcast_ref::<SmtpError>() {
        Some(smtp(e, c))
    } else if let Some(e) = cause.downcast_ref::<TlsError>() {
        Some(tls(e, c))
    } else if let Some(e) = cause.downcast_ref::<MimeError>() {
        Some(mime(e, c))
    } else if let Some(e) = cause.downcast_ref::<Ended>() {
        Some(ended(e, c))
    } else if let Some(e) = cause.downcast_ref::<Malformed>() {
        Some(malformed(e, c))
    } else {
        let inner = cause.downcast_ref::<std::io::Error>()?.get_ref()?;
        if let Some(e) = inner.downcast_ref::<Ended>() {
            Some(ended(e, c))
        } else {
            inner.downcast_ref::<Malformed>().map(|e| malformed(e, c))
        }
    }
}

/// An `io::Error` of the network's (its words as they are), or of the crate's (in `c`'s).
fn io(e: &std::io::Error, c: &Catalogue) -> String {
    let inner = e.get_ref();
    if let Some(e) = inner.and_then(|inner| inner.downcast_ref::<Ended>()) {
        ended(e, c)
    } else if let Some(e) = inner.and_then(|inner| inner.downcast_ref::<Malformed>()) {
        malformed(e, c)
    } else {
        e.to_string()
    }
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

/// Why a server's answer could not be read, in `c`'s words (the answer as it is).
fn malformed(e: &Malformed, c: &Catalogue) -> String {
    let (key, answer) = match e {
        Malformed::Silent { seconds } => {
            return c.text("err-mail-answer-silent", &[("seconds", (*seconds).into())]);
        }
        Malformed::TextTooLong { max } => {
            return c.text("err-mail-answer-text-too-long", &[("max", (*max).into())]);
        }
        Malformed::LineTooLong { max } => {
            return c.text("err-mail-answer-line-too-long", &[("max", (*max).into())]);
        }
        Malformed::LiteralTooLong { max, answer } => {
            return c.text(
                "err-mail-answer-literal-too-long",
                &[("max", (*max).into()), ("answer", answer.into())],
            );
        }
        Malformed::ClosedInAnswer => return c.text("err-mail-answer-closed", &[]),
        Malformed::ClosedInMessage => return c.text("err-mail-answer-closed-in-message", &[]),
        Malformed::Unreadable(answer) => ("err-mail-answer-unreadable", answer),
        Malformed::UnendedString(answer) => ("err-mail-answer-unended-string", answer),
        Malformed::UnendedLiteral(answer) => ("err-mail-answer-unended-literal", answer),
        Malformed::LiteralOutOfPlace(answer) => ("err-mail-answer-literal-out-of-place", answer),
        Malformed::UnendedSection(answer) => ("err-mail-answer-unended-section", answer),
        Malformed::UnendedList(answer) => ("err-mail-answer-unended-list", answer),
        Malformed::NoValue(answer) => ("err-mail-answer-no-value", answer),
    };
    c.text(key, &[("answer", answer.into())])
}

/// What the server answered a command, in `c`'s words (its own as they are).
fn reply(e: &Reply, c: &Catalogue) -> String {
    match e {
        Reply::Said(words) => words.clone(),
        Reply::NoUidValidity => c.text("err-mail-reply-no-uidvalidity", &[]),
        Reply::NoBodyStructure { uid } => c.text(
            "err-mail-reply-no-bodystructure",
            &[("uid", uid.to_string().into())],
        ),
        Reply::NoSize { uid } => {
            c.text("err-mail-reply-no-size", &[("uid", uid.to_string().into())])
        }
        Reply::NoInternalDate { uid } => c.text(
            "err-mail-reply-no-internaldate",
            &[("uid", uid.to_string().into())],
        ),
        Reply::Unexpected(answer) => {
            c.text("err-mail-reply-unexpected", &[("answer", answer.into())])
        }
    }
}

/// An IMAP error in `c`'s words.
fn imap(e: &ImapError, c: &Catalogue) -> String {
    match e {
        ImapError::Config(reason) => c.text(
            "err-mail-imap-config",
            &[("reason", misconfig(reason, c).into())],
        ),
        ImapError::Connect { server, source } => c.text(
            "err-mail-imap-connect",
            &[("server", server.into()), ("error", io(source, c).into())],
        ),
        ImapError::Tls { server, reason, .. } => c.text(
            "err-mail-imap-tls",
            &[
                ("server", server.into()),
                ("reason", tls_failure(reason, c).into()),
            ],
        ),
        ImapError::Login { user, reply } => c.text(
            "err-mail-imap-login",
            &[("user", user.into()), ("reply", refusal(reply, c).into())],
        ),
        ImapError::Token(e) => c.text("err-mail-imap-token", &[("error", e.to_string().into())]),
        ImapError::Protocol { command, reply: r } => c.text(
            "err-mail-imap-protocol",
            &[
                ("command", doing(command, c).into()),
                ("reply", reply(r, c).into()),
            ],
        ),
        ImapError::Io { context, source } => c.text(
            "err-mail-imap-io",
            &[
                ("context", doing(context, c).into()),
                ("error", io(source, c).into()),
            ],
        ),
    }
}

/// An SMTP error in `c`'s words.
fn smtp(e: &SmtpError, c: &Catalogue) -> String {
    match e {
        SmtpError::Config(reason) => c.text(
            "err-mail-smtp-config",
            &[("reason", misconfig(reason, c).into())],
        ),
        SmtpError::Address { address, reason } => c.text(
            "err-mail-smtp-address",
            &[
                ("address", format!("{address:?}").into()),
                ("reason", reason.into()),
            ],
        ),
        SmtpError::Build(reason) => c.text(
            "err-mail-smtp-build",
            &[("reason", build_problem(reason, c).into())],
        ),
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
                ("reason", refusal(reason, c).into()),
            ],
        ),
        SmtpError::Token(e) => c.text("err-mail-smtp-token", &[("error", e.to_string().into())]),
        SmtpError::Tls { server, reason } => c.text(
            "err-mail-smtp-tls",
            &[
                ("server", server.into()),
                ("reason", tls_failure(reason, c).into()),
            ],
        ),
        SmtpError::Connection { server, reason } => {
            let reason = match reason {
                Trouble::NoNoopAnswer => c.text("err-mail-no-noop-answer", &[]),
                Trouble::NoAnswer { step, seconds } => c.text(
                    "err-mail-smtp-no-answer",
                    &[
                        ("seconds", (*seconds).into()),
                        ("step", smtp_step(*step, c).into()),
                    ],
                ),
                // The network's or lettre's words.
                Trouble::Said(words) => words.clone(),
            };
            c.text(
                "err-mail-smtp-connection",
                &[("server", server.into()), ("reason", reason.into())],
            )
        }
        SmtpError::Protocol { server, reason } => c.text(
            "err-mail-smtp-protocol",
            &[("server", server.into()), ("reason", reason.into())],
        ),
    }
}

/// A step of an SMTP connection, in `c`'s words.
fn smtp_step(step: Step, c: &Catalogue) -> String {
    let key = match step {
        Step::Greeting => "err-mail-smtp-step-greeting",
        Step::StartTls => "err-mail-smtp-step-starttls",
        Step::Login => "err-mail-smtp-step-login",
        Step::Noop => "err-mail-smtp-step-noop",
        Step::Sending => "err-mail-smtp-step-sending",
    };
    c.text(key, &[])
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
                ("reason", ca_problem(reason, c).into()),
            ],
        ),
        TlsError::InvalidHostName(host) => c.text(
            "err-mail-invalid-host-name",
            &[("host", format!("{host:?}").into())],
        ),
        TlsError::Config(e) => c.text("err-mail-tls-config", &[("error", e.to_string().into())]),
    }
}

/// Why a message cannot be decoded, in `c`'s words.
fn mime(e: &MimeError, c: &Catalogue) -> String {
    let MimeError::NotAMessage(what) = e else {
        return e.to_string();
    };
    match what {
        NotAMessage::Empty => c.text("err-mail-not-a-message-empty", &[]),
        NotAMessage::NulInHeader => c.text("err-mail-not-a-message-nul", &[]),
        NotAMessage::BeginsWith(beginning) => {
            let what = match beginning {
                Beginning::Gzip => c.text("err-mail-begins-gzip", &[]),
                Beginning::Zip => c.text("err-mail-begins-zip", &[]),
                Beginning::Pdf => c.text("err-mail-begins-pdf", &[]),
                Beginning::Binary => c.text("err-mail-begins-binary", &[]),
                Beginning::TextLine(line) => c.text(
                    "err-mail-begins-text-line",
                    &[("line", format!("{line:?}").into())],
                ),
            };
            c.text("err-mail-not-a-message", &[("what", what.into())])
        }
    }
}

/// Why TLS with a server failed, in `c`'s words (rustls's and the network's as they are).
fn tls_failure(e: &TlsFailure, c: &Catalogue) -> String {
    match e {
        TlsFailure::Certificate { error, host } => c.text(
            "err-mail-tls-certificate",
            &[("error", error.into()), ("host", host.into())],
        ),
        TlsFailure::StartTlsRefused(e) => {
            c.text("err-mail-starttls-refused", &[("error", imap(e, c).into())])
        }
        TlsFailure::Said(words) => words.clone(),
    }
}

/// What is wrong with a CA file, in `c`'s words.
fn ca_problem(e: &CaProblem, c: &Catalogue) -> String {
    match e {
        CaProblem::NoCertificate => c.text("err-mail-ca-no-certificate", &[]),
        CaProblem::Said(words) => words.clone(),
    }
}

/// Why a login failed, in `c`'s words (the server's as they are).
fn refusal(e: &LoginRefusal, c: &Catalogue) -> String {
    match e {
        LoginRefusal::Said(words) => words.clone(),
        LoginRefusal::NoImapMechanism { offered } if offered.is_empty() => {
            c.text("err-mail-no-oauth2-imap-nothing", &[])
        }
        LoginRefusal::NoImapMechanism { offered } => c.text(
            "err-mail-no-oauth2-imap",
            &[("offered", offered.join(", ").into())],
        ),
        LoginRefusal::NoSmtpMechanism => c.text("err-mail-no-oauth2-smtp", &[]),
        LoginRefusal::TokenRefused {
            mechanism,
            status,
            reply,
        } => {
            let reply = match reply {
                Some(reply) => reply.clone(),
                None => c.text("err-mail-error-challenge", &[]),
            };
            let mut args = vec![
                ("mechanism", mechanism.to_string().into()),
                ("reply", reply.into()),
            ];
            let key = match status {
                Some(status) => {
                    args.push(("status", status.into()));
                    "err-mail-token-refused-status"
                }
                None => "err-mail-token-refused",
            };
            c.text(key, &args)
        }
    }
}

/// What was being done when an IMAP connection broke, in `c`'s words.
fn doing(e: &Doing, c: &Catalogue) -> String {
    match e {
        // The command as it goes on the wire.
        Doing::Command(command) => command.clone(),
        Doing::Connecting(server) => c.text("err-mail-connecting", &[("server", server.into())]),
        Doing::Greeting(server) => c.text("err-mail-greeting", &[("server", server.into())]),
        Doing::TlsHandshake(server) => {
            c.text("err-mail-tls-handshake", &[("server", server.into())])
        }
        Doing::EndingIdle => c.text("err-mail-ending-idle", &[]),
        Doing::Append { mailbox, bytes } => c.text(
            "err-mail-append",
            &[
                ("mailbox", format!("{mailbox:?}").into()),
                ("bytes", (*bytes).into()),
            ],
        ),
        Doing::IdleClosed => c.text("err-mail-idle-closed", &[]),
        Doing::ConnectionLost => c.text("err-mail-connection-lost", &[]),
    }
}

/// Why a configuration cannot work, in `c`'s words (the libraries' as they are).
fn misconfig(e: &Misconfig, c: &Catalogue) -> String {
    match e {
        Misconfig::PlainImap { server } => {
            c.text("err-mail-plain-imap", &[("server", server.into())])
        }
        Misconfig::PlainSmtp { server } => {
            c.text("err-mail-plain-smtp", &[("server", server.into())])
        }
        Misconfig::NoPassword { user, server } => c.text(
            "err-mail-no-password",
            &[("user", user.into()), ("server", server.into())],
        ),
        Misconfig::Tls(e) => tls(e, c),
        Misconfig::CaCertificate { path, error } => c.text(
            "err-mail-ca-certificate",
            &[
                ("path", path.display().to_string().into()),
                ("error", error.into()),
            ],
        ),
        Misconfig::TlsFor { host, error } => c.text(
            "err-mail-tls-for",
            &[("host", host.into()), ("error", error.into())],
        ),
        Misconfig::NotUidSet(uids) => c.text(
            "err-mail-not-uid-set",
            &[("uids", format!("{uids:?}").into())],
        ),
        Misconfig::NotAFlag(flag) => c.text(
            "err-mail-not-a-flag",
            &[("flag", format!("{flag:?}").into())],
        ),
        // The command and async-imap's words.
        Misconfig::Invalid { .. } => e.to_string(),
    }
}

/// Why a message cannot be built, in `c`'s words (lettre's as they are).
fn build_problem(e: &BuildProblem, c: &Catalogue) -> String {
    match e {
        BuildProblem::NotAMessageId(id) => c.text(
            "err-mail-not-a-message-id",
            &[("id", format!("{id:?}").into())],
        ),
        BuildProblem::NotThreadable { id, header, max } => c.text(
            "err-mail-not-threadable",
            &[
                ("id", format!("{id:?}").into()),
                ("header", header.into()),
                ("max", (*max).into()),
            ],
        ),
        BuildProblem::MimeType { mime_type, error } => c.text(
            "err-mail-mime-type",
            &[
                ("type", format!("{mime_type:?}").into()),
                ("error", error.into()),
            ],
        ),
        BuildProblem::Said(words) => words.clone(),
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
            context: Doing::Command("NOOP".into()),
            source: io::Error::new(io::ErrorKind::TimedOut, Ended::NoAnswer { seconds: 30 }),
        }
    }

    #[test]
    fn the_english_is_the_errors_own() {
        let imap_errors = [
            ImapError::Config(Misconfig::NotAFlag("x".into())),
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
                reply: LoginRefusal::Said("[AUTHENTICATIONFAILED] Authentication failed.".into()),
            },
            ImapError::Protocol {
                command: "SELECT \"Chess\"".into(),
                reply: "Mailbox doesn't exist: Chess".into(),
            },
            timed_out(),
            ImapError::Io {
                context: Doing::Command("IDLE".into()),
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
                reason: LoginRefusal::Said("r".into()),
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
            reply: LoginRefusal::Said("[AUTHENTICATIONFAILED] Authentication failed.".into()),
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

    fn tls_errors() -> Vec<ImapError> {
        vec![
            ImapError::Tls {
                server: "imap.example.org:993".into(),
                reason: TlsFailure::Certificate {
                    error: "invalid peer certificate: UnknownIssuer".into(),
                    host: "imap.example.org".into(),
                },
                transient: false,
            },
            ImapError::Tls {
                server: "imap.example.org:143".into(),
                reason: TlsFailure::StartTlsRefused(Box::new(ImapError::Protocol {
                    command: "STARTTLS".into(),
                    reply: "not now".into(),
                })),
                transient: false,
            },
            ImapError::Login {
                user: "bob".into(),
                reply: LoginRefusal::NoImapMechanism { offered: vec![] },
            },
            ImapError::Login {
                user: "bob".into(),
                reply: LoginRefusal::NoImapMechanism {
                    offered: vec!["PLAIN".into(), "LOGIN".into()],
                },
            },
            ImapError::Io {
                context: Doing::Connecting("imap.example.org:993".into()),
                source: io::Error::new(io::ErrorKind::TimedOut, Ended::NoAnswer { seconds: 60 }),
            },
            ImapError::Io {
                context: Doing::IdleClosed,
                source: io::Error::new(io::ErrorKind::ConnectionAborted, Ended::Closed),
            },
            ImapError::Io {
                context: Doing::ConnectionLost,
                source: io::Error::new(io::ErrorKind::ConnectionAborted, Ended::Closed),
            },
            ImapError::Config(Misconfig::PlainImap {
                server: "imap.example.org:143".into(),
            }),
            ImapError::Config(Misconfig::Tls(TlsError::CaFileContent {
                path: "/etc/ca.pem".into(),
                reason: CaProblem::NoCertificate,
            })),
        ]
    }

    fn smtp_reasons() -> Vec<SmtpError> {
        let server = || "smtp.example.org:465".to_owned();
        let login = |reason| SmtpError::Login {
            server: server(),
            user: "bob".into(),
            reason,
        };
        vec![
            login(LoginRefusal::NoSmtpMechanism),
            login(LoginRefusal::TokenRefused {
                mechanism: ccmail_mail::oauth2::Mechanism::XOAuth2,
                status: None,
                reply: None,
            }),
            login(LoginRefusal::TokenRefused {
                mechanism: ccmail_mail::oauth2::Mechanism::OAuthBearer,
                status: Some("invalid_token".into()),
                reply: Some("5.7.8 Authentication failed".into()),
            }),
            SmtpError::Connection {
                server: server(),
                reason: Trouble::NoNoopAnswer,
            },
            SmtpError::Config(Misconfig::NoPassword {
                user: "bob".into(),
                server: server(),
            }),
            SmtpError::Config(Misconfig::PlainSmtp { server: server() }),
            SmtpError::Build(BuildProblem::NotAMessageId("a b".into())),
            SmtpError::Build(BuildProblem::NotThreadable {
                id: "a b".into(),
                header: "References".into(),
                max: 250,
            }),
            SmtpError::Build(BuildProblem::MimeType {
                mime_type: "x".into(),
                error: "e".into(),
            }),
        ]
    }

    #[test]
    fn the_reasons_in_english_are_the_crates_own() {
        for e in &tls_errors() {
            assert_eq!(imap(e, &en()), e.to_string());
            assert_ne!(imap(e, &ru()), e.to_string());
        }
        let silent = SmtpError::Connection {
            server: "smtp.example.org:465".into(),
            reason: Trouble::NoAnswer {
                step: Step::Greeting,
                seconds: 30,
            },
        };
        for e in smtp_reasons().iter().chain([&silent]) {
            assert_eq!(smtp(e, &en()), e.to_string());
            assert_ne!(smtp(e, &ru()), e.to_string());
        }
    }

    #[test]
    fn a_file_that_is_not_a_message() {
        let inputs: [&[u8]; 5] = [
            b"",
            b"\x1f\x8bjunk",
            b"%PDF-1.4",
            b"Dear Bob,\nmy move",
            b"X: y\0\n",
        ];
        for raw in inputs {
            let e = ccmail_mail::mime::decode(raw).expect_err("not a message");
            assert_eq!(mime(&e, &en()), e.to_string());
            assert_ne!(mime(&e, &ru()), e.to_string());
        }
        let e = ccmail_mail::mime::decode(b"\x1f\x8bjunk").expect_err("not a message");
        assert_eq!(
            mime(&e, &ru()),
            "это не письмо: оно начинается с данных, сжатых gzip, а не с поля заголовка вроде \
             «From:»"
        );
    }

    #[test]
    fn the_reasons_in_russian() {
        let e = &tls_errors()[0];
        assert_eq!(
            imap(e, &ru()),
            "TLS с IMAP-сервером imap.example.org:993: invalid peer certificate: UnknownIssuer \
             (сертификат сервера не годится для imap.example.org или подписан центром \
             сертификации, которому нет доверия; если у вас свой центр сертификации, укажите \
             его файл в ca_file)"
        );
        assert_eq!(
            imap(&tls_errors()[1], &ru()),
            "TLS с IMAP-сервером imap.example.org:143: сервер отказал в STARTTLS: IMAP, команда \
             STARTTLS: not now"
        );
        assert_eq!(
            imap(&tls_errors()[5], &ru()),
            "соединение с IMAP-сервером, IDLE: сервер закрыл соединение: соединение закрыто"
        );
        assert_eq!(
            smtp(&smtp_reasons()[2], &ru()),
            "SMTP-сервер smtp.example.org:465 не принял вход пользователя bob: сервер не принял \
             токен доступа OAuth2 (OAUTHBEARER, invalid_token): 5.7.8 Authentication failed"
        );
        assert!(
            smtp(&smtp_reasons()[7], &ru()).ends_with("не длиннее 250 символов"),
            "{}",
            smtp(&smtp_reasons()[7], &ru())
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

    fn malformed_answers() -> Vec<Malformed> {
        let answer = || "\"* 1 FETCH (UID 4 BODY[\"".to_owned();
        vec![
            Malformed::Silent { seconds: 60 },
            Malformed::TextTooLong { max: 4 << 20 },
            Malformed::LineTooLong { max: 4 << 20 },
            Malformed::LiteralTooLong {
                max: 512 << 20,
                answer: answer(),
            },
            Malformed::ClosedInAnswer,
            Malformed::ClosedInMessage,
            Malformed::Unreadable(answer()),
            Malformed::UnendedString(answer()),
            Malformed::UnendedLiteral(answer()),
            Malformed::LiteralOutOfPlace(answer()),
            Malformed::UnendedSection(answer()),
            Malformed::UnendedList(answer()),
            Malformed::NoValue(answer()),
        ]
    }

    fn replies() -> Vec<Reply> {
        vec![
            Reply::Said("[NONEXISTENT] no such mailbox".into()),
            Reply::NoUidValidity,
            Reply::NoBodyStructure { uid: 7 },
            Reply::NoSize { uid: 7 },
            Reply::NoInternalDate { uid: 7 },
            Reply::Unexpected("Data { status: No, code: None, information: None }".into()),
        ]
    }

    #[test]
    fn a_servers_answer_that_cannot_be_read() {
        for e in malformed_answers() {
            assert_eq!(malformed(&e, &en()), e.to_string());
            assert_ne!(malformed(&e, &ru()), e.to_string());
            let e = ImapError::Io {
                context: Doing::Command("UID FETCH 1:* (UID BODY.PEEK[])".into()),
                source: io::Error::new(io::ErrorKind::InvalidData, e),
            };
            assert_eq!(imap(&e, &en()), e.to_string());
            let source = std::error::Error::source(&e).expect("the io::Error");
            assert_eq!(in_words(source), Some(source.to_string()));
        }
        assert_eq!(
            malformed(&malformed_answers()[3], &ru()),
            "в ответе сервера литерал (блок данных) больше 536870912 байт: \"* 1 FETCH (UID 4 \
             BODY[\""
        );
        assert_eq!(
            malformed(&Malformed::TextTooLong { max: 21 }, &ru()),
            "текст ответа сервера длиннее 21 байта"
        );
    }

    #[test]
    fn what_the_crate_found_in_a_servers_reply() {
        for r in replies() {
            let e = ImapError::Protocol {
                command: "UID FETCH 7 (UID BODYSTRUCTURE)".into(),
                reply: r,
            };
            assert_eq!(imap(&e, &en()), e.to_string());
        }
        let append = Doing::Append {
            mailbox: "Chess/Sent".into(),
            bytes: 2042,
        };
        for command in [Doing::EndingIdle, append.clone()] {
            assert_eq!(doing(&command, &en()), command.to_string());
        }
        assert_eq!(doing(&append, &ru()), "APPEND \"Chess/Sent\" (2042 байта)");
        assert_eq!(doing(&Doing::EndingIdle, &ru()), "DONE (конец IDLE)");
        let said = &replies()[0];
        assert_eq!(reply(said, &ru()), said.to_string());
        for r in &replies()[1..] {
            assert_ne!(reply(r, &ru()), r.to_string());
        }
        assert_eq!(
            reply(&Reply::NoInternalDate { uid: 12345 }, &ru()),
            "UID 12345: в ответе сервера нет INTERNALDATE или её не прочесть"
        );
    }
}
