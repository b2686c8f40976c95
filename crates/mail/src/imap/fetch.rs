//! Reading messages (UID SEARCH, UID FETCH with `BODY.PEEK[]`), reading flags, and APPEND.

use async_imap::imap_proto::{BodyContentCommon, BodyParams, BodyStructure};
use async_imap::types::UnsolicitedResponse;
use chrono::{DateTime, FixedOffset, NaiveDate};
use futures::TryStreamExt;

use super::answer::{Answer, FetchAnswer, Reader};
use super::stream::timed;
use super::{Doing, Imap, ImapError, Reply};
use crate::config::Misconfig;

/// How many messages one UID FETCH of whole messages (or of their heads) asks for.
const FETCH_BATCH: usize = 300;

/// The longest UID set one command names, in bytes. RFC 7162 (section 4) asks clients to keep
/// a command line within 8,192 bytes; servers refuse longer ones, or cut them.
const UID_SET_MOST: usize = 4_000;

/// A message as stored on the server.
#[derive(Clone, PartialEq, Eq)]
pub struct Fetched {
    /// Its UID (valid with the mailbox's UIDVALIDITY).
    pub uid: u32,
    /// When the server received it (INTERNALDATE), in the server's zone.
    pub internal_date: DateTime<FixedOffset>,
    /// The whole message, exactly as stored.
    pub raw: Vec<u8>,
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetched")
            .field("uid", &self.uid)
            .field("internal_date", &self.internal_date)
            .field("raw_len", &self.raw.len())
            .finish()
    }
}

/// The start of a message, fetched without the rest ([`Imap::fetch_heads`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Head {
    pub uid: u32,
    /// The message's first bytes, exactly as stored.
    pub head: Vec<u8>,
    /// Whether one of its parts may carry a PGN game: its type, or one of its parameters
    /// (the file name, say), names "chess" or "pgn" in any case. As broad as the MIME layer's
    /// scan of a message's part headers ([`crate::mime::decode_head`]).
    pub pgn_part: bool,
}

impl std::fmt::Debug for Head {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Head")
            .field("uid", &self.uid)
            .field("head_len", &self.head.len())
            .field("pgn_part", &self.pgn_part)
            .finish()
    }
}

/// A message's header fields, fetched without its body ([`Imap::fetch_headers`]).
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    pub uid: u32,
    /// The message's size in bytes (RFC822.SIZE).
    pub size: u32,
    /// When the server received it (INTERNALDATE).
    pub internal_date: DateTime<FixedOffset>,
    /// The fields asked for, as the server found them in the header block (every line of
    /// each, in the message's order), and the empty line that ends it.
    pub header: Vec<u8>,
    /// Whether one of its parts may carry a PGN game, by the server's `BODYSTRUCTURE` (as
    /// [`Head::pgn_part`]): a server's text search may pass over such a part, which is not
    /// text to it.
    pub pgn_part: bool,
}

impl std::fmt::Debug for Header {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Header")
            .field("uid", &self.uid)
            .field("size", &self.size)
            .field("internal_date", &self.internal_date)
            .field("header_len", &self.header.len())
            .field("pgn_part", &self.pgn_part)
            .finish()
    }
}

impl Imap {
    /// The messages with a UID above `after_uid` (and, when `since` is given, an INTERNALDATE
    /// on or after that day in the server's reckoning), in UID order. Bodies are read with
    /// `BODY.PEEK[]`: no flag of the user's mail changes.
    ///
    /// The server's reckoning is IMAP's `SEARCH SINCE`, which ignores the time and the zone:
    /// it compares the date of the INTERNALDATE in the server's own zone (Dovecot: its
    /// process's; mail appended as `01-Mar-2026 00:30:00 +1400` is on 28 February for a
    /// server in UTC). A caller that means a day in another zone asks from earlier and dates
    /// each message by its INTERNALDATE, an instant, itself.
    pub async fn fetch_since(
        &mut self,
        after_uid: u32,
        since: Option<NaiveDate>,
    ) -> Result<Vec<Fetched>, ImapError> {
        let uids = self.uids_since(after_uid, since).await?;
        self.fetch_uids(&uids).await
    }

    /// The UIDs [`Imap::fetch_since`] would fetch, in order, without fetching anything: a
    /// caller that reads a large mailbox fetches them a batch at a time with
    /// [`Imap::fetch_uids`] (and knows how many there are, for a progress bar).
    pub async fn uids_since(
        &mut self,
        after_uid: u32,
        since: Option<NaiveDate>,
    ) -> Result<Vec<u32>, ImapError> {
        let Some(first) = after_uid.checked_add(1) else {
            return Ok(Vec::new());
        };
        let mut query = format!("UID {first}:*");
        if let Some(day) = since {
            query.push_str(&format!(" SINCE {}", imap_date(day)));
        }
        let command = format!("UID SEARCH {query}");
        let limit = self.timeout;
        let session = self.session()?;
        let found = timed(limit, &command, async {
            session
                .uid_search(&query)
                .await
                .map_err(|e| ImapError::from_imap(&command, e))
        })
        .await?;
        // `n:*` also matches the highest UID when it is below n.
        let mut uids: Vec<u32> = found.into_iter().filter(|&u| u > after_uid).collect();
        uids.sort_unstable();
        self.drain_unsolicited();
        Ok(uids)
    }

    /// The messages with these UIDs (those still there), in UID order, read with
    /// `BODY.PEEK[]`.
    pub async fn fetch_uids(&mut self, uids: &[u32]) -> Result<Vec<Fetched>, ImapError> {
        self.fetch_each(
            uids,
            FETCH_BATCH,
            "(UID INTERNALDATE BODY.PEEK[])",
            read_whole,
        )
        .await
    }

    /// The messages with these UIDs (those still there), read with `BODY.PEEK[]` and sent
    /// to `to` in groups of `group` (the last may be smaller) as they arrive, without waiting
    /// for the rest: a caller can work on the first messages while the server sends the
    /// others, and a full channel holds the reading back. Each message once, in UID order
    /// ([`InOrder`]). A receiver that has gone only has the messages dropped: the answers
    /// are still read to their end, and the session goes on.
    pub async fn fetch_uids_in_groups(
        &mut self,
        uids: &[u32],
        group: usize,
        to: tokio::sync::mpsc::Sender<Vec<Fetched>>,
    ) -> Result<(), ImapError> {
        let mut uids = uids.to_vec();
        uids.sort_unstable();
        uids.dedup();
        let mut groups = Groups {
            to,
            size: group.max(1),
            order: InOrder::default(),
            pending: Vec::new(),
            failed: None,
        };
        for batch in in_commands(&uids, FETCH_BATCH) {
            let command = format!(
                "UID FETCH {} (UID INTERNALDATE BODY.PEEK[])",
                uid_set(batch)
            );
            groups.order = InOrder::new(batch);
            let mut sink = Sink::Groups {
                groups: &mut groups,
                batch,
                command: &command,
            };
            self.uid_fetch_each(&command, &mut sink).await?;
            if let Some(e) = groups.failed.take() {
                return Err(e);
            }
            groups.order.finish(&mut groups.pending);
        }
        groups.send_all().await;
        Ok(())
    }

    /// The first `limit` bytes of each of these messages (those still there), in UID order,
    /// with what the server's `BODYSTRUCTURE` says of their parts: a look at a large message
    /// without fetching its attachments (`BODY.PEEK[]<0.limit>`: no flag changes).
    pub async fn fetch_heads(&mut self, uids: &[u32], limit: u32) -> Result<Vec<Head>, ImapError> {
        let items = format!("(UID BODYSTRUCTURE BODY.PEEK[]<0.{limit}>)");
        self.fetch_each(uids, FETCH_BATCH, &items, |uid, fetch, command| {
            let Some(head) = fetch.body else {
                return Ok(None);
            };
            let structure = fetch
                .structure
                .ok_or_else(|| missing(command, Reply::NoBodyStructure { uid }))?;
            Ok(Some(Head {
                uid,
                head,
                pgn_part: structure_may_carry_pgn(uid, &structure),
            }))
        })
        .await
    }

    /// The header fields named in `fields`, sizes, arrival times and parts of these messages
    /// (those still there), in UID order: `BODY.PEEK[HEADER.FIELDS (…)]`, `INTERNALDATE` and
    /// `BODYSTRUCTURE`, no flag changes. Who wrote a message, what it answers and what parts
    /// it has is known from this alone, at a fraction of the bytes: a provider's header block
    /// is mostly its delivery trace and signatures (`Received`, `DKIM-Signature`, `ARC-…`),
    /// often kilobytes, which the named fields leave on the server.
    ///
    /// All in as few commands as the UID set allows (one, for the UIDs a search gives, which
    /// mostly run on): each command is a round trip, a second of a first sync over a home
    /// line for every thirty. The answers are kept until the last: the caller bounds how
    /// many UIDs it asks for at once.
    pub async fn fetch_headers(
        &mut self,
        uids: &[u32],
        fields: &[&str],
    ) -> Result<Vec<Header>, ImapError> {
        let items = format!(
            "(UID RFC822.SIZE INTERNALDATE BODYSTRUCTURE BODY.PEEK[HEADER.FIELDS ({})])",
            fields.join(" ")
        );
        self.fetch_each(uids, usize::MAX, &items, |uid, mut fetch, command| {
            let Some(header) = fetch.header.take() else {
                return Ok(None);
            };
            let internal_date = internal_date(&fetch, uid, command)?;
            let size = fetch
                .size
                .ok_or_else(|| missing(command, Reply::NoSize { uid }))?;
            let structure = fetch
                .structure
                .ok_or_else(|| missing(command, Reply::NoBodyStructure { uid }))?;
            Ok(Some(Header {
                uid,
                size,
                internal_date,
                header,
                pgn_part: structure_may_carry_pgn(uid, &structure),
            }))
        })
        .await
    }

    /// `UID FETCH` of `items` for these UIDs, at most `most` in one command ([`in_commands`]);
    /// `read` makes each answer (its UID, the answer, the command for errors) into an item,
    /// or `None` for an answer without what was asked. The items of the UIDs asked for, in
    /// UID order, once each.
    async fn fetch_each<T: Uid>(
        &mut self,
        uids: &[u32],
        most: usize,
        items: &str,
        read: impl Fn(u32, FetchAnswer, &str) -> Result<Option<T>, ImapError>,
    ) -> Result<Vec<T>, ImapError> {
        let mut uids = uids.to_vec();
        uids.sort_unstable();
        uids.dedup();
        let mut out = Vec::with_capacity(uids.len());
        for batch in in_commands(&uids, most) {
            let command = format!("UID FETCH {} {items}", uid_set(batch));
            for fetch in self.uid_fetch(&command).await? {
                let Some(uid) = fetch.uid.filter(|u| batch.binary_search(u).is_ok()) else {
                    continue;
                };
                out.extend(read(uid, fetch, &command)?);
            }
        }
        out.sort_by_key(T::uid);
        out.dedup_by_key(|m| m.uid());
        Ok(out)
    }

    /// Runs `command`, a UID FETCH, and reads its answers with ccmail's own [`Reader`]
    /// rather than async-imap's (see [`super::answer`]): every FETCH answer, in the order
    /// the server sent them. The counts the server sends meanwhile are kept, as async-imap's
    /// unsolicited answers are. While the answers are read the session is taken out of
    /// `self`: a failure or a time-out half-way leaves the connection out of step, and drops
    /// it.
    ///
    /// The socket is shared with async-imap, which holds on two things. async-imap keeps no
    /// bytes of the connection when the command is sent: a server sends nothing between
    /// commands, and async-imap reads no further than the tagged end of its own. And what
    /// our reader read past this command's tagged end goes back to the stream
    /// ([`Stream::unread`](super::stream::Stream)) for async-imap to read first. The
    /// tests: `bytes_read_past_a_fetch_go_back_to_the_stream_in_order` (stream.rs), and
    /// `the_fetch_reader_and_async_imap_take_turns_on_one_connection` (tests/imap.rs, on the
    /// real Dovecot, mail arriving around every command).
    async fn uid_fetch(&mut self, command: &str) -> Result<Vec<FetchAnswer>, ImapError> {
        let mut answers = Vec::new();
        self.uid_fetch_each(command, &mut Sink::Collect(&mut answers))
            .await?;
        Ok(answers)
    }

    /// [`Imap::uid_fetch`], each FETCH answer handed to `sink` as it is read.
    async fn uid_fetch_each(
        &mut self,
        command: &str,
        sink: &mut Sink<'_>,
    ) -> Result<(), ImapError> {
        let mut session = self.take_session()?;
        let limit = self.timeout;
        let io = |source| ImapError::Io {
            context: command.into(),
            source,
        };
        // The command is sent within the time limit; then the limit is on the server's
        // silence while the answers are read, not on all of them (a large mailbox on a slow
        // link, a caller holding the reading back).
        let (counts, end) = async {
            let tag = timed(limit, command, async {
                session
                    .run_command(command)
                    .await
                    .map_err(|e| ImapError::from_imap(command, e))
            })
            .await?;
            let mut reader = Reader::new(session.get_mut()).quiet(limit);
            let (mut counts, mut bye) = (Vec::new(), None);
            let end = loop {
                let answer = match reader.next(&tag.0).await {
                    Ok(answer) => answer,
                    // The server said why it went.
                    Err(e) if bye.is_some() => {
                        let words = bye.take().unwrap_or_default();
                        return Err(io(std::io::Error::new(
                            std::io::ErrorKind::ConnectionAborted,
                            format!("the server said BYE: {words} ({e})"),
                        )));
                    }
                    Err(e) => return Err(io(e)),
                };
                match answer {
                    Answer::Fetch(fetch) => sink.take(fetch).await,
                    Answer::Exists(n) => counts.push(UnsolicitedResponse::Exists(n)),
                    Answer::Expunge => counts.push(UnsolicitedResponse::Expunge(0)),
                    Answer::Bye(words) => bye = Some(words),
                    Answer::Other | Answer::Search(_) => {}
                    Answer::Continue => {
                        return Err(io(std::io::Error::new(
                            std::io::ErrorKind::InvalidData,
                            "a go-ahead for a literal the command did not have",
                        )));
                    }
                    Answer::Done { ok, text } => break (ok, text),
                }
            };
            let leftover = reader.leftover().to_vec();
            session.get_mut().unread(&leftover);
            Ok((counts, end))
        }
        .await?;
        self.give_back(session, &counts, end, command)
    }

    /// The messages [`Imap::uids_since`] finds, with their sizes (RFC822.SIZE, in bytes), in
    /// UID order, from one `UID FETCH n:* (UID RFC822.SIZE INTERNALDATE)`: a caller reading a
    /// large mailbox fetches it in batches of bounded size, and looks at large mail by its
    /// head. The day of `since` is that of the INTERNALDATE as the server writes it.
    pub async fn sizes_since(
        &mut self,
        after_uid: u32,
        since: Option<NaiveDate>,
    ) -> Result<Vec<(u32, u32)>, ImapError> {
        let Some(first) = after_uid.checked_add(1) else {
            return Ok(Vec::new());
        };
        let command = format!("UID FETCH {first}:* (UID RFC822.SIZE INTERNALDATE)");
        let mut out = Vec::new();
        for fetch in self.uid_fetch(&command).await? {
            // `n:*` also matches the highest UID when it is below n; and a flag change by
            // another client can come as a FETCH of its own.
            let (Some(uid), Some(size)) = (fetch.uid, fetch.size) else {
                continue;
            };
            if uid <= after_uid {
                continue;
            }
            if let Some(day) = since
                && internal_date(&fetch, uid, &command)?.date_naive() < day
            {
                continue;
            }
            out.push((uid, size));
        }
        out.sort_unstable();
        out.dedup_by_key(|(uid, _)| *uid);
        Ok(out)
    }

    /// The flags of the messages in the UID set `uids` (e.g. `"1:*"`, `"4,7"`), in UID order;
    /// system flags are written as on the wire (`\Seen`).
    pub async fn flags(&mut self, uids: &str) -> Result<Vec<(u32, Vec<String>)>, ImapError> {
        let is_set = !uids.is_empty()
            && uids
                .bytes()
                .all(|b| b.is_ascii_digit() || b":,*".contains(&b));
        if !is_set {
            return Err(ImapError::Config(Misconfig::NotUidSet(uids.to_owned())));
        }
        let command = format!("UID FETCH {uids} (UID FLAGS)");
        let limit = self.timeout;
        let session = self.session()?;
        let fetches = timed(limit, &command, async {
            session
                .uid_fetch(uids, "(UID FLAGS)")
                .await
                .map_err(|e| ImapError::from_imap(&command, e))?
                .try_collect::<Vec<_>>()
                .await
                .map_err(|e| ImapError::from_imap(&command, e))
        })
        .await?;
        let mut out: Vec<(u32, Vec<String>)> = fetches
            .iter()
            .filter_map(|f| Some((f.uid?, f.flags().map(flag_text).collect())))
            .collect();
        out.sort_by_key(|(uid, _)| *uid);
        out.dedup_by_key(|(uid, _)| *uid);
        self.drain_unsolicited();
        Ok(out)
    }

    /// Stores a copy of a sent message: APPEND to `mailbox` (e.g. `Sent`) flagged `\Seen`.
    pub async fn append(&mut self, mailbox: &str, raw: &[u8]) -> Result<(), ImapError> {
        self.append_with(mailbox, raw, &["\\Seen"], None).await
    }

    /// APPEND with the given flags (none: an unread message) and INTERNALDATE (none: now).
    pub async fn append_with(
        &mut self,
        mailbox: &str,
        raw: &[u8],
        flags: &[&str],
        internal_date: Option<DateTime<FixedOffset>>,
    ) -> Result<(), ImapError> {
        if let Some(bad) = flags.iter().find(|f| !is_flag(f)) {
            return Err(ImapError::Config(Misconfig::NotAFlag((*bad).to_owned())));
        }
        let flags = (!flags.is_empty()).then(|| format!("({})", flags.join(" ")));
        let date = internal_date.map(|d| format!("\"{}\"", d.format("%d-%b-%Y %H:%M:%S %z")));
        let command = Doing::Append {
            mailbox: mailbox.to_owned(),
            bytes: raw.len(),
        };
        let limit = self.timeout;
        let wire = super::utf7::wire(mailbox);
        let session = self.session()?;
        timed(limit, command.clone(), async {
            session
                .append(&wire, flags.as_deref(), date.as_deref(), raw)
                .await
                .map_err(|e| ImapError::from_imap(command.clone(), e))
        })
        .await?;
        self.drain_unsolicited();
        Ok(())
    }
}

/// An INTERNALDATE's form, `02-Mar-2026 10:00:00 +0300` (as async-imap reads it).
const INTERNALDATE: &str = "%d-%b-%Y %H:%M:%S %z";

/// The INTERNALDATE of the answer for message `uid` to `command`.
fn internal_date(
    fetch: &FetchAnswer,
    uid: u32,
    command: &str,
) -> Result<DateTime<FixedOffset>, ImapError> {
    fetch
        .internal_date
        .as_deref()
        .and_then(parse_internal_date)
        .ok_or_else(|| missing(command, Reply::NoInternalDate { uid }))
}

/// An INTERNALDATE as a date and time. The form servers write (RFC 3501's `date-time`; a
/// day below 10 with a leading zero or a blank) is read by hand, anything else by chrono's
/// parser. That one reads its format string again for every date: it was 6 % of the main
/// thread's CPU in a first sync of 5,000 messages, which reads 5,000 dates.
fn parse_internal_date(text: &str) -> Option<DateTime<FixedOffset>> {
    internal_date_fixed(text).or_else(|| DateTime::parse_from_str(text, INTERNALDATE).ok())
}

/// `02-Mar-2026 10:00:00 +0300` or ` 2-Mar-2026 10:00:00 +0300`, exactly; `None` for
/// anything else, and for what chrono would read differently (a leap second).
fn internal_date_fixed(text: &str) -> Option<DateTime<FixedOffset>> {
    const MONTHS: [&[u8; 3]; 12] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
        b"Dec",
    ];
    let b: &[u8; 26] = text.as_bytes().try_into().ok()?;
    let digits = |at: usize, n: usize| -> Option<u32> {
        b[at..at + n].iter().try_fold(0, |v, &d| {
            d.is_ascii_digit().then(|| v * 10 + u32::from(d - b'0'))
        })
    };
    let day = match b[0] {
        b' ' => digits(1, 1)?,
        _ => digits(0, 2)?,
    };
    let month = MONTHS.iter().position(|m| b[3..6] == m[..])?;
    let separators = [
        (2, b'-'),
        (6, b'-'),
        (11, b' '),
        (14, b':'),
        (17, b':'),
        (20, b' '),
    ];
    if separators.iter().any(|&(at, c)| b[at] != c) {
        return None;
    }
    let (hour, minute, second) = (digits(12, 2)?, digits(15, 2)?, digits(18, 2)?);
    let zone = i32::try_from(digits(22, 2)? * 3600 + digits(24, 2)? * 60).ok()?;
    let zone = match b[21] {
        b'+' => FixedOffset::east_opt(zone)?,
        b'-' => FixedOffset::west_opt(zone)?,
        _ => return None,
    };
    let date = NaiveDate::from_ymd_opt(
        i32::try_from(digits(7, 4)?).ok()?,
        u32::try_from(month).ok()? + 1,
        day,
    )?;
    let at = date.and_hms_opt(hour, minute, second)?;
    at.and_local_timezone(zone).single()
}

/// Whether a message's part may carry PGN, by the `BODYSTRUCTURE` the server wrote: read by
/// imap-proto's parser. One that can't be read may: the message is fetched whole.
fn structure_may_carry_pgn(uid: u32, structure: &[u8]) -> bool {
    use async_imap::imap_proto::{AttributeValue, Response};
    let mut line = b"* 1 FETCH (BODYSTRUCTURE ".to_vec();
    line.extend_from_slice(structure);
    line.extend_from_slice(b")\r\n");
    let read = match Response::parse(&line) {
        Ok((_, Response::Fetch(_, attrs))) => attrs.iter().find_map(|a| match a {
            AttributeValue::BodyStructure(s) => Some(may_carry_pgn(s)),
            _ => None,
        }),
        _ => None,
    };
    read.unwrap_or_else(|| {
        tracing::debug!(
            uid,
            "a BODYSTRUCTURE that can't be read: the message is fetched whole"
        );
        true
    })
}

/// `1-Mar-2026`, the IMAP `date` of SEARCH SINCE.
pub(crate) fn imap_date(day: NaiveDate) -> String {
    day.format("%-d-%b-%Y").to_string()
}

/// An answer of `command` without `what` for message `uid`.
/// Where [`Imap::uid_fetch_each`] puts the FETCH answers it reads.
enum Sink<'a> {
    /// All of them, kept.
    Collect(&'a mut Vec<FetchAnswer>),
    /// The whole messages of `batch`, the UIDs asked for by `command`, sent on in groups.
    Groups {
        groups: &'a mut Groups,
        batch: &'a [u32],
        command: &'a str,
    },
}

impl Sink<'_> {
    async fn take(&mut self, fetch: FetchAnswer) {
        match self {
            Sink::Collect(answers) => answers.push(fetch),
            Sink::Groups {
                groups,
                batch,
                command,
            } => {
                let Some(uid) = fetch.uid.filter(|u| batch.binary_search(u).is_ok()) else {
                    return;
                };
                if groups.failed.is_some() || groups.order.has_come(uid) {
                    return;
                }
                match read_whole(uid, fetch, command) {
                    Ok(Some(m)) => groups.order.arrive(m, &mut groups.pending),
                    Ok(None) => {}
                    Err(e) => groups.failed = Some(e),
                }
                groups.send_full().await;
            }
        }
    }
}

/// The messages of [`Imap::fetch_uids_in_groups`] on their way.
struct Groups {
    to: tokio::sync::mpsc::Sender<Vec<Fetched>>,
    size: usize,
    /// The running command's messages, put in UID order.
    order: InOrder,
    /// Messages in order, not sent yet.
    pending: Vec<Fetched>,
    /// An answer that could not be read: the rest of the command's answers are read (and
    /// dropped), and the error is returned.
    failed: Option<ImapError>,
}

impl Groups {
    /// Sends every full group of what is pending.
    async fn send_full(&mut self) {
        while self.pending.len() >= self.size {
            let rest = self.pending.split_off(self.size);
            let group = std::mem::replace(&mut self.pending, rest);
            self.send(group).await;
        }
    }

    /// Sends all that is pending, the last group smaller.
    async fn send_all(&mut self) {
        self.send_full().await;
        if !self.pending.is_empty() {
            let group = std::mem::take(&mut self.pending);
            self.send(group).await;
        }
    }

    /// The messages are dropped if the receiver has gone.
    async fn send(&mut self, group: Vec<Fetched>) {
        let _ = self.to.send(group).await;
    }
}

/// Puts the messages of one UID FETCH in UID order as they arrive: a message goes on once
/// every UID asked for below it has come, or at the end of the command (a UID that did not
/// come is no longer in the mailbox). The servers seen answer in UID order, and then each
/// message goes on as it comes; IMAP does not promise it, and a partner's two moves must be
/// applied in the order they arrived.
#[derive(Default)]
struct InOrder {
    /// The UIDs asked for, ascending.
    asked: Vec<u32>,
    /// How many of them have gone on.
    next: usize,
    /// Those that came before a UID below them.
    ahead: std::collections::BTreeMap<u32, Fetched>,
}

impl InOrder {
    fn new(asked: &[u32]) -> InOrder {
        InOrder {
            asked: asked.to_vec(),
            ..InOrder::default()
        }
    }

    /// Whether `uid`, one of those asked for, has come already: gone on, or waiting.
    fn has_come(&self, uid: u32) -> bool {
        self.asked[..self.next].binary_search(&uid).is_ok() || self.ahead.contains_key(&uid)
    }

    /// `m` (one of the UIDs asked for, not come before) has come: what may go on now is
    /// added to `out`, in order.
    fn arrive(&mut self, m: Fetched, out: &mut Vec<Fetched>) {
        self.ahead.insert(m.uid, m);
        while let Some(uid) = self.asked.get(self.next) {
            let Some(m) = self.ahead.remove(uid) else {
                break;
            };
            out.push(m);
            self.next += 1;
        }
    }

    /// The command has ended: the rest goes on, in order.
    fn finish(&mut self, out: &mut Vec<Fetched>) {
        out.extend(std::mem::take(&mut self.ahead).into_values());
        self.next = self.asked.len();
    }
}

/// A whole message from its FETCH answer; `None` for an answer without a body (another
/// client's flag change can show up as an extra FETCH).
fn read_whole(
    uid: u32,
    mut fetch: FetchAnswer,
    command: &str,
) -> Result<Option<Fetched>, ImapError> {
    let Some(raw) = fetch.body.take() else {
        return Ok(None);
    };
    let internal_date = internal_date(&fetch, uid, command)?;
    Ok(Some(Fetched {
        uid,
        internal_date,
        raw,
    }))
}

fn missing(command: &str, reply: Reply) -> ImapError {
    ImapError::Protocol {
        command: command.into(),
        reply,
    }
}

/// What [`Imap::fetch_each`] sorts its items by.
trait Uid {
    fn uid(&self) -> u32;
}

impl Uid for Fetched {
    fn uid(&self) -> u32 {
        self.uid
    }
}

impl Uid for Header {
    fn uid(&self) -> u32 {
        self.uid
    }
}

impl Uid for Head {
    fn uid(&self) -> u32 {
        self.uid
    }
}

/// A compact UID set for sorted UIDs: `1:3,7,9:10`.
pub(crate) fn uid_set(sorted: &[u32]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len() && sorted[i + 1] == end + 1 {
            i += 1;
            end = sorted[i];
        }
        if !out.is_empty() {
            out.push(',');
        }
        if start == end {
            out.push_str(&start.to_string());
        } else {
            out.push_str(&format!("{start}:{end}"));
        }
        i += 1;
    }
    out
}

/// `sorted` (ascending, no UID twice) cut into the UIDs of one command each, in order: at most
/// `most` UIDs, and a UID set ([`uid_set`]) of at most [`UID_SET_MOST`] bytes. Each command
/// takes runs of consecutive UIDs (`n:m`) as long as they fit whole.
fn in_commands(sorted: &[u32], most: usize) -> Vec<&[u32]> {
    let most = most.max(1);
    let mut out = Vec::new();
    // The command being filled: its first UID's index, and its UID set's length so far.
    let (mut start, mut text) = (0, 0);
    let mut i = 0;
    while i < sorted.len() {
        // The run of consecutive UIDs from `i`, no longer than the command has room for.
        let mut end = i + 1;
        while end < sorted.len() && end - start < most && sorted[end] == sorted[end - 1] + 1 {
            end += 1;
        }
        // `n` or `n:m`, and a comma before it but at the start.
        let digits = |n: u32| n.checked_ilog10().map_or(1, |d| d as usize + 1);
        let run = digits(sorted[i])
            + if end - i > 1 {
                1 + digits(sorted[end - 1])
            } else {
                0
            };
        let comma = usize::from(i > start);
        if i > start && text + comma + run > UID_SET_MOST {
            out.push(&sorted[start..i]);
            (start, text) = (i, 0);
            continue;
        }
        text += comma + run;
        i = end;
        if i - start == most {
            out.push(&sorted[start..i]);
            (start, text) = (i, 0);
        }
    }
    if start < sorted.len() {
        out.push(&sorted[start..]);
    }
    out
}

/// Whether any part of a `BODYSTRUCTURE` names "chess" or "pgn" (any case) in its type,
/// subtype, description, disposition or any parameter. Walked without recursion: the server
/// reports the nesting of any mail it holds.
fn may_carry_pgn(structure: &BodyStructure<'_>) -> bool {
    let names = |text: &str| {
        let text = text.to_ascii_lowercase();
        text.contains("chess") || text.contains("pgn")
    };
    let params_name = |params: &BodyParams<'_>| {
        params
            .iter()
            .flatten()
            .any(|(key, value)| names(key) || names(value))
    };
    let common_names = |c: &BodyContentCommon<'_>| {
        names(&c.ty.ty)
            || names(&c.ty.subtype)
            || params_name(&c.ty.params)
            || c.disposition
                .as_ref()
                .is_some_and(|d| names(&d.ty) || params_name(&d.params))
    };
    let mut stack = vec![structure];
    while let Some(part) = stack.pop() {
        let (common, single) = match part {
            BodyStructure::Basic { common, other, .. }
            | BodyStructure::Text { common, other, .. } => (common, Some(other)),
            BodyStructure::Message {
                common,
                other,
                body,
                ..
            } => {
                stack.push(body);
                (common, Some(other))
            }
            BodyStructure::Multipart { common, bodies, .. } => {
                stack.extend(bodies);
                (common, None)
            }
        };
        if common_names(common)
            || single
                .and_then(|s| s.description.as_deref())
                .is_some_and(names)
        {
            return true;
        }
    }
    false
}

fn flag_text(flag: async_imap::types::Flag<'_>) -> String {
    use async_imap::types::Flag;
    match flag {
        Flag::Seen => "\\Seen".into(),
        Flag::Answered => "\\Answered".into(),
        Flag::Flagged => "\\Flagged".into(),
        Flag::Deleted => "\\Deleted".into(),
        Flag::Draft => "\\Draft".into(),
        Flag::Recent => "\\Recent".into(),
        Flag::MayCreate => "\\*".into(),
        Flag::Custom(name) => name.into_owned(),
    }
}

/// A system flag (`\Seen`) or a keyword: atom characters only, so it cannot break the command.
fn is_flag(flag: &str) -> bool {
    let name = flag.strip_prefix('\\').unwrap_or(flag);
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"(){%*\"\\]".contains(&b))
}

#[cfg(test)]
mod tests {
    use proptest::strategy::Strategy;

    use super::*;

    fn message(uid: u32) -> Fetched {
        Fetched {
            uid,
            internal_date: DateTime::parse_from_rfc3339("2026-03-02T10:00:00+03:00").unwrap(),
            raw: uid.to_string().into_bytes(),
        }
    }

    proptest::proptest! {
        /// Whatever order the server answers in, and whichever UIDs it leaves out, the
        /// messages go on in UID order, each once; a message in order goes on at once, and one
        /// waits only for a UID below it that has not come yet.
        #[test]
        fn messages_go_on_in_uid_order(
            (asked, arrivals) in proptest::collection::btree_set(1u32..60, 0..30)
                .prop_map(|set| set.into_iter().collect::<Vec<u32>>())
                .prop_flat_map(|asked| {
                    let arrivals = proptest::sample::subsequence(asked.clone(), 0..=asked.len())
                        .prop_shuffle();
                    (proptest::strategy::Just(asked), arrivals)
                }),
        ) {
            let mut order = InOrder::new(&asked);
            let mut out = Vec::new();
            for (n, &uid) in arrivals.iter().enumerate() {
                order.arrive(message(uid), &mut out);
                // What has gone on is every UID asked for up to the first that has not come.
                let come: std::collections::BTreeSet<u32> = arrivals[..=n].iter().copied().collect();
                let ready: Vec<u32> = asked.iter().copied().take_while(|u| come.contains(u)).collect();
                proptest::prop_assert_eq!(out.iter().map(|m| m.uid).collect::<Vec<_>>(), ready);
            }
            // What has come is known, so that a message that comes twice goes on once.
            for &uid in &asked {
                proptest::prop_assert_eq!(order.has_come(uid), arrivals.contains(&uid));
            }
            order.finish(&mut out);
            let mut sorted = arrivals.clone();
            sorted.sort_unstable();
            proptest::prop_assert_eq!(out.iter().map(|m| m.uid).collect::<Vec<_>>(), sorted);
            proptest::prop_assert!(out.iter().all(|m| m.raw == m.uid.to_string().into_bytes()));
        }
    }

    /// The hand-read form gives what chrono's parser gives, and leaves it what it does not
    /// read itself.
    #[test]
    fn internal_dates_read_by_hand_as_by_chrono() {
        let chrono = |t: &str| DateTime::parse_from_str(t, INTERNALDATE).ok();
        let mut read = 0;
        for day in [
            "01", "02", " 2", "2 ", "09", "10", "28", "29", "30", "31", "32", "00", "x1",
        ] {
            for month in ["Jan", "Feb", "Mar", "Dec", "dec", "Xyz"] {
                for year in ["2026", "2024", "1999", "0000", "20x6"] {
                    for time in [
                        "10:00:00", "00:00:00", "23:59:59", "24:00:00", "12:60:00", "1:00:000",
                    ] {
                        for zone in [
                            "+0300", "-0000", "+0000", "-1130", "+2359", "+2400", "+03:0", "*0300",
                        ] {
                            let text = format!("{day}-{month}-{year} {time} {zone}");
                            if let Some(fixed) = internal_date_fixed(&text) {
                                assert_eq!(Some(fixed), chrono(&text), "{text}");
                                read += 1;
                            }
                            assert_eq!(parse_internal_date(&text), chrono(&text), "{text}");
                        }
                    }
                }
            }
        }
        assert!(read > 1000, "{read}");
        let text = "02-Mar-2026 10:00:00 +0300";
        assert_eq!(
            internal_date_fixed(text).map(|d| d.to_rfc3339()),
            Some("2026-03-02T10:00:00+03:00".to_owned())
        );
        // A leap second is left to chrono.
        assert_eq!(internal_date_fixed("30-Jun-2026 23:59:60 +0000"), None);
    }

    #[test]
    fn commands_take_as_many_uids_as_their_uid_set_allows() {
        let check = |uids: &[u32], most: usize| {
            let commands = in_commands(uids, most);
            assert_eq!(commands.concat(), uids, "every UID once, in order");
            for (k, c) in commands.iter().enumerate() {
                assert!(!c.is_empty() && c.len() <= most);
                assert!(uid_set(c).len() <= UID_SET_MOST, "{}", uid_set(c).len());
                // Full: the next command's first run of UIDs would have broken a limit.
                if let Some(next) = commands.get(k + 1) {
                    let run = 1 + next.windows(2).take_while(|w| w[1] == w[0] + 1).count();
                    let more = [*c, &next[..run]].concat();
                    assert!(more.len() > most || uid_set(&more).len() > UID_SET_MOST);
                }
            }
            commands.len()
        };
        let run: Vec<u32> = (1..=5000).collect();
        assert_eq!(check(&run, usize::MAX), 1, "a run is one command: `1:5000`");
        assert_eq!(check(&run, 300), 17);
        assert_eq!(check(&run, 1), 5000);
        // Every other UID, seven digits and a comma each: 500 to a command.
        let sparse: Vec<u32> = (0..5000).map(|i| 1_000_000 + 2 * i).collect();
        assert_eq!(check(&sparse, usize::MAX), 10);
        assert_eq!(check(&sparse, 300), 17);
        // Runs and gaps mixed, large UIDs.
        let mixed: Vec<u32> = (0..20_000u32)
            .filter(|i| i % 7 != 3 && i % 11 != 5)
            .map(|i| u32::MAX - 40_000 + i)
            .collect();
        check(&mixed, usize::MAX);
        check(&mixed, 300);
        assert_eq!(check(&[], usize::MAX), 0);
        assert_eq!(check(&[7], 300), 1);
    }

    #[test]
    fn uid_sets() {
        assert_eq!(uid_set(&[]), "");
        assert_eq!(uid_set(&[5]), "5");
        assert_eq!(uid_set(&[1, 2, 3, 7, 9, 10]), "1:3,7,9:10");
        assert_eq!(uid_set(&[4, 6, 8]), "4,6,8");
    }

    /// Whether a BODYSTRUCTURE, as the server writes it, may carry PGN.
    fn pgn_in(structure: &str) -> bool {
        structure_may_carry_pgn(7, structure.as_bytes())
    }

    #[test]
    fn a_part_that_may_carry_pgn_is_seen_at_any_depth() {
        let text = r#"("text" "plain" ("charset" "utf-8") NIL NIL "8bit" 120 4 NIL NIL NIL NIL)"#;
        let pdf = r#"("application" "pdf" ("name" "doc.pdf") NIL NIL "base64" 300000 NIL ("attachment" ("filename" "doc.pdf")) NIL NIL)"#;
        let mixed = |parts: &str| format!(r#"({parts} "mixed" ("boundary" "b1") NIL NIL NIL)"#);
        assert!(!pgn_in(text));
        assert!(!pgn_in(&mixed(&format!("{text}{pdf}"))));
        // A name sent as a literal.
        let literal = "(\"application\" \"octet-stream\" (\"name\" {8}\r\ngame.pgn) NIL NIL \"base64\" 300 NIL NIL NIL NIL)";
        assert!(pgn_in(literal));
        assert!(!pgn_in(
            &literal.replace("{8}\r\ngame.pgn", "{8}\r\ngame.pdf")
        ));
        // One that can't be read may carry anything: the message is fetched whole.
        assert!(pgn_in("(\"text\" \"plain\" NIL"));
        assert!(pgn_in(
            "(\"text\" \"plain\" (\"charset\" \"utf-8\") NIL NIL \"7bit\" 120 4 NIL NIL NIL NIL) junk"
        ));
        for pgn in [
            r#"("application" "x-chess-pgn" NIL NIL NIL "7bit" 300 NIL NIL NIL NIL)"#,
            r#"("APPLICATION" "X-CHESS" NIL NIL NIL "7bit" 300 NIL NIL NIL NIL)"#,
            r#"("application" "octet-stream" ("name" "Game.PGN") NIL NIL "base64" 300 NIL NIL NIL NIL)"#,
            r#"("application" "octet-stream" NIL NIL NIL "base64" 300 NIL ("attachment" ("filename*" "utf-8''%D0%BF.pgn")) NIL NIL)"#,
            r#"("application" "octet-stream" NIL NIL "Chess game" "base64" 300 NIL NIL NIL NIL)"#,
        ] {
            assert!(pgn_in(pgn), "{pgn}");
            // After a large attachment, one multipart further down.
            let inner = format!(r#"({text}{pgn} "alternative" ("boundary" "b2") NIL NIL NIL)"#);
            assert!(pgn_in(&mixed(&format!("{pdf}{inner}"))), "{pgn} nested");
        }
    }

    #[test]
    fn search_dates() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        assert_eq!(imap_date(d(2026, 3, 1)), "1-Mar-2026");
        assert_eq!(imap_date(d(2025, 12, 31)), "31-Dec-2025");
    }

    #[test]
    fn flags_that_can_be_sent() {
        for ok in ["\\Seen", "\\Flagged", "$Forwarded", "Junk"] {
            assert!(is_flag(ok), "{ok}");
        }
        for bad in ["", "\\", "a b", "(x", "\\Seen)", "x\r\nA1 LOGOUT"] {
            assert!(!is_flag(bad), "{bad:?}");
        }
    }
}
