//! Sending the outbox: after the transaction that queued a message commits. Transient
//! failures are retried with backoff; permanent ones are kept, shown in `games`, and logged.
//!
//! Senders (the daemon, `ccmail move`) take turns, one item at a time, through an exclusive
//! lock on a file beside the database ([`SendTurn`]). The kernel drops that lock when its
//! holder dies, so a sender holding it knows that no other sender is alive: an item still in
//! flight was left by one killed mid-send, and is made due again at once. It goes out with
//! the same bytes, so if the server had taken it already, the second copy carries the same
//! Message-ID and the receiving ccmail ignores it.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use ccmail_mail::smtp::{Smtp, SmtpConfig};
use ccmail_store::{self as store, Store};

use super::Clock;
use crate::config;

/// The SMTP settings of the config, with the password resolved (an OAuth2 token is fetched at
/// each login).
pub fn smtp_config(cfg: &config::Smtp) -> anyhow::Result<SmtpConfig> {
    let security = cfg
        .security
        .as_str()
        .parse()
        .map_err(|e| anyhow::anyhow!("smtp.security: {e}"))?;
    let mut s = SmtpConfig::new(cfg.host.clone(), cfg.port, security);
    if let Some(provider) = crate::oauth2::for_smtp(cfg) {
        s.username = cfg.username.clone();
        s.oauth2 = Some(provider.login());
    } else if let Some(user) = &cfg.username {
        s.username = Some(user.clone());
        // not the interface's: the config's name of the secret
        s.password = Some(cfg.password().context("[smtp] password")?);
    }
    s.ca_file = cfg.ca_file.clone();
    // `plain` is allowed only because the config says it in so many words.
    s.plain_ok = cfg.security == config::Security::Plain;
    Ok(s)
}

/// What one pass over the outbox did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Sent {
    pub sent: usize,
    pub retrying: usize,
    pub failed: usize,
    /// The stored messages sent, in order (for the `on_sent` hook).
    pub messages: Vec<i64>,
}

/// Backoff after `attempts` failures: 1, 2, 4 … minutes, at most an hour.
pub fn backoff(attempts: i64) -> Duration {
    Duration::from_secs(60 * (1u64 << attempts.clamp(0, 6) as u32)).min(Duration::from_secs(3600))
}

/// How long a sender holds an item it is sending before another may take it (a sender that
/// died with it in hand).
pub const LEASE: Duration = Duration::from_secs(10 * 60);

/// Sends every item due now. Each item is claimed first, so two senders at once (the daemon
/// and `ccmail move`) never send the same one, and its outcome is committed on its own, so a
/// crash between items sends none twice but the one in flight (which keeps its Message-ID).
pub async fn send_due(store: &Store, smtp: &Smtp, clock: &Clock) -> anyhow::Result<Sent> {
    let mut done = Sent::default();
    let now = clock.stamp();
    // Items left in flight by a sender that died are due again from here on.
    drop(SendTurn::take(store, &now).await?);
    let items = store::due(&mut *store.conn().await?, &now).await?;
    for item in items {
        let _turn = SendTurn::take(store, &now).await?;
        let lease = (clock.now + LEASE).fixed_offset().to_rfc3339();
        if !store::claim(&mut *store.conn().await?, item.id, &now, &lease).await? {
            tracing::debug!(item = item.id, "taken by another sender");
            continue;
        }
        let recipients: Vec<&str> = item
            .recipients
            .split(',')
            .filter(|r| !r.is_empty())
            .collect();
        let result = smtp.send(&item.raw, &item.envelope_from, &recipients).await;
        let mut conn = store.conn().await?;
        match result {
            Ok(()) => {
                store::mark_sent(&mut conn, item.id, &clock.stamp()).await?;
                tracing::info!(item = item.id, "{}", crate::t!("app-outbox-sent"));
                done.sent += 1;
                done.messages.push(item.message);
            }
            Err(e) if e.is_transient() => {
                let next = clock.now + backoff(item.attempts);
                store::mark_retry(
                    &mut conn,
                    item.id,
                    &next.fixed_offset().to_rfc3339(),
                    &e.to_string(),
                )
                .await?;
                tracing::warn!(item = item.id, error = %e, "{}", crate::t!("app-outbox-retry"));
                done.retrying += 1;
            }
            Err(e) => {
                store::mark_failed(&mut conn, item.id, &e.to_string()).await?;
                tracing::error!(item = item.id, error = %e, "{}", crate::t!("app-outbox-failed"));
                done.failed += 1;
            }
        }
    }
    Ok(done)
}

/// Sends, now, every item waiting for a retry after a failure as well as those due: for when
/// the server is known to answer again, so a message held back by an outage does not wait
/// out its backoff.
pub async fn retry_now(store: &Store, smtp: &Smtp, clock: &Clock) -> anyhow::Result<Sent> {
    store::retry_now(&mut *store.conn().await?, &clock.stamp()).await?;
    send_due(store, smtp, clock).await
}

/// How long a sender waits for its turn: one item's send at most (the SMTP timeouts are far
/// shorter), so a longer wait means something is stuck.
const TURN_WAIT: Duration = Duration::from_secs(5 * 60);

/// A sender's turn: the lock on `DB.send-lock`, held while one item is claimed, sent and
/// its outcome recorded; released when dropped (or by the kernel when the process dies).
/// An in-memory store (tests) has one process only and no file.
#[derive(Debug)]
struct SendTurn {
    /// Held, never read: closing it releases the lock.
    _lock: Option<File>,
}

impl SendTurn {
    /// Waits for the turn; then makes the items left in flight by a dead sender due `now`.
    async fn take(store: &Store, now: &str) -> anyhow::Result<SendTurn> {
        let Some(db) = store.path() else {
            return Ok(SendTurn { _lock: None });
        };
        let path = lock_path(db);
        // A read-only or full disk is said as the store says it, whichever of the two meets
        // it first (the daemon's outbox and its mail run side by side).
        let file =
            open_private(&path).map_err(|e| match crate::app::errors::storage_trouble(&e) {
                Some(trouble) => anyhow::anyhow!(crate::t!(
                    "app-send-lock-trouble",
                    path = path.display().to_string(),
                    trouble = trouble,
                    error = e.to_string()
                )),
                None => anyhow::Error::new(e).context(crate::t!(
                    "app-send-lock-cant-open",
                    path = path.display().to_string()
                )),
            })?;
        let deadline = tokio::time::Instant::now() + TURN_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                Err(TryLockError::WouldBlock) => anyhow::bail!(crate::t!(
                    "app-send-lock-held",
                    minutes = TURN_WAIT.as_secs() / 60,
                    path = path.display().to_string()
                )),
                Err(TryLockError::Error(e)) => {
                    return Err(e).with_context(|| {
                        crate::t!("app-cant-lock", path = path.display().to_string())
                    });
                }
            }
        }
        for id in store::release_orphans(&mut *store.conn().await?, now).await? {
            tracing::warn!(item = id, "{}", crate::t!("app-outbox-orphan"));
        }
        Ok(SendTurn { _lock: Some(file) })
    }
}

/// `DB.send-lock` beside the database.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_owned();
    name.push(".send-lock");
    db.with_file_name(name)
}

/// Opens (creating it 0600 if missing) the lock file; its content is never written.
fn open_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}
