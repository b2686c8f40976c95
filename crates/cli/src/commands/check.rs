//! `ccmail check`: each step of the setup, in words, one line each — the config, the
//! database, IMAP (connect, log in, the mailbox, IDLE) and SMTP (connect, log in). A failing
//! step says what failed and the checks go on where they can; exit status 1 if any failed.
//! With OAuth2 the access token is a step of its own, before the login. No password or token
//! is ever printed. With `--json`: `{"steps": [{"step", "status", "detail"}], "failed": N}`,
//! `status` being `ok`, `fail` or `skip`.

use std::time::Duration;

use anyhow::bail;
use ccmail::app::daemon::imap_config;
use ccmail::app::outbox::smtp_config;
use ccmail::config::{self, Config, Security};
use ccmail::oauth2::Provider;
use ccmail::term::shown;
use ccmail_core::trust;
use ccmail_mail::imap::{Imap, ImapError};
use ccmail_mail::smtp::{Smtp, SmtpError};
use ccmail_store::{self as store, Store};

use super::config_path;
use crate::cli::Cli;

/// How long each server gets to answer.
const TIMEOUT: Duration = Duration::from_secs(20);

/// The report: one line per step as it is done, or (`json`) one object at the end.
#[derive(Default)]
struct Report {
    failed: usize,
    json: bool,
    steps: Vec<serde_json::Value>,
}

impl Report {
    fn step(&mut self, status: &str, mark: &str, step: &str, what: &str) {
        if self.json {
            let s = serde_json::json!({"step": step, "status": status, "detail": what});
            self.steps.push(s);
        } else {
            // The servers' answers are quoted here: shown, not obeyed.
            println!("{mark:<6}{step}: {}", shown(what));
        }
    }

    fn ok(&mut self, step: &str, what: impl AsRef<str>) {
        self.step("ok", "ok", step, what.as_ref());
    }

    fn fail(&mut self, step: &str, what: impl AsRef<str>) {
        self.failed += 1;
        self.step("fail", "FAIL", step, what.as_ref());
    }

    fn skip(&mut self, step: &str, what: impl AsRef<str>) {
        self.step("skip", "-", step, what.as_ref());
    }

    /// The end: with `json` the object, then the exit status's error if a step failed.
    fn end(self, why: &str) -> anyhow::Result<()> {
        if self.json {
            let all = serde_json::json!({"steps": self.steps, "failed": self.failed});
            println!("{all}");
        }
        match (self.failed, self.json) {
            (0, _) => Ok(()),
            (_, true) => Err(super::Reported(why.to_owned()).into()),
            (_, false) => bail!("{why}"),
        }
    }
}

pub async fn run(cli: &Cli) -> anyhow::Result<()> {
    let mut r = Report {
        json: cli.json,
        ..Report::default()
    };
    let path = config_path(cli);
    let cfg = match config::load(&path) {
        Ok(cfg) => {
            let p = &cfg.player;
            let what = format!(
                "read from {} (player {} <{}>, time zone {})",
                path.display(),
                p.name,
                p.email,
                p.timezone
            );
            r.ok("config", what);
            config::literal::warn(&cfg);
            cfg
        }
        Err(e) => {
            r.fail("config", format!("{e:#}"));
            return r.end("the config could not be read, so nothing else was checked");
        }
    };
    database(&mut r, &cfg).await;
    imap(&mut r, &cfg).await;
    smtp(&mut r, &cfg).await;
    let why = match r.failed {
        1 => "1 check failed".to_owned(),
        n => format!("{n} checks failed"),
    };
    r.end(&why)
}

async fn database(r: &mut Report, cfg: &Config) {
    let path = cfg.store.db.display();
    let store = match Store::open(&cfg.store.db).await {
        Ok(store) => store,
        Err(e) => return r.fail("database", format!("{e}")),
    };
    let games = match store.conn().await {
        Ok(mut conn) => store::games(&mut conn, true).await,
        Err(e) => Err(e),
    };
    match games {
        Ok(games) => {
            let active = games
                .iter()
                .filter(|g| g.status == store::GameStatus::Active)
                .count();
            let what = format!("opened {path}: {} game(s), {active} active", games.len());
            r.ok("database", what);
        }
        Err(e) => r.fail(
            "database",
            format!("opened {path}, but reading it failed: {e}"),
        ),
    }
    store.close().await;
}

fn how(security: Security) -> &'static str {
    match security {
        Security::Tls => "TLS",
        Security::StartTls => "STARTTLS",
        Security::Plain => "no encryption (security = \"plain\")",
    }
}

async fn imap(r: &mut Report, cfg: &Config) {
    let Some(i) = &cfg.imap else {
        return r.skip(
            "imap",
            format!(
                "not configured: {} has no [imap] (`ccmail run` needs it)",
                cfg.path.display()
            ),
        );
    };
    let server = format!("{}:{}", i.host, i.port);
    let mut c = match imap_config(i) {
        Ok(c) => c,
        Err(e) => return r.fail("imap", format!("{e:#}")),
    };
    c.timeout = TIMEOUT;
    if let Some(provider) = ccmail::oauth2::for_imap(i) {
        let Some(login) = token(r, "imap", &provider).await else {
            return;
        };
        c.oauth2 = Some(login);
    }
    let connected = format!("connected to {server} with {}", how(i.security));
    let logged_in = format!("logged in as {}", i.username);
    match Imap::connect(&c).await {
        Ok(imap) => {
            r.ok("imap", &connected);
            r.ok("imap", &logged_in);
            let idle = if imap.has_idle() {
                "yes"
            } else {
                "no (new mail is polled for)"
            };
            let what = format!(
                "mailbox {} has {} message(s); IDLE: {idle}",
                i.mailbox,
                imap.exists()
            );
            r.ok("imap", what);
            if let Some(sent) = &i.sent_mailbox {
                r.ok("imap", format!("copies of sent mail go to {sent}"));
            }
            let mut imap = imap;
            senders(r, cfg, &mut imap).await;
            imap.logout().await;
        }
        Err(e @ (ImapError::Connect { .. } | ImapError::Tls { .. } | ImapError::Config(_))) => {
            r.fail("imap", format!("cannot connect: {e}"));
        }
        Err(e @ (ImapError::Login { .. } | ImapError::Token(_))) => {
            r.ok("imap", &connected);
            r.fail("imap", format!("{e}"));
        }
        Err(e) => {
            r.ok("imap", &connected);
            r.ok("imap", &logged_in);
            r.fail("imap", format!("mailbox {}: {e}", i.mailbox));
        }
    }
}

/// How many of the newest messages `check` looks at for `Authentication-Results`.
const RECENT: usize = 20;

/// The sender-verification step: which server's `Authentication-Results` the newest mail
/// carries, against `[security] authserv_id`.
async fn senders(r: &mut Report, cfg: &Config, imap: &mut Imap) {
    let seen = match recent_authserv_ids(imap).await {
        Ok(seen) => seen,
        Err(e) => {
            return r.fail(
                "security",
                format!("reading the newest mail's headers: {e}"),
            );
        }
    };
    let file = cfg.path.display();
    let proposed = trust::propose(&seen);
    match (&cfg.security.authserv_id, proposed) {
        (Some(id), _) if seen.iter().any(|s| trust::is_ours(id, s)) => r.ok(
            "security",
            format!(
                "senders are verified: a move counts only when {id}'s Authentication-Results \
                 found its sender's DKIM signature or DMARC valid, or it answers our mail"
            ),
        ),
        (Some(id), found) => {
            let other = found.map_or(String::new(), |f| {
                format!("; they carry {f:?}'s: set [security] authserv_id = {f:?} in {file}")
            });
            r.fail(
                "security",
                format!(
                    "[security] authserv_id is {id:?}, but none of the newest {RECENT} messages \
                     carries Authentication-Results from {id}, so every move would be held as \
                     unverified{other}"
                ),
            );
        }
        (None, found) => {
            let advice = match found {
                Some(f) => format!(
                    "your server writes its verdict as {f:?}: add [security] authserv_id = \
                     {f:?} to {file}"
                ),
                None => "the newest mail carries no Authentication-Results naming a server, \
                         so there is none to propose"
                    .to_owned(),
            };
            r.skip(
                "security",
                format!(
                    "senders are checked by address and envelope only, which anyone can forge \
                     from any server; your own server's DKIM verdict is stronger: {advice}"
                ),
            );
        }
    }
}

/// The authserv-id of the topmost named `Authentication-Results` of each of the newest
/// messages, newest first.
async fn recent_authserv_ids(imap: &mut Imap) -> anyhow::Result<Vec<String>> {
    let uids = imap.uids_since(0, None).await?;
    let newest = &uids[uids.len().saturating_sub(RECENT)..];
    let mut heads = imap.fetch_heads(newest, 16 * 1024).await?;
    heads.reverse();
    Ok(heads
        .iter()
        .filter_map(|head| ccmail_mail::mime::decode(&head.head).ok())
        .filter_map(|d| trust::proposed_authserv_id(d.auth_results.iter().map(String::as_str)))
        .collect())
}

/// The OAuth2 step: a token fetched (and kept by the provider for the login that follows).
async fn token(
    r: &mut Report,
    step: &str,
    provider: &Provider,
) -> Option<ccmail_mail::oauth2::OAuth2> {
    match provider.fetch().await {
        Ok((_, how)) => {
            r.ok(step, format!("got an OAuth2 access token {how}"));
            Some(provider.login())
        }
        Err(e) => {
            r.fail(step, format!("no OAuth2 access token: {e}"));
            None
        }
    }
}

async fn smtp(r: &mut Report, cfg: &Config) {
    let Some(s) = &cfg.smtp else {
        return r.skip(
            "smtp",
            format!(
                "not configured: {} has no [smtp] (messages stay in the outbox)",
                cfg.path.display()
            ),
        );
    };
    let server = format!("{}:{}", s.host, s.port);
    let mut c = match smtp_config(s) {
        Ok(c) => c,
        Err(e) => return r.fail("smtp", format!("{e:#}")),
    };
    c.timeout = TIMEOUT;
    if let Some(provider) = ccmail::oauth2::for_smtp(s) {
        let Some(login) = token(r, "smtp", &provider).await else {
            return;
        };
        c.oauth2 = Some(login);
    }
    let smtp = match Smtp::new(&c) {
        Ok(smtp) => smtp,
        Err(e) => return r.fail("smtp", format!("{e}")),
    };
    let connected = format!("connected to {server} with {}", how(s.security));
    match smtp.check().await {
        Ok(()) => {
            r.ok("smtp", &connected);
            match &s.username {
                Some(user) => r.ok("smtp", format!("logged in as {user}")),
                None => r.ok(
                    "smtp",
                    "no login configured (the server takes mail without one)",
                ),
            }
        }
        Err(e @ (SmtpError::Rejected { .. } | SmtpError::Login { .. })) => {
            r.ok("smtp", &connected);
            r.fail("smtp", format!("{e}"));
        }
        Err(e) => r.fail("smtp", format!("cannot connect: {e}")),
    }
}
