//! What a failed SMTP OAuth2 login looks like, in words.
//!
//! lettre speaks XOAUTH2 (not OAUTHBEARER) and does not expect the server's error challenge
//! that a refused token draws (`334` with a JSON status, RFC 7628 3.2.2): it gives up with a
//! client error instead. That error, a `535` and a server that offers no XOAUTH2 all become
//! [`SmtpError::Login`], which says the token was refused and does not retry by itself.

use super::SmtpError;
use crate::oauth2::{LoginRefusal, Mechanism};

const CHALLENGE: &str = "does not expect a challenge";
const NO_MECHANISM: &str = "No compatible authentication mechanism";

/// Maps a lettre error met with an OAuth2 login configured.
pub(super) fn oauth2_error(
    server: &str,
    user: &str,
    err: lettre::transport::smtp::Error,
) -> SmtpError {
    let text = err.to_string();
    if text.contains(NO_MECHANISM) {
        return SmtpError::Login {
            server: server.to_owned(),
            user: user.to_owned(),
            reason: LoginRefusal::NoSmtpMechanism,
        };
    }
    if text.contains(CHALLENGE) {
        return oauth2_refused(server, user, None);
    }
    match SmtpError::from_lettre(server, err) {
        SmtpError::Rejected {
            code: 535, reply, ..
        } => oauth2_refused(server, user, Some(reply)),
        other => other,
    }
}

/// "the server refused the OAuth2 access token (XOAUTH2): …".
/// The server's reply, or none when it answered with an error challenge.
pub(super) fn oauth2_refused(server: &str, user: &str, reply: Option<String>) -> SmtpError {
    SmtpError::Login {
        server: server.to_owned(),
        user: user.to_owned(),
        reason: LoginRefusal::TokenRefused {
            mechanism: Mechanism::XOAuth2,
            status: None,
            reply,
        },
    }
}
