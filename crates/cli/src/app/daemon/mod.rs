//! The daemon (`ccmail run`): the player's mailbox watched, chess mail applied, the outbox sent.
//!
//! Two loops share the store. The **IMAP loop** connects, reads what arrived since the last UID
//! it read, applies the chess mail ([`sync`]), keeps copies of sent mail in `[imap]
//! sent_mailbox`, then waits — IDLE where the server has it (re-issued every 25 minutes),
//! NOOP polling where it does not — and goes round again; after any error it drops the
//! connection and connects again with backoff (1 s, 2 s, 4 s … 5 min). The **outbox loop**
//! queues the rules' chores (after new mail, and every ten minutes: repeats fall due on a
//! date) and sends what is due after the transaction that queued it committed; while messages
//! wait for a retry after a failure, it asks the server whether it answers again (1 s … 5 min)
//! and then sends them at once. Neither waits for the other: mail is read while SMTP is down,
//! and sent while IMAP is. A stop signal (SIGINT/SIGTERM in `ccmail run`) ends both after the
//! unit of work in hand: the messages of a batch applied so far, committed with the UID of
//! the last one; one message sent.
//!
//! # What it touches
//!
//! The player's mailbox also holds their private mail, so the daemon is a guest there:
//!
//! - It never changes the mailbox: bodies are read with `BODY.PEEK[]` (no `\Seen`), nothing
//!   is flagged, moved or deleted. The only writes are the copies APPENDed to `sent_mailbox`,
//!   when the config names one (created if missing).
//! - It downloads no more of the private mail than it needs to tell it is private: a read of
//!   many messages looks at a message over 64 KB by its first 64 KB (`BODY.PEEK[]<0.65536>`)
//!   and the server's `BODYSTRUCTURE`, and fetches the rest only when it may be chess mail.
//! - It stores and applies **chess mail only** ([`filter`]): a message is chess mail when its
//!   sender is the opponent or the arbiter of one of the player's games, when it answers a
//!   message of a game (In-Reply-To / References), or when ccmail's reader finds a game
//!   header and a move in it (a partner writing from a new address, 51.1.2). Anything else —
//!   and the player's own mail — is skipped without being stored, but its UID counts as read.
//! - Every message is applied once: its UID is recorded only after `apply` committed, and a
//!   message read again (after a crash in between, or a changed UIDVALIDITY) is recognised by
//!   its Message-ID or its bytes and changes nothing.
//!
//! # Which mail is read
//!
//! Every message with a UID above the last one read. The first run reads back the mail
//! received since the **start date**: `[imap] first_sync_since`, else the earliest start date
//! of the games not finished; with neither (no date and no game yet) it reads nothing already there,
//! only what arrives from then on. When the mailbox's UIDVALIDITY changes, it is read again
//! the same way (what was applied already is recognised and left as it is). The receipt date
//! of a message is its INTERNALDATE, or now if that is later (a server clock ahead of ours, or
//! `--now` in the past).

mod filter;
pub mod hooks;
pub mod nudge;
mod outage;
mod outbox;
mod sift;
mod sync;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Context;
use ccmail_mail::imap::{Imap, ImapConfig, WaitOutcome};
use ccmail_mail::smtp::Smtp;
use ccmail_mail::tls::Security;
use ccmail_store::{self as store, Store};
use chrono::NaiveDate;
use chrono_tz::Tz;
use tokio::sync::{Notify, watch};

use super::{Clock, Me};
use crate::config::{self, Config};

pub use filter::{Checked, Filter};
pub use outage::{ESCALATE_AFTER, Level, Outage};

/// The longest IDLE (or wait between polls) before the daemon reads the mailbox again anyway.
pub const IDLE_WAIT: Duration = Duration::from_secs(25 * 60);

/// Backoff of reconnects and of retries after a failed send: 1 s, doubling, at most 5 min.
pub const BACKOFF_MIN: Duration = Duration::from_secs(1);
pub const BACKOFF_MAX: Duration = Duration::from_secs(5 * 60);

/// The mailbox side: where moves arrive.
#[derive(Debug, Clone)]
pub struct Watch {
    pub config: ImapConfig,
    /// `[imap] first_sync_since`.
    pub first_sync_since: Option<NaiveDate>,
    /// `[imap] sent_mailbox`: where copies of sent mail go.
    pub sent_mailbox: Option<String>,
}

/// Everything the daemon works with.
#[derive(Debug)]
pub struct Daemon {
    pub store: Store,
    pub me: Me,
    /// `--now`: a fixed clock (tests, "what if"); `None`: the system clock, read anew on
    /// every pass (a daemon runs for days).
    pub now: Option<String>,
    pub tz: Tz,
    pub imap: Option<Watch>,
    pub smtp: Option<Smtp>,
    /// Set when the server's answer to a look at large messages' heads could not be read:
    /// from then on every message is fetched whole ([`sync`]).
    pub heads_refused: AtomicBool,
    /// The config's `[hooks]`, and the ones running.
    pub hooks: std::sync::Arc<hooks::Runner>,
}

impl Daemon {
    /// [`Daemon::new`] for `ccmail run`: an error (a `password_cmd` that fails, a bad setting)
    /// is fatal, so it is logged at error level, `on_error` runs, and the hook ends (at its
    /// time limit at most) before the error is returned and the process exits.
    pub async fn start(
        cfg: &Config,
        store: Store,
        me: Me,
        now: Option<String>,
    ) -> anyhow::Result<Daemon> {
        let hooks = std::sync::Arc::new(hooks::Runner::new(cfg.hooks.clone()));
        hooks::Runner::for_errors(hooks.clone());
        match Daemon::with_hooks(cfg, store, me, now, hooks.clone()) {
            Ok(daemon) => Ok(daemon),
            Err(e) => {
                log_fatal(&e);
                hooks.finish().await;
                Err(e)
            }
        }
    }

    /// The daemon of a config: passwords are fetched now (`password_cmd` runs once).
    pub fn new(cfg: &Config, store: Store, me: Me, now: Option<String>) -> anyhow::Result<Daemon> {
        let hooks = std::sync::Arc::new(hooks::Runner::new(cfg.hooks.clone()));
        hooks::Runner::for_errors(hooks.clone());
        Daemon::with_hooks(cfg, store, me, now, hooks)
    }

    fn with_hooks(
        cfg: &Config,
        store: Store,
        me: Me,
        now: Option<String>,
        hooks: std::sync::Arc<hooks::Runner>,
    ) -> anyhow::Result<Daemon> {
        let imap = match &cfg.imap {
            Some(i) => Some(Watch {
                config: imap_config(i)?,
                first_sync_since: i.first_sync_since,
                sent_mailbox: i.sent_mailbox.clone(),
            }),
            None => None,
        };
        let smtp = match &cfg.smtp {
            Some(s) => Some(Smtp::new(&super::outbox::smtp_config(s)?)?),
            None => None,
        };
        Ok(Daemon {
            store,
            me,
            now,
            tz: cfg.player.tz()?,
            imap,
            smtp,
            heads_refused: AtomicBool::new(false),
            hooks,
        })
    }

    /// The clock for one pass.
    pub fn clock(&self) -> anyhow::Result<Clock> {
        Clock::new(self.now.as_deref(), self.tz)
    }

    /// `run --once`: one full pass — read and apply the new mail, queue the rules' chores, send
    /// what is due (and what waits for a retry, if the server answers), keep the copies — then
    /// return. The outbox
    /// is sent even when the mailbox can't be read, or a game's chores failed; that error is
    /// returned afterwards (the mailbox's first: every failure is in the log). `stop` ends
    /// the pass after the message in hand.
    pub async fn once(&self, stop: watch::Receiver<bool>) -> anyhow::Result<()> {
        let stop = Stop::new(stop);
        let mut imap_link = None;
        let mut failed = None;
        match &self.imap {
            Some(w) => match self.read_once(w, &stop).await {
                Ok(imap) => imap_link = Some((w, imap)),
                // Each cause once: the mail crate's errors quote their source already.
                Err(e) => failed = Some(anyhow::anyhow!(words(&e))),
            },
            None => tracing::info!("{}", crate::t!("daemon-no-imap")),
        }
        if !stop.is_set() {
            let chores = outbox::chores(self).await;
            if failed.is_none() && !chores.is_empty() {
                failed = Some(anyhow::anyhow!(crate::t!(
                    "daemon-chores-failed",
                    errors = chores.join("; ")
                )));
            }
        }
        match &self.smtp {
            Some(smtp) if !stop.is_set() => {
                outbox::send(self, smtp, true, &stop).await?;
            }
            Some(_) => {}
            None => tracing::info!("{}", crate::t!("daemon-no-smtp")),
        }
        if let Some((w, mut imap)) = imap_link {
            if let Err(e) = sync::copy_sent(self, w, &mut imap, &mut false).await {
                failed = Some(e);
            }
            imap.logout().await;
        }
        self.hooks.finish().await;
        failed.map_or(Ok(()), Err)
    }

    async fn read_once(&self, w: &Watch, stop: &Stop) -> anyhow::Result<Imap> {
        // The store is read while the server is connected to.
        let (imap, ready) = tokio::join!(Imap::connect(&w.config), sync::ready(self, w));
        let mut imap = imap?;
        sync::pass(self, w, &mut imap, &self.clock()?, stop, ready?).await?;
        Ok(imap)
    }

    /// The daemon: both loops until `stop` turns true (then after the unit of work in hand),
    /// or until an error that needs the user (a refused login, a bad certificate). That error
    /// is logged at error level (`on_error` runs) before it is returned; the hooks still
    /// running end first (each stops at its time limit).
    pub async fn run(&self, stop: watch::Receiver<bool>) -> anyhow::Result<()> {
        let result = self.both_loops(stop).await;
        if let Err(e) = &result {
            log_fatal(e);
        }
        self.hooks.finish().await;
        if result.is_ok() {
            tracing::info!("{}", crate::t!("daemon-stopped"));
        }
        result
    }

    async fn both_loops(&self, stop: watch::Receiver<bool>) -> anyhow::Result<()> {
        let w = self
            .imap
            .as_ref()
            .with_context(|| crate::t!("daemon-run-needs-imap"))?;
        let stop = Stop::new(stop);
        // Either loop ending for good (an error, or the stop) ends the other.
        let (quit_tx, quit_rx) = watch::channel(false);
        let quit = Stop::new(quit_rx);
        let wake_outbox = Notify::new();
        let wake_imap = Notify::new();
        let forward = async {
            stop.wait().await;
            let _ = quit_tx.send(true);
            std::future::pending::<()>().await
        };
        let imap_loop = async {
            let result = self.imap_loop(w, &quit, &wake_outbox, &wake_imap).await;
            let _ = quit_tx.send(true);
            result
        };
        if self.smtp.is_none() {
            tracing::info!("{}", crate::t!("daemon-no-smtp"));
        }
        let nudged = self
            .store
            .path()
            .and_then(|db| match nudge::Listener::bind(db) {
                Ok(listener) => Some(listener),
                Err(e) => {
                    tracing::warn!(
                        "{}",
                        crate::t!(
                            "daemon-nudge-unavailable",
                            path = nudge::socket_path(db).display().to_string(),
                            error = e.to_string(),
                            secs = outbox::TICK.as_secs()
                        )
                    );
                    None
                }
            });
        let outbox_loop = outbox::run(
            self,
            self.smtp.as_ref(),
            &quit,
            &wake_outbox,
            &wake_imap,
            nudged.as_ref(),
        );
        let both = async {
            let (result, ()) = tokio::join!(imap_loop, outbox_loop);
            result
        };
        tokio::select! {
            result = both => result,
            () = forward => unreachable!("forward never ends"),
        }
    }

    async fn imap_loop(
        &self,
        w: &Watch,
        stop: &Stop,
        wake_outbox: &Notify,
        wake_imap: &Notify,
    ) -> anyhow::Result<()> {
        let mut backoff = Backoff::default();
        let mut outage = Outage::new(outage::escalate_after());
        while !stop.is_set() {
            match self
                .imap_connection(w, stop, wake_outbox, wake_imap, &mut backoff, &mut outage)
                .await
            {
                Ok(()) => break,
                Err(Failure::Fatal(e)) => return Err(e),
                Err(Failure::Retry(e)) => {
                    let delay = backoff.delay();
                    // The server's own words may be quoted: shown, not obeyed.
                    let error = crate::term::shown(&words(&e)).into_owned();
                    let secs = delay.as_secs_f32().to_string();
                    match outage.failed(std::time::Instant::now()) {
                        (Level::Error, lasted) => tracing::error!(
                            "{}",
                            crate::t!(
                                "daemon-imap-outage",
                                minutes = outage::minutes(lasted),
                                error = error,
                                secs = secs
                            )
                        ),
                        (Level::Warn, _) => tracing::warn!(
                            "{}",
                            crate::t!("daemon-reconnecting", error = error, secs = secs)
                        ),
                    }
                    if stop.sleep(delay).await {
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    /// One connection: passes and waits until the stop (Ok) or an error.
    async fn imap_connection(
        &self,
        w: &Watch,
        stop: &Stop,
        wake_outbox: &Notify,
        wake_imap: &Notify,
        backoff: &mut Backoff,
        outage: &mut Outage,
    ) -> Result<(), Failure> {
        let connected = tokio::select! {
            connected = Imap::connect(&w.config) => connected,
            () = stop.wait() => return Ok(()),
        };
        let mut imap = connected.map_err(|e| {
            if e.is_transient() {
                Failure::Retry(e.into())
            } else {
                Failure::Fatal(e.into())
            }
        })?;
        tracing::info!(
            server = %format!("{}:{}", w.config.host, w.config.port),
            mailbox = %w.config.mailbox,
            idle = imap.has_idle(),
            "{}",
            crate::t!("daemon-imap-connected", user = &w.config.username)
        );
        let mut sent_box_ready = false;
        loop {
            let clock = self.clock().map_err(Failure::Fatal)?;
            let ready = sync::ready(self, w).await.map_err(Failure::Retry)?;
            let read = sync::pass(self, w, &mut imap, &clock, stop, ready)
                .await
                .map_err(Failure::Retry)?;
            // Connected, logged in and read: whatever failed before works again.
            if let Some(lasted) = outage.recovered(std::time::Instant::now()) {
                tracing::info!(
                    "{}",
                    crate::t!("daemon-imap-recovered", minutes = outage::minutes(lasted))
                );
            }
            if read > 0 {
                wake_outbox.notify_one();
            }
            // A copy that can't be made now is tried again after the next pass; a broken
            // connection shows in the wait below.
            if let Err(e) = sync::copy_sent(self, w, &mut imap, &mut sent_box_ready).await {
                tracing::warn!("{}", crate::t!("daemon-copies-failed", error = words(&e)));
            }
            if stop.is_set() {
                break;
            }
            tracing::debug!(idle = imap.has_idle(), "waiting for new mail");
            let woken = async {
                tokio::select! {
                    () = stop.wait() => {}
                    () = wake_imap.notified() => {}
                }
            };
            match imap.wait(IDLE_WAIT, woken).await {
                Ok(WaitOutcome::Stopped) if stop.is_set() => break,
                Ok(outcome) => {
                    // A connection that lasted through a wait is a good one: the next failure
                    // starts the backoff afresh (one that fails at once keeps it growing).
                    backoff.reset();
                    tracing::debug!(?outcome, "awake");
                }
                Err(e) => return Err(Failure::Retry(e.into())),
            }
        }
        imap.logout().await;
        Ok(())
    }
}

/// Logs an error that ends the daemon, at error level: `on_error` runs for it.
fn log_fatal(e: &anyhow::Error) {
    // The server's own words may be quoted: shown, not obeyed.
    let error = crate::term::shown(&words(e)).into_owned();
    tracing::error!("{}", crate::t!("daemon-fatal", error = error));
}

/// How a connection ended in error.
enum Failure {
    /// Needs the user: the daemon stops with this error.
    Fatal(anyhow::Error),
    /// Worth trying again on a new connection, after the backoff.
    Retry(anyhow::Error),
}

/// An error and its causes in one line, each cause once (the mail crate's errors already
/// quote their source).
pub fn words(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        // A database error in words already quotes SQLite's own: its sources add nothing.
        let database = store::database_error_in_words(cause);
        let last = database.is_some();
        // The other crates' errors in the interface's words; anything else as it says itself.
        let text = crate::app::errors::in_words(cause)
            .or(database)
            .unwrap_or_else(|| cause.to_string());
        if !out.contains(&text) {
            if !out.is_empty() {
                out.push_str(": ");
            }
            out.push_str(&text);
        }
        if last {
            break;
        }
    }
    out
}

/// The `[imap]` section as the mail crate wants it; the password is fetched now (an OAuth2
/// token at each login).
pub fn imap_config(cfg: &config::Imap) -> anyhow::Result<ImapConfig> {
    let oauth2 = crate::oauth2::for_imap(cfg);
    let mut c = ImapConfig::new(
        cfg.host.clone(),
        cfg.port,
        security(cfg.security),
        cfg.username.clone(),
        String::new(),
    );
    if oauth2.is_none() {
        // Moved, not copied: the one copy is zeroed when the config is dropped.
        // not the interface's: the config's name of the secret
        c.password = cfg.password().context("[imap] password")?;
    }
    c.oauth2 = oauth2.map(|p| p.login());
    c.mailbox = cfg.mailbox.clone();
    c.ca_file = cfg.ca_file.clone();
    // `plain` is allowed only because the config says it in so many words.
    c.plain_ok = cfg.security == config::Security::Plain;
    Ok(c)
}

fn security(s: config::Security) -> Security {
    match s {
        config::Security::Tls => Security::Tls,
        config::Security::StartTls => Security::StartTls,
        config::Security::Plain => Security::Plain,
    }
}

/// The stop signal, as the loops read it: a `watch` channel that turns true.
#[derive(Debug, Clone)]
pub struct Stop(Option<watch::Receiver<bool>>);

impl Stop {
    pub fn new(rx: watch::Receiver<bool>) -> Stop {
        Stop(Some(rx))
    }

    /// A signal that never fires (`--once`).
    pub fn never() -> Stop {
        Stop(None)
    }

    pub fn is_set(&self) -> bool {
        self.0.as_ref().is_some_and(|rx| *rx.borrow())
    }

    /// Completes when the signal fires (never, if its sender is gone without firing).
    pub async fn wait(&self) {
        if let Some(rx) = &self.0 {
            let mut rx = rx.clone();
            if rx.wait_for(|s| *s).await.is_ok() {
                return;
            }
        }
        std::future::pending::<()>().await;
    }

    /// Sleeps for `d`; true when the signal fired meanwhile.
    pub async fn sleep(&self, d: Duration) -> bool {
        tokio::select! {
            () = self.wait() => true,
            () = tokio::time::sleep(d) => false,
        }
    }
}

/// Exponential backoff: [`BACKOFF_MIN`], doubling up to [`BACKOFF_MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    next: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { next: BACKOFF_MIN }
    }
}

impl Backoff {
    /// The delay to wait now; the one after is twice as long.
    pub fn delay(&mut self) -> Duration {
        let now = self.next;
        self.next = (now * 2).min(BACKOFF_MAX);
        now
    }

    pub fn reset(&mut self) {
        self.next = BACKOFF_MIN;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_five_minutes_and_resets() {
        let mut b = Backoff::default();
        let secs: Vec<u64> = (0..12).map(|_| b.delay().as_secs()).collect();
        assert_eq!(secs, [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]);
        b.reset();
        assert_eq!(b.delay(), Duration::from_secs(1));
    }

    #[test]
    fn words_give_each_cause_once() {
        let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let inner = anyhow::Error::new(io).context("cannot connect to h:1: refused");
        assert_eq!(words(&inner), "cannot connect to h:1: refused");
        let outer = inner.context("applying the message with UID 7");
        assert_eq!(
            words(&outer),
            "applying the message with UID 7: cannot connect to h:1: refused"
        );
    }

    #[tokio::test]
    async fn stop_sleeps_until_the_signal() {
        let (tx, rx) = watch::channel(false);
        let stop = Stop::new(rx);
        assert!(!stop.sleep(Duration::from_millis(1)).await);
        tx.send(true).unwrap();
        assert!(stop.is_set());
        assert!(stop.sleep(Duration::from_secs(3600)).await);
        assert!(!Stop::never().sleep(Duration::from_millis(1)).await);
    }
}
