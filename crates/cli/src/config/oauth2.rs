//! OAuth2 instead of a password: `oauth2_token_cmd` in `[imap]`/`[smtp]`, or a table
//! `[imap.oauth2]`/`[smtp.oauth2]` from which ccmail gets its own tokens with a refresh token.
//!
//! Like a password, nothing is run or fetched at load time: this is only where the token will
//! come from. The commands and the client secret never show in `Debug` output or an error,
//! and the commands (which may be the secret itself: `echo …`) are zeroed when dropped.

use std::fmt;
use std::path::PathBuf;

use zeroize::Zeroizing;

use super::error::Error;
use super::read::{PORT, Section, What};

/// How a login gets its OAuth2 access token.
#[derive(Clone, PartialEq, Eq)]
pub enum TokenSource {
    /// `oauth2_token_cmd`: a command (`sh -c`) that prints one, run at every login; and the
    /// config file, for the errors.
    Command {
        command: Zeroizing<String>,
        file: PathBuf,
    },
    /// `[SECTION.oauth2]`: ccmail refreshes it itself.
    Refresh(Box<Refresh>),
}

/// `[imap.oauth2]` / `[smtp.oauth2]`: the provider's endpoints, the user's own client, and
/// where the refresh token is kept.
#[derive(Clone, PartialEq, Eq)]
pub struct Refresh {
    /// `imap.oauth2` or `smtp.oauth2`, for the errors.
    pub section: &'static str,
    /// The config file, for the errors.
    pub file: PathBuf,
    /// The token endpoint (`https://oauth2.googleapis.com/token`).
    pub token_url: String,
    /// Where the user consents (`ccmail oauth2 authorize`); not needed to refresh.
    pub auth_url: Option<String>,
    pub client_id: String,
    /// A command that prints the client secret, for a provider that wants one.
    pub client_secret_cmd: Option<Zeroizing<String>>,
    /// A command that prints the refresh token; without it, [`Refresh::token_file`] holds it.
    pub refresh_token_cmd: Option<Zeroizing<String>>,
    /// The file (kept at 0600) with the refresh token `ccmail oauth2 authorize` stored, and
    /// the last access token with its expiry.
    pub token_file: PathBuf,
    /// The scopes asked for at consent, space-separated.
    pub scope: Option<String>,
    /// The loopback port of the consent's redirect; `None`: any free one.
    pub redirect_port: Option<u16>,
}

impl fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenSource::Command { .. } => f.write_str("Command(<hidden>)"),
            TokenSource::Refresh(r) => f.debug_tuple("Refresh").field(r).finish(),
        }
    }
}

impl fmt::Debug for Refresh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Refresh")
            .field("section", &self.section)
            .field("token_url", &self.token_url)
            .field("auth_url", &self.auth_url)
            .field("client_id", &self.client_id)
            .field(
                "client_secret_cmd",
                &self.client_secret_cmd.as_ref().map(|_| "<hidden>"),
            )
            .field(
                "refresh_token_cmd",
                &self.refresh_token_cmd.as_ref().map(|_| "<hidden>"),
            )
            .field("token_file", &self.token_file)
            .field("scope", &self.scope)
            .field("redirect_port", &self.redirect_port)
            .finish()
    }
}

/// The OAuth2 source of section `s` (`imap` or `smtp`), if it has one; an error when it has
/// two. `username` names the default token file.
pub(super) fn read(
    s: &Section,
    sub: &Section,
    username: Option<&str>,
) -> Result<Option<TokenSource>, Error> {
    let command = s.text("oauth2_token_cmd")?;
    let table = sub.table.is_some().then_some(sub);
    match (command, table) {
        (None, None) => Ok(None),
        (Some(_), Some(_)) => Err(Error::invalid(crate::t!(
            "config-token-cmd-and-table",
            section = s.name,
            file = s.file.path.display().to_string()
        ))),
        (Some(command), None) => Ok(Some(TokenSource::Command {
            command: command.into(),
            file: s.file.path.to_path_buf(),
        })),
        (None, Some(t)) => Ok(Some(TokenSource::Refresh(Box::new(refresh(t, username)?)))),
    }
}

fn refresh(t: &Section, username: Option<&str>) -> Result<Refresh, Error> {
    let url = |key| t.parse(key, What::Url, |s| is_url(s).then(|| s.to_owned()));
    let token_url = url("token_url")?.ok_or_else(|| t.missing("token_url"))?;
    let token_file = match t.path("token_file")? {
        Some(path) => path,
        None => default_token_file(t, username)?,
    };
    let redirect_port = match t.get("redirect_port") {
        None => None,
        Some(value) => match value.as_integer().map(u16::try_from) {
            Some(Ok(port)) if port > 0 => Some(port),
            _ => return Err(t.invalid("redirect_port", &PORT, value)),
        },
    };
    Ok(Refresh {
        section: t.name,
        file: t.file.path.to_path_buf(),
        token_url,
        auth_url: url("auth_url")?,
        client_id: t.required_text("client_id")?,
        client_secret_cmd: t.text("client_secret_cmd")?.map(Zeroizing::new),
        refresh_token_cmd: t.text("refresh_token_cmd")?.map(Zeroizing::new),
        token_file,
        scope: t.text("scope")?,
        redirect_port,
    })
}

/// `$XDG_DATA_HOME/ccmail/oauth2-USER.json`: one per login, so that `[imap]` and `[smtp]` of
/// the same account share one consent.
fn default_token_file(t: &Section, username: Option<&str>) -> Result<PathBuf, Error> {
    let name = username.unwrap_or("default").replace(['/', '\\'], "_");
    let dir = super::env::default_data_dir(t.file.env).ok_or_else(|| {
        Error::invalid(crate::t!(
            "config-no-default-token-file",
            section = t.name,
            file = t.file.path.display().to_string()
        ))
    })?;
    Ok(dir.join(format!("oauth2-{name}.json")))
}

fn is_url(s: &str) -> bool {
    let rest = s
        .strip_prefix("https://")
        .or_else(|| s.strip_prefix("http://"));
    rest.is_some_and(|r| !r.is_empty() && !r.contains(char::is_whitespace))
}
