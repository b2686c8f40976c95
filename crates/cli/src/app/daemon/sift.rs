//! Deciding from the headers first: which messages' bodies a pass must fetch at all.
//!
//! A player's mailbox is mostly their other mail, and most of its bytes are attachments. The
//! rules of what is chess mail ([`super::filter`]) mostly need only a message's headers: who
//! wrote it (the player, a correspondent of a game), and what it answers (a game's thread).
//! So a pass first fetches the headers of the new messages that say this (From, In-Reply-To
//! and References: [`Filter::SIFT_FIELDS`], a few hundred bytes each, where a provider's whole
//! header block is often kilobytes), and then the bodies of only those that may be chess
//! mail:
//!
//! - from a correspondent of a game (rule 2), or with headers that can't be read here;
//! - answering a message of a game (rule 3: the store is asked);
//! - from anyone else, when the server finds in its text what a game header is made of (rule
//!   4: [`Filter::content_query`], one `UID SEARCH` a pass), or when the server's
//!   `BODYSTRUCTURE` shows a part that may carry PGN (a server searches text parts only, and
//!   the reader reads a `.pgn` file of any type). That search finds every message whose text
//!   the reader takes a game header from, and some more; a server that can't do it has all
//!   such mail fetched, as if each had matched. Mail that arrived within [`INDEX_LAG`] is not
//!   asked of the search but fetched and read here: a provider's search index may not have
//!   taken it in yet (Gmail does not promise that it has), and a message the search misses
//!   would be passed over for good.
//!
//! The bodies fetched then pass through [`Filter::pre`] and [`Filter::decide`] as before:
//! every message meets the same rules, only the bytes differ. What is settled here is what
//! the whole message would settle the same way: mail from the player, and mail that could be
//! chess mail only by a game header its text does not have.

use ccmail_mail::imap::{Header, Imap};
use chrono::{DateTime, FixedOffset, TimeDelta, Utc};
use indicatif::ProgressBar;

use super::Daemon;
use super::filter::{Filter, Sift};

/// How many messages' header fields are asked for at once (in one UID FETCH, but for a UID
/// set too long for one command line): about a megabyte of answers, held until the last
/// is read.
const HEADERS: usize = 2_000;

/// How long after its arrival mail is read by ccmail itself rather than asked of the server's
/// text search, whose index may lag behind new mail. A daemon reads new mail within seconds,
/// so in its steady state this is every message; a first sync asks the search about the rest.
const INDEX_LAG: TimeDelta = TimeDelta::hours(1);

/// The UIDs of `asked` (ascending) that have no header fields among `answered` (ascending, a
/// subset of `asked`).
fn not_answered(asked: &[u32], answered: &[Header]) -> Vec<u32> {
    let mut answered = answered.iter().map(|h| h.uid).peekable();
    asked
        .iter()
        .copied()
        .filter(|&uid| {
            while answered.next_if(|&a| a < uid).is_some() {}
            answered.next_if_eq(&uid).is_none()
        })
        .collect()
}

/// Whether mail the server received at `arrived` is within [`INDEX_LAG`] of `now` (the
/// machine's clock, whatever `--now` says: the lag is the server's, in real time). Mail dated
/// after `now`, by a server clock ahead of ours, is recent too.
fn too_recent_for_the_index(arrived: DateTime<FixedOffset>, now: DateTime<Utc>) -> bool {
    arrived > now - INDEX_LAG
}

/// A message whose body is to be fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Wanted {
    pub uid: u32,
    /// RFC822.SIZE, in bytes.
    pub size: u32,
    /// It may be chess mail only by its content: a large one is looked at by its head first
    /// ([`super::sync`]'s `to_fetch_whole`).
    pub by_content: bool,
}

/// The messages among `uids` whose bodies may hold chess mail, in UID order. The others are
/// counted on `bar` as read.
pub(super) async fn sift(
    imap: &mut Imap,
    d: &Daemon,
    filter: &Filter,
    uids: &[u32],
    bar: &ProgressBar,
) -> anyhow::Result<Vec<Wanted>> {
    let mut wanted = Vec::new();
    let mut content = Vec::new();
    // The machine's clock, not the pass's: the server's index lags in real time.
    let now = Utc::now();
    for chunk in uids.chunks(HEADERS) {
        let headers = imap.fetch_headers(chunk, &Filter::SIFT_FIELDS).await?;
        // A message the server listed but gave no header fields for is fetched whole, as
        // before this sift: if it is gone, that fetch finds nothing; if not, it is read.
        for uid in not_answered(chunk, &headers) {
            wanted.push(Wanted {
                uid,
                size: 0,
                by_content: false,
            });
        }
        let mut conn = None;
        for h in headers {
            let want = |by_content| Wanted {
                uid: h.uid,
                size: h.size,
                by_content,
            };
            let recent = too_recent_for_the_index(h.internal_date, now);
            if recent {
                tracing::debug!(
                    uid = h.uid,
                    // not the interface's: the debug log
                    "arrived within the hour: not asked of the search"
                );
            }
            match filter.sift(&h.header) {
                Sift::Not(why) => {
                    tracing::debug!(uid = h.uid, "skipped by its headers, not chess mail: {why}");
                    bar.inc(1);
                }
                Sift::Body => wanted.push(want(false)),
                // The server's search may not look into such a part.
                Sift::Thread(_) | Sift::Content if h.pgn_part => wanted.push(want(true)),
                Sift::Thread(ids) => {
                    let conn = match &mut conn {
                        Some(conn) => conn,
                        None => conn.insert(d.store.conn().await?),
                    };
                    if Filter::in_a_games_thread(conn, &ids).await? {
                        wanted.push(want(false));
                    } else if recent {
                        wanted.push(want(true));
                    } else {
                        content.push(want(true));
                    }
                }
                Sift::Content if recent => wanted.push(want(true)),
                Sift::Content => content.push(want(true)),
            }
        }
    }
    if !content.is_empty() {
        tracing::debug!(
            messages = content.len(),
            // not the interface's: the debug log
            "asking the server's text search for a game header"
        );
        let asked: Vec<u32> = content.iter().map(|w| w.uid).collect();
        let found = match imap.search_text(&asked, &Filter::content_query()).await {
            Ok(found) => Some(found),
            Err(e @ ccmail_mail::imap::ImapError::Protocol { .. }) => {
                tracing::warn!(
                    "{}",
                    crate::t!("daemon-search-failed", error = e.to_string())
                );
                None
            }
            Err(e) => return Err(e.into()),
        };
        for w in content {
            if found
                .as_ref()
                .is_none_or(|f| f.binary_search(&w.uid).is_ok())
            {
                wanted.push(w);
            } else {
                tracing::debug!(uid = w.uid, "skipped, no game header in its text");
                bar.inc(1);
            }
        }
    }
    wanted.sort_unstable_by_key(|w| w.uid);
    Ok(wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_without_a_header_block_is_fetched_whole() {
        let header = |uid| Header {
            uid,
            size: 10,
            internal_date: DateTime::parse_from_rfc3339("2026-03-01T10:00:00Z").unwrap(),
            header: b"From: <a@b>\r\n\r\n".to_vec(),
            pgn_part: false,
        };
        let answered: Vec<Header> = [2, 3, 7].into_iter().map(header).collect();
        assert_eq!(not_answered(&[1, 2, 3, 5, 7, 9], &answered), [1, 5, 9]);
        assert_eq!(not_answered(&[2, 3, 7], &answered), Vec::<u32>::new());
        assert_eq!(not_answered(&[4], &[]), [4]);
    }

    #[test]
    fn mail_of_the_last_hour_is_read_here_and_older_mail_asked_of_the_search() {
        let now: DateTime<Utc> = "2026-12-02T12:00:00Z".parse().unwrap();
        let at = |t: &str| DateTime::parse_from_rfc3339(t).unwrap();
        for (arrived, recent) in [
            ("2026-12-02T11:59:50Z", true),
            ("2026-12-02T11:00:01Z", true),
            // The same instant in the server's zone.
            ("2026-12-02T14:30:00+03:00", true),
            ("2026-12-02T11:00:00Z", false),
            ("2026-12-01T12:00:00Z", false),
            // A server clock ahead of ours.
            ("2026-12-02T12:05:00Z", true),
        ] {
            assert_eq!(
                too_recent_for_the_index(at(arrived), now),
                recent,
                "{arrived}"
            );
        }
    }
}
