//! OAuth2 access tokens for the mail logins, from the config's `oauth2_token_cmd` or from a
//! refresh token ([`config::Refresh`]), and the first consent that gets one
//! ([`authorize`]).
//!
//! A [`Provider`] is the mail crate's [`TokenSource`] for one section. A token command runs at
//! every login (it is the command's business to cache, as with msmtp or mbsync). A refreshed
//! token is kept, in memory and in the token file, until shortly before it expires — a
//! quarter of its lifetime, at most five minutes — so a daemon that runs for days logs in
//! with a good one every time; a token the server refused is never handed out again.
//!
//! What must never happen here: a token, a refresh token or a client secret in a log line,
//! an error or `Debug` output. Each is held in memory that is zeroed when dropped.

pub mod authorize;
pub mod endpoint;
pub mod file;

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use ccmail_mail::oauth2::{OAuth2, TokenError, TokenFuture, TokenSource};
use chrono::Utc;
use zeroize::Zeroizing;

use crate::config::{self, Refresh};

/// The token source of `[imap]` or `[smtp]`.
#[derive(Clone)]
pub struct Provider {
    inner: Arc<Inner>,
}

struct Inner {
    /// `imap` or `smtp`.
    section: &'static str,
    source: config::TokenSource,
    state: Mutex<State>,
    /// Held through a refresh: two logins at once refresh once.
    refreshing: tokio::sync::Mutex<()>,
}

impl Inner {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[derive(Default)]
struct State {
    /// The access token in hand and when it is to be replaced (Unix seconds).
    current: Option<(Zeroizing<String>, Option<i64>)>,
    /// The last token a server refused.
    refused: Option<Zeroizing<String>>,
}

impl fmt::Debug for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Provider")
            .field("section", &self.inner.section)
            .field("source", &self.inner.source)
            .finish_non_exhaustive()
    }
}

impl Provider {
    /// The provider of `section` (`imap` or `smtp`).
    pub fn new(section: &'static str, source: config::TokenSource) -> Provider {
        Provider {
            inner: Arc::new(Inner {
                section,
                source,
                state: Mutex::new(State::default()),
                refreshing: tokio::sync::Mutex::new(()),
            }),
        }
    }

    /// The same, as the mail crate takes it.
    pub fn login(&self) -> OAuth2 {
        OAuth2(Arc::new(self.clone()))
    }

    /// A token now, and where it came from in words (for `ccmail check`).
    pub async fn fetch(&self) -> Result<(Zeroizing<String>, String), TokenError> {
        let token = self.get().await?;
        let how = match &self.inner.source {
            config::TokenSource::Command { .. } => {
                crate::t!("cmd-oauth2-from-token-cmd", section = self.inner.section)
            }
            config::TokenSource::Refresh(r) => {
                let until = self.inner.state().current.as_ref().and_then(|(_, at)| *at);
                match until.and_then(|at| chrono::DateTime::from_timestamp(at, 0)) {
                    Some(at) => crate::t!(
                        "cmd-oauth2-from-refresh-until",
                        url = &r.token_url,
                        client = &r.client_id,
                        date = at.date_naive(),
                        time = at.format("%H:%M:%S").to_string()
                    ),
                    None => crate::t!(
                        "cmd-oauth2-from-refresh",
                        url = &r.token_url,
                        client = &r.client_id
                    ),
                }
            }
        };
        Ok((token, how))
    }

    async fn get(&self) -> Result<Zeroizing<String>, TokenError> {
        let inner = &self.inner;
        match &inner.source {
            config::TokenSource::Command { command, file } => {
                let (section, file, command) = (inner.section, file.clone(), command.clone());
                blocking(move || {
                    config::run_secret(section, "oauth2_token_cmd", &file, &command)
                        .map_err(|e| permanent(e.to_string()))
                })
                .await
            }
            config::TokenSource::Refresh(r) => {
                let _turn = inner.refreshing.lock().await;
                let refused = {
                    let state = inner.state();
                    let now = Utc::now().timestamp();
                    if let Some((token, renew_at)) = &state.current
                        && renew_at.is_none_or(|at| now < at)
                    {
                        return Ok(token.clone());
                    }
                    state.refused.clone()
                };
                let r = r.as_ref().clone();
                let (token, renew_at) =
                    blocking(move || fresh(&r, refused.as_ref().map(|t| t.as_str()))).await?;
                inner.state().current = Some((token.clone(), renew_at));
                Ok(token)
            }
        }
    }
}

impl TokenSource for Provider {
    fn token(&self) -> TokenFuture<'_> {
        Box::pin(self.get())
    }

    fn refused(&self, token: &str) {
        let mut state = self.inner.state();
        if state
            .current
            .as_ref()
            .is_some_and(|(t, _)| t.as_str() == token)
        {
            state.current = None;
        }
        state.refused = Some(Zeroizing::new(token.to_owned()));
    }
}

/// The access token to use now, refreshed unless the token file has one still good that was
/// not refused; and when to replace it (Unix seconds).
fn fresh(
    r: &Refresh,
    refused: Option<&str>,
) -> Result<(Zeroizing<String>, Option<i64>), TokenError> {
    let now = Utc::now().timestamp();
    let stored = match &r.refresh_token_cmd {
        Some(_) => None,
        None => file::read(&r.token_file).map_err(permanent)?,
    };
    if let Some(t) = &stored
        && let (Some(token), Some(expires)) = (&t.access_token, t.expires_at)
        && Some(token.as_str()) != refused
    {
        let renew_at = renew_at(t.obtained_at.unwrap_or(now), expires);
        if now < renew_at {
            return Ok((Zeroizing::new(token.clone()), Some(renew_at)));
        }
    }
    let refresh_token = match &r.refresh_token_cmd {
        Some(cmd) => config::run_secret(r.section, "refresh_token_cmd", &r.file, cmd)
            .map_err(|e| permanent(e.to_string()))?,
        None => stored
            .as_ref()
            .and_then(|t| t.refresh_token.clone())
            .map(Zeroizing::new)
            .ok_or_else(|| {
                permanent(crate::t!(
                    "cmd-oauth2-no-refresh-token",
                    section = r.section,
                    path = r.token_file.display().to_string(),
                    flag = flag(r)
                ))
            })?,
    };
    let secret = client_secret(r)?;
    let mut form = vec![
        ("grant_type", "refresh_token"),
        ("refresh_token", refresh_token.as_str()),
        ("client_id", r.client_id.as_str()),
    ];
    if let Some(secret) = &secret {
        form.push(("client_secret", secret.as_str()));
    }
    let again = format!(
        "; {}",
        crate::t!("cmd-oauth2-consent-again", flag = flag(r))
    );
    let grant = endpoint::post(
        &r.token_url,
        &form,
        &crate::t!("cmd-oauth2-refreshing"),
        &again,
    )?;
    let expires_at = grant.expires_in.map(|s| now + s as i64);
    if r.refresh_token_cmd.is_none() {
        let tokens = file::Tokens {
            refresh_token: grant
                .refresh_token
                .clone()
                .or_else(|| Some(refresh_token.to_string())),
            access_token: Some(grant.access_token.clone()),
            expires_at,
            obtained_at: Some(now),
        };
        file::write(&r.token_file, &tokens).map_err(permanent)?;
    } else if grant.refresh_token.is_some() {
        tracing::warn!(
            "{}",
            crate::t!("cmd-oauth2-new-refresh-token", section = r.section)
        );
    }
    tracing::info!(section = r.section, expires_in = ?grant.expires_in, "{}", crate::t!("cmd-oauth2-refreshed"));
    Ok((
        Zeroizing::new(grant.access_token),
        expires_at.map(|at| renew_at(now, at)),
    ))
}

/// When a token granted at `obtained` that expires at `expires` is replaced: a quarter of its
/// lifetime before, at most five minutes before.
fn renew_at(obtained: i64, expires: i64) -> i64 {
    let margin = ((expires - obtained) / 4).clamp(0, 300);
    expires - margin
}

/// `client_secret_cmd`'s secret, if configured.
pub fn client_secret(r: &Refresh) -> Result<Option<Zeroizing<String>>, TokenError> {
    r.client_secret_cmd
        .as_deref()
        .map(|cmd| config::run_secret(r.section, "client_secret_cmd", &r.file, cmd))
        .transpose()
        .map_err(|e| permanent(e.to_string()))
}

/// `imap` or `smtp`: the `ccmail oauth2 authorize` flag of a section.
fn flag(r: &Refresh) -> &'static str {
    r.section.split('.').next().unwrap_or("imap")
}

fn permanent(message: String) -> TokenError {
    TokenError {
        message,
        transient: false,
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, TokenError> + Send + 'static,
) -> Result<T, TokenError> {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        Err(TokenError {
            message: crate::t!("cmd-oauth2-token-failed", error = e.to_string()),
            transient: true,
        })
    })
}

/// The token provider of `[imap]`, if it logs in with OAuth2.
pub fn for_imap(cfg: &config::Imap) -> Option<Provider> {
    cfg.oauth2
        .clone()
        .map(|source| Provider::new("imap", source))
}

/// The token provider of `[smtp]`, if it logs in with OAuth2.
pub fn for_smtp(cfg: &config::Smtp) -> Option<Provider> {
    cfg.oauth2
        .clone()
        .map(|source| Provider::new("smtp", source))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens in hand, refused or fetched, are zeroed when dropped.
    #[tokio::test]
    async fn tokens_are_zeroed_on_drop() {
        fn zeroed<T: zeroize::ZeroizeOnDrop>(_: &T) {}
        let command = config::TokenSource::Command {
            command: String::from("printf tok-1").into(),
            file: "/c.toml".into(),
        };
        let provider = Provider::new("imap", command);
        let (token, _) = provider.fetch().await.unwrap();
        assert_eq!(*token, "tok-1");
        zeroed(&token);
        provider.refused(&token);
        let state = provider.inner.state();
        zeroed(state.refused.as_ref().unwrap());
    }

    #[test]
    fn renewed_a_quarter_before_at_most_five_minutes() {
        assert_eq!(renew_at(0, 3600), 3300);
        assert_eq!(renew_at(0, 4), 3);
        assert_eq!(renew_at(100, 100), 100);
        assert_eq!(renew_at(0, 600), 450);
    }
}
