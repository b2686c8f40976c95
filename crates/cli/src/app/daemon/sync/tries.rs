//! A message that failed a pass is not tried forever: after [`MAX_TRIES`] failed tries it is
//! held unread, and the pass moves on.
//!
//! A failed try is an error or a panic while the message is read or applied (its UID is
//! known then: the try is counted as the pass ends), or the daemon's death under a memory
//! limit while it read the message. A pass records that it is under way before it reads, and
//! that it ended after (even with an error). A record left behind says that the pass died —
//! killed, out of memory, aborted — without telling on which message: the next pass, from the
//! same UID, reads one message at a time ([`one_at_a_time`]), recording which it reads. If
//! that one dies too, the message it read counts a failed try only if the machine's count of
//! processes killed for want of memory (`oom_kill` of `/proc/vmstat`, which counts a unit's
//! `MemoryMax` too) grew meanwhile: a `kill -9`, or a reboot, is no fault of the message. A
//! try that fails for the connection's or the disk's sake counts neither. A message with
//! [`MAX_TRIES`] failed tries is held from its first bytes, never read again by the daemon
//! (`ccmail inbox` shows it, with the last error), and the UID moves on: a partner's move
//! behind it is applied.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use ccmail_mail::imap::{Fetched, Imap, ImapError};
use ccmail_mail::mime;
use ccmail_store::{self as store, DatabaseWords, Inserted, NewMessage, Said, Store, StoreError};
use indicatif::ProgressBar;

use super::super::filter::HEAD;
use super::super::sift::Wanted;
use super::super::{Stop, hooks};
use super::{MAX_MESSAGE_BYTES, Mark, Reader, Told, one};
use crate::app::Clock;
use crate::app::apply::Outcome;

/// After this many failed tries a message is held unread.
pub(super) const MAX_TRIES: i64 = 2;

/// Records that a pass starts after the UID `mark` holds; returns whether it must read one
/// message at a time: the last pass died after the same UID, or a message after it failed.
/// A message the last pass died on, reading one at a time, counts a failed try if processes
/// were killed for want of memory since it began.
pub(super) async fn begin(d: &super::Daemon, mark: &Mark, clock: &Clock) -> anyhow::Result<bool> {
    let careful = begin_counting(&d.store, mark, clock, oom_kills()).await?;
    if careful.died {
        tracing::warn!(
            "{}",
            crate::t!("daemon-pass-died", uid = mark.state.last_uid)
        );
    }
    Ok(careful.died || careful.failed)
}

/// Why a pass reads one message at a time.
#[derive(Debug, PartialEq, Eq)]
struct Careful {
    /// The last pass died after the same UID.
    died: bool,
    /// A message after it has failed tries.
    failed: bool,
}

/// [`begin`], the machine's count of processes killed for want of memory being `oom`.
async fn begin_counting(
    store: &Store,
    mark: &Mark,
    clock: &Clock,
    oom: Option<i64>,
) -> anyhow::Result<Careful> {
    let conn = &mut *store.conn().await?;
    let (key, state) = (&mark.key, mark.state);
    let at = (state.uid_validity, state.last_uid);
    let left = store::begin_read_pass(conn, key, at, oom, &clock.stamp()).await?;
    if let Some(left) = left
        && let (Some(uid), Some(before), Some(now)) = (left.reading_uid, left.oom_kills, oom)
        && now > before
    {
        let error = crate::t!("daemon-held-died");
        store::add_read_try(conn, key, at.0, uid, Some(&error), &clock.stamp()).await?;
    }
    Ok(Careful {
        died: left.is_some(),
        failed: store::has_read_tries_after(conn, key, at.0, at.1).await?,
    })
}

/// The machine's count of processes killed for want of memory since it started (Linux's
/// `/proc/vmstat`, which counts the kills of a cgroup's memory limit too); `None` elsewhere.
fn oom_kills() -> Option<i64> {
    let vmstat = std::fs::read_to_string("/proc/vmstat").ok()?;
    oom_kills_in(&vmstat)
}

fn oom_kills_in(vmstat: &str) -> Option<i64> {
    vmstat
        .lines()
        .find_map(|l| l.strip_prefix("oom_kill "))
        .and_then(|n| n.trim().parse().ok())
}

/// Records that the pass ended, and, if it failed on a message being applied, counts that
/// message's try with the error.
pub(super) async fn end(r: &Reader<'_>, mark: &mut Mark, failed: Option<&anyhow::Error>) {
    let recorded = async {
        let conn = &mut *r.d.store.conn().await?;
        if let (Some(e), Some(uid)) = (failed, mark.failing.take())
            && !no_fault_of_the_message(e)
        {
            let error = super::super::words(e);
            let validity = mark.state.uid_validity;
            let now = r.clock.stamp();
            store::add_read_try(
                conn,
                &mark.key,
                validity,
                i64::from(uid),
                Some(&error),
                &now,
            )
            .await?;
        }
        store::end_read_pass(conn, &mark.key).await?;
        anyhow::Ok(())
    };
    if let Err(e) = recorded.await {
        tracing::warn!(
            "{}",
            crate::t!("daemon-tries-not-recorded", error = e.to_string())
        );
    }
}

/// The first [`HEAD`] bytes of the message `uid`, with its arrival time, as a message of its
/// own: a message over [`MAX_MESSAGE_BYTES`], or one held unread, is not fetched whole.
/// `None` when it is gone.
pub(super) async fn head_of(imap: &mut Imap, uid: u32) -> anyhow::Result<Option<Fetched>> {
    let limit = u32::try_from(HEAD).unwrap_or(u32::MAX);
    let Some(header) = imap.fetch_headers(&[uid], &["Message-ID"]).await?.pop() else {
        return Ok(None);
    };
    let Some(head) = imap.fetch_heads(&[uid], limit).await?.pop() else {
        return Ok(None);
    };
    Ok(Some(Fetched {
        uid,
        internal_date: header.internal_date,
        raw: head.head,
    }))
}

/// Reads `wanted` one message at a time, each recorded as the one read before it is fetched;
/// a message with [`MAX_TRIES`] failed tries is held unread. Returns how many were chess mail.
pub(super) async fn one_at_a_time(
    imap: &mut Imap,
    r: &Reader<'_>,
    wanted: &[Wanted],
    stop: &Stop,
    mark: &mut Mark,
    bar: &ProgressBar,
) -> anyhow::Result<usize> {
    let mut chess = 0;
    let (key, validity) = (mark.key.clone(), mark.state.uid_validity);
    for want in wanted {
        if stop.is_set() {
            break;
        }
        let uid = i64::from(want.uid);
        let (tries, error) =
            store::read_tries(&mut *r.d.store.conn().await?, &key, validity, uid).await?;
        if tries >= MAX_TRIES {
            hold_unread(imap, r, want.uid, error, mark).await?;
            bar.inc(1);
            continue;
        }
        store::set_reading_uid(&mut *r.d.store.conn().await?, &key, uid).await?;
        match try_one(imap, r, want, mark).await {
            Ok(is) => chess += usize::from(is),
            Err(e) => {
                // Counted, unless the machine or the connection failed, not the message.
                if !no_fault_of_the_message(&e) {
                    let words = super::super::words(&e);
                    let now = r.clock.stamp();
                    let conn = &mut *r.d.store.conn().await?;
                    let counted =
                        store::add_read_try(conn, &key, validity, uid, Some(&words), &now).await;
                    if let Err(not) = counted {
                        let error = not.to_string();
                        tracing::warn!("{}", crate::t!("daemon-tries-not-recorded", error = error));
                    }
                }
                return Err(e);
            }
        }
        if tries > 0 {
            store::clear_read_try(&mut *r.d.store.conn().await?, &key, validity, uid).await?;
        }
        bar.inc(1);
    }
    Ok(chess)
}

/// Fetches the message `want` (its head, if it is over [`MAX_MESSAGE_BYTES`]), and filters
/// and applies it in a transaction of its own; whether it was chess mail.
async fn try_one(
    imap: &mut Imap,
    r: &Reader<'_>,
    want: &Wanted,
    mark: &mut Mark,
) -> anyhow::Result<bool> {
    let fetched = if want.size > MAX_MESSAGE_BYTES {
        head_of(imap, want.uid).await?
    } else {
        imap.fetch_uids(&[want.uid]).await?.pop()
    };
    let mut chess = false;
    if let Some(m) = fetched {
        let pre = r.filter.pre(&m.raw);
        let mut tx = r.d.store.begin().await?;
        chess = caught(m.uid, one(&mut tx, r, &m, pre, &mut mark.told)).await?;
        mark.state.last_uid = i64::from(want.uid);
        mark.commit(r.d, Some((tx, Instant::now())), r.clock)
            .await?;
    } else {
        mark.state.last_uid = i64::from(want.uid);
    }
    Ok(chess)
}

/// `work` on the message `uid`, a panic in it turned into an error that names the message
/// (so that its try is counted, as an error's).
pub(super) async fn caught<T>(
    uid: u32,
    work: impl Future<Output = anyhow::Result<T>>,
) -> anyhow::Result<T> {
    match Caught(Box::pin(work)).await {
        Ok(done) => done,
        Err(why) => Err(anyhow::anyhow!(crate::t!(
            "daemon-panicked",
            uid = uid,
            why = why
        ))),
    }
}

/// A future whose panic is caught: the panic's message.
struct Caught<F>(Pin<Box<F>>);

impl<F: Future> Future for Caught<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match catch_unwind(AssertUnwindSafe(|| self.0.as_mut().poll(cx))) {
            Ok(Poll::Ready(done)) => Poll::Ready(Ok(done)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_owned())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Poll::Ready(Err(why))
            }
        }
    }
}

/// Whether a failure was no fault of the message: the connection broke (an IMAP error), or
/// the machine failed the store (a full, read-only or failing disk, a busy database). Such a
/// failure counts as no try: the message is read when the trouble has passed, as ever.
fn no_fault_of_the_message(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        if cause.downcast_ref::<ImapError>().is_some() {
            return true;
        }
        let words = match cause.downcast_ref::<StoreError>() {
            Some(StoreError::Sql(e)) => Some(DatabaseWords::of(e)),
            _ => store::database_error(cause),
        };
        match words {
            Some(DatabaseWords {
                trouble: Some(_), ..
            }) => true,
            // SQLITE_BUSY, SQLITE_LOCKED, and their extended codes.
            Some(DatabaseWords {
                said: Said::Sqlite { code, .. },
                ..
            }) => code.parse::<i64>().is_ok_and(|c| matches!(c & 0xff, 5 | 6)),
            // Not SQLite's: the pool, the file.
            Some(DatabaseWords {
                said: Said::Other(_),
                ..
            }) => true,
            None => false,
        }
    })
}

/// Holds the message `uid` unread after its failed tries: its first [`HEAD`] bytes are
/// stored (the whole stays in the mailbox), with the last error, and the UID moves on.
async fn hold_unread(
    imap: &mut Imap,
    r: &Reader<'_>,
    uid: u32,
    error: Option<String>,
    mark: &mut Mark,
) -> anyhow::Result<()> {
    let (key, validity) = (mark.key.clone(), mark.state.uid_validity);
    if let Some(m) = head_of(imap, uid).await? {
        let error = error.unwrap_or_else(|| crate::t!("daemon-held-died"));
        let reason = crate::t!("daemon-held-failed", tries = MAX_TRIES, error = error);
        // Only its head is decoded, for the inbox's From and Subject (bounded, and guarded):
        // the move reader and the applying, whatever failed, are not run again.
        let header = catch_unwind(AssertUnwindSafe(|| mime::decode(&m.raw).ok()))
            .ok()
            .flatten();
        let from = header
            .as_ref()
            .and_then(|h| h.from.as_ref())
            .map(|a| a.normalized_email());
        let stamp = r.clock.stamp();
        let row = NewMessage {
            direction: store::Direction::In,
            message_id: header.as_ref().and_then(|h| h.message_id.as_deref()),
            raw: &m.raw,
            from_addr: from.as_deref(),
            subject: header.as_ref().and_then(|h| h.subject.as_deref()),
            received_at: Some(m.internal_date.to_rfc3339()),
            status: store::MessageStatus::Held,
            reason: Some(&reason),
            mailbox: Some(&r.w.config.mailbox),
            uid_validity: Some(validity),
            uid: Some(i64::from(uid)),
            created_at: &stamp,
            ..NewMessage::default()
        };
        let mut tx = r.d.store.begin().await?;
        if let Inserted::New(id) = store::insert_incoming(&mut tx, &row).await? {
            let outcome = Outcome::Held {
                message: id,
                game: None,
                reason,
            };
            mark.told.push(Told {
                uid,
                held: true,
                what: outcome.describe(),
                hook: hooks::of_outcome(&outcome),
            });
        }
        mark.state.last_uid = i64::from(uid);
        mark.commit(r.d, Some((tx, Instant::now())), r.clock)
            .await?;
    } else {
        mark.state.last_uid = i64::from(uid);
    }
    store::clear_read_try(
        &mut *r.d.store.conn().await?,
        &key,
        validity,
        i64::from(uid),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_of_processes_killed_for_want_of_memory() {
        let vmstat = "pgfault 10\noom_kill 3\nnr_free_pages 7\n";
        assert_eq!(oom_kills_in(vmstat), Some(3));
        assert_eq!(oom_kills_in("pgfault 10\n"), None);
        // This machine's, if it is Linux: a number.
        if cfg!(target_os = "linux") {
            assert!(oom_kills().is_some());
        }
    }

    /// A pass that died while it read a message, one at a time, counts a try at it only if
    /// processes were killed for want of memory meanwhile: a `kill -9` is no fault of the
    /// message. Either way the next pass reads one message at a time.
    #[tokio::test]
    async fn a_death_counts_a_try_only_under_a_memory_limit() {
        let store = Store::memory().await.unwrap();
        let clock = Clock::new(Some("2026-03-03"), chrono_tz::UTC).unwrap();
        let mark = Mark {
            key: "box".into(),
            state: store::SyncState {
                uid_validity: 7,
                last_uid: 10,
            },
            saved: None,
            told: Vec::new(),
            failing: None,
        };
        let tries = |store: &Store| {
            let store = store.clone();
            async move {
                let c = &mut *store.conn().await.unwrap();
                store::read_tries(c, "box", 7, 11).await.unwrap().0
            }
        };
        let reading_11 = |store: &Store| {
            let store = store.clone();
            async move {
                let c = &mut *store.conn().await.unwrap();
                store::set_reading_uid(c, "box", 11).await.unwrap();
            }
        };
        let calm = Careful {
            died: false,
            failed: false,
        };
        let died = |failed| Careful { died: true, failed };
        // A first pass; it dies reading 11, killed (the count unchanged): no try counted.
        assert_eq!(
            begin_counting(&store, &mark, &clock, Some(3))
                .await
                .unwrap(),
            calm
        );
        reading_11(&store).await;
        let next = begin_counting(&store, &mark, &clock, Some(3))
            .await
            .unwrap();
        assert_eq!((next, tries(&store).await), (died(false), 0));
        // It dies reading 11 under a memory limit, twice: two tries, and it will be held.
        for n in [1, 2] {
            reading_11(&store).await;
            let next = begin_counting(&store, &mark, &clock, Some(3 + n))
                .await
                .unwrap();
            assert_eq!((next, tries(&store).await), (died(true), n));
        }
        // No count to compare (not Linux): no try.
        reading_11(&store).await;
        let next = begin_counting(&store, &mark, &clock, None).await.unwrap();
        assert_eq!((next, tries(&store).await), (died(true), 2));
    }

    #[tokio::test]
    async fn a_panic_is_an_error_that_names_the_message() {
        let work = async {
            if "x".len() == 1 {
                panic!("the reader broke");
            }
            anyhow::Ok(1)
        };
        let e = caught(42, work).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            "reading the message with UID 42 panicked: the reader broke"
        );
        assert_eq!(caught(7, async { anyhow::Ok(1) }).await.unwrap(), 1);
    }
}
