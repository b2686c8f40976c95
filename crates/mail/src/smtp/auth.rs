//! What a failed SMTP OAuth2 login looks like, in words.
//!
//! lettre speaks XOAUTH2 (not OAUTHBEARER) and does not expect the server's error challenge
//! that a refused token draws (`334` with a JSON status, RFC 7628 3.2.2): it gives up with a
//! client error instead. That error, a `535` and a server that offers no XOAUTH2 all become
//! [`SmtpError::Login`], which says the token was refused and does not retry by itself.

use super::SmtpError;

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
            reason: "the server offers no OAuth2 login (AUTH XOAUTH2, which is what ccmail \
                     speaks over SMTP)"
                .into(),
        };
    }
    if text.contains(CHALLENGE) {
        return oauth2_refused(server, user, "the server answered with an error challenge");
    }
    match SmtpError::from_lettre(server, err) {
        SmtpError::Rejected {
            code: 535, reply, ..
        } => oauth2_refused(server, user, &reply),
        other => other,
    }
}

/// "the server refused the OAuth2 access token (XOAUTH2): …".
pub(super) fn oauth2_refused(server: &str, user: &str, why: &str) -> SmtpError {
    SmtpError::Login {
        server: server.to_owned(),
        user: user.to_owned(),
        reason: format!("the server refused the OAuth2 access token (XOAUTH2): {why}"),
    }
}
