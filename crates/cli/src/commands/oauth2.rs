//! `ccmail oauth2 authorize [--imap|--smtp]`: the first OAuth2 consent, which stores the
//! refresh token the daemon then logs in with. The URL goes to standard output (it is what
//! the user needs); the rest is said on standard error.

use anyhow::bail;
use ccmail::config::{self, Refresh, TokenSource};
use ccmail::oauth2::authorize;

use super::config_path;
use crate::cli::{Cli, Oauth2Command};

pub async fn run(cli: &Cli, cmd: &Oauth2Command) -> anyhow::Result<()> {
    let Oauth2Command::Authorize { imap, smtp } = cmd;
    let path = config_path(cli);
    let cfg = config::load(&path)?;
    let refresh = |source: Option<&TokenSource>| match source {
        Some(TokenSource::Refresh(r)) => Some(r.as_ref().clone()),
        _ => None,
    };
    let from_imap = refresh(cfg.imap.as_ref().and_then(|i| i.oauth2.as_ref()));
    let from_smtp = refresh(cfg.smtp.as_ref().and_then(|s| s.oauth2.as_ref()));
    let mut todo: Vec<Refresh> = match (imap, smtp) {
        (true, _) => from_imap.into_iter().collect(),
        (_, true) => from_smtp.into_iter().collect(),
        _ => from_imap.into_iter().chain(from_smtp).collect(),
    };
    // [imap] and [smtp] of one account share a token file: one consent does for both.
    todo.dedup_by(|b, a| a.token_file == b.token_file);
    if todo.is_empty() {
        let which = if *imap {
            "[imap.oauth2]"
        } else if *smtp {
            "[smtp.oauth2]"
        } else {
            "[imap.oauth2] or [smtp.oauth2]"
        };
        bail!(
            "{} has no {which} table (with token_url, auth_url and client_id), so there is \
             nothing to authorize",
            path.display()
        );
    }
    for r in todo {
        if r.refresh_token_cmd.is_some() {
            eprintln!(
                "note: {}.refresh_token_cmd is set, so ccmail takes the refresh token from that \
                 command, not from the token file written now",
                r.section
            );
        }
        let done = tokio::task::spawn_blocking(move || {
            authorize::run(&r, |url| {
                eprintln!(
                    "Open this URL in a browser and allow access ({}; waiting up to {} minutes):",
                    r.section,
                    authorize::WAIT.as_secs() / 60
                );
                println!("{url}");
            })
        })
        .await??;
        let valid = done
            .expires_in
            .map(|s| format!("; the first access token is good for {} min", s / 60))
            .unwrap_or_default();
        eprintln!(
            "authorized: the refresh token is in {} (mode 0600){valid}",
            done.token_file.display()
        );
    }
    Ok(())
}
