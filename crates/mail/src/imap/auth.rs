//! Logging in with an OAuth2 access token (AUTHENTICATE OAUTHBEARER or XOAUTH2, whichever
//! the server offers), as against LOGIN with a password.
//!
//! A token the server refuses is given back to its source and, when the source then has a
//! different one (it had not noticed the first one expired, say), tried once more on the same
//! connection; a second refusal is the user's to deal with, and the error says so in words.

use async_imap::imap_proto::{Capability, Response};
use async_imap::types::UnsolicitedResponse;
use async_imap::{Client, Session};
use zeroize::Zeroizing;

use super::error::tidy_reply;
use super::stream::Stream;
use super::{ImapConfig, ImapError};
use crate::oauth2::{Dialogue, LoginRefusal, Mechanism, OAuth2, challenge_status};

/// Logs `client` in as `cfg.username` with a token from `oauth2`.
pub(super) async fn login(
    cfg: &ImapConfig,
    oauth2: &OAuth2,
    mut client: Client<Stream>,
) -> Result<Session<Stream>, ImapError> {
    let offered = capabilities(&mut client).await?;
    let mechanism =
        Mechanism::choose(|m| offered.iter().any(|o| o == m)).ok_or_else(|| ImapError::Login {
            user: cfg.username.clone(),
            reply: LoginRefusal::NoImapMechanism {
                offered: offered.clone(),
            },
        })?;
    // The token refused last, and the server's words.
    let mut refused: Option<(Zeroizing<String>, LoginRefusal)> = None;
    loop {
        let token = oauth2.0.token().await.map_err(ImapError::Token)?;
        if let Some((last, reply)) = refused.take() {
            if last == token {
                // The source has nothing better than what was just refused.
                return Err(login_refused(cfg, reply));
            }
            refused = Some((last, reply));
        }
        let mut dialogue = Dialogue::new(mechanism, &cfg.username, &token);
        match client.authenticate(mechanism.name(), &mut dialogue).await {
            Ok(session) => {
                tracing::debug!(%mechanism, "IMAP OAuth2 login");
                return Ok(session);
            }
            Err((async_imap::error::Error::No(reply), back)) => {
                oauth2.0.refused(&token);
                let reply = refusal(mechanism, dialogue.error.as_deref(), &tidy_reply(&reply));
                if refused.is_some() {
                    return Err(login_refused(cfg, reply));
                }
                tracing::debug!("IMAP OAuth2 login refused ({reply}); asking for a new token");
                refused = Some((token, reply));
                client = back;
            }
            Err((err, _)) => return Err(ImapError::from_imap("AUTHENTICATE", err)),
        }
    }
}

fn login_refused(cfg: &ImapConfig, reply: LoginRefusal) -> ImapError {
    ImapError::Login {
        user: cfg.username.clone(),
        reply,
    }
}

/// "the server refused the OAuth2 access token (XOAUTH2, invalid_token): [AUTH…] …".
fn refusal(mechanism: Mechanism, challenge: Option<&str>, reply: &str) -> LoginRefusal {
    LoginRefusal::TokenRefused {
        mechanism,
        status: challenge.and_then(challenge_status),
        reply: Some(reply.to_owned()),
    }
}

/// The `AUTH=` mechanisms offered before login, upper-cased.
async fn capabilities(client: &mut Client<Stream>) -> Result<Vec<String>, ImapError> {
    // async-imap hands the untagged answers of a command run before login to this channel.
    let (tx, rx) = async_channel::bounded(16);
    client
        .run_command_and_check_ok("CAPABILITY", Some(tx))
        .await
        .map_err(|e| ImapError::from_imap("CAPABILITY", e))?;
    let mut offered = Vec::new();
    while let Ok(response) = rx.try_recv() {
        let UnsolicitedResponse::Other(data) = response else {
            continue;
        };
        if let Response::Capabilities(caps) = data.parsed() {
            for cap in caps {
                if let Capability::Auth(m) = cap {
                    offered.push(m.to_ascii_uppercase());
                }
            }
        }
    }
    Ok(offered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_in_words() {
        assert_eq!(
            refusal(
                Mechanism::XOAuth2,
                Some(r#"{"status":"invalid_token"}"#),
                "[AUTHENTICATIONFAILED] Authentication failed."
            )
            .to_string(),
            "the server refused the OAuth2 access token (XOAUTH2, invalid_token): \
             [AUTHENTICATIONFAILED] Authentication failed."
        );
        assert_eq!(
            refusal(Mechanism::OAuthBearer, None, "no").to_string(),
            "the server refused the OAuth2 access token (OAUTHBEARER): no"
        );
    }
}
