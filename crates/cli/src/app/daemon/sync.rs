//! One pass over the mailbox: the UIDs after the last one read, a batch at a time; each
//! message filtered, applied if it is chess mail, and only then its UID recorded (once per
//! batch).

use std::io::IsTerminal;

use anyhow::Context;
use ccmail_mail::imap::{Fetched, Imap};
use ccmail_store::{self as store, SyncState};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::filter::{Filter, Verdict};
use super::{Daemon, Stop, Watch};
use crate::app::Clock;
use crate::app::apply::{self, Arrival, Outcome};

/// How many messages are fetched (and held in memory) at a time.
const BATCH: usize = 100;

/// The key of the mailbox's sync state: the account and the mailbox, so that pointing the
/// config at another server or folder starts afresh.
fn state_key(w: &Watch) -> String {
    let c = &w.config;
    format!("{}@{}:{}/{}", c.username, c.host, c.port, c.mailbox)
}

/// Reads what is new; returns how many messages were chess mail (stored or applied).
pub(super) async fn pass(
    d: &Daemon,
    w: &Watch,
    imap: &mut Imap,
    clock: &Clock,
    stop: &Stop,
) -> anyhow::Result<usize> {
    let key = state_key(w);
    let validity = imap.uid_validity();
    let saved = store::sync_state(&mut *d.store.conn().await?, &key).await?;
    let since = match w.first_sync_since {
        Some(day) => Some(day),
        None => super::earliest_start(&d.store).await?,
    };
    // All UIDs below UIDNEXT (at SELECT) have been looked at once a pass completes.
    let end = imap.uid_next().map_or(0, |n| n.saturating_sub(1));
    let (after, first) = match saved {
        Some(s) if s.uid_validity == i64::from(validity) => {
            (u32::try_from(s.last_uid).unwrap_or(0), false)
        }
        other => {
            if other.is_some() {
                tracing::warn!(mailbox = %w.config.mailbox, "UIDVALIDITY changed: reading the mailbox again");
            }
            match since {
                Some(day) => {
                    tracing::info!(mailbox = %w.config.mailbox, "reading the mail received since {day}");
                    (0, true)
                }
                None => {
                    tracing::info!(
                        mailbox = %w.config.mailbox,
                        "no start date (first_sync_since) and no game: only new mail will be read"
                    );
                    (end, true)
                }
            }
        }
    };
    let mut mark = Mark {
        key,
        state: SyncState {
            uid_validity: i64::from(validity),
            last_uid: i64::from(after),
        },
        // A first read is recorded even when it finds nothing.
        saved: saved.filter(|_| !first).map(|s| s.last_uid),
    };
    // The start date limits the first read only: later, a new UID is new mail.
    let uids = imap.uids_since(after, since.filter(|_| first)).await?;
    let bar = progress(
        first && !uids.is_empty(),
        uids.len() as u64,
        &w.config.mailbox,
    );
    let filter = Filter::load(&d.store, &d.me).await?;
    let mut chess = 0;
    'batches: for batch in uids.chunks(BATCH) {
        for m in imap.fetch_uids(batch).await? {
            if stop.is_set() {
                break 'batches;
            }
            if one(d, w, &filter, clock, validity, &m).await? {
                chess += 1;
            }
            mark.state.last_uid = i64::from(m.uid);
            bar.inc(1);
        }
        // UIDs gone between SEARCH and FETCH count as read too.
        mark.state.last_uid = mark
            .state
            .last_uid
            .max(batch.last().map_or(0, |&u| i64::from(u)));
        // Recorded once a batch is applied, not after each message (a commit, and a disk
        // flush, less per move): a crash before this line reads the batch again, and the
        // store finds what was applied a duplicate.
        mark.save(d, clock).await?;
    }
    // What was applied before a stop.
    mark.save(d, clock).await?;
    if !stop.is_set() {
        mark.state.last_uid = mark.state.last_uid.max(i64::from(end));
        mark.save(d, clock).await?;
    }
    bar.finish_and_clear();
    Ok(chess)
}

/// One message: filtered, then applied when it is chess mail; true if it was.
async fn one(
    d: &Daemon,
    w: &Watch,
    filter: &Filter,
    clock: &Clock,
    validity: u32,
    m: &Fetched,
) -> anyhow::Result<bool> {
    let uid = m.uid;
    match filter.check(&d.store, &m.raw).await? {
        Verdict::NotChess(why) => {
            tracing::debug!(uid, "skipped, not chess mail: {why}");
            return Ok(false);
        }
        Verdict::Chess(why) => tracing::debug!(uid, "chess mail: {why}"),
    }
    // A message cannot arrive after now (a server clock ahead of ours, or `--now` in the past).
    let at = m.internal_date.min(clock.now.fixed_offset());
    let arrival = Arrival {
        raw: &m.raw,
        at,
        mailbox: Some(&w.config.mailbox),
        uid_validity: Some(validity),
        uid: Some(uid),
    };
    let outcome = apply::apply(&d.store, &d.me, clock, &arrival)
        .await
        .with_context(|| format!("applying the message with UID {uid}"))?;
    match &outcome {
        Outcome::Duplicate { .. } => tracing::debug!(uid, "{}", outcome.describe()),
        Outcome::Held { .. } => tracing::warn!(uid, "{}", outcome.describe()),
        _ => tracing::info!(uid, "{}", outcome.describe()),
    }
    Ok(true)
}

/// The sync state being advanced, written when it changed.
struct Mark {
    key: String,
    state: SyncState,
    saved: Option<i64>,
}

impl Mark {
    async fn save(&mut self, d: &Daemon, clock: &Clock) -> anyhow::Result<()> {
        if self.saved == Some(self.state.last_uid) {
            return Ok(());
        }
        let mut conn = d.store.conn().await?;
        store::set_sync_state(&mut conn, &self.key, self.state, &clock.stamp()).await?;
        self.saved = Some(self.state.last_uid);
        Ok(())
    }
}

/// The first read of a mailbox shows its progress on a terminal.
fn progress(show: bool, len: u64, mailbox: &str) -> ProgressBar {
    if !show || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} ({eta})")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(format!("reading {mailbox}"));
    bar
}

/// Copies sent mail that has none yet into `sent_mailbox` (created once per connection).
pub(super) async fn copy_sent(
    d: &Daemon,
    w: &Watch,
    imap: &mut Imap,
    ready: &mut bool,
) -> anyhow::Result<()> {
    let Some(folder) = &w.sent_mailbox else {
        return Ok(());
    };
    let todo = store::uncopied(&mut *d.store.conn().await?).await?;
    if todo.is_empty() {
        return Ok(());
    }
    if !*ready {
        imap.create_mailbox(folder).await?;
        *ready = true;
    }
    for copy in todo {
        imap.append(folder, &copy.raw).await?;
        store::set_copied(&mut *d.store.conn().await?, copy.message, folder).await?;
        tracing::debug!(id = copy.message, "copy kept in {folder}");
    }
    Ok(())
}
