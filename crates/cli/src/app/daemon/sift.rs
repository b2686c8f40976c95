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
//! A first read also passes over, here, the mail that arrived before its start date
//! ([`FirstDay`]): the server, whose `SINCE` counts days in its own zone, was asked for the
//! mail from two days before it, and each message's INTERNALDATE, with its offset, says when
//! it arrived.
//!
//! The bodies fetched then pass through [`Filter::pre`] and [`Filter::decide`] as before:
//! every message meets the same rules, only the bytes differ. What is settled here is what
//! the whole message would settle the same way: mail from the player, and mail that could be
//! chess mail only by a game header its text does not have.

use ccmail_mail::imap::{Header, Imap};
use ccmail_store::{GameRow, GameStatus};
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeDelta, Utc};
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

/// The start date of a first read (`first_sync_since`, or the earliest start of the active
/// games), and what it means for mail dated by a server in any zone.
///
/// IMAP's `SEARCH SINCE` ignores the time and the zone: it compares the date of a message's
/// INTERNALDATE in the server's own zone (Dovecot: its process's), whatever the player's. A
/// player in UTC+14 whose game starts at 00:30 gets the partner's move filed by a server in
/// UTC under the day before, and a search `SINCE` the start date would pass it over for good.
/// So the server is asked from earlier ([`FirstDay::server_since`]), and each message is then
/// dated by its INTERNALDATE, an instant, here ([`FirstDay::passed_over`]). Whatever marks
/// mail as read errs toward reading more: passed over is only what arrived before the start
/// date began anywhere, in UTC+14, where days begin first. So every message that arrived since
/// the game's start, in the player's zone or in the partner's, is looked at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FirstDay(pub NaiveDate);

/// How far ahead of UTC each day begins first: UTC+14 (Kiritimati).
const FIRST_ZONE: TimeDelta = TimeDelta::hours(14);

/// How far behind UTC each day begins last: UTC−12. A server's zone lies between the two,
/// 26 hours apart.
const LAST_ZONE: TimeDelta = TimeDelta::hours(12);

impl FirstDay {
    /// The instant the start date began first, in UTC+14.
    fn began(self) -> DateTime<Utc> {
        self.0.and_time(NaiveTime::MIN).and_utc() - FIRST_ZONE
    }

    /// The day to ask the server's `SEARCH SINCE` for: the date, in UTC−12, of the instant
    /// the start date began in UTC+14, two days before it. A server in any zone between the
    /// two files every message that arrived since that instant under that day or later.
    pub fn server_since(self) -> NaiveDate {
        (self.began() - LAST_ZONE).date_naive()
    }

    /// Whether mail that arrived at `arrived` (its INTERNALDATE, with its offset) came before
    /// the start date began anywhere, and is passed over.
    pub fn passed_over(self, arrived: DateTime<FixedOffset>) -> bool {
        arrived < self.began()
    }
}

/// The start date of a first read: `first_sync_since`, else the earliest start of the games
/// not finished (a suspended game awaits the arbiter's letter); with neither, none.
pub(super) fn start_date(
    first_sync_since: Option<NaiveDate>,
    games: &[GameRow],
) -> Option<NaiveDate> {
    first_sync_since.or_else(|| {
        games
            .iter()
            .filter(|g| g.status != GameStatus::Finished)
            .map(|g| g.start_date)
            .min()
    })
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
/// counted on `bar` as read: among them, on a first read (`first`), those that arrived before
/// its start date.
pub(super) async fn sift(
    imap: &mut Imap,
    d: &Daemon,
    filter: &Filter,
    uids: &[u32],
    bar: &ProgressBar,
    first: Option<FirstDay>,
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
            if first.is_some_and(|day| day.passed_over(h.internal_date)) {
                tracing::debug!(
                    uid = h.uid,
                    arrived = %h.internal_date,
                    // not the interface's: the debug log
                    "arrived before the start date began anywhere: passed over"
                );
                bar.inc(1);
                continue;
            }
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
    fn a_first_read_asks_the_server_from_two_days_before_and_passes_over_only_earlier_mail() {
        let first = FirstDay("2026-03-01".parse().unwrap());
        // Servers from UTC−12 to UTC+14 file the instant 1 March began in Kiritimati (28
        // February, 10:00 UTC) under 27 February (UTC−12) to 1 March (UTC+14).
        assert_eq!(first.server_since(), "2026-02-27".parse().unwrap());
        let at = |t: &str| DateTime::parse_from_rfc3339(t).unwrap();
        for (arrived, passed_over) in [
            // The player in UTC+14: just before their midnight, and just after it (still 28
            // February for a server in UTC, which a search SINCE 1 March passes over).
            ("2026-02-28T23:59:59+14:00", true),
            ("2026-03-01T00:00:00+14:00", false),
            ("2026-03-01T00:30:00+14:00", false),
            // The same instants, as a server in UTC or in UTC−12 writes them.
            ("2026-02-28T09:59:59+00:00", true),
            ("2026-02-28T10:00:00+00:00", false),
            ("2026-02-27T22:00:00-12:00", false),
            // The player in UTC−11: the day before their start, once 1 March has begun
            // somewhere, is looked at (the partner's start may be theirs); their own
            // evening and midnight too.
            ("2026-02-27T23:00:00-11:00", false),
            ("2026-02-27T22:59:59-11:00", true),
            ("2026-02-28T23:30:00-11:00", false),
            ("2026-03-01T00:30:00-11:00", false),
            // Moscow: 01:07 on the start date is 22:07 UTC the day before.
            ("2026-03-01T01:07:00+03:00", false),
            ("2026-02-28T12:59:59+03:00", true),
            // Long after.
            ("2026-12-31T23:59:59-12:00", false),
        ] {
            assert_eq!(first.passed_over(at(arrived)), passed_over, "{arrived}");
        }
        // Whatever the zone of player and server, a message the search leaves out is one
        // passed over here: filed by the server under a day before `server_since`.
        for server in -12..=14 {
            let zone = FixedOffset::east_opt(server * 3600).unwrap();
            for minutes in (0..3 * 24 * 60).step_by(10) {
                let arrived = first.began() - TimeDelta::days(1) + TimeDelta::minutes(minutes);
                let filed = arrived.with_timezone(&zone).date_naive();
                if filed < first.server_since() {
                    assert!(
                        first.passed_over(arrived.fixed_offset()),
                        "{arrived} in {zone}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_first_read_starts_at_first_sync_since_else_at_the_earliest_unfinished_game() {
        let game = |start: &str, status| GameRow {
            status,
            ..GameRow::new("g", start.parse().unwrap(), "2026-03-01T12:00:00+03:00")
        };
        let day = |d: &str| Some(d.parse::<NaiveDate>().unwrap());
        let games = [
            game("2026-01-10", GameStatus::Finished),
            game("2026-02-20", GameStatus::Suspended),
            game("2026-03-01", GameStatus::Active),
        ];
        // A suspended game's mail (the arbiter's decision) is read back too.
        assert_eq!(start_date(None, &games), day("2026-02-20"));
        assert_eq!(start_date(None, &games[2..]), day("2026-03-01"));
        assert_eq!(start_date(None, &games[1..2]), day("2026-02-20"));
        // The config's date wins, earlier or later.
        assert_eq!(start_date(day("2026-02-01"), &games), day("2026-02-01"));
        assert_eq!(start_date(day("2026-04-01"), &games), day("2026-04-01"));
        // Finished games only, or none: only new mail.
        assert_eq!(start_date(None, &games[..1]), None);
        assert_eq!(start_date(None, &[]), None);
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
