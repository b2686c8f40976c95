//! One pass over the mailbox: the UIDs after the last one read (one UID SEARCH), their
//! headers, and the bodies of only the mail that may be chess mail ([`super::sift`]); then
//! those a batch at a time (one UID FETCH each), in three stages that overlap: the messages
//! are fetched, handed on in groups as they arrive, looked at by the filter (on a thread of
//! its own but in the smallest passes), and applied — the chess mail in a transaction that is
//! committed once it has been open for [`HOLD`] (after the group in hand, or while the next
//! one is awaited) and at the end: one disk flush covers the work of a quarter of a second.
//! The messages come in UID order, and the last UID read moves with each one applied, in the
//! same transaction. A large message that may be chess mail only by its content is fetched
//! whole only when its head may be chess mail ([`to_fetch_whole`]).
//!
//! One letter must not stop the daemon. A message over [`MAX_MESSAGE_BYTES`] is never fetched
//! whole: its first [`HEAD`] bytes are, and when they may be chess mail it is held as too
//! large, those bytes stored (the whole stays in the mailbox: ccmail deletes no mail), and the
//! UID moves on; the reader's own caps hold any smaller one the same way, stored by its first
//! [`HEAD`] bytes too. A message larger than a batch is fetched only once every message before
//! it has been applied, so that one such message is in memory at a time. A message whose
//! reading or applying failed (an error, or a pass that died on it: a panic, a memory limit)
//! is tried again one message at a time, and after two failed tries held unread ([`tries`]).

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::Context;
use ccmail_core::message;
use ccmail_mail::imap::{Fetched, Imap};
use ccmail_store::{self as store, SqliteConnection, SyncState, Transaction};
use chrono::NaiveDate;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tokio::sync::mpsc;

use super::filter::{Checked, Filter, HEAD, Pre};
use super::sift::{self, FirstDay, Wanted};
use super::{Daemon, Stop, Watch, hooks};
use crate::app::Clock;
use crate::app::apply::{self, Arrival, Outcome};
use crate::app::game_index::GameIndex;
use crate::term::shown;

mod tries;

/// How many messages one UID FETCH asks for, at most…
const BATCH: usize = 300;

/// …and how many bytes, unless one message is larger. Each batch costs the pass about a
/// millisecond besides its messages (its UID FETCHes, the
/// store recording how far the pass has read): a 5,000-message first sync took ~12 % longer
/// in batches of 100 messages and 2 MB.
const BATCH_BYTES: u64 = 6 << 20;

/// The largest message fetched whole and read: 8 MiB. A letter of a game is under 100 KB,
/// with a photo a few MB; a larger message is held as too large from its first [`HEAD`]
/// bytes, so that a pass holds at most a few such messages in memory (the groups in flight),
/// well under 100 MB, whatever the mailbox holds.
pub(super) const MAX_MESSAGE_BYTES: u32 = 8 << 20;

/// How many messages the fetching hands on at a time, as they arrive: the filter and the
/// store start on a batch's first messages while the server sends the rest.
const GROUP: usize = 32;

/// How many groups may wait between the fetching and the applying: with the group being
/// filled, the one on its way to the filter, the one being handed on and the one being
/// applied, at most eight groups are in memory.
const WAITING: usize = 4;

/// The longest a pass keeps applied messages uncommitted (also while it waits for the server):
/// a bound on the write lock it holds and on the work a crash would redo.
const HOLD: Duration = Duration::from_millis(250);

/// The messages in batches of at most [`BATCH`] messages and [`BATCH_BYTES`] bytes, in order.
fn batches(wanted: &[Wanted]) -> Vec<Vec<Wanted>> {
    let mut out: Vec<Vec<Wanted>> = Vec::new();
    let mut bytes = 0;
    for &w in wanted {
        let size64 = u64::from(w.size);
        match out.last_mut() {
            Some(batch) if batch.len() < BATCH && bytes + size64 <= BATCH_BYTES => {
                batch.push(w);
                bytes += size64;
            }
            _ => {
                out.push(vec![w]);
                bytes = size64;
            }
        }
    }
    out
}

/// Which of a batch's messages to fetch whole: all but the large mail its head shows is not
/// chess mail.
///
/// A message of up to [`HEAD`] bytes is fetched whole at once, and so is one whose sender or
/// thread may make it chess mail. A larger one that may be chess mail only by its content
/// (the server found a game header's words in it) is first looked at by its first [`HEAD`]
/// bytes and the server's word on its
/// parts ([`Imap::fetch_heads`]), and fetched whole only when that does not settle it as not
/// chess mail ([`Filter::settled_by_head`]; one that may answer a game's message is asked of
/// the store). So the attachments of the player's private mail are not downloaded; what is
/// decided on a head is what [`Filter::pre`] decides on the whole, which decodes no more of
/// it. Returns the UIDs to fetch whole, and how many messages were settled by their heads.
async fn to_fetch_whole(
    imap: &mut Imap,
    d: &Daemon,
    w: &Watch,
    filter: &Filter,
    batch: &[Wanted],
) -> anyhow::Result<(Vec<u32>, usize)> {
    let limit = u32::try_from(HEAD).unwrap_or(u32::MAX);
    let (large, small): (Vec<&Wanted>, Vec<&Wanted>) = batch
        .iter()
        .partition(|w| w.by_content && w.size > limit && !d.heads_refused.load(Ordering::Relaxed));
    let mut whole: Vec<u32> = small.into_iter().map(|w| w.uid).collect();
    let mut settled = 0;
    if !large.is_empty() {
        let uids: Vec<u32> = large.iter().map(|w| w.uid).collect();
        let heads = match imap.fetch_heads(&uids, limit).await {
            Ok(heads) => heads,
            Err(e) => {
                // A server that answers the look with something that can't be read, or a
                // connection that breaks during it: the IMAP session is gone, and a new one
                // fetches these messages whole, and every large message after them. (A
                // BODYSTRUCTURE that can't be read only has its message fetched whole.)
                d.heads_refused.store(true, Ordering::Relaxed);
                tracing::warn!(
                    "{}",
                    crate::t!("daemon-heads-failed", error = e.to_string())
                );
                let validity = imap.uid_validity();
                *imap = Imap::connect(&w.config).await?;
                anyhow::ensure!(
                    imap.uid_validity() == validity,
                    "{}",
                    crate::t!("daemon-uidvalidity-changed-while-read")
                );
                whole.extend(uids);
                Vec::new()
            }
        };
        let mut conn = d.store.conn().await?;
        for head in heads {
            let needed = match filter.settled_by_head(&head.head, head.pgn_part) {
                None => true,
                Some(Pre::Thread { ids, .. }) => Filter::in_a_games_thread(&mut conn, &ids).await?,
                Some(Pre::Decided(checked)) => checked.is_chess(),
            };
            if needed {
                whole.push(head.uid);
            } else {
                tracing::debug!(uid = head.uid, "skipped by its head, not chess mail");
                settled += 1;
            }
        }
    }
    Ok((whole, settled))
}

/// A group looked at by the filter ([`Filter::pre`]). The bytes of a message it settles as
/// not chess mail are let go at once: nothing reads them again, and the group then waits for
/// the store (and is applied) holding only the mail that may be chess mail.
fn look_at(filter: &Filter, fetched: Vec<Fetched>) -> Vec<(Fetched, Pre)> {
    fetched
        .into_iter()
        .map(|mut m| {
            let pre = filter.pre(&m.raw);
            if matches!(pre, Pre::Decided(Checked::NotChess(_))) {
                m.raw = Vec::new();
            }
            (m, pre)
        })
        .collect()
}

/// What the fetching hands to the applying: a group of messages, looked at by the filter,
/// or the end of a batch (its last UID).
enum Part {
    Looked(Looked),
    End(u32),
    /// Everything before has been applied: said to the fetching, which waits for it.
    Applied(tokio::sync::oneshot::Sender<()>),
}

/// A group looked at by the filter, or being looked at on a thread of its own.
enum Looked {
    Done(Vec<(Fetched, Pre)>),
    Later(tokio::task::JoinHandle<Vec<(Fetched, Pre)>>),
}

impl Looked {
    async fn get(self) -> anyhow::Result<Vec<(Fetched, Pre)>> {
        match self {
            Looked::Done(looked) => Ok(looked),
            Looked::Later(handle) => handle
                .await
                .with_context(|| crate::t!("daemon-filter-thread-failed")),
        }
    }
}

/// The key of the mailbox's sync state: the account and the mailbox, so that pointing the
/// config at another server or folder starts afresh.
fn state_key(w: &Watch) -> String {
    let c = &w.config;
    format!("{}@{}:{}/{}", c.username, c.host, c.port, c.mailbox)
}

/// What a pass needs from the store before it reads the mailbox: how far the last one read,
/// where a first read starts, and the filter. `ccmail run --once` reads it while the IMAP
/// connection is made.
pub(super) struct Ready {
    saved: Option<SyncState>,
    /// `first_sync_since`, or the earliest start date of the games not finished.
    since: Option<NaiveDate>,
    filter: Filter,
    /// The games by address and header, for matching each message to its game.
    index: GameIndex,
}

pub(super) async fn ready(d: &Daemon, w: &Watch) -> anyhow::Result<Ready> {
    let mut conn = d.store.conn().await?;
    let saved = store::sync_state(&mut conn, &state_key(w)).await?;
    let games = store::games(&mut conn, true).await?;
    let since = sift::start_date(w.first_sync_since, &games);
    Ok(Ready {
        saved,
        since,
        filter: Filter::new(&games, &d.me),
        index: GameIndex::new(&games),
    })
}

/// Reads what is new; returns how many messages were chess mail (stored or applied).
pub(super) async fn pass(
    d: &Daemon,
    w: &Watch,
    imap: &mut Imap,
    clock: &Clock,
    stop: &Stop,
    ready: Ready,
) -> anyhow::Result<usize> {
    let key = state_key(w);
    let validity = imap.uid_validity();
    let Ready {
        saved,
        since,
        filter,
        index,
    } = ready;
    // All UIDs below UIDNEXT (at SELECT) have been looked at once a pass completes.
    let end = imap.uid_next().map_or(0, |n| n.saturating_sub(1));
    let (after, first) = choose_start(w, saved, validity, since, end);
    let mut mark = Mark {
        key,
        state: SyncState {
            uid_validity: i64::from(validity),
            last_uid: i64::from(after),
        },
        // A first read is recorded even when it finds nothing.
        saved: saved.filter(|_| !first).map(|s| s.last_uid),
        told: Vec::new(),
        failing: None,
    };
    // The start date limits the first read only: later, a new UID is new mail. The server,
    // which counts days in its own zone, is asked from two days before it, and each message
    // is dated by its INTERNALDATE in the sift.
    let first_day = since.filter(|_| first).map(FirstDay);
    let uids = imap
        .uids_since(after, first_day.map(FirstDay::server_since))
        .await?;
    let bar = progress(
        first && !uids.is_empty(),
        uids.len() as u64,
        &w.config.mailbox,
    );
    let wanted = sift::sift(imap, d, &filter, &uids, &bar, first_day).await?;
    let oversize: HashMap<u32, u32> = wanted
        .iter()
        .filter(|w| w.size > MAX_MESSAGE_BYTES)
        .map(|w| (w.uid, w.size))
        .collect();
    // A pass that died (or messages that failed) after this UID before: one at a time.
    let begun = !wanted.is_empty();
    let careful = begun && tries::begin(d, &mark, clock).await?;
    let filter = Arc::new(filter);
    let reader = Reader {
        d,
        w,
        filter: &filter,
        index: &index,
        clock,
        validity,
        oversize,
    };
    let read = if careful {
        tries::one_at_a_time(imap, &reader, &wanted, stop, &mut mark, &bar).await
    } else {
        // The messages are looked at by the filter, on another thread, in groups as they
        // arrive, and applied here: the server, the filter and the store's thread work at the
        // same time, from the first group to the last. A few groups are in memory at a time
        // (one being applied, those waiting in the channel, one being filled); a slow store
        // holds the fetching back.
        let (send, received) = mpsc::channel::<Part>(WAITING);
        let fetching = fetch_in_batches(Fetching {
            imap,
            d,
            w,
            filter: Arc::clone(&filter),
            batches: batches(&wanted),
            send,
            settled_bar: bar.clone(),
        });
        let reading = apply_as_fetched(&reader, received, stop, &mut mark, &bar);
        // A failed fetch ends the channel: what came before it is still applied and recorded.
        let (fetched, read) = tokio::join!(fetching, reading);
        read.and_then(|chess| fetched.map(|()| chess))
    };
    if begun {
        tries::end(&reader, &mut mark, read.as_ref().err()).await;
    }
    let chess = read?;
    // What was applied before a stop.
    mark.save(d, clock).await?;
    if !stop.is_set() {
        mark.state.last_uid = mark.state.last_uid.max(i64::from(end));
        mark.save(d, clock).await?;
    }
    bar.finish_and_clear();
    Ok(chess)
}

/// Chooses where a pass starts: after the last UID read when the mailbox is the one read
/// before, else (a first read) from the start date, or from `end` (only new mail) without
/// one. Returns the UID to read after, and whether this is a first read.
fn choose_start(
    w: &Watch,
    saved: Option<SyncState>,
    validity: u32,
    since: Option<NaiveDate>,
    end: u32,
) -> (u32, bool) {
    match saved {
        Some(s) if s.uid_validity == i64::from(validity) => {
            (u32::try_from(s.last_uid).unwrap_or(0), false)
        }
        other => {
            if other.is_some() {
                tracing::warn!(mailbox = %w.config.mailbox, "{}", crate::t!("daemon-uidvalidity-changed"));
            }
            match since {
                Some(day) => {
                    tracing::info!(mailbox = %w.config.mailbox, "{}", crate::t!("daemon-reading-since", day = day));
                    (0, true)
                }
                None => {
                    tracing::info!(
                        mailbox = %w.config.mailbox,
                        "{}",
                        crate::t!("daemon-reading-new-only")
                    );
                    (end, true)
                }
            }
        }
    }
}

/// What the fetching of a pass works with.
struct Fetching<'a> {
    imap: &'a mut Imap,
    d: &'a Daemon,
    w: &'a Watch,
    filter: Arc<Filter>,
    batches: Vec<Vec<Wanted>>,
    /// Where the groups go, looked at, to be applied.
    send: mpsc::Sender<Part>,
    /// Mail settled by its head counts as read as soon as it is fetched.
    settled_bar: ProgressBar,
}

/// Fetches the batches, each in groups handed on to the filter as they arrive, and then the
/// end of the batch; stops when the applying has stopped.
async fn fetch_in_batches(f: Fetching<'_>) -> anyhow::Result<()> {
    let Fetching {
        imap,
        d,
        w,
        filter: looking,
        batches,
        send,
        settled_bar,
    } = f;
    let many = batches.len() > 1;
    for batch in &batches {
        // A message larger than a batch has a batch of its own, fetched once every message
        // before it has been applied, and looked at here: one such message is in memory at a
        // time, not a channel full of them.
        let large = batch.iter().map(|w| u64::from(w.size)).sum::<u64>() > BATCH_BYTES;
        if large && !all_applied(&send).await {
            break; // the reading stopped
        }
        // A message over the cap has a batch of its own (it is larger than a batch): only its
        // head is fetched, and looked at as if it were the whole.
        if let [one] = batch.as_slice()
            && one.size > MAX_MESSAGE_BYTES
        {
            let (to, mut from) = mpsc::channel::<Vec<Fetched>>(1);
            let handing = hand_to_filter(&mut from, &looking, true, &send);
            let fetching = async {
                let head = tries::head_of(imap, one.uid).await?;
                if let Some(m) = head {
                    // The receiver is `handing`, awaited beside this.
                    let _ = to.send(vec![m]).await;
                }
                drop(to);
                anyhow::Ok(())
            };
            let (head, applying) = tokio::join!(fetching, handing);
            head?;
            if !applying || send.send(Part::End(one.uid)).await.is_err() {
                break;
            }
            continue;
        }
        let (whole, settled) = to_fetch_whole(imap, d, w, &looking, batch).await?;
        settled_bar.inc(settled as u64);
        // A pass of one small batch (the usual pass of a running daemon: the message IDLE
        // announced) is looked at here: no thread is started, and none left to end.
        let inline = (!many && whole.len() <= GROUP) || large;
        let (to, mut from) = mpsc::channel::<Vec<Fetched>>(1);
        let handing = hand_to_filter(&mut from, &looking, inline, &send);
        let (fetched, applying) =
            tokio::join!(imap.fetch_uids_in_groups(&whole, GROUP, to), handing);
        fetched?;
        let last = batch.last().map_or(0, |w| w.uid);
        if !applying || send.send(Part::End(last)).await.is_err() {
            break; // the reading stopped
        }
    }
    anyhow::Ok(())
}

/// Waits until the applying has applied every group sent before; false if it has stopped.
async fn all_applied(send: &mpsc::Sender<Part>) -> bool {
    let (told, applied) = tokio::sync::oneshot::channel();
    send.send(Part::Applied(told)).await.is_ok() && applied.await.is_ok()
}

/// Hands each group to the filter as it arrives (here when `inline`, else on a thread of its
/// own), and on to the applying. Once the applying has stopped, the rest of the batch is read
/// and dropped. Returns whether the applying goes on.
async fn hand_to_filter(
    from: &mut mpsc::Receiver<Vec<Fetched>>,
    looking: &Arc<Filter>,
    inline: bool,
    send: &mpsc::Sender<Part>,
) -> bool {
    let mut applying = true;
    while let Some(group) = from.recv().await {
        if !applying {
            continue;
        }
        let looking = Arc::clone(looking);
        let look = move || look_at(&looking, group);
        let looked = if inline {
            Looked::Done(look())
        } else {
            Looked::Later(tokio::task::spawn_blocking(look))
        };
        applying = send.send(Part::Looked(looked)).await.is_ok();
    }
    applying
}

/// Applies the groups the fetching hands on, and advances `mark` with them; returns how many
/// messages were chess mail.
///
/// The applies and the last UID read are committed together, once the transaction has been
/// open for [`HOLD`]: after the group in hand, or while the next is awaited (the write lock is
/// not held on while the server is slow). The messages come in UID order
/// (`fetch_uids_in_groups`), each batch's after the one before: when one has been applied,
/// every UID below it has been read. A crash (or an error) before a commit reads those
/// messages again.
async fn apply_as_fetched(
    r: &Reader<'_>,
    received: mpsc::Receiver<Part>,
    stop: &Stop,
    mark: &mut Mark,
    bar: &ProgressBar,
) -> anyhow::Result<usize> {
    // Owned here, so that a stop drops it and ends the fetching.
    let mut received = received;
    let mut chess = 0;
    let mut open: Option<(Transaction, Instant)> = None;
    loop {
        let next = await_next_part(&mut received, &mut open, mark, r).await?;
        let looked = match next {
            None => break,
            Some(Part::Looked(looked)) => looked.get().await?,
            Some(Part::End(last)) => {
                // UIDs gone between SEARCH and FETCH count as read too.
                mark.state.last_uid = mark.state.last_uid.max(i64::from(last));
                Vec::new()
            }
            Some(Part::Applied(told)) => {
                let _ = told.send(()); // the fetching waits for it, or has stopped
                continue;
            }
        };
        if open.is_none() {
            open = Some((r.d.store.begin().await?, Instant::now()));
        }
        let (tx, since) = open.as_mut().expect("a transaction is open");
        let (applied, stopped) = apply_group(tx, r, looked, stop, mark, bar).await?;
        chess += applied;
        if stopped || since.elapsed() >= HOLD {
            mark.commit(r.d, open.take(), r.clock).await?;
        }
        if stopped {
            break;
        }
    }
    mark.commit(r.d, open.take(), r.clock).await?;
    anyhow::Ok(chess)
}

/// Awaits the next part from the fetching. While a transaction is open, it is committed
/// once it has been open for [`HOLD`], and the wait goes on.
async fn await_next_part(
    received: &mut mpsc::Receiver<Part>,
    open: &mut Option<(Transaction, Instant)>,
    mark: &mut Mark,
    r: &Reader<'_>,
) -> anyhow::Result<Option<Part>> {
    Ok(match open {
        Some((_, since)) => {
            let left = HOLD.saturating_sub(since.elapsed());
            match tokio::time::timeout(left, received.recv()).await {
                Ok(next) => next,
                Err(_) => {
                    mark.commit(r.d, open.take(), r.clock).await?;
                    received.recv().await
                }
            }
        }
        None => received.recv().await,
    })
}

/// Applies a group in the open transaction `tx`, the last UID read moving with each message,
/// until a stop; returns how many were chess mail, and whether it stopped.
async fn apply_group(
    tx: &mut SqliteConnection,
    r: &Reader<'_>,
    looked: Vec<(Fetched, Pre)>,
    stop: &Stop,
    mark: &mut Mark,
    bar: &ProgressBar,
) -> anyhow::Result<(usize, bool)> {
    let mut chess = 0;
    for (m, pre) in looked {
        if stop.is_set() {
            return Ok((chess, true));
        }
        // Known, should it fail: its try is counted once the transaction is let go.
        mark.failing = Some(m.uid);
        if tries::caught(m.uid, one(tx, r, &m, pre, &mut mark.told)).await? {
            chess += 1;
        }
        mark.failing = None;
        mark.state.last_uid = i64::from(m.uid);
        bar.inc(1);
    }
    Ok((chess, false))
}

/// What every message of a pass is read with.
struct Reader<'a> {
    d: &'a Daemon,
    w: &'a Watch,
    filter: &'a Filter,
    /// The games by address and header, for matching each message to its game.
    index: &'a GameIndex,
    clock: &'a Clock,
    /// The mailbox's UIDVALIDITY.
    validity: u32,
    /// The messages over [`MAX_MESSAGE_BYTES`], by UID, with their sizes: only their heads
    /// are fetched, and they are held as too large.
    oversize: HashMap<u32, u32>,
}

/// One message: filtered, then applied when it is chess mail; true if it was.
async fn one(
    tx: &mut SqliteConnection,
    r: &Reader<'_>,
    m: &Fetched,
    pre: Pre,
    told: &mut Vec<Told>,
) -> anyhow::Result<bool> {
    let Reader {
        d,
        w,
        filter,
        index,
        clock,
        validity,
        ..
    } = *r;
    let uid = m.uid;
    let incoming = match filter.decide(tx, &m.raw, pre).await? {
        Checked::NotChess(why) => {
            tracing::debug!(uid, "skipped, not chess mail: {why}");
            return Ok(false);
        }
        Checked::Chess(why, mut incoming) => {
            tracing::debug!(uid, "chess mail: {why}");
            if let Some(&bytes) = r.oversize.get(&uid) {
                incoming.message = message::too_large(message::TooLarge::Message {
                    bytes: u64::from(bytes),
                    max: u64::from(MAX_MESSAGE_BYTES),
                });
            }
            incoming
        }
    };
    // A message cannot arrive after now (a server clock ahead of ours, or `--now` in the past).
    let at = m.internal_date.min(clock.now.fixed_offset());
    // A message too large to read is stored by its first bytes, enough for its headers and
    // the start of its text: the whole stays in the mailbox, and the database does not grow,
    // nor the daemon's memory, by the size of a hostile letter.
    let kept = if incoming.message.too_large.is_some() {
        &m.raw[..m.raw.len().min(HEAD)]
    } else {
        &m.raw[..]
    };
    let arrival = Arrival {
        raw: kept,
        at,
        mailbox: Some(&w.config.mailbox),
        uid_validity: Some(validity),
        uid: Some(uid),
    };
    let outcome = apply::apply_indexed(tx, &d.me, clock, &arrival, &incoming, Some(index))
        .await
        .with_context(|| crate::t!("daemon-applying-uid", uid = uid))?;
    match &outcome {
        Outcome::Duplicate { .. } => tracing::debug!(uid, "{}", shown(&outcome.describe())),
        _ => told.push(Told {
            uid,
            held: matches!(outcome, Outcome::Held { .. }),
            what: outcome.describe(),
            hook: hooks::of_outcome(&outcome),
        }),
    }
    Ok(true)
}

/// What applying a message did, told in the log once it is committed: a player who reads
/// "applied" there and answers at once finds the move in the store.
struct Told {
    uid: u32,
    held: bool,
    what: String,
    /// The `on_move` or `on_held` hook's event, fired after the commit.
    hook: Option<hooks::Event>,
}

/// The sync state being advanced, written when it changed.
struct Mark {
    key: String,
    state: SyncState,
    saved: Option<i64>,
    /// What the messages applied in the open transaction did, told when it commits.
    told: Vec<Told>,
    /// The message being applied: if the pass fails on it, its try is counted.
    failing: Option<u32>,
}

impl Mark {
    async fn save(&mut self, d: &Daemon, clock: &Clock) -> anyhow::Result<()> {
        if self.saved == Some(self.state.last_uid) {
            return Ok(());
        }
        self.save_in(&mut *d.store.conn().await?, clock).await?;
        self.saved = Some(self.state.last_uid);
        Ok(())
    }

    /// Writes the state in `open`'s transaction, and commits it (with the batches applied in
    /// it); nothing without a transaction.
    async fn commit(
        &mut self,
        d: &Daemon,
        open: Option<(Transaction, Instant)>,
        clock: &Clock,
    ) -> anyhow::Result<()> {
        let Some((mut tx, _)) = open else {
            return Ok(());
        };
        self.save_in(&mut tx, clock).await?;
        tx.commit().await?;
        self.saved = Some(self.state.last_uid);
        for Told {
            uid,
            held,
            what,
            hook,
        } in self.told.drain(..)
        {
            // The log may be a terminal, and reasons quote the mail: shown, not obeyed.
            let what = shown(&what);
            if held {
                tracing::warn!(uid, "{what}");
            } else {
                tracing::info!(uid, "{what}");
            }
            if let Some(event) = hook {
                hooks::fire_for_message(&d.store, &d.hooks, event).await;
            }
        }
        Ok(())
    }

    /// Writes the state in the caller's transaction; the caller sets `saved` once it commits.
    async fn save_in(&self, conn: &mut SqliteConnection, clock: &Clock) -> anyhow::Result<()> {
        if self.saved != Some(self.state.last_uid) {
            store::set_sync_state(conn, &self.key, self.state, &clock.stamp()).await?;
        }
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
    bar.set_message(crate::t!("daemon-progress-reading", mailbox = mailbox));
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

#[cfg(test)]
mod tests {
    use ccmail_store::{GameRow, Store};

    use super::*;
    use crate::app::Me;

    #[tokio::test]
    async fn the_filter_lets_go_of_the_bytes_of_mail_that_is_not_chess_mail() {
        let store = Store::memory().await.unwrap();
        let game = GameRow {
            white: "Иванов".into(),
            black: "Петров".into(),
            my_color: "white".into(),
            opponent_email: "petrov@example.org".into(),
            status: store::GameStatus::Active,
            ..GameRow::new(
                "g1",
                "2026-03-01".parse().unwrap(),
                "2026-03-01T12:00:00+03:00",
            )
        };
        store::insert_game(&mut store.conn().await.unwrap(), &game)
            .await
            .unwrap();
        let me = Me {
            name: "Иванов Иван".into(),
            surname: "Иванов".into(),
            email: "ivanov@example.org".into(),
            ..Default::default()
        };
        let filter = Filter::load(&store, &me).await.unwrap();
        let mail = |uid, from: &str, extra: &str| Fetched {
            uid,
            internal_date: "2026-03-02T10:00:00+03:00".parse().unwrap(),
            raw: format!(
                "From: <{from}>\r\nTo: <ivanov@example.org>\r\nSubject: hi\r\n{extra}\r\n\
                 1. e2-e4\r\n"
            )
            .into_bytes(),
        };
        let fetched = vec![
            mail(1, "petrov@example.org", ""),
            mail(2, "friend@example.net", ""),
            mail(
                3,
                "friend@example.net",
                "In-Reply-To: <ours@example.org>\r\n",
            ),
        ];
        let sizes: Vec<usize> = fetched.iter().map(|m| m.raw.len()).collect();
        let looked = look_at(&filter, fetched);
        let kept: Vec<(u32, usize)> = looked.iter().map(|(m, _)| (m.uid, m.raw.len())).collect();
        // The opponent's move is applied from its bytes; mail that answers a message is kept
        // until the store says whether that message is a game's.
        assert_eq!(kept, [(1, sizes[0]), (2, 0), (3, sizes[2])]);
    }

    #[test]
    fn batches_hold_three_hundred_messages_or_six_megabytes() {
        let wanted = |sizes: &[(u32, u32)]| -> Vec<Wanted> {
            sizes
                .iter()
                .map(|&(uid, size)| Wanted {
                    uid,
                    size,
                    by_content: false,
                })
                .collect()
        };
        let small: Vec<(u32, u32)> = (1..=700).map(|uid| (uid, 2_000)).collect();
        let lens: Vec<usize> = batches(&wanted(&small)).iter().map(Vec::len).collect();
        assert_eq!(lens, [300, 300, 100]);
        // 2.25 MB each: two to a batch; a message larger than a batch has one of its own.
        let (mb, big) = (1 << 20, 9 << 18);
        let sizes = [(1, big), (2, big), (3, big), (7, 20 * mb), (9, 10)];
        let uids: Vec<Vec<u32>> = batches(&wanted(&sizes))
            .iter()
            .map(|b| b.iter().map(|w| w.uid).collect())
            .collect();
        assert_eq!(uids, [vec![1, 2], vec![3], vec![7], vec![9]]);
        assert!(batches(&[]).is_empty());
    }
}
