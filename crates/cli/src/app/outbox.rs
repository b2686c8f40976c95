//! Sending the outbox: after the transaction that queued a message commits. Transient
//! failures are retried with backoff; permanent ones are kept, shown in `games`, and logged.

use std::time::Duration;

use anyhow::Context;
use ccmail_mail::smtp::{Smtp, SmtpConfig};
use ccmail_store::{self as store, Store};

use super::Clock;
use crate::config;

/// The SMTP settings of the config, with the password resolved.
pub fn smtp_config(cfg: &config::Smtp) -> anyhow::Result<SmtpConfig> {
    let security = cfg
        .security
        .as_str()
        .parse()
        .map_err(|e| anyhow::anyhow!("smtp.security: {e}"))?;
    let mut s = SmtpConfig::new(cfg.host.clone(), cfg.port, security);
    if let Some(user) = &cfg.username {
        s = s.with_login(user.clone(), cfg.password().context("[smtp] password")?);
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
    let items = store::due(&mut *store.conn().await?, &now).await?;
    for item in items {
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
                tracing::info!(item = item.id, "sent");
                done.sent += 1;
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
                tracing::warn!(item = item.id, error = %e, "send failed; will retry");
                done.retrying += 1;
            }
            Err(e) => {
                store::mark_failed(&mut conn, item.id, &e.to_string()).await?;
                tracing::error!(item = item.id, error = %e, "send failed for good");
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
