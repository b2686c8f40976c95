//! The daemon's outbox loop: the rules' chores are queued (repeats, correction requests, the
//! PGN of a finished game: [`crate::app::chores`]) and what is due is sent, after the
//! transaction that queued it committed, whoever queued it; while messages wait for a retry
//! after a failure, the server is asked, with backoff, whether it answers again, and when it
//! does they go at once.

use std::time::Duration;

use ccmail_mail::smtp::Smtp;
use ccmail_store as store;
use tokio::sync::Notify;
use tokio::time::Instant;

use super::outage::{self, Level, Outage};
use super::{Backoff, Daemon, Stop};
use crate::app::chores;
use crate::app::outbox::{self as app_outbox, Sent};

/// How often the outbox is looked at without being woken, when the daemon could not make its
/// nudge socket ([`super::nudge`]): for messages queued or failed by another process.
pub const TICK: Duration = Duration::from_secs(5);

/// How often the chores are looked for without new mail (a repeat falls due on a date).
pub const CHORES_EVERY: Duration = Duration::from_secs(10 * 60);

/// Queues the chores and sends until the stop; without `[smtp]` (`None`) only the chores are
/// done and their messages stay queued. Errors (the database, the server) are logged and tried
/// again later: nothing here needs the user.
pub(super) async fn run(
    d: &Daemon,
    smtp: Option<&Smtp>,
    stop: &Stop,
    wake: &Notify,
    wake_imap: &Notify,
    nudged: Option<&super::nudge::Listener>,
) {
    let mut backoff = Backoff::default();
    // Letters that keep failing: an error once it lasts 15 minutes, and the end of it logged.
    let mut outage = Outage::new(outage::escalate_after());
    let mut retry_at: Option<Instant> = None;
    let mut woken_for = None;
    let mut chores_at = Instant::now();
    let mut woken = true;
    while !stop.is_set() {
        // After new mail (the IMAP loop wakes this one), and every few minutes.
        if woken || Instant::now() >= chores_at {
            chores(d).await;
            chores_at = Instant::now() + CHORES_EVERY;
        }
        let probe = retry_at.is_some_and(|t| Instant::now() >= t);
        let sent = match smtp {
            Some(smtp) => send(d, smtp, probe, stop).await,
            None => Ok(0),
        };
        let waiting = match sent {
            Ok(waiting) => {
                told_of(d, &mut outage, waiting).await;
                waiting
            }
            Err(e) => {
                tracing::error!(
                    "{}",
                    crate::t!("daemon-outbox-error", error = super::words(&e))
                );
                1 // as if a message waited: try again after the backoff
            }
        };
        if waiting == 0 {
            backoff.reset();
            retry_at = None;
        } else if probe || retry_at.is_none() {
            retry_at = Some(Instant::now() + backoff.delay());
        }
        // Sent mail waiting for its copy in Sent: the IMAP loop is woken once for each new
        // message (a copy that keeps failing waits for the next pass, it does not spin).
        let newest = newest_uncopied(d).await;
        if newest.is_some() && newest != woken_for {
            wake_imap.notify_one();
            woken_for = newest;
        }
        // Told by a nudge when another process queues mail, the loop sleeps until a retry or
        // the chores come due; without the socket it looks every TICK.
        let idle = match nudged {
            Some(_) => chores_at.saturating_duration_since(Instant::now()),
            None => TICK,
        };
        let nap = retry_at.map_or(idle, |t| {
            t.saturating_duration_since(Instant::now()).min(idle)
        });
        let nudge = async {
            match nudged {
                Some(listener) => listener.recv().await,
                None => std::future::pending().await,
            }
        };
        woken = tokio::select! {
            () = stop.wait() => break,
            () = wake.notified() => true,
            () = nudge => {
                tracing::debug!("nudged: looking at the outbox");
                true
            }
            () = tokio::time::sleep(nap) => false,
        };
    }
}

/// One pass: sends what is due; with `probe`, and messages waiting for a retry, asks the
/// server whether it answers and if so sends those too. Returns how many still wait.
pub(super) async fn send(
    d: &Daemon,
    smtp: &Smtp,
    probe: bool,
    stop: &Stop,
) -> anyhow::Result<usize> {
    let clock = d.clock()?;
    let mut done = app_outbox::send_due(&d.store, smtp, &clock).await?;
    let mut waiting = waiting(d).await?;
    if waiting > 0 && probe {
        // Only the question is given up on a stop, never a message being sent.
        let answer = tokio::select! {
            answer = smtp.check() => answer,
            () = stop.wait() => return Ok(waiting),
        };
        match answer {
            Ok(()) => {
                tracing::info!(
                    "{}",
                    crate::t!("daemon-smtp-answers-again", count = waiting)
                );
                let more = app_outbox::retry_now(&d.store, smtp, &clock).await?;
                done = add(done, more);
                waiting = self::waiting(d).await?;
            }
            Err(e) => tracing::debug!("SMTP server still unavailable: {e}"),
        }
    }
    if done != Sent::default() {
        tracing::debug!(?done, waiting, "outbox pass");
    }
    for &message in &done.messages {
        super::hooks::fire_sent(&d.store, &d.hooks, message).await;
    }
    Ok(waiting)
}

/// Queues the rules' chores that are due. What failed is logged (a game's by
/// [`chores::run_due`], which goes on with the other games) and returned in words, for `run
/// --once` to report; the chores are found again from the store on the next look.
pub(super) async fn chores(d: &Daemon) -> Vec<String> {
    let pass = match d.clock() {
        Ok(clock) => chores::run_due(&d.store, &d.me, &clock).await,
        Err(e) => Err(e),
    };
    if let Ok(clock) = d.clock()
        && let Err(e) = super::hooks::fire_deadlines(&d.store, &d.hooks, &clock).await
    {
        tracing::warn!(
            "{}",
            crate::t!("daemon-hook-deadline-failed", error = super::words(&e))
        );
    }
    match pass {
        Ok(pass) => {
            for what in &pass.done {
                tracing::info!("{}", crate::t!("daemon-chore-queued", what = what));
            }
            pass.failed.iter().map(chores::Failed::words).collect()
        }
        Err(e) => {
            let why = super::words(&e);
            tracing::error!("{}", crate::t!("daemon-chores-error", error = &why));
            vec![why]
        }
    }
}

/// Says when letters have waited after failed tries for more than
/// [`outage::ESCALATE_AFTER`] (at error level, once: `on_error` runs), and when they go again.
async fn told_of(d: &Daemon, outage: &mut Outage, waiting: usize) {
    let now = std::time::Instant::now();
    if waiting == 0 {
        if let Some(lasted) = outage.recovered(now) {
            tracing::info!(
                "{}",
                crate::t!("daemon-smtp-recovered", minutes = outage::minutes(lasted))
            );
        }
        return;
    }
    if let (Level::Error, lasted) = outage.failed(now) {
        let error = last_error(d).await.unwrap_or_else(|| "—".to_owned());
        tracing::error!(
            "{}",
            crate::t!(
                "daemon-smtp-outage",
                minutes = outage::minutes(lasted),
                count = waiting,
                error = crate::term::shown(&error).into_owned()
            )
        );
    }
}

/// The last error of the letters waiting for a retry, if the store says one.
async fn last_error(d: &Daemon) -> Option<String> {
    let rows = store::unsent(&mut *d.store.conn().await.ok()?).await.ok()?;
    rows.into_iter()
        .filter(|r| r.status == store::OutboxStatus::Queued)
        .filter_map(|r| r.last_error)
        .next_back()
}

/// Messages queued that failed at least once and wait for a retry.
async fn waiting(d: &Daemon) -> anyhow::Result<usize> {
    let rows = store::unsent(&mut *d.store.conn().await?).await?;
    Ok(rows
        .iter()
        .filter(|r| r.status == store::OutboxStatus::Queued && r.last_error.is_some())
        .count())
}

/// The newest sent message that waits for its copy in `sent_mailbox`, if any.
async fn newest_uncopied(d: &Daemon) -> Option<i64> {
    if d.imap.as_ref().is_none_or(|w| w.sent_mailbox.is_none()) {
        return None;
    }
    let mut conn = d.store.conn().await.ok()?;
    let todo = store::uncopied(&mut conn).await.ok()?;
    todo.last().map(|c| c.message)
}

fn add(a: Sent, b: Sent) -> Sent {
    Sent {
        sent: a.sent + b.sent,
        retrying: a.retrying + b.retrying,
        failed: a.failed + b.failed,
        messages: [a.messages, b.messages].concat(),
    }
}
