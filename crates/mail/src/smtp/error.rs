//! What can go wrong when building or sending a message, and whether retrying can help.

use crate::tls;

/// An SMTP or message-building failure. The texts name the server and quote its reply.
#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    /// The configuration cannot work (plain text not allowed, a user name without password,
    /// a bad CA file or host name).
    #[error("SMTP configuration: {0}")]
    Config(String),
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
    Build(String),
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
        reason: String,
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
        reason: String,
    },
    /// The connection could not be made, broke or timed out.
    #[error("SMTP connection to {server}: {reason}")]
    Connection {
        /// `host:port`.
        server: String,
        /// What the network or the client said.
        reason: String,
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
        let reason = err.to_string();
        // The connection closed before the server's reply was complete (a cut line, a server
        // going down in the middle of DATA): lettre calls it a response error, but it is the
        // connection's, and the message must be sent again, not given up on.
        if err.is_response() && reason.ends_with("incomplete response") {
            return SmtpError::Connection { server, reason };
        }
        if err.is_tls() {
            SmtpError::Tls { server, reason }
        } else if err.is_timeout() {
            SmtpError::Connection { server, reason }
        } else if err.is_client() || err.is_response() {
            SmtpError::Protocol { server, reason }
        } else {
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
        assert!(!SmtpError::Build("x".into()).is_transient());
    }
}
