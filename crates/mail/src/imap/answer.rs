//! The answers to a `UID FETCH`, read off the connection by ccmail itself.
//!
//! async-imap reads each answer into a fresh zeroed 4 KiB block that it grows (and zeroes)
//! as the message comes in, a read at a time of what fits, parses it with `nom` and keeps the
//! block for the caller, who copies the body out of it. On a first sync that was most of the
//! main thread's time. [`Reader`] reads the connection 64 KiB at a time and puts each
//! message's bytes straight into the `Vec` the caller keeps: a large literal is read from the
//! socket into it, a small one copied once out of the read buffer.
//!
//! It knows the answers a UID FETCH gets (RFC 3501, 7.4.2 and 7.1–7.3): `* n FETCH (…)` with
//! the items ccmail asks for (`UID`, `RFC822.SIZE`, `INTERNALDATE`, `BODY[]` whole or from an
//! origin, `BODY[HEADER]` or `BODY[HEADER.FIELDS (…)]`, `BODYSTRUCTURE`), any other item
//! skipped by its shape; the answer to a `UID SEARCH` (`* SEARCH …`) and the server's go-ahead
//! for a literal (`+ …`); the counts a server may send meanwhile (`EXISTS`, `EXPUNGE`);
//! `* BYE`; and the tagged end. Anything it cannot read is an
//! [`io::ErrorKind::InvalidData`] error naming what it met: the connection is out of step
//! after that, as after any broken answer.

use std::io;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

/// What a FETCH answer held of the items ccmail asks for; `None` where it had no such item.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct FetchAnswer {
    pub uid: Option<u32>,
    pub size: Option<u32>,
    /// The `INTERNALDATE` text, e.g. `02-Mar-2026 10:00:00 +0300`.
    pub internal_date: Option<String>,
    /// `BODY[]`, whole or from an origin (`BODY[]<0>`); NIL gives none.
    pub body: Option<Vec<u8>>,
    /// `BODY[HEADER]` or `BODY[HEADER.FIELDS (…)]`: the header block, or the fields asked for,
    /// with the empty line that ends it.
    pub header: Option<Vec<u8>>,
    /// The `BODYSTRUCTURE` as the server wrote it (a literal in it written as a literal).
    pub structure: Option<Vec<u8>>,
}

/// One answer of the server while a command runs.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    Fetch(FetchAnswer),
    /// `* n EXISTS`: the mailbox now holds n messages.
    Exists(u32),
    /// `* SEARCH n m …`: the UIDs (or numbers) a SEARCH found.
    Search(Vec<u32>),
    /// `+ …`: the server waits for the literal the command announced.
    Continue,
    /// `* n EXPUNGE`: one message fewer.
    Expunge,
    /// `* BYE …`: the server is closing the connection.
    Bye(String),
    /// Any other untagged answer (`* n RECENT`, `* OK [...]`, `* FLAGS`, …).
    Other,
    /// The command's tagged end: OK, or NO/BAD with the server's words.
    Done {
        ok: bool,
        text: String,
    },
}

/// Why an answer could not be read: the words of the `io::Error` the reader fails with
/// (`get_ref` finds it there). The texts of an answer given are its start as the server
/// wrote it, quoted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Malformed {
    /// The server sent nothing for so long in the middle of an answer (kind `TimedOut`).
    #[error("nothing from the server for {seconds} s")]
    Silent { seconds: u64 },
    /// An answer's text, its literals left out, is longer than the reader takes.
    #[error("an answer's text over {max} bytes")]
    TextTooLong { max: usize },
    /// A literal (a message) is larger than the reader takes.
    #[error("a literal over {max} bytes: {answer}")]
    LiteralTooLong { max: usize, answer: String },
    /// A line is longer than the reader takes.
    #[error("a line over {max} bytes")]
    LineTooLong { max: usize },
    /// The connection was closed in the middle of an answer (kind `UnexpectedEof`).
    #[error("the connection was closed in the middle of an answer")]
    ClosedInAnswer,
    /// The connection was closed in the middle of a message (kind `UnexpectedEof`).
    #[error("the connection was closed in the middle of a message")]
    ClosedInMessage,
    /// An answer of no shape a FETCH gets.
    #[error("an answer that can't be read: {0}")]
    Unreadable(String),
    /// A quoted string without its closing quote.
    #[error("an unended string: {0}")]
    UnendedString(String),
    /// A literal's `{n}` without its `}`.
    #[error("an unended literal: {0}")]
    UnendedLiteral(String),
    /// A literal's `{n}` that is not at the end of a line.
    #[error("a literal out of place: {0}")]
    LiteralOutOfPlace(String),
    /// A section's `[` without its `]`.
    #[error("an unended section: {0}")]
    UnendedSection(String),
    /// A list's `(` without its `)`.
    #[error("an unended list: {0}")]
    UnendedList(String),
    /// An item's name with no value after it.
    #[error("an item without a value: {0}")]
    NoValue(String),
}

/// The read buffer's size: one `read` of up to this much.
const CHUNK: usize = 64 << 10;

/// The longest line (the text of an answer between its literals) taken.
const MAX_LINE: usize = 4 << 20;

/// The largest literal (a message) taken, as async-imap's limit.
const MAX_LITERAL: usize = 512 << 20;

/// Reads answers from `inner`; what it read past the last answer asked for is
/// [`Reader::leftover`].
pub(crate) struct Reader<'a, R> {
    inner: &'a mut R,
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// The answer's text, its literals left out: `{n}` marks where each was.
    text: Vec<u8>,
    /// The answer's literals, in order, and where each one's `{n}` ends in `text`.
    literals: Vec<(usize, Vec<u8>)>,
    /// The longest the server may send nothing while an answer is read ([`Reader::quiet`]).
    silence: Option<Duration>,
}

/// `read`, failing with [`io::ErrorKind::TimedOut`] when the server sends nothing for
/// `silence`.
async fn within<T>(
    silence: Option<Duration>,
    read: impl Future<Output = io::Result<T>>,
) -> io::Result<T> {
    let Some(limit) = silence else {
        return read.await;
    };
    tokio::time::timeout(limit, read).await.unwrap_or_else(|_| {
        Err(io::Error::new(
            io::ErrorKind::TimedOut,
            Malformed::Silent {
                seconds: limit.as_secs(),
            },
        ))
    })
}

impl<'a, R: AsyncRead + Unpin> Reader<'a, R> {
    pub(crate) fn new(inner: &'a mut R) -> Self {
        Reader {
            inner,
            buf: vec![0; CHUNK],
            pos: 0,
            end: 0,
            text: Vec::new(),
            literals: Vec::new(),
            silence: None,
        }
    }

    /// A reader that fails when the server sends nothing for `limit` while it waits for
    /// an answer: a time limit on the server's silence, not on the answers, so that a
    /// large message on a slow link, or a caller that takes its time between answers, is
    /// not cut off.
    pub(crate) fn quiet(mut self, limit: Duration) -> Self {
        self.silence = Some(limit);
        self
    }

    /// What was read past the answers taken: the caller hands it back to the stream.
    pub(crate) fn leftover(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// The next answer; `tag` is the running command's.
    pub(crate) async fn next(&mut self, tag: &str) -> io::Result<Answer> {
        self.read_answer().await?;
        let text = std::mem::take(&mut self.text);
        let mut literals = std::mem::take(&mut self.literals);
        let answer = parse(&text, &mut literals, tag);
        // The buffers are kept for the next answer.
        self.text = text;
        self.text.clear();
        answer
    }

    /// Reads one answer: its lines into `text`, its literals into `literals`.
    async fn read_answer(&mut self) -> io::Result<()> {
        self.text.clear();
        self.literals.clear();
        loop {
            let line_end = self.line_end().await?;
            let mut line = &self.buf[self.pos..line_end];
            if let [rest @ .., b'\r'] = line {
                line = rest;
            }
            if self.text.len() + line.len() > MAX_LINE {
                return Err(bad(Malformed::TextTooLong { max: MAX_LINE }));
            }
            self.text.extend_from_slice(line);
            self.pos = line_end + 1;
            match literal_len(line) {
                None => return Ok(()),
                Some(n) => {
                    let n = n.ok_or_else(|| {
                        bad(Malformed::LiteralTooLong {
                            max: MAX_LITERAL,
                            answer: shown(&self.text),
                        })
                    })?;
                    let bytes = self.literal(n).await?;
                    self.literals.push((self.text.len(), bytes));
                }
            }
        }
    }

    /// Where the next `\n` is in the buffer, reading until there is one.
    async fn line_end(&mut self) -> io::Result<usize> {
        let mut seen = 0;
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.pos + seen..self.end]) {
                return Ok(self.pos + seen + i);
            }
            seen = self.end - self.pos;
            if seen > MAX_LINE {
                return Err(bad(Malformed::LineTooLong { max: MAX_LINE }));
            }
            self.fill().await?;
        }
    }

    /// Reads more into the buffer, moving what is unread to its start first.
    async fn fill(&mut self) -> io::Result<()> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
        }
        if self.end == self.buf.len() {
            let len = self.buf.len() * 2;
            self.buf.resize(len, 0);
        }
        let n = within(self.silence, self.inner.read(&mut self.buf[self.end..])).await?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                Malformed::ClosedInAnswer,
            ));
        }
        self.end += n;
        Ok(())
    }

    /// A literal of `n` bytes: what the buffer has of it, the rest read straight into it.
    async fn literal(&mut self, n: usize) -> io::Result<Vec<u8>> {
        let have = n.min(self.end - self.pos);
        let mut out = Vec::with_capacity(n);
        out.extend_from_slice(&self.buf[self.pos..self.pos + have]);
        self.pos += have;
        while out.len() < n {
            let want = (n - out.len()) as u64;
            let got = within(
                self.silence,
                (&mut *self.inner).take(want).read_buf(&mut out),
            )
            .await?;
            if got == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    Malformed::ClosedInMessage,
                ));
            }
        }
        Ok(out)
    }
}

/// `Some(Some(n))` when `line` ends with a literal's announcement `{n}` (or `{n+}`),
/// `Some(None)` when its n is too large to take.
fn literal_len(line: &[u8]) -> Option<Option<usize>> {
    let inner = line.strip_suffix(b"}")?;
    let open = memchr::memrchr(b'{', inner)?;
    let digits = &inner[open + 1..];
    let digits = digits.strip_suffix(b"+").unwrap_or(digits);
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|&n| n <= MAX_LITERAL),
    )
}

fn bad(what: Malformed) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what)
}

/// The start of an answer's text, for an error.
fn shown(text: &[u8]) -> String {
    let end = text.len().min(120);
    format!("{:?}", String::from_utf8_lossy(&text[..end]))
}

/// One answer from its text and literals.
fn parse(text: &[u8], literals: &mut [(usize, Vec<u8>)], tag: &str) -> io::Result<Answer> {
    let unreadable = || bad(Malformed::Unreadable(shown(text)));
    let mut t = Tokens {
        text,
        at: 0,
        literals,
        next_literal: 0,
    };
    match t.next()? {
        Some(Tok::Atom(b"*")) => {}
        Some(Tok::Atom(b"+")) => return Ok(Answer::Continue),
        Some(Tok::Atom(word)) if word == tag.as_bytes() => {
            let status = t.next()?;
            let rest = String::from_utf8_lossy(t.rest()).into_owned();
            return match status {
                Some(Tok::Atom(s)) if s.eq_ignore_ascii_case(b"OK") => Ok(Answer::Done {
                    ok: true,
                    text: rest,
                }),
                Some(Tok::Atom(s))
                    if s.eq_ignore_ascii_case(b"NO") || s.eq_ignore_ascii_case(b"BAD") =>
                {
                    Ok(Answer::Done {
                        ok: false,
                        text: rest,
                    })
                }
                _ => Err(unreadable()),
            };
        }
        _ => return Err(unreadable()),
    }
    // Untagged.
    let first = match t.next()? {
        Some(Tok::Atom(word)) => word,
        _ => return Err(unreadable()),
    };
    if first.eq_ignore_ascii_case(b"BYE") {
        return Ok(Answer::Bye(
            String::from_utf8_lossy(t.rest()).trim().to_owned(),
        ));
    }
    if first.eq_ignore_ascii_case(b"SEARCH") {
        let mut found = Vec::new();
        while let Some(tok) = t.next()? {
            match tok {
                Tok::Atom(word) => found.push(number(word).ok_or_else(unreadable)?),
                // `(MODSEQ n)` after the numbers (CONDSTORE): not asked for, passed over.
                Tok::Open => t.skip_list()?,
                _ => return Err(unreadable()),
            }
        }
        return Ok(Answer::Search(found));
    }
    if number(first).is_none() {
        return Ok(Answer::Other);
    }
    let kind = match t.next()? {
        Some(Tok::Atom(word)) => word,
        _ => return Err(unreadable()),
    };
    if kind.eq_ignore_ascii_case(b"EXISTS") {
        return Ok(Answer::Exists(number(first).ok_or_else(unreadable)?));
    }
    if kind.eq_ignore_ascii_case(b"EXPUNGE") {
        return Ok(Answer::Expunge);
    }
    if !kind.eq_ignore_ascii_case(b"FETCH") {
        return Ok(Answer::Other);
    }
    if t.next()? != Some(Tok::Open) {
        return Err(unreadable());
    }
    Ok(Answer::Fetch(fetch_items(&mut t, text)?))
}

/// The items of a `* n FETCH (…)` answer, after its opening parenthesis.
fn fetch_items(t: &mut Tokens<'_>, text: &[u8]) -> io::Result<FetchAnswer> {
    let unreadable = || bad(Malformed::Unreadable(shown(text)));
    let mut fetch = FetchAnswer::default();
    loop {
        let name = match t.next()? {
            Some(Tok::Close) => break,
            Some(Tok::Atom(name)) => name,
            _ => return Err(unreadable()),
        };
        if name.eq_ignore_ascii_case(b"UID") {
            fetch.uid = Some(t.number()?.ok_or_else(unreadable)?);
        } else if name.eq_ignore_ascii_case(b"RFC822.SIZE") {
            fetch.size = Some(t.number()?.ok_or_else(unreadable)?);
        } else if name.eq_ignore_ascii_case(b"INTERNALDATE") {
            let date = t.next()?.and_then(|tok| t.take(tok));
            let date = date.ok_or_else(unreadable)?;
            fetch.internal_date = Some(String::from_utf8_lossy(&date).into_owned());
        } else if name.eq_ignore_ascii_case(b"BODYSTRUCTURE") {
            if t.next()? != Some(Tok::Open) {
                return Err(unreadable());
            }
            let start = t.at - 1;
            t.skip_list()?;
            fetch.structure = Some(t.wire(start));
        } else if header_section(name) {
            fetch.header = match t.next()? {
                Some(Tok::Atom(nil)) if nil.eq_ignore_ascii_case(b"NIL") => None,
                Some(tok) => Some(t.take(tok).ok_or_else(unreadable)?),
                None => return Err(unreadable()),
            };
        } else if whole_body(name) {
            fetch.body = match t.next()? {
                Some(Tok::Atom(nil)) if nil.eq_ignore_ascii_case(b"NIL") => None,
                Some(tok) => Some(t.take(tok).ok_or_else(unreadable)?),
                None => return Err(unreadable()),
            };
        } else {
            t.skip_value()?;
        }
    }
    Ok(fetch)
}

/// `BODY[HEADER]`, or `BODY[HEADER.FIELDS (…)]`: the header block, or the named fields of it
/// (not `HEADER.FIELDS.NOT`, which ccmail never asks for).
fn header_section(name: &[u8]) -> bool {
    const FIELDS: &[u8] = b"BODY[HEADER.FIELDS (";
    name.eq_ignore_ascii_case(b"BODY[HEADER]")
        || (name.len() > FIELDS.len()
            && name[..FIELDS.len()].eq_ignore_ascii_case(FIELDS)
            && name.ends_with(b")]"))
}

/// `BODY[]`, or `BODY[]<n>`: the whole message, or from an origin (a partial fetch).
fn whole_body(name: &[u8]) -> bool {
    name.len() >= 6
        && name[..6].eq_ignore_ascii_case(b"BODY[]")
        && (name.len() == 6 || (name[6] == b'<' && name.ends_with(b">")))
}

fn number(word: &[u8]) -> Option<u32> {
    if word.is_empty() || !word.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(word).ok()?.parse().ok()
}

#[derive(Debug, PartialEq, Eq)]
enum Tok<'t> {
    Open,
    Close,
    /// An atom, a number, NIL, a flag, or an item name with its section (`BODY[]<0>`).
    Atom(&'t [u8]),
    /// A quoted string, unescaped.
    Quoted(Vec<u8>),
    /// A literal: its index in the answer's literals (taken with [`Tokens::take`]).
    Literal(usize),
}

/// The tokens of an answer's text, its literals taken in turn where their `{n}` stands.
struct Tokens<'t> {
    text: &'t [u8],
    at: usize,
    literals: &'t mut [(usize, Vec<u8>)],
    next_literal: usize,
}

impl<'t> Tokens<'t> {
    fn next(&mut self) -> io::Result<Option<Tok<'t>>> {
        let text = self.text;
        while text.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
        let Some(&c) = text.get(self.at) else {
            return Ok(None);
        };
        let start = self.at;
        match c {
            b'(' => {
                self.at += 1;
                Ok(Some(Tok::Open))
            }
            b')' => {
                self.at += 1;
                Ok(Some(Tok::Close))
            }
            b'"' => {
                let mut out = Vec::new();
                let mut i = start + 1;
                loop {
                    match text.get(i) {
                        None => return Err(bad(Malformed::UnendedString(shown(text)))),
                        Some(b'"') => break,
                        Some(b'\\') => {
                            let escaped = text
                                .get(i + 1)
                                .ok_or_else(|| bad(Malformed::UnendedString(shown(text))))?;
                            out.push(*escaped);
                            i += 2;
                        }
                        Some(&b) => {
                            out.push(b);
                            i += 1;
                        }
                    }
                }
                self.at = i + 1;
                Ok(Some(Tok::Quoted(out)))
            }
            b'{' => {
                let close = memchr::memchr(b'}', &text[start..])
                    .map(|i| start + i + 1)
                    .ok_or_else(|| bad(Malformed::UnendedLiteral(shown(text))))?;
                let index = self.next_literal;
                if self.literals.get(index).map(|(end, _)| *end) != Some(close) {
                    return Err(bad(Malformed::LiteralOutOfPlace(shown(text))));
                }
                self.next_literal += 1;
                self.at = close;
                Ok(Some(Tok::Literal(index)))
            }
            _ => {
                let mut i = start;
                while let Some(&b) = text.get(i) {
                    match b {
                        b' ' | b'(' | b')' | b'"' | b'{' => break,
                        // A section: `BODY[HEADER.FIELDS (FROM)]` is one token.
                        b'[' => {
                            let close = memchr::memchr(b']', &text[i..])
                                .ok_or_else(|| bad(Malformed::UnendedSection(shown(text))))?;
                            i += close + 1;
                        }
                        _ => i += 1,
                    }
                }
                self.at = i;
                Ok(Some(Tok::Atom(&text[start..i])))
            }
        }
    }

    /// A string's bytes: a quoted string's, or a literal's (taken: only once).
    fn take(&mut self, tok: Tok<'t>) -> Option<Vec<u8>> {
        match tok {
            Tok::Quoted(bytes) => Some(bytes),
            Tok::Literal(index) => self.literals.get_mut(index).map(|(_, b)| std::mem::take(b)),
            _ => None,
        }
    }

    fn number(&mut self) -> io::Result<Option<u32>> {
        Ok(match self.next()? {
            Some(Tok::Atom(word)) => number(word),
            _ => None,
        })
    }

    /// Skips to the end of a parenthesised list whose `(` was just read.
    fn skip_list(&mut self) -> io::Result<()> {
        let mut depth = 1;
        while depth > 0 {
            match self.next()? {
                Some(Tok::Open) => depth += 1,
                Some(Tok::Close) => depth -= 1,
                Some(_) => {}
                None => return Err(bad(Malformed::UnendedList(shown(self.text)))),
            }
        }
        Ok(())
    }

    /// Skips one item's value, whatever its shape.
    fn skip_value(&mut self) -> io::Result<()> {
        match self.next()? {
            Some(Tok::Open) => self.skip_list(),
            Some(Tok::Atom(_) | Tok::Quoted(_) | Tok::Literal(_)) => Ok(()),
            Some(Tok::Close) | None => Err(bad(Malformed::NoValue(shown(self.text)))),
        }
    }

    /// The text from `start` to here as the server wrote it, its literals put back.
    fn wire(&self, start: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.at - start);
        let mut from = start;
        for (end, bytes) in self.literals.iter() {
            if *end <= start || *end > self.at {
                continue;
            }
            out.extend_from_slice(&self.text[from..*end]);
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(bytes);
            from = *end;
        }
        out.extend_from_slice(&self.text[from..self.at]);
        out
    }

    /// The rest of the text (a status's words).
    fn rest(&self) -> &'t [u8] {
        let text = self.text;
        let rest = &text[self.at.min(text.len())..];
        rest.strip_prefix(b" ").unwrap_or(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every answer in `wire`, read a few bytes at a time (the reads split lines and literals
    /// everywhere), and what is left over.
    async fn read_all(wire: &[u8], tag: &str, step: usize) -> (Vec<Answer>, Vec<u8>) {
        let (mut client, mut server) = tokio::io::duplex(step.max(1));
        let wire = wire.to_vec();
        let writer = tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            for chunk in wire.chunks(step.max(1)) {
                // The reader stops at the end of the command, and closes its side.
                if server.write_all(chunk).await.is_err() {
                    break;
                }
            }
        });
        let mut reader = Reader::new(&mut client);
        let mut out = Vec::new();
        loop {
            let answer = reader.next(tag).await.unwrap();
            let done = matches!(answer, Answer::Done { .. });
            out.push(answer);
            if done {
                break;
            }
        }
        let left = reader.leftover().to_vec();
        drop(client);
        writer.await.unwrap();
        (out, left)
    }

    fn fetch(uid: u32, body: &[u8]) -> Answer {
        Answer::Fetch(FetchAnswer {
            uid: Some(uid),
            internal_date: Some("02-Mar-2026 10:00:00 +0300".into()),
            body: Some(body.to_vec()),
            ..FetchAnswer::default()
        })
    }

    #[tokio::test]
    async fn bodies_counts_and_the_end_however_the_reads_fall() {
        // Over the read buffer: most of it read from the socket straight into the message.
        let big: Vec<u8> = (0..70_000u32)
            .map(|i| b"ab\r\n)({}\"*"[i as usize % 10])
            .collect();
        let mut wire = Vec::new();
        wire.extend_from_slice(b"* 1 FETCH (UID 7 INTERNALDATE \"02-Mar-2026 10:00:00 +0300\" BODY[] {11}\r\nHi\r\n\r\n{3}\r\n)\r\n");
        wire.extend_from_slice(
            b"* 3 EXISTS\r\n* 2 RECENT\r\n* 1 FETCH (FLAGS (\\Seen $Forwarded))\r\n",
        );
        wire.extend_from_slice(format!("* 2 FETCH (BODY[] {{{}}}\r\n", big.len()).as_bytes());
        wire.extend_from_slice(&big);
        wire.extend_from_slice(b" UID 9 INTERNALDATE \"02-Mar-2026 10:00:00 +0300\")\r\n");
        wire.extend_from_slice(b"* 2 EXPUNGE\r\n* OK [ALERT] a notice\r\n");
        wire.extend_from_slice(b"* 3 FETCH (UID 11 BODY[] \"quoted \\\"body\\\" \\\\\" INTERNALDATE \"02-Mar-2026 10:00:00 +0300\")\r\n");
        wire.extend_from_slice(b"* 4 FETCH (UID 12 BODY[] NIL)\r\n");
        wire.extend_from_slice(b"A7 OK Fetch completed (0.001 + 0.000 secs).\r\n* 5 EXISTS\r\n");
        for step in [1, 3, 7, 64, 4096, 1 << 20] {
            let (answers, left) = read_all(&wire, "A7", step).await;
            assert_eq!(
                answers,
                [
                    fetch(7, b"Hi\r\n\r\n{3}\r\n"),
                    Answer::Exists(3),
                    Answer::Other,
                    Answer::Fetch(FetchAnswer::default()),
                    fetch(9, &big),
                    Answer::Expunge,
                    Answer::Other,
                    fetch(11, b"quoted \"body\" \\"),
                    Answer::Fetch(FetchAnswer {
                        uid: Some(12),
                        ..FetchAnswer::default()
                    }),
                    Answer::Done {
                        ok: true,
                        text: "Fetch completed (0.001 + 0.000 secs).".into()
                    },
                ],
                "reads of {step} bytes"
            );
            // Read past the end, and handed back to the stream; never more than one read.
            assert!(b"* 5 EXISTS\r\n".starts_with(&left), "{step}: {left:?}");
        }
    }

    #[tokio::test]
    async fn header_blocks_search_results_and_the_go_ahead() {
        let mut wire = Vec::new();
        wire.extend_from_slice(b"+ OK\r\n");
        wire.extend_from_slice(
            b"* 1 FETCH (UID 4 RFC822.SIZE 2040 BODY[HEADER] {9}\r\nFrom: x\r\n)\r\n",
        );
        wire.extend_from_slice(b"* 2 FETCH (UID 5 BODY[HEADER] NIL)\r\n");
        wire.extend_from_slice(b"* SEARCH 4 9 12\r\n* SEARCH\r\n* SEARCH 7 (MODSEQ 3)\r\n");
        wire.extend_from_slice(b"A3 OK done\r\n");
        for step in [1, 5, 4096] {
            let (answers, _) = read_all(&wire, "A3", step).await;
            assert_eq!(
                answers,
                [
                    Answer::Continue,
                    Answer::Fetch(FetchAnswer {
                        uid: Some(4),
                        size: Some(2040),
                        header: Some(b"From: x\r\n".to_vec()),
                        ..FetchAnswer::default()
                    }),
                    Answer::Fetch(FetchAnswer {
                        uid: Some(5),
                        ..FetchAnswer::default()
                    }),
                    Answer::Search(vec![4, 9, 12]),
                    Answer::Search(vec![]),
                    Answer::Search(vec![7]),
                    Answer::Done {
                        ok: true,
                        text: "done".into()
                    },
                ],
                "reads of {step} bytes"
            );
        }
    }

    #[tokio::test]
    async fn sizes_heads_and_structures() {
        let structure = b"((\"text\" \"plain\" (\"charset\" \"utf-8\") NIL NIL \"7bit\" 10 1 NIL NIL NIL NIL)(\"application\" \"octet-stream\" (\"name\" {8}\r\ngame.pgn) NIL NIL \"base64\" 300 NIL NIL NIL NIL) \"mixed\" (\"boundary\" \"b\") NIL NIL NIL)";
        let mut wire = Vec::new();
        wire.extend_from_slice(b"* 1 FETCH (UID 4 RFC822.SIZE 2040)\r\n");
        wire.extend_from_slice(b"* 2 FETCH (UID 5 MODSEQ (12) BODYSTRUCTURE ");
        wire.extend_from_slice(structure);
        wire.extend_from_slice(b" BODY[]<0> {5}\r\nFrom:)\r\n");
        wire.extend_from_slice(
            b"* 3 FETCH (UID 6 BODY[HEADER.FIELDS (FROM TO)] {5}\r\nx\r\n\r\n RFC822.SIZE 9)\r\n",
        );
        wire.extend_from_slice(
            b"* 4 FETCH (UID 7 BODY[HEADER.FIELDS.NOT (RECEIVED)] {3}\r\ny\r\n)\r\n",
        );
        wire.extend_from_slice(b"A2 OK done\r\n");
        for step in [1, 5, 100, 4096] {
            let (answers, left) = read_all(&wire, "A2", step).await;
            assert_eq!(
                answers,
                [
                    Answer::Fetch(FetchAnswer {
                        uid: Some(4),
                        size: Some(2040),
                        ..FetchAnswer::default()
                    }),
                    Answer::Fetch(FetchAnswer {
                        uid: Some(5),
                        body: Some(b"From:".to_vec()),
                        structure: Some(structure.to_vec()),
                        ..FetchAnswer::default()
                    }),
                    Answer::Fetch(FetchAnswer {
                        uid: Some(6),
                        size: Some(9),
                        header: Some(b"x\r\n\r\n".to_vec()),
                        ..FetchAnswer::default()
                    }),
                    // Not a section ccmail asks for: skipped.
                    Answer::Fetch(FetchAnswer {
                        uid: Some(7),
                        ..FetchAnswer::default()
                    }),
                    Answer::Done {
                        ok: true,
                        text: "done".into()
                    },
                ],
                "reads of {step} bytes"
            );
            assert!(left.is_empty());
        }
    }

    #[tokio::test]
    async fn a_refusal_and_a_goodbye_are_answers() {
        let wire = b"* BYE shutting down\r\nA3 NO [UNAVAILABLE] try later\r\n";
        let (answers, _) = read_all(wire, "A3", 4096).await;
        assert_eq!(
            answers,
            [
                Answer::Bye("shutting down".into()),
                Answer::Done {
                    ok: false,
                    text: "[UNAVAILABLE] try later".into()
                }
            ]
        );
    }

    /// What can't be read is an error in words, never a panic or a wrong message.
    #[tokio::test]
    async fn broken_answers_are_errors() {
        for (wire, what) in [
            (&b"A9 OK done\r\n"[..], "an answer that can't be read"),
            (b"* SEARCH 4 x\r\n", "an answer that can't be read"),
            (b"* 1 FETCH UID 4)\r\n", "an answer that can't be read"),
            (b"* 1 FETCH (UID x)\r\n", "an answer that can't be read"),
            (b"* 1 FETCH (UID 4 BODY[] \"open\r\n", "an unended string"),
            (
                b"* 1 FETCH (UID 4 BODY[] {99999999999}\r\n",
                "a literal over",
            ),
            (b"* 1 FETCH (UID 4 BODY[\r\n", "an unended section"),
            (
                b"* 1 FETCH (UID 4 BODYSTRUCTURE (\"text\"\r\n",
                "an unended list",
            ),
            (b"* 1 FETCH (UID 4 FLAGS)\r\n", "an item without a value"),
        ] {
            let mut input = wire;
            let mut reader = Reader::new(&mut input);
            let err = reader.next("A2").await.unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
            assert!(err.to_string().contains(what), "{what}: {err}");
        }
        // Cut in the middle of a line, or of a message.
        for wire in [
            &b"* 1 FETCH (UID 4"[..],
            b"* 1 FETCH (UID 4 BODY[] {10}\r\nabc",
        ] {
            let mut input = wire;
            let err = Reader::new(&mut input).next("A2").await.unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{err}");
        }
    }

    /// A server that goes silent in the middle of an answer — of a line, or of a message —
    /// is caught by the limit on its silence; one that keeps sending is not cut off, however
    /// long the answer takes.
    #[tokio::test(start_paused = true)]
    async fn silence_is_timed_not_the_answer() {
        use tokio::io::AsyncWriteExt;
        for wire in [
            &b"* 1 FETCH (UID 4"[..],
            b"* 1 FETCH (UID 4 BODY[] {10}\r\nabc",
        ] {
            let (mut server, mut client) = tokio::io::duplex(1 << 16);
            server.write_all(wire).await.unwrap();
            let mut reader = Reader::new(&mut client).quiet(Duration::from_secs(60));
            let err = reader.next("A2").await.unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::TimedOut, "{err}");
            assert_eq!(err.to_string(), "nothing from the server for 60 s");
            drop(server);
        }
        // A message sent a few bytes every 30 s: ten minutes in all.
        let (mut server, mut client) = tokio::io::duplex(1 << 16);
        let sending = async move {
            server
                .write_all(b"* 1 FETCH (UID 4 BODY[] {40}\r\n")
                .await
                .unwrap();
            for _ in 0..20 {
                tokio::time::sleep(Duration::from_secs(30)).await;
                server.write_all(b"ab").await.unwrap();
            }
            server.write_all(b")\r\nA2 OK done\r\n").await.unwrap();
            server
        };
        let reading = async {
            let mut reader = Reader::new(&mut client).quiet(Duration::from_secs(60));
            let first = reader.next("A2").await.unwrap();
            (first, reader.next("A2").await.unwrap())
        };
        let (_server, (first, done)) = tokio::join!(sending, reading);
        let Answer::Fetch(fetch) = first else {
            panic!("{first:?}")
        };
        assert_eq!(fetch.body.unwrap(), b"ab".repeat(20));
        assert_eq!(
            done,
            Answer::Done {
                ok: true,
                text: "done".into()
            }
        );
    }

    #[test]
    fn header_sections() {
        assert!(header_section(b"BODY[HEADER]") && header_section(b"body[header]"));
        assert!(header_section(b"BODY[HEADER.FIELDS (FROM REFERENCES)]"));
        assert!(header_section(b"body[header.fields (from)]"));
        assert!(!header_section(b"BODY[HEADER.FIELDS.NOT (FROM)]"));
        assert!(!header_section(b"BODY[HEADER.FIELDS (FROM)") && !header_section(b"BODY[TEXT]"));
    }

    #[test]
    fn literal_announcements() {
        assert_eq!(literal_len(b"* 1 FETCH (BODY[] {12}"), Some(Some(12)));
        assert_eq!(literal_len(b"x {0}"), Some(Some(0)));
        assert_eq!(literal_len(b"x {12+}"), Some(Some(12)));
        assert_eq!(literal_len(b"x {99999999999}"), Some(None));
        assert_eq!(literal_len(b"* OK {x}"), None);
        assert_eq!(literal_len(b"* OK {}"), None);
        assert_eq!(literal_len(b"* OK done"), None);
        assert!(whole_body(b"BODY[]") && whole_body(b"body[]<0>"));
        assert!(!whole_body(b"BODY[TEXT]") && !whole_body(b"BODY[]x") && !whole_body(b"BODY"));
    }
}
