//! OAuth2 logins: SASL XOAUTH2 and OAUTHBEARER (RFC 7628), for the providers that no longer
//! take a password over IMAP or SMTP (Outlook.com, Microsoft 365, Gmail without an app
//! password).
//!
//! The mail side only knows how to present a bearer token; where the token comes from (a
//! command, a refresh at the provider's token endpoint) is the caller's business, behind
//! [`TokenSource`]. A token is asked for at every login, so a source that refreshes before
//! expiry keeps a long-running daemon logged in; a token the server refuses is handed back
//! ([`TokenSource::refused`]) so the next login gets a fresh one.
//!
//! Never in a log or an error: the token, or the SASL string that carries it. Both are held
//! in memory that is zeroed when dropped ([`Zeroizing`]).

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use zeroize::Zeroizing;

/// A future a [`TokenSource`] answers with.
pub type TokenFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Zeroizing<String>, TokenError>> + Send + 'a>>;

/// Where the access tokens of a login come from.
pub trait TokenSource: Send + Sync + fmt::Debug {
    /// A token good for a login now: the one in hand, or a new one when it is (nearly)
    /// expired or was refused.
    fn token(&self) -> TokenFuture<'_>;

    /// The server refused `token` (expired early, revoked): it must not be handed out again.
    fn refused(&self, token: &str);
}

/// The token source of a login, shared by the connections that log in with it.
#[derive(Clone, Debug)]
pub struct OAuth2(pub Arc<dyn TokenSource>);

impl OAuth2 {
    pub fn new(source: impl TokenSource + 'static) -> Self {
        OAuth2(Arc::new(source))
    }
}

/// No token could be had: the words say which step failed (the command, the token endpoint)
/// and what to do.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct TokenError {
    /// The whole message, for the user.
    pub message: String,
    /// Whether trying again later may help (the token endpoint unreachable or busy), as
    /// against needing the user (a refused or revoked refresh token, a failing command).
    pub transient: bool,
}

/// Why a login failed: the server's words, or what went wrong with an OAuth2 login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginRefusal {
    /// The server's own words.
    Said(String),
    /// The IMAP server offers neither AUTH=OAUTHBEARER nor AUTH=XOAUTH2; what it offers.
    NoImapMechanism {
        /// The `AUTH=` mechanisms offered, upper-cased; none at all when empty.
        offered: Vec<String>,
    },
    /// The SMTP server offers no AUTH XOAUTH2.
    NoSmtpMechanism,
    /// The server refused the access token.
    TokenRefused {
        /// The mechanism tried.
        mechanism: Mechanism,
        /// The status in the server's error challenge, if it said one.
        status: Option<String>,
        /// The server's words; none when it answered with an error challenge only.
        reply: Option<String>,
    },
}

impl fmt::Display for LoginRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoginRefusal::Said(words) => f.write_str(words),
            LoginRefusal::NoImapMechanism { offered } => {
                let offered = if offered.is_empty() {
                    "none".to_owned()
                } else {
                    offered.join(", ")
                };
                write!(
                    f,
                    "the server offers no OAuth2 login (neither AUTH=OAUTHBEARER nor \
                     AUTH=XOAUTH2; it offers {offered}): use a password, or check the server's \
                     name"
                )
            }
            LoginRefusal::NoSmtpMechanism => f.write_str(
                "the server offers no OAuth2 login (AUTH XOAUTH2, which is what ccmail speaks \
                 over SMTP)",
            ),
            LoginRefusal::TokenRefused {
                mechanism,
                status,
                reply,
            } => {
                write!(f, "the server refused the OAuth2 access token ({mechanism}")?;
                if let Some(status) = status {
                    write!(f, ", {status}")?;
                }
                match reply {
                    Some(reply) => write!(f, "): {reply}"),
                    None => f.write_str("): the server answered with an error challenge"),
                }
            }
        }
    }
}

impl From<String> for LoginRefusal {
    fn from(words: String) -> Self {
        LoginRefusal::Said(words)
    }
}

impl From<&str> for LoginRefusal {
    fn from(words: &str) -> Self {
        LoginRefusal::Said(words.to_owned())
    }
}

/// The two SASL mechanisms that carry a bearer token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mechanism {
    /// RFC 7628, the standard one.
    OAuthBearer,
    /// Google's and Microsoft's older one, the only one some servers offer.
    XOAuth2,
}

impl Mechanism {
    /// The name in `AUTH=` capabilities and in AUTHENTICATE / AUTH commands.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::OAuthBearer => "OAUTHBEARER",
            Mechanism::XOAuth2 => "XOAUTH2",
        }
    }

    /// The one to use, from the mechanisms the server offers (`offers("XOAUTH2")`):
    /// OAUTHBEARER where offered, else XOAUTH2; `None` when it offers neither.
    pub fn choose(offers: impl Fn(&str) -> bool) -> Option<Mechanism> {
        [Mechanism::OAuthBearer, Mechanism::XOAuth2]
            .into_iter()
            .find(|m| offers(m.name()))
    }

    /// The client's first message (before base64): the user and the token.
    pub fn initial_response(self, user: &str, token: &str) -> Zeroizing<String> {
        Zeroizing::new(match self {
            Mechanism::OAuthBearer => {
                format!("n,a={},\x01auth=Bearer {token}\x01\x01", gs2_name(user))
            }
            Mechanism::XOAuth2 => format!("user={user}\x01auth=Bearer {token}\x01\x01"),
        })
    }
}

impl fmt::Display for Mechanism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// RFC 5801's saslname: `,` and `=` escaped.
fn gs2_name(user: &str) -> String {
    user.replace('=', "=3D").replace(',', "=2C")
}

/// The SASL dialogue of an OAuth2 login as async-imap runs it: the initial response on the
/// server's first (empty) challenge; to an error challenge (a refused token: a JSON status,
/// RFC 7628 3.2.2) an empty answer (XOAUTH2) or `\x01` (OAUTHBEARER), after which the server
/// says NO. The error challenge is kept for the message.
#[derive(Debug)]
pub(crate) struct Dialogue {
    first: Option<Zeroizing<String>>,
    mechanism: Mechanism,
    pub(crate) error: Option<String>,
}

impl Dialogue {
    pub(crate) fn new(mechanism: Mechanism, user: &str, token: &str) -> Self {
        Dialogue {
            first: Some(mechanism.initial_response(user, token)),
            mechanism,
            error: None,
        }
    }
}

impl async_imap::Authenticator for &mut Dialogue {
    type Response = Zeroizing<Vec<u8>>;

    fn process(&mut self, challenge: &[u8]) -> Zeroizing<Vec<u8>> {
        if let Some(first) = self.first.take() {
            return Zeroizing::new(first.as_bytes().to_vec());
        }
        self.error = Some(String::from_utf8_lossy(challenge).into_owned());
        Zeroizing::new(match self.mechanism {
            Mechanism::OAuthBearer => b"\x01".to_vec(),
            Mechanism::XOAuth2 => Vec::new(),
        })
    }
}

/// The `status` of an RFC 7628 error challenge (`{"status":"invalid_token",…}`), if any.
pub(crate) fn challenge_status(challenge: &str) -> Option<String> {
    let rest = &challenge[challenge.find("\"status\"")? + "\"status\"".len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_responses_are_the_rfc_strings() {
        assert_eq!(
            *Mechanism::XOAuth2.initial_response("u@example.org", "tok"),
            "user=u@example.org\x01auth=Bearer tok\x01\x01"
        );
        assert_eq!(
            *Mechanism::OAuthBearer.initial_response("u@example.org", "tok"),
            "n,a=u@example.org,\x01auth=Bearer tok\x01\x01"
        );
        assert_eq!(
            *Mechanism::OAuthBearer.initial_response("a,b=c", "t"),
            "n,a=a=2Cb=3Dc,\x01auth=Bearer t\x01\x01"
        );
    }

    #[test]
    fn oauthbearer_is_chosen_first() {
        let offers = |list: &'static [&'static str]| move |m: &str| list.contains(&m);
        let cases: [(&[&str], Option<Mechanism>); 4] = [
            (&["XOAUTH2", "OAUTHBEARER"], Some(Mechanism::OAuthBearer)),
            (&["PLAIN", "XOAUTH2"], Some(Mechanism::XOAuth2)),
            (&["OAUTHBEARER"], Some(Mechanism::OAuthBearer)),
            (&["PLAIN", "LOGIN"], None),
        ];
        for (list, want) in cases {
            assert_eq!(Mechanism::choose(offers(list)), want, "{list:?}");
        }
    }

    #[test]
    fn the_status_of_an_error_challenge() {
        let c = r#"{"status":"invalid_token","schemes":"bearer","scope":"mail"}"#;
        assert_eq!(challenge_status(c).as_deref(), Some("invalid_token"));
        assert_eq!(
            challenge_status(r#"{"status" : "401"}"#).as_deref(),
            Some("401")
        );
        assert_eq!(challenge_status("nonsense"), None);
    }

    #[test]
    fn the_dialogue_answers_an_error_challenge_with_nothing() {
        let mut d = Dialogue::new(Mechanism::XOAuth2, "u", "t");
        let mut a = &mut d;
        use async_imap::Authenticator;
        assert_eq!(*a.process(b""), b"user=u\x01auth=Bearer t\x01\x01");
        assert_eq!(*a.process(br#"{"status":"invalid_token"}"#), b"");
        assert_eq!(d.error.as_deref(), Some(r#"{"status":"invalid_token"}"#));
    }
}
