//! What can go wrong with IMAP, sorted by what the daemon should do about it.
//!
//! [`ImapError::is_transient`] is the one question the caller asks: a transient error
//! (network, I/O, time-out, a server saying "try later") is retried with backoff after a
//! reconnect; anything else (configuration, refused login, certificate) needs the user.

use std::io;
use std::time::Duration;

use crate::config::Misconfig;
use crate::oauth2::LoginRefusal;
use crate::tls::TlsFailure;

/// An IMAP failure. The texts name the server, the user or the command involved, and the
/// server's own words where there are some; never the password.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    /// The configuration cannot work (plain text not allowed, bad CA file, bad host name,
    /// a mailbox name or flag that cannot be sent).
    #[error("IMAP configuration: {0}")]
    Config(Misconfig),
    /// The TCP connection could not be made.
    #[error("cannot connect to IMAP server {server}: {source}")]
    Connect {
        /// `host:port`.
        server: String,
        /// What the network said.
        source: io::Error,
    },
    /// TLS failed: the handshake, the certificate or STARTTLS.
    #[error("TLS with IMAP server {server}: {reason}")]
    Tls {
        /// `host:port`.
        server: String,
        /// What failed, e.g. the certificate problem.
        reason: TlsFailure,
        /// True when the network broke during the handshake rather than TLS refusing it.
        transient: bool,
    },
    /// The server refused the login.
    #[error("IMAP login refused for {user}: {reply}")]
    Login {
        /// The user name tried.
        user: String,
        /// The server's answer (never contains the password), or why an OAuth2 login failed.
        reply: LoginRefusal,
    },
    /// No OAuth2 access token could be had for the login (its own words say why).
    #[error("IMAP login: {0}")]
    Token(crate::oauth2::TokenError),
    /// The server answered NO or BAD, or something that does not make sense.
    #[error("IMAP {command}: {reply}")]
    Protocol {
        /// The command, e.g. `SELECT "INBOX"`.
        command: Doing,
        /// The server's answer, or what made no sense in it.
        reply: Reply,
    },
    /// The connection broke or timed out (kind `TimedOut`).
    #[error("IMAP connection, {context}: {source}")]
    Io {
        /// What was being done.
        context: Doing,
        /// The underlying error.
        source: io::Error,
    },
}

/// What the server answered a command: its own words, or what ccmail found missing or out
/// of place in its answer (the `reply` of [`ImapError::Protocol`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Reply {
    /// The server's words (a NO or BAD), or async-imap's about its answer.
    #[error("{0}")]
    Said(String),
    /// A SELECT answered without the mailbox's UIDVALIDITY.
    #[error("no UIDVALIDITY in the answer")]
    NoUidValidity,
    /// A FETCH answer without the BODYSTRUCTURE asked for.
    #[error("UID {uid}: no BODYSTRUCTURE")]
    NoBodyStructure { uid: u32 },
    /// A FETCH answer without the RFC822.SIZE asked for.
    #[error("UID {uid}: no RFC822.SIZE")]
    NoSize { uid: u32 },
    /// A FETCH answer without an INTERNALDATE, or with one that cannot be read.
    #[error("UID {uid}: no readable INTERNALDATE")]
    NoInternalDate { uid: u32 },
    /// A greeting that is none of OK, PREAUTH or BYE: the answer as async-imap read it.
    #[error("unexpected {0}")]
    Unexpected(String),
}

impl Reply {
    /// The same reply, the password replaced in the server's words.
    pub(crate) fn scrubbed(self, password: &str) -> Self {
        match self {
            Reply::Said(words) => Reply::Said(scrub(&words, password)),
            Reply::Unexpected(words) => Reply::Unexpected(scrub(&words, password)),
            other => other,
        }
    }
}

impl From<String> for Reply {
    fn from(words: String) -> Self {
        Reply::Said(words)
    }
}

impl From<&str> for Reply {
    fn from(words: &str) -> Self {
        Reply::Said(words.to_owned())
    }
}

/// What was being done when an IMAP connection broke: the `context` of [`ImapError::Io`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Doing {
    /// An IMAP command, as on the wire (`NOOP`, `SELECT "INBOX"`).
    #[error("{0}")]
    Command(String),
    /// Connecting to `host:port`.
    #[error("connecting to {0}")]
    Connecting(String),
    /// Reading the greeting of `host:port`.
    #[error("reading the greeting of {0}")]
    Greeting(String),
    /// The TLS handshake with `host:port`.
    #[error("TLS handshake with {0}")]
    TlsHandshake(String),
    /// Ending IDLE with DONE.
    #[error("DONE (ending IDLE)")]
    EndingIdle,
    /// An APPEND of a message of so many bytes to a mailbox.
    #[error("APPEND {mailbox:?} ({bytes} bytes)")]
    Append { mailbox: String, bytes: usize },
    /// Waiting in IDLE, when the server closed the connection.
    #[error("IDLE: the server closed the connection")]
    IdleClosed,
    /// A command on a session an earlier error cost.
    #[error("the session was lost by an earlier error; connect again")]
    ConnectionLost,
}

impl From<&str> for Doing {
    fn from(command: &str) -> Self {
        Doing::Command(command.to_owned())
    }
}

impl From<&String> for Doing {
    fn from(command: &String) -> Self {
        Doing::Command(command.clone())
    }
}

impl From<String> for Doing {
    fn from(command: String) -> Self {
        Doing::Command(command)
    }
}

/// Why a connection ended that the network did not say itself: the words of the
/// `io::Error` of an [`ImapError::Io`] the crate makes (`get_ref` finds it there).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Ended {
    /// The server did not answer in time (kind `TimedOut`).
    #[error("no answer within {seconds} s")]
    NoAnswer { seconds: u64 },
    /// The server closed the connection (kind `ConnectionAborted`).
    #[error("the connection was closed")]
    Closed,
    /// The server's greeting was `* BYE`, with its words (kind `ConnectionRefused`).
    #[error("server said BYE: {0}")]
    Bye(String),
}

impl ImapError {
    /// Whether trying again later (on a new connection) may succeed without the user doing
    /// anything: true for network and I/O errors, time-outs and `[UNAVAILABLE]`-style server
    /// answers; false for configuration, a refused login and certificate problems.
    pub fn is_transient(&self) -> bool {
        match self {
            ImapError::Config(_) => false,
            ImapError::Connect { .. } | ImapError::Io { .. } => true,
            ImapError::Tls { transient, .. } => *transient,
            ImapError::Token(e) => e.transient,
            ImapError::Login { reply, .. } => says_try_later(&reply.to_string()),
            ImapError::Protocol { reply, .. } => says_try_later(&reply.to_string()),
        }
    }

    pub(crate) fn timeout(context: impl Into<Doing>, after: Duration) -> Self {
        let context = context.into();
        let source = io::Error::new(
            io::ErrorKind::TimedOut,
            Ended::NoAnswer {
                seconds: after.as_secs(),
            },
        );
        ImapError::Io { context, source }
    }

    pub(crate) fn closed(context: impl Into<Doing>) -> Self {
        ImapError::Io {
            context: context.into(),
            source: io::Error::new(io::ErrorKind::ConnectionAborted, Ended::Closed),
        }
    }

    /// Maps an async-imap error met while running `command`.
    pub(crate) fn from_imap(command: impl Into<Doing>, err: async_imap::error::Error) -> Self {
        use async_imap::error::Error as E;
        let command = command.into();
        match err {
            E::Io(source) => ImapError::Io {
                context: command,
                source,
            },
            E::ConnectionLost => ImapError::closed(command),
            E::No(reply) | E::Bad(reply) => ImapError::Protocol {
                command,
                reply: Reply::Said(tidy_reply(&reply)),
            },
            E::Validate(e) => ImapError::Config(Misconfig::Invalid {
                command: command.to_string(),
                error: e.to_string(),
            }),
            other => ImapError::Protocol {
                command,
                reply: Reply::Said(other.to_string()),
            },
        }
    }
}

/// RFC 5530 response codes that mean "temporary, try again later".
fn says_try_later(reply: &str) -> bool {
    let upper = reply.to_ascii_uppercase();
    ["[UNAVAILABLE]", "[INUSE]", "[LIMIT]"]
        .iter()
        .any(|code| upper.contains(code))
}

/// async-imap renders a NO/BAD as `code: None, info: Some("[X] text")` or as
/// `outcome: Outcome { code: .., information: Some("text") }`; keep the server's words.
pub(crate) fn tidy_reply(raw: &str) -> String {
    let start = ["info: Some(\"", "information: Some(\""]
        .iter()
        .find_map(|key| raw.find(key).map(|i| i + key.len()));
    let Some(start) = start else {
        return raw.to_owned();
    };
    let rest = &raw[start..];
    let Some(end) = rest.rfind("\")") else {
        return raw.to_owned();
    };
    let text = rest[..end].replace("\\\"", "\"").replace("\\\\", "\\");
    match raw.find("code: Some(") {
        Some(i) if i < start => {
            let code = &raw[i + "code: Some(".len()..start];
            let code = code.split(", info").next().unwrap_or(code);
            format!("[{}] {text}", code.trim_end_matches(')'))
        }
        _ => text,
    }
}

/// Replaces every occurrence of the password in a server text (a server echoing it is
/// unlikely, but the text ends up in logs). Very short passwords are left alone: replacing
/// every "a" would make the text unreadable and protects nothing.
pub(crate) fn scrub(text: &str, password: &str) -> String {
    if password.chars().count() < 3 {
        text.to_owned()
    } else {
        text.replace(password, "***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_keeps_the_servers_words() {
        let raw = r#"code: None, info: Some("[AUTHENTICATIONFAILED] Authentication failed.")"#;
        assert_eq!(
            tidy_reply(raw),
            "[AUTHENTICATIONFAILED] Authentication failed."
        );
        let raw = r#"code: None, info: Some("say \"hi\"")"#;
        assert_eq!(tidy_reply(raw), r#"say "hi""#);
        assert_eq!(tidy_reply("plain text"), "plain text");
        let raw =
            r#"outcome: Outcome { code: None, information: Some("Mailbox doesn't exist: x") }"#;
        assert_eq!(tidy_reply(raw), "Mailbox doesn't exist: x");
        let raw = r#"code: Some(TryCreate), info: Some("no such mailbox")"#;
        assert_eq!(tidy_reply(raw), "[TryCreate] no such mailbox");
    }

    #[test]
    fn transient_or_not() {
        let login = |reply: &str| ImapError::Login {
            user: "u".into(),
            reply: LoginRefusal::Said(reply.into()),
        };
        assert!(!login("[AUTHENTICATIONFAILED] Authentication failed.").is_transient());
        assert!(login("[UNAVAILABLE] Temporary authentication failure.").is_transient());
        assert!(ImapError::timeout("NOOP", Duration::from_secs(5)).is_transient());
        assert!(ImapError::closed("IDLE").is_transient());
        assert!(!ImapError::Config(Misconfig::NotAFlag("x".into())).is_transient());
        let tls = |transient| ImapError::Tls {
            server: "h:993".into(),
            reason: "r".into(),
            transient,
        };
        assert!(!tls(false).is_transient());
        assert!(tls(true).is_transient());
    }

    #[test]
    fn scrub_hides_the_password() {
        assert_eq!(
            scrub("bad pass hunter2 here", "hunter2"),
            "bad pass *** here"
        );
        assert_eq!(scrub("a b", "a"), "a b");
    }
}
