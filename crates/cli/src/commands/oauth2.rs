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
            "[imap.oauth2]".to_owned()
        } else if *smtp {
            "[smtp.oauth2]".to_owned()
        } else {
            ccmail::t!("cmd-oauth2-imap-or-smtp")
        };
        bail!(
            "{}",
            ccmail::t!(
                "cmd-oauth2-no-table",
                path = path.display().to_string(),
                which = which
            )
        );
    }
    for r in todo {
        if r.refresh_token_cmd.is_some() {
            eprintln!(
                "{}",
                ccmail::t!("cmd-oauth2-note-refresh-cmd", section = r.section)
            );
        }
        let done = tokio::task::spawn_blocking(move || {
            authorize::run(&r, |url| {
                eprintln!(
                    "{}",
                    ccmail::t!(
                        "cmd-oauth2-open-url",
                        section = r.section,
                        minutes = authorize::WAIT.as_secs() / 60
                    )
                );
                println!("{url}");
            })
        })
        .await??;
        let path = done.token_file.display().to_string();
        let said = match done.expires_in {
            Some(s) => ccmail::t!("cmd-oauth2-authorized-valid", path = path, minutes = s / 60),
            None => ccmail::t!("cmd-oauth2-authorized", path = path),
        };
        eprintln!("{said}");
    }
    Ok(())
}
