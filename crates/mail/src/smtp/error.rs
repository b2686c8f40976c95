//! What can go wrong when building or sending a message, and whether retrying can help.

use crate::config::Misconfig;
use crate::oauth2::LoginRefusal;
use crate::tls::{self, TlsFailure};

/// An SMTP or message-building failure. The texts name the server and quote its reply.
#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    /// The configuration cannot work (plain text not allowed, a user name without password,
    /// a bad CA file or host name).
    #[error("SMTP configuration: {0}")]
    Config(Misconfig),
    /// An e-mail address that is not one.
    #[error("invalid e-mail address {address:?}: {reason}")]
    Address {
        /// The address as given.
        address: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The message cannot be built (bad Message-ID, MIME type, no recipient, ...).
    #[error("cannot build the message: {0}")]
    Build(BuildProblem),
    /// The server refused with a 4xx (try later) or 5xx (for good) reply.
    #[error("SMTP server {server} replied {code}: {reply}")]
    Rejected {
        /// `host:port`.
        server: String,
        /// The reply code, e.g. 550.
        code: u16,
        /// The server's text, e.g. `5.1.1 <x@example.org>: Recipient address rejected: ...`.
        reply: String,
    },
    /// An OAuth2 login failed: the token was refused, or the server offers no OAuth2 login.
    /// (A refused password is a `535` [`SmtpError::Rejected`].)
    #[error("SMTP login refused for {user} at {server}: {reason}")]
    Login {
        /// `host:port`.
        server: String,
        /// The user name tried.
        user: String,
        /// What the server said, in words.
        reason: LoginRefusal,
    },
    /// No OAuth2 access token could be had for the login (its own words say why).
    #[error("SMTP login: {0}")]
    Token(crate::oauth2::TokenError),
    /// TLS refused: the certificate, or STARTTLS missing where it is required.
    #[error("TLS with SMTP server {server}: {reason}")]
    Tls {
        /// `host:port`.
        server: String,
        /// What failed.
        reason: TlsFailure,
    },
    /// The connection could not be made, broke or timed out.
    #[error("SMTP connection to {server}: {reason}")]
    Connection {
        /// `host:port`.
        server: String,
        /// What the network or the client said.
        reason: Trouble,
    },
    /// The server's answer made no sense, or the client could not go on (e.g. an 8-bit
    /// message for a server without 8BITMIME).
    #[error("SMTP with {server}: {reason}")]
    Protocol {
        /// `host:port`.
        server: String,
        /// What happened.
        reason: String,
    },
}

/// Why a message cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildProblem {
    /// Our own Message-ID is not one a header can carry.
    #[error("{0:?} is not a Message-ID (printable ASCII without spaces or <>)")]
    NotAMessageId(String),
    /// An id of the thread cannot be named in `header` (`In-Reply-To`, `References`).
    #[error(
        "{id:?} can't be named in {header}: a Message-ID there is printable ASCII without \
         spaces or <>, at most {max} characters"
    )]
    NotThreadable {
        /// The id.
        id: String,
        /// The header.
        header: String,
        /// The longest id a header takes ([`super::MAX_THREAD_ID`]).
        max: usize,
    },
    /// An attachment's MIME type lettre does not take.
    #[error("MIME type {mime_type:?}: {error}")]
    MimeType {
        /// The type as given.
        mime_type: String,
        /// lettre's words.
        error: String,
    },
    /// lettre's words.
    #[error("{0}")]
    Said(String),
}

/// What went wrong with an SMTP connection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Trouble {
    /// The server did not answer NOOP (`ccmail check`).
    #[error("the server did not answer NOOP")]
    NoNoopAnswer,
    /// The server did not answer in time while the connection was at `step`.
    #[error("no answer within {seconds} s ({step})")]
    NoAnswer {
        /// What was being done.
        step: Step,
        /// The time-out.
        seconds: u64,
    },
    /// The words of the network or of lettre.
    #[error("{0}")]
    Said(String),
}

/// A step of an SMTP connection, as a time-out names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Step {
    /// Connecting, TLS from the first byte where configured, the greeting and EHLO.
    #[error("connecting: the greeting and EHLO")]
    Greeting,
    /// STARTTLS and the TLS handshake after it.
    #[error("STARTTLS")]
    StartTls,
    /// Logging in.
    #[error("login")]
    Login,
    /// NOOP, the check that the server answers.
    #[error("NOOP")]
    Noop,
    /// The whole of a send: connecting, securing, logging in and handing the message over.
    #[error("sending the message")]
    Sending,
}

impl From<String> for Trouble {
    fn from(words: String) -> Self {
        Trouble::Said(words)
    }
}

impl From<&str> for Trouble {
    fn from(words: &str) -> Self {
        Trouble::Said(words.to_owned())
    }
}

impl SmtpError {
    /// Whether sending again later may succeed without the user doing anything: true for 4xx
    /// replies and connection trouble (refused, reset, time-out); false for 5xx replies,
    /// TLS/certificate problems, configuration and bad messages.
    pub fn is_transient(&self) -> bool {
        match self {
            SmtpError::Rejected { code, .. } => (400..500).contains(code),
            SmtpError::Connection { .. } => true,
            SmtpError::Token(e) => e.transient,
            _ => false,
        }
    }

    /// The server's reply code, when the server refused.
    pub fn code(&self) -> Option<u16> {
        match self {
            SmtpError::Rejected { code, .. } => Some(*code),
            _ => None,
        }
    }

    pub(crate) fn from_lettre(server: &str, err: lettre::transport::smtp::Error) -> Self {
        let server = server.to_owned();
        if let Some(code) = err.status() {
            let code: u16 = code.to_string().parse().unwrap_or(0);
            let reply = std::error::Error::source(&err)
                .map(|s| s.to_string())
                .unwrap_or_default();
            return SmtpError::Rejected {
                server,
                code,
                reply,
            };
        }
        if let Some(r) = tls::find_rustls_error(&err) {
            let host = server.rsplit_once(':').map_or(server.as_str(), |(h, _)| h);
            let reason = tls::describe(r, host);
            return SmtpError::Tls { server, reason };
        }
        let said = err.to_string();
        // The connection closed before the server's reply was complete (a cut line, a server
        // going down in the middle of DATA): lettre calls it a response error, but it is the
        // connection's, and the message must be sent again, not given up on.
        if err.is_response() && said.ends_with("incomplete response") {
            let reason = Trouble::Said(said);
            return SmtpError::Connection { server, reason };
        }
        if err.is_tls() {
            let reason = TlsFailure::Said(said);
            SmtpError::Tls { server, reason }
        } else if err.is_timeout() {
            let reason = Trouble::Said(said);
            SmtpError::Connection { server, reason }
        } else if err.is_client() || err.is_response() {
            SmtpError::Protocol {
                server,
                reason: said,
            }
        } else {
            let reason = Trouble::Said(said);
            SmtpError::Connection { server, reason }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transient_by_reply_code() {
        let rejected = |code| SmtpError::Rejected {
            server: "h:25".into(),
            code,
            reply: "x".into(),
        };
        assert!(rejected(421).is_transient());
        assert!(rejected(451).is_transient());
        assert!(!rejected(550).is_transient());
        assert!(!rejected(535).is_transient());
        assert_eq!(rejected(554).code(), Some(554));
        assert!(
            SmtpError::Connection {
                server: "h:25".into(),
                reason: "refused".into()
            }
            .is_transient()
        );
        assert!(!SmtpError::Build(BuildProblem::Said("x".into())).is_transient());
    }
}
