//! `ccmail check`: each step of the setup, in words, one line each — the config, the
//! database, IMAP (connect, log in, the mailbox, IDLE) and SMTP (connect, log in). A failing
//! step says what failed and the checks go on where they can; exit status 1 if any failed.
//! With OAuth2 the access token is a step of its own, before the login. No password or token
//! is ever printed. With `--json`: `{"steps": [{"step", "status", "detail"}], "failed": N}`,
//! `status` being `ok`, `fail` or `skip`, and a failed connection's step with a `hint` where
//! what the server sent shows a mistake of the config (a port and `security` that don't
//! match). A step is said to be done only once it was: "connected" after a connection secured
//! as configured with a server that greeted, "logged in" after the login. Each server has
//! [`TIMEOUT`] for each step, so the whole check ends in well under a minute. The lines are in
//! the interface language; the JSON is in English (`step` a word of the list above, `detail`
//! the English line), as scripts read it.

use std::time::Duration;

use anyhow::bail;
use ccmail::app::daemon::imap_config;
use ccmail::app::outbox::smtp_config;
use ccmail::config::{self, Config, Security};
use ccmail::i18n::Catalogue;
use ccmail::oauth2::Provider;
use ccmail::term::shown;
use ccmail_mail::imap::{Imap, Reached};
use ccmail_mail::probe::Service;
use ccmail_mail::smtp::Smtp;
use ccmail_store::{self as store, Store};

use super::config_path;
use crate::cli::Cli;

/// How long each server gets to answer, at each step.
const TIMEOUT: Duration = Duration::from_secs(10);

/// A step's words: as `t!` gives them on the terminal, in English with `--json` (its `detail`).
/// `said!(r, "check-…", name = value)`.
macro_rules! said {
    ($r:expr, $key:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $r.words()
            .text($key, &[$((stringify!($name), ccmail::i18n::Arg::from($value))),*])
    };
}

mod hints;

#[path = "check_trust.rs"]
mod check_trust;

/// A step's name on the terminal (JSON has the word itself).
fn step_name(step: &str) -> String {
    match step {
        "config" => ccmail::t!("check-step-config"),
        "database" => ccmail::t!("check-step-database"),
        "security" => ccmail::t!("check-step-security"),
        // imap, smtp: the protocols' names.
        other => other.to_owned(),
    }
}

/// The report: one line per step as it is done, or (`json`) one object at the end.
#[derive(Default)]
struct Report {
    failed: usize,
    json: bool,
    steps: Vec<serde_json::Value>,
}

impl Report {
    /// The catalogue of the steps' words: English with `--json`, else the interface's.
    fn words(&self) -> &'static Catalogue {
        if self.json {
            ccmail::i18n::english()
        } else {
            ccmail::i18n::current()
        }
    }

    /// An error of the mail, store or core crates as the report says it: as it says itself
    /// (English) with `--json`, in the interface's words on the terminal.
    fn error(&self, e: &(dyn std::error::Error + 'static)) -> String {
        if self.json {
            return e.to_string();
        }
        ccmail::app::errors::in_words(e).unwrap_or_else(|| e.to_string())
    }

    /// An error and its causes, each once, as [`Report::error`] says one.
    fn chain(&self, e: &anyhow::Error) -> String {
        if self.json {
            return format!("{e:#}");
        }
        ccmail::app::daemon::words(e)
    }

    fn step(&mut self, status: &str, mark: &str, step: &str, what: &str) {
        if self.json {
            let s = serde_json::json!({"step": step, "status": status, "detail": what});
            self.steps.push(s);
        } else {
            // The servers' answers are quoted here: shown, not obeyed.
            println!("{mark:<6}{}: {}", step_name(step), shown(what));
        }
    }

    fn ok(&mut self, step: &str, what: impl AsRef<str>) {
        self.step("ok", &ccmail::t!("check-mark-ok"), step, what.as_ref());
    }

    fn fail(&mut self, step: &str, what: impl AsRef<str>) {
        self.failed += 1;
        self.step("fail", &ccmail::t!("check-mark-fail"), step, what.as_ref());
    }

    fn skip(&mut self, step: &str, what: impl AsRef<str>) {
        self.step("skip", "-", step, what.as_ref());
    }

    /// What to change, after the failed step before it: its own line on the terminal, the
    /// failed step's `hint` in JSON.
    fn hint(&mut self, step: &str, what: impl AsRef<str>) {
        if !self.json {
            let mark = ccmail::t!("check-mark-hint");
            return println!("{mark:<6}{}: {}", step_name(step), shown(what.as_ref()));
        }
        if let Some(last) = self.steps.last_mut() {
            last["hint"] = what.as_ref().into();
        }
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
            let what = said!(
                r,
                "check-config-read",
                path = path.display().to_string(),
                name = &p.name,
                email = &p.email,
                timezone = p.timezone.to_string()
            );
            r.ok("config", what);
            config::literal::warn(&cfg);
            placeholders(&mut r, &cfg);
            cfg
        }
        Err(e) => {
            r.fail("config", r.chain(&e));
            return r.end(&ccmail::t!("check-config-unread"));
        }
    };
    database(&mut r, &cfg).await;
    imap(&mut r, &cfg).await;
    smtp(&mut r, &cfg).await;
    let why = ccmail::t!("check-failed", count = r.failed);
    r.end(&why)
}

/// The starter config's placeholders, each a failed step: they load, but reach no one.
fn placeholders(r: &mut Report, cfg: &Config) {
    let file = cfg.path.display().to_string();
    for (key, value) in hints::placeholders(cfg) {
        let what = said!(
            r,
            "check-placeholder",
            key = key,
            value = format!("{value:?}"),
            file = &file
        );
        r.fail("config", what);
    }
}

async fn database(r: &mut Report, cfg: &Config) {
    let path = cfg.store.db.display().to_string();
    let store = match Store::open(&cfg.store.db).await {
        Ok(store) => store,
        Err(e) => return r.fail("database", r.error(&e)),
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
            let what = said!(
                r,
                "check-database-opened",
                path = &path,
                count = games.len(),
                active = active
            );
            r.ok("database", what);
        }
        Err(e) => {
            let what = said!(
                r,
                "check-database-unreadable",
                path = &path,
                error = r.error(&e)
            );
            r.fail("database", what);
        }
    }
    store.close().await;
}

/// `connected to host:port with TLS`.
fn connected(r: &Report, server: &str, security: Security) -> String {
    match security {
        Security::Tls => said!(r, "check-connected", server = server, how = "TLS"),
        Security::StartTls => said!(r, "check-connected", server = server, how = "STARTTLS"),
        Security::Plain => said!(r, "check-connected-plain", server = server),
    }
}

async fn imap(r: &mut Report, cfg: &Config) {
    let Some(i) = &cfg.imap else {
        let what = said!(r, "check-imap-none", file = cfg.path.display().to_string());
        return r.skip("imap", what);
    };
    let server = format!("{}:{}", i.host, i.port);
    let mut c = match imap_config(i) {
        Ok(c) => c,
        Err(e) => return r.fail("imap", r.chain(&e)),
    };
    c.timeout = TIMEOUT;
    if let Some(provider) = ccmail::oauth2::for_imap(i) {
        let Some(login) = token(r, "imap", &provider).await else {
            return;
        };
        c.oauth2 = Some(login);
    }
    let connected = connected(r, &server, i.security);
    let logged_in = said!(r, "check-logged-in", user = &i.username);
    let mut reached = Reached::Nothing;
    let e = match Imap::connect_reaching(&c, &mut reached).await {
        Ok(imap) => return mailbox(r, cfg, i, imap, &connected, &logged_in).await,
        Err(e) => e,
    };
    if reached >= Reached::Connected {
        r.ok("imap", &connected);
    }
    if reached >= Reached::LoggedIn {
        r.ok("imap", &logged_in);
    }
    let what = match reached {
        Reached::Nothing => said!(r, "check-cannot-connect", error = r.error(&e)),
        Reached::Connected => r.error(&e),
        Reached::LoggedIn => said!(
            r,
            "check-imap-mailbox-failed",
            mailbox = &i.mailbox,
            error = r.error(&e)
        ),
    };
    r.fail("imap", what);
    if reached == Reached::Nothing {
        let target = hints::Target {
            service: Service::Imap,
            host: &i.host,
            port: i.port,
            security: i.security,
            ca_file: i.ca_file.as_deref(),
            timeout: TIMEOUT,
        };
        hints::after_imap(r, &target, &e).await;
    }
}

/// The IMAP steps after the login: the mailbox, and the senders' verification.
async fn mailbox(
    r: &mut Report,
    cfg: &Config,
    i: &config::Imap,
    mut imap: Imap,
    connected: &str,
    logged_in: &str,
) {
    r.ok("imap", connected);
    r.ok("imap", logged_in);
    let what = if imap.has_idle() {
        said!(
            r,
            "check-imap-mailbox-idle",
            mailbox = &i.mailbox,
            count = imap.exists()
        )
    } else {
        said!(
            r,
            "check-imap-mailbox-polled",
            mailbox = &i.mailbox,
            count = imap.exists()
        )
    };
    r.ok("imap", what);
    if let Some(sent) = &i.sent_mailbox {
        let what = said!(r, "check-imap-sent-copies", mailbox = sent);
        r.ok("imap", what);
    }
    check_trust::senders(r, cfg, &mut imap).await;
    imap.logout().await;
}

/// The OAuth2 step: a token fetched (and kept by the provider for the login that follows).
async fn token(
    r: &mut Report,
    step: &str,
    provider: &Provider,
) -> Option<ccmail_mail::oauth2::OAuth2> {
    match provider.fetch().await {
        Ok((_, how)) => {
            let what = said!(r, "check-token-got", how = how);
            r.ok(step, what);
            Some(provider.login())
        }
        Err(e) => {
            let what = said!(r, "check-token-none", error = e.to_string());
            r.fail(step, what);
            None
        }
    }
}

async fn smtp(r: &mut Report, cfg: &Config) {
    let Some(s) = &cfg.smtp else {
        let what = said!(r, "check-smtp-none", file = cfg.path.display().to_string());
        return r.skip("smtp", what);
    };
    let server = format!("{}:{}", s.host, s.port);
    let mut c = match smtp_config(s) {
        Ok(c) => c,
        Err(e) => return r.fail("smtp", r.chain(&e)),
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
        Err(e) => return r.fail("smtp", r.error(&e)),
    };
    let connected = connected(r, &server, s.security);
    let logged_in = match &s.username {
        Some(user) => said!(r, "check-logged-in", user = user),
        None => said!(r, "check-smtp-no-login"),
    };
    let mut reached = Reached::Nothing;
    let result = smtp.check_reaching(&mut reached).await;
    if reached >= Reached::Connected {
        r.ok("smtp", &connected);
    }
    if reached >= Reached::LoggedIn || (result.is_ok() && s.username.is_none()) {
        r.ok("smtp", &logged_in);
    }
    let Err(e) = result else {
        return;
    };
    if reached >= Reached::Connected {
        return r.fail("smtp", r.error(&e));
    }
    let what = said!(r, "check-cannot-connect", error = r.error(&e));
    r.fail("smtp", what);
    let target = hints::Target {
        service: Service::Smtp,
        host: &s.host,
        port: s.port,
        security: s.security,
        ca_file: s.ca_file.as_deref(),
        timeout: TIMEOUT,
    };
    hints::after_smtp(r, &target, &e).await;
}
