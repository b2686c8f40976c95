//! MIME decoding: a raw RFC 5322 message in, its headers and readable text out.
//!
//! This is the one place where mail's encodings are undone, so that the move
//! reader only ever sees Unicode text with `\n` line ends: RFC 2047 words in
//! headers, quoted-printable and base64 bodies, any charset a mail client uses
//! (with a windows-1251 guess for unlabelled 8-bit Russian mail),
//! `format=flowed`, HTML-only mail, and PGN parts from cmail or Scid.
//!
//! It faces hostile mail, so it must never panic and never take more than
//! linear time and memory (times a small constant): multipart nesting is
//! walked without recursion and cut at [`MAX_DEPTH`] levels and [`MAX_PARTS`]
//! parts, and everything that went wrong but could be survived is said in
//! [`Decoded::problems`] rather than failing the message. Only input that is
//! not a mail message at all is an error.
//!
//! Libraries do what they do well: mailparse reads the parameters of `Content-Type` and
//! `Content-Disposition` and parses dates, the `base64` crate decodes base64, the `charset`
//! crate decodes charsets. The rest is ours, and each module says which of three reasons it is
//! for: linear time on hostile input, lenient decoding with problems reported, or reading a
//! header block without its message.
//!
//! It knows nothing of chess beyond which MIME types carry PGN.

use std::borrow::Cow;

use chrono::{DateTime, FixedOffset};

mod address;
mod codec;
mod flowed;
mod header;
mod html;
mod note;
mod parts;

pub use address::{Address, normalize_email};
pub use note::{MimeNote, ReadAs, TooLarge, Whose};
pub use parts::{MAX_DEPTH, MAX_PARTS};

use header::Field;
use parts::Leaf;

/// What [`decode`] read from one message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Decoded {
    /// The first mailbox of `From:`.
    pub from: Option<Address>,
    /// Every mailbox of `To:` (group members included).
    pub to: Vec<Address>,
    /// Every mailbox of `Cc:`.
    pub cc: Vec<Address>,
    /// The first mailbox of `Reply-To:`.
    pub reply_to: Option<Address>,
    /// The topmost `Return-Path:` without brackets; `Some("")` for the null
    /// path `<>` of a bounce.
    pub return_path: Option<String>,
    /// The first mailbox of `Sender:`.
    pub sender: Option<Address>,
    /// `Subject:` with its RFC 2047 words decoded (any charset) and folding undone.
    pub subject: Option<String>,
    /// `Date:`, keeping the sender's own UTC offset.
    pub date: Option<DateTime<FixedOffset>>,
    /// The date of the topmost `Received:` field (after its last `;`): when the
    /// receiving side's server got the message.
    pub received_date: Option<DateTime<FixedOffset>>,
    /// `Message-ID:` without angle brackets.
    pub message_id: Option<String>,
    /// The ids of `In-Reply-To:`, in order, without brackets.
    pub in_reply_to: Vec<String>,
    /// The ids of `References:`, in order, without brackets.
    pub references: Vec<String>,
    /// Every `Authentication-Results:` value, unfolded, topmost first: the receiving servers'
    /// verdicts on the sender (read by `ccmail_core::trust`).
    pub auth_results: Vec<String>,
    /// The body text, `\n` line ends, no byte-order mark. Chosen in this order:
    /// the first inline `text/plain` part (format=flowed undone), unless it is
    /// blank and there is HTML; else the first inline `text/html` part as text;
    /// else the first inline PGN part (cmail
    /// sends the whole message as `application/x-chess`); else the first
    /// attached `text/plain`; else empty (and a problem says so).
    pub text: String,
    /// Every PGN part, decoded to text: types `application/x-chess-pgn`,
    /// `application/x-chess` (cmail), `application/vnd.chess-pgn`, and any part
    /// whose file name ends in `.pgn`.
    pub pgn: Vec<String>,
    /// What went wrong but was survived (an unknown charset, broken base64, nesting too
    /// deep, …), each a [`MimeNote`] (`Display`: its English). Empty for clean mail.
    pub problems: Vec<MimeNote>,
    /// Mail no person wrote, as its header says: `None` for a person's.
    pub automatic: Option<Automatic>,
    /// Why the message is more than is read ([`MAX_PART_BYTES`], [`MAX_PGN_PARTS`],
    /// [`MAX_PARTS`], [`MAX_DEPTH`]): then `text` and `pgn` are left empty or short, and the
    /// caller holds the message rather than read it.
    pub too_large: Option<TooLarge>,
}

/// The largest text or PGN part decoded, in bytes as sent (base64 or quoted-printable
/// included): 2 MiB. A year-long game's letter with every quote is under 100 KB and its HTML
/// twin a few times that; a PGN of a whole game is a few KB. A larger part is not decoded at
/// all, so that a hostile one costs no memory beyond its bytes.
pub const MAX_PART_BYTES: usize = 2 << 20;

/// The most PGN parts decoded: a letter carries one game, a team captain's a board each.
pub const MAX_PGN_PARTS: usize = 100;

/// Mail no person wrote, told by its header fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Automatic {
    /// A delivery report, a bounce: `multipart/report` (RFC 6522), or from `MAILER-DAEMON` or
    /// `postmaster`.
    DeliveryReport,
    /// An automatic reply (RFC 3834): `Auto-Submitted` other than `no`, `X-Autoreply`,
    /// `X-Autorespond`, `Precedence: auto_reply`.
    AutoReply,
    /// A mailing list's post or bulk mail: `List-Id`, `List-Post` (RFC 2369, 2919),
    /// `Precedence: list`, `bulk` or `junk`.
    List,
}

/// How many of a message's References ids count when it is matched to a thread: the last
/// 100. Each answer appends its parent's id at the end (RFC 5322 3.6.4), so the newest are
/// there; a longer list only costs lookups, and a hostile one a great many.
pub const REFERENCES_LOOKED_UP: usize = 100;

impl Decoded {
    /// The Message-IDs this message answers, in the order they are tried: those of
    /// In-Reply-To (its first [`REFERENCES_LOOKED_UP`]), then the last
    /// [`REFERENCES_LOOKED_UP`] of References, newest first.
    pub fn answers(&self) -> Vec<&str> {
        let parents = self.in_reply_to.iter().take(REFERENCES_LOOKED_UP);
        let references = self.references.iter().rev().take(REFERENCES_LOOKED_UP);
        parents.chain(references).map(String::as_str).collect()
    }
}

/// Why a message could not be decoded at all.
///
/// Decoding is deterministic: reading the same bytes again fails the same way,
/// so none of these is worth retrying. Store the message and report it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MimeError {
    /// The input has no header block: a compressed file, binary data, or plain
    /// text saved as `.eml`. The words say what it looked like.
    #[error("{0}")]
    NotAMessage(NotAMessage),
}

/// What an input that is not an e-mail message looked like.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotAMessage {
    /// Nothing but white space.
    #[error("not an e-mail message: the input is empty")]
    Empty,
    /// It begins with something else than a header field.
    #[error("not an e-mail message: it begins with {0}, not with a header field such as \"From:\"")]
    BeginsWith(Beginning),
    /// Its header block holds NUL bytes.
    #[error("not an e-mail message: its header block contains NUL bytes (binary data)")]
    NulInHeader,
}

/// What an input that is not an e-mail message begins with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Beginning {
    /// gzip.
    #[error("gzip-compressed data")]
    Gzip,
    /// ZIP.
    #[error("a ZIP archive")]
    Zip,
    /// PDF.
    #[error("a PDF document")]
    Pdf,
    /// Other bytes that are not text.
    #[error("binary data")]
    Binary,
    /// A line of text (its first 60 characters, trailing white space left off).
    #[error("the text line {0:?}")]
    TextLine(String),
}

/// MIME types that carry a PGN game.
const PGN_TYPES: &[&str] = &[
    "application/x-chess-pgn",
    "application/x-chess",
    "application/vnd.chess-pgn",
];

/// Decodes one raw message (as fetched, CRLF or LF; an mbox `From ` line
/// before the headers is allowed).
///
/// # Errors
///
/// [`MimeError::NotAMessage`] when the input does not begin with a header
/// field. Anything else odd about a message (an empty body, broken encodings,
/// unknown charsets) is an `Ok` with [`Decoded::problems`] filled in.
pub fn decode(raw: &[u8]) -> Result<Decoded, MimeError> {
    decode_within(raw, Limits::MAIL)
}

/// How large a part [`decode_within`] decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest text or PGN part decoded, in bytes as sent.
    pub part_bytes: usize,
}

impl Limits {
    /// What [`decode`] reads: parts of up to [`MAX_PART_BYTES`].
    pub const MAIL: Limits = Limits {
        part_bytes: MAX_PART_BYTES,
    };
    /// Every part, whatever its size (to measure the decoders themselves on large input).
    pub const NONE: Limits = Limits {
        part_bytes: usize::MAX,
    };
}

/// [`decode`], with parts up to `limits` decoded.
///
/// # Errors
///
/// As [`decode`].
pub fn decode_within(raw: &[u8], limits: Limits) -> Result<Decoded, MimeError> {
    let raw = raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw);
    let raw = skip_mbox_line(raw);
    if !starts_with_field(raw) {
        return Err(MimeError::NotAMessage(describe(raw)));
    }
    // Mail comes with CRLF line ends (IMAP, SMTP) or LF ones (files), and the parts and
    // decoders below take either: only lone CRs (old Mac line ends) are rewritten first, so
    // that the attachments of most mail are not copied for nothing.
    let data = if codec::has_lone_cr(raw) {
        Cow::Owned(codec::normalize_newlines(raw))
    } else {
        Cow::Borrowed(raw)
    };
    let (headers, ix) = header::split_block(&data, 16);
    if data[..ix].contains(&0) {
        return Err(MimeError::NotAMessage(NotAMessage::NulInHeader));
    }
    let mut d = Decoded::default();
    read_fields(&headers, &mut d);
    let leaves = parts::leaves(headers, data.get(ix..).unwrap_or_default(), &mut d.problems);
    read_text(&leaves, &mut d, limits);
    Ok(d)
}

/// Decodes only the first `limit` bytes of a larger message, for a quick look at its headers
/// and the start of its text (the daemon decides this way whether mail is chess mail without
/// decoding every attachment of the player's private mail).
///
/// `None` when the head could differ from the whole on what matters for such a look, and the
/// whole message must be decoded instead:
/// - the header block does not end within the head;
/// - no text was found in the head (the text part may start after it);
/// - a part after the head may carry PGN: a part header after it names a chess type or a
///   `.pgn` file (found by a fast scan for part boundaries, not by decoding).
///
/// A message no longer than `limit` is decoded whole.
pub fn decode_head(raw: &[u8], limit: usize) -> Option<Result<Decoded, MimeError>> {
    if raw.len() <= limit {
        return Some(decode(raw));
    }
    if pgn_part_after(raw, limit) {
        return None;
    }
    decode_cut(&raw[..limit])
}

/// [`decode_head`] for a head that is all there is at hand — the first bytes of a larger
/// message, fetched on their own (IMAP `BODY.PEEK[]<0.n>`), whose parts the caller has
/// checked for PGN another way (the server's `BODYSTRUCTURE`). `None` when the header block
/// does not end within the head, or no text was found in it.
pub fn decode_cut(head: &[u8]) -> Option<Result<Decoded, MimeError>> {
    let header_ends = memchr::memmem::find(head, b"\n\r\n").is_some()
        || memchr::memmem::find(head, b"\n\n").is_some();
    if !header_ends {
        return None;
    }
    match decode(head) {
        Ok(d) if d.text.trim().is_empty() => None,
        other => Some(other),
    }
}

/// Whether a part header after byte `at` names a PGN type or a `.pgn` file: after each line
/// that starts with `--` (a boundary; base64 never starts a line so), its header block is
/// searched for "chess" or "pgn" in any case.
fn pgn_part_after(raw: &[u8], at: usize) -> bool {
    // Back to the start of the line `at` falls in, so that a boundary cut by the head counts.
    let from = raw[..at].iter().rposition(|&b| b == b'\n').unwrap_or(0);
    let rest = &raw[from..];
    memchr::memmem::find_iter(rest, b"\n--").any(|i| {
        let part = &rest[i + 3..];
        let block_end = memchr::memmem::find(part, b"\n\r\n")
            .or_else(|| memchr::memmem::find(part, b"\n\n"))
            .unwrap_or(part.len())
            .min(4096);
        let block = part[..block_end].to_ascii_lowercase();
        memchr::memmem::find(&block, b"chess").is_some()
            || memchr::memmem::find(&block, b"pgn").is_some()
    })
}

fn skip_mbox_line(raw: &[u8]) -> &[u8] {
    if raw.starts_with(b"From ") {
        let end = raw
            .iter()
            .position(|&b| b == b'\n')
            .map_or(raw.len(), |p| p + 1);
        return &raw[end..];
    }
    raw
}

/// Whether `b` begins with a header field: a name of printable ASCII, blanks
/// allowed before the colon (RFC 5322 obsolete syntax), then `:`.
pub(crate) fn starts_with_field(b: &[u8]) -> bool {
    let name = b
        .iter()
        .take_while(|&&c| (33..=126).contains(&c) && c != b':')
        .count();
    let blanks = b[name..]
        .iter()
        .take_while(|&&c| c == b' ' || c == b'\t')
        .count();
    name > 0 && b.get(name + blanks) == Some(&b':')
}

fn describe(raw: &[u8]) -> NotAMessage {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return NotAMessage::Empty;
    }
    let head = &raw[..raw.len().min(512)];
    let what = if raw.starts_with(&[0x1f, 0x8b]) {
        Beginning::Gzip
    } else if raw.starts_with(b"PK\x03\x04") {
        Beginning::Zip
    } else if raw.starts_with(b"%PDF-") {
        Beginning::Pdf
    } else if head.contains(&0)
        || (std::str::from_utf8(head).is_err()
            && head.iter().filter(|b| b.is_ascii_control()).count() > 8)
    {
        Beginning::Binary
    } else {
        let line = head
            .split(|&b| b == b'\n' || b == b'\r')
            .next()
            .unwrap_or_default();
        let line: String = String::from_utf8_lossy(line).chars().take(60).collect();
        Beginning::TextLine(line.trim_end().to_owned())
    };
    NotAMessage::BeginsWith(what)
}

fn read_fields<'a>(headers: &[Field<'a>], d: &mut Decoded) {
    let p = &mut d.problems;
    let [
        from,
        to,
        cc,
        reply_to,
        sender,
        return_path_field,
        subject,
        date_field,
        received,
        message_id,
        in_reply_to,
        references,
    ] = header::firsts(
        headers,
        [
            "From",
            "To",
            "Cc",
            "Reply-To",
            "Sender",
            "Return-Path",
            "Subject",
            "Date",
            "Received",
            "Message-ID",
            "In-Reply-To",
            "References",
        ],
    );
    let value =
        |field: Option<&Field<'a>>, p: &mut Vec<MimeNote>| field.map(|h| header::unfolded(h, p));
    let addresses = |field: Option<&Field<'a>>, p: &mut Vec<MimeNote>| {
        value(field, p)
            .map(|v| address::parse_list(&v, p))
            .unwrap_or_default()
    };
    d.from = addresses(from, p).into_iter().next();
    d.to = addresses(to, p);
    d.cc = addresses(cc, p);
    d.reply_to = addresses(reply_to, p).into_iter().next();
    d.sender = addresses(sender, p).into_iter().next();
    d.return_path = value(return_path_field, p).map(|v| return_path(&v));
    d.subject = value(subject, p).map(|v| header::decode_words(&v, p));
    d.date = value(date_field, p).and_then(|v| date(&v, false, p));
    d.received_date = value(received, p)
        .and_then(|v| v.rsplit_once(';').map(|(_, when)| when.trim().to_owned()))
        .and_then(|v| date(&v, true, p));
    d.message_id = value(message_id, p).and_then(|v| header::first_message_id(&v));
    d.in_reply_to = value(in_reply_to, p)
        .map(|v| header::message_ids(&v))
        .unwrap_or_default();
    d.references = value(references, p)
        .map(|v| header::message_ids(&v))
        .unwrap_or_default();
    d.automatic = automatic(headers, d.from.as_ref(), p);
    d.auth_results = headers
        .iter()
        .filter(|f| {
            f.name
                .trim_ascii()
                .eq_ignore_ascii_case(b"Authentication-Results")
        })
        .map(|f| header::unfolded(f, p).into_owned())
        .collect();
}

/// Whether the header says no person wrote the message, and what wrote it.
fn automatic(
    headers: &[Field<'_>],
    from: Option<&Address>,
    p: &mut Vec<MimeNote>,
) -> Option<Automatic> {
    let [
        content_type,
        auto_submitted,
        autoreply,
        autorespond,
        precedence,
        list_id,
        list_post,
    ] = header::firsts(
        headers,
        [
            "Content-Type",
            "Auto-Submitted",
            "X-Autoreply",
            "X-Autorespond",
            "Precedence",
            "List-Id",
            "List-Post",
        ],
    );
    let value = |f: Option<&Field<'_>>, p: &mut Vec<MimeNote>| {
        f.map(|f| header::unfolded(f, p).trim().to_ascii_lowercase())
    };
    let local = from.map(|a| a.email.split('@').next().unwrap_or("").to_ascii_lowercase());
    let report = value(content_type, p).is_some_and(|v| v.starts_with("multipart/report"));
    if report || matches!(local.as_deref(), Some("mailer-daemon" | "postmaster")) {
        return Some(Automatic::DeliveryReport);
    }
    let precedence = value(precedence, p);
    let submitted = value(auto_submitted, p).is_some_and(|v| !v.starts_with("no"));
    if submitted
        || autoreply.is_some()
        || autorespond.is_some()
        || precedence.as_deref() == Some("auto_reply")
    {
        return Some(Automatic::AutoReply);
    }
    let bulk = matches!(precedence.as_deref(), Some("list" | "bulk" | "junk"));
    (bulk || list_id.is_some() || list_post.is_some()).then_some(Automatic::List)
}

fn return_path(v: &str) -> String {
    match (v.find('<'), v.rfind('>')) {
        (Some(a), Some(b)) if a < b => v[a + 1..b].trim().to_owned(),
        _ => v.trim().to_owned(),
    }
}

/// The date of `Date:`, or of the topmost `Received:` when `received`.
fn date(v: &str, received: bool, problems: &mut Vec<MimeNote>) -> Option<DateTime<FixedOffset>> {
    let d = header::parse_date(v);
    if d.is_none() {
        let value: String = v.chars().take(80).collect();
        problems.push(if received {
            MimeNote::BadReceivedDate { value }
        } else {
            MimeNote::BadDate { value }
        });
    }
    d
}

fn is_pgn(leaf: &Leaf<'_>) -> bool {
    PGN_TYPES.contains(&&*leaf.ctype.mimetype)
        || leaf
            .filename
            .as_deref()
            .is_some_and(|f| f.to_ascii_lowercase().ends_with(".pgn"))
}

/// Chooses and decodes `text`, and decodes every PGN part.
fn read_text(leaves: &[Leaf<'_>], d: &mut Decoded, limits: Limits) {
    let kind = |l: &Leaf<'_>, t: &str, attached: bool| {
        l.ctype.mimetype == t && l.attachment == attached && !is_pgn(l)
    };
    if d.problems
        .iter()
        .any(|p| matches!(p, MimeNote::TooManyParts { .. }))
    {
        d.too_large = Some(TooLarge::Parts { max: MAX_PARTS });
        return;
    }
    if d.problems
        .iter()
        .any(|p| matches!(p, MimeNote::TooDeep { .. }))
    {
        d.too_large = Some(TooLarge::Depth { max: MAX_DEPTH });
        return;
    }
    if leaves.iter().filter(|l| is_pgn(l)).count() > MAX_PGN_PARTS {
        d.too_large = Some(TooLarge::PgnParts { max: MAX_PGN_PARTS });
        return;
    }
    let mut pgn_index = None;
    for leaf in leaves.iter().filter(|l| is_pgn(l)) {
        if !fits(leaf, d, limits) {
            return;
        }
        if pgn_index.is_none() && !leaf.attachment {
            pgn_index = Some(d.pgn.len());
        }
        d.pgn.push(leaf_text(leaf, &mut d.problems));
    }
    // Only the parts that are read are measured: a photo attached beside the move is not.
    let plain = leaves.iter().find(|l| kind(l, "text/plain", false));
    let html = leaves.iter().find(|l| kind(l, "text/html", false));
    if !plain.is_none_or(|l| fits(l, d, limits)) || !html.is_none_or(|l| fits(l, d, limits)) {
        return;
    }
    let plain = plain.map(|l| plain_text(l, &mut d.problems));
    let chosen = match (plain, html) {
        // Some clients send an empty text/plain beside the real HTML.
        (Some(p), Some(h)) if p.trim().is_empty() => html_text(h, &mut d.problems),
        (Some(p), _) => p,
        (None, Some(h)) => html_text(h, &mut d.problems),
        (None, None) => {
            if let Some(i) = pgn_index {
                d.pgn[i].clone()
            } else if let Some(l) = leaves.iter().find(|l| kind(l, "text/plain", true)) {
                if !fits(l, d, limits) {
                    return;
                }
                d.problems.push(MimeNote::TextFromAttachment);
                plain_text(l, &mut d.problems)
            } else {
                d.problems.push(MimeNote::NoText);
                String::new()
            }
        }
    };
    d.text = chosen;
}

/// Whether a part to be read is within `limits`; if not, `d` says the message is too large.
fn fits(leaf: &Leaf<'_>, d: &mut Decoded, limits: Limits) -> bool {
    let bytes = leaf.body.len();
    if bytes > limits.part_bytes {
        d.too_large = Some(TooLarge::Part {
            bytes,
            max: limits.part_bytes,
        });
    }
    bytes <= limits.part_bytes
}

fn html_text(leaf: &Leaf<'_>, problems: &mut Vec<MimeNote>) -> String {
    html::html_to_text(&leaf_text(leaf, problems))
}

fn plain_text(leaf: &Leaf<'_>, problems: &mut Vec<MimeNote>) -> String {
    let text = leaf_text(leaf, problems);
    let param = |k: &str| leaf.ctype.param(k).map(|v| v.trim().to_ascii_lowercase());
    if param("format").as_deref() == Some("flowed") {
        flowed::unflow(&text, param("delsp").as_deref() == Some("yes"))
    } else {
        text
    }
}

/// Which text a note about a leaf is about: the message body, or a part by its type.
fn whose(leaf: &Leaf<'_>) -> Whose {
    match leaf.depth {
        0 => Whose::Body,
        _ => Whose::Part(leaf.ctype.mimetype.to_string()),
    }
}

/// A leaf's body with its transfer encoding and charset undone, `\n` line ends.
fn leaf_text(leaf: &Leaf<'_>, problems: &mut Vec<MimeNote>) -> String {
    let field = header::first(&leaf.headers, "Content-Transfer-Encoding")
        .map(|h| header::unfolded(h, problems))
        .unwrap_or_default();
    let encoding = field.split([' ', ';', '(']).next().unwrap_or_default();
    let is = |name: &str| encoding.eq_ignore_ascii_case(name);
    let bytes = if encoding.is_empty() || is("7bit") || is("8bit") || is("binary") {
        Cow::Borrowed(leaf.body)
    } else if is("base64") {
        let (bytes, clean) = codec::base64_decode(leaf.body);
        if !clean {
            problems.push(MimeNote::BrokenBase64 { whose: whose(leaf) });
        }
        Cow::Owned(bytes)
    } else if is("quoted-printable") {
        Cow::Owned(codec::qp_decode(leaf.body, false))
    } else {
        problems.push(MimeNote::UnknownEncoding {
            whose: whose(leaf),
            encoding: encoding.to_ascii_lowercase(),
        });
        Cow::Borrowed(leaf.body)
    };
    let charset = leaf.ctype.param("charset");
    let t = codec::decode_charset(&bytes, charset, || whose(leaf));
    problems.extend(t.problem);
    codec::clean_text(t.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_start() {
        assert!(starts_with_field(b"From: a@b\n"));
        assert!(starts_with_field(b"Subject : x"));
        assert!(starts_with_field(b"X-Y:"));
        assert!(!starts_with_field(b"Hello world: x"));
        assert!(!starts_with_field(b": x"));
        assert!(!starts_with_field(b"\x1f\x8b\x08"));
        assert!(!starts_with_field(b""));
    }

    #[test]
    fn not_a_message_words() {
        let e = |raw: &[u8]| match decode(raw) {
            Err(MimeError::NotAMessage(words)) => words.to_string(),
            other => panic!("{other:?}"),
        };
        assert!(e(b"\x1f\x8b\x08\x08junk").contains("gzip-compressed data"));
        assert!(e(b"").contains("empty"));
        assert!(e(b"Dear Bob,\nmy move").contains("\"Dear Bob,\""));
        assert!(e(b"X: y\0\n\nbody").contains("NUL"));
    }

    /// Mail no person wrote, told by its header; a person's mail, with the same words in its
    /// body, is not.
    #[test]
    fn mail_no_person_wrote() {
        let rows: &[(&str, Option<Automatic>)] = &[
            (
                "From: MAILER-DAEMON@mx.example.ru\n",
                Some(Automatic::DeliveryReport),
            ),
            (
                "From: Mail Delivery System <Postmaster@example.com>\n",
                Some(Automatic::DeliveryReport),
            ),
            (
                "From: a@b.c\nContent-Type: multipart/report; report-type=delivery-status;\n boundary=x\n",
                Some(Automatic::DeliveryReport),
            ),
            (
                "From: a@b.c\nAuto-Submitted: auto-replied\n",
                Some(Automatic::AutoReply),
            ),
            (
                "From: a@b.c\nAuto-Submitted: Auto-Generated (vacation)\n",
                Some(Automatic::AutoReply),
            ),
            (
                "From: a@b.c\nX-Autoreply: yes\n",
                Some(Automatic::AutoReply),
            ),
            (
                "From: a@b.c\nPrecedence: auto_reply\n",
                Some(Automatic::AutoReply),
            ),
            (
                "From: a@b.c\nList-Id: Club news <news.club.example>\n",
                Some(Automatic::List),
            ),
            (
                "From: a@b.c\nList-Post: <mailto:cc@lists.example>\n",
                Some(Automatic::List),
            ),
            ("From: a@b.c\nPrecedence: Bulk\n", Some(Automatic::List)),
            ("From: a@b.c\nAuto-Submitted: no\n", None),
            ("From: a@b.c\nSubject: Out of office? No: my move\n", None),
            ("From: daemon.fan@example.org\n", None),
        ];
        for (head, automatic) in rows {
            let raw = format!("{head}\nAuto-Submitted: in the body is no header\n");
            assert_eq!(
                decode(raw.as_bytes()).unwrap().automatic,
                *automatic,
                "{head}"
            );
        }
    }

    #[test]
    fn mbox_line_and_bom() {
        let d =
            decode(b"\xef\xbb\xbfFrom a@b Sat Jan  3 01:05:34 1996\nSubject: s\n\nbody").unwrap();
        assert_eq!(d.subject.as_deref(), Some("s"));
        assert_eq!(d.text, "body");
    }
}
