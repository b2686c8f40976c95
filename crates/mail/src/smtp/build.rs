//! Writing an outgoing message as RFC 5322 bytes (lettre's builder).
//!
//! Everything that varies is an argument — the Message-ID, the Date — so the same input
//! gives the same bytes (the outbox can rebuild a message, tests compare wire text). The
//! text body stays readable in the raw mail: 7bit when it is ASCII, else 8bit UTF-8, and
//! quoted-printable only when a line is too long for 8bit. Subject and names are RFC 2047
//! encoded when needed; control characters in them (CR, LF, ...) become spaces, so no
//! input can add a header.

use chrono::{DateTime, FixedOffset};
use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment as LettreAttachment, Body, MultiPart, SinglePart};

use super::{BuildProblem, SmtpError};

/// A name and an address, e.g. `Петров Пётр <petrov@example.org>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailbox {
    /// The display name; empty for none.
    pub name: String,
    /// The address, `local@domain`.
    pub email: String,
}

impl Mailbox {
    /// A mailbox with a display name (may be empty).
    pub fn new(name: impl Into<String>, email: impl Into<String>) -> Self {
        Mailbox {
            name: name.into(),
            email: email.into(),
        }
    }
}

/// A file sent along, e.g. the game's PGN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The file name shown to the recipient.
    pub filename: String,
    /// Its MIME type, e.g. `application/x-chess-pgn`.
    pub mime_type: String,
    /// Its content.
    pub data: Vec<u8>,
}

/// A message to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The sender (also the envelope sender, see [`Outgoing::envelope_from`]).
    pub from: Mailbox,
    /// The recipients.
    pub to: Vec<Mailbox>,
    /// The copies (e.g. the arbiter).
    pub cc: Vec<Mailbox>,
    /// The subject, any text.
    pub subject: String,
    /// The text body; `\n` or `\r\n` line ends.
    pub body: String,
    /// The Message-ID without `<>`, e.g. `1234.white@example.org`.
    pub message_id: String,
    /// The Message-ID answered, without `<>`; it must be [`threadable`].
    pub in_reply_to: Option<String>,
    /// The thread's Message-IDs, oldest first, without `<>`; each must be [`threadable`].
    pub references: Vec<String>,
    /// The Date header, in the sender's zone.
    pub date: DateTime<FixedOffset>,
    /// Files sent along (none: a single text/plain part).
    pub attachments: Vec<Attachment>,
}

impl Outgoing {
    /// The envelope sender: the From address.
    pub fn envelope_from(&self) -> &str {
        &self.from.email
    }

    /// The envelope recipients: every To and Cc address, in order, without repeats.
    pub fn recipients(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for m in self.to.iter().chain(&self.cc) {
            if !out.iter().any(|e| e.eq_ignore_ascii_case(&m.email)) {
                out.push(m.email.clone());
            }
        }
        out
    }
}

/// The message as RFC 5322 bytes (CRLF line ends), ready for SMTP and for APPEND to Sent.
pub fn build(msg: &Outgoing) -> Result<Vec<u8>, SmtpError> {
    let mut builder = lettre::Message::builder()
        .from(mailbox(&msg.from)?)
        .subject(one_line(&msg.subject))
        .message_id(Some(format!("<{}>", msg_id(&msg.message_id)?)))
        // Replaced below by the caller's zone; this keeps lettre from adding "now".
        .date(msg.date.into());
    for m in &msg.to {
        builder = builder.to(mailbox(m)?);
    }
    for m in &msg.cc {
        builder = builder.cc(mailbox(m)?);
    }
    if let Some(id) = &msg.in_reply_to {
        builder = builder.in_reply_to(format!("<{}>", thread_id(id, "In-Reply-To")?));
    }
    if !msg.references.is_empty() {
        let ids = msg
            .references
            .iter()
            .map(|id| thread_id(id, "References").map(|id| format!("<{id}>")))
            .collect::<Result<Vec<_>, _>>()?;
        builder = builder.references(ids.join(" "));
    }

    let text = text_part(&msg.body);
    let mut message = if msg.attachments.is_empty() {
        builder.singlepart(text)
    } else {
        let mut parts = MultiPart::mixed()
            .boundary(boundary(&msg.message_id))
            .singlepart(text);
        for a in &msg.attachments {
            parts = parts.singlepart(attachment(a)?);
        }
        builder.multipart(parts)
    }
    .map_err(|e| SmtpError::Build(BuildProblem::Said(e.to_string())))?;

    // lettre writes every Date in UTC; the reader should see the sender's own clock.
    let date = msg.date.format("%a, %d %b %Y %H:%M:%S %z").to_string();
    message
        .headers_mut()
        .insert_raw(HeaderValue::dangerous_new_pre_encoded(
            HeaderName::new_from_ascii_str("Date"),
            date.clone(),
            date,
        ));
    // lettre ends every message with one CRLF more than its body has.
    let mut raw = message.formatted();
    if raw.ends_with(b"\r\n\r\n") {
        raw.truncate(raw.len() - 2);
    }
    Ok(raw)
}

fn mailbox(m: &Mailbox) -> Result<lettre::message::Mailbox, SmtpError> {
    let email = m
        .email
        .trim()
        .parse::<lettre::Address>()
        .map_err(|e| SmtpError::Address {
            address: m.email.clone(),
            reason: e.to_string(),
        })?;
    let name = one_line(&m.name);
    let name = (!name.is_empty()).then_some(name);
    Ok(lettre::message::Mailbox::new(name, email))
}

/// Subject, names and file names on one line: every control character becomes a space.
fn one_line(text: &str) -> String {
    let spaced: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    spaced.trim().to_owned()
}

/// The longest Message-ID (without `<>`) named in In-Reply-To or References. RFC 5322 sets
/// no length of its own, only lines of at most 998 characters, and an id can't be folded; no
/// mail program writes one near this long (ours are about 60 characters), so a longer one is
/// junk, and twenty of the longest still make a References header of a sensible size.
pub const MAX_THREAD_ID: usize = 250;

/// Whether a Message-ID (without `<>`) may be named in In-Reply-To and References: one a
/// header can carry — printable ASCII, the bytes 0x21–0x7e, without `<` or `>` — of at most
/// [`MAX_THREAD_ID`] characters.
///
/// A partner's mail may carry any other (Cyrillic written raw, a space, a control
/// character). The caller leaves such an id out of the thread: it is no reason to refuse the
/// reply, and [`build`] refuses a message that names one.
pub fn threadable(id: &str) -> bool {
    id.len() <= MAX_THREAD_ID && writable(id)
}

/// A Message-ID a header can carry: printable ASCII, no spaces, no angle brackets.
fn writable(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>')
}

/// Our own Message-ID, checked (`<>` left off).
fn msg_id(id: &str) -> Result<&str, SmtpError> {
    if writable(id) {
        Ok(id)
    } else {
        Err(SmtpError::Build(BuildProblem::NotAMessageId(id.to_owned())))
    }
}

/// An id of the thread, checked for `header`.
fn thread_id<'a>(id: &'a str, header: &str) -> Result<&'a str, SmtpError> {
    if threadable(id) {
        Ok(id)
    } else {
        Err(SmtpError::Build(BuildProblem::NotThreadable {
            id: id.to_owned(),
            header: header.to_owned(),
            max: MAX_THREAD_ID,
        }))
    }
}

/// The text part: 7bit if ASCII, else 8bit, else (long lines) quoted-printable.
fn text_part(body: &str) -> SinglePart {
    let mut text = body.replace("\r\n", "\n");
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let body = [
        ContentTransferEncoding::SevenBit,
        ContentTransferEncoding::EightBit,
    ]
    .into_iter()
    .find_map(|enc| Body::new_with_encoding(text.clone(), enc).ok())
    .unwrap_or_else(|| {
        Body::new_with_encoding(text, ContentTransferEncoding::QuotedPrintable)
            .expect("quoted-printable takes any text")
    });
    SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(body)
}

fn attachment(a: &Attachment) -> Result<SinglePart, SmtpError> {
    // The file name in the type's `name` parameter too, for the readers that look only
    // there (cmail, older Windows clients), when it can go there as a plain quoted string.
    let filename = one_line(&a.filename);
    let plain_name = !filename.is_empty()
        && filename
            .chars()
            .all(|c| c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ');
    let mime_type = if plain_name && !a.mime_type.contains(';') {
        format!("{}; name=\"{filename}\"", a.mime_type)
    } else {
        a.mime_type.clone()
    };
    let content_type = ContentType::parse(&mime_type).map_err(|e| {
        SmtpError::Build(BuildProblem::MimeType {
            mime_type: a.mime_type.clone(),
            error: e.to_string(),
        })
    })?;
    let part = LettreAttachment::new(filename);
    // Text (PGN) stays readable when it is UTF-8; anything else goes as base64.
    let textual = a.mime_type.starts_with("text/") || a.mime_type.contains("pgn");
    Ok(match String::from_utf8(a.data.clone()) {
        Ok(text) if textual => part.body(text, content_type),
        _ => part.body(a.data.clone(), content_type),
    })
}

/// A boundary derived from the Message-ID (same input, same bytes). `=_` cannot occur in
/// quoted-printable or base64 text, and the text part would have to quote it literally.
fn boundary(message_id: &str) -> String {
    let tail: String = message_id
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(40)
        .collect();
    format!("=_ccmail_{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_removes_control_characters() {
        assert_eq!(one_line("a\r\nBcc: x@y\tz"), "a  Bcc: x@y z");
        assert_eq!(one_line("  Партия 7 "), "Партия 7");
    }

    #[test]
    fn message_ids() {
        assert!(msg_id("abc.1@example.org").is_ok());
        for bad in ["", "a b@c", "<a@b>", "a@b\r\nBcc: x", "ид@x"] {
            assert!(msg_id(bad).is_err(), "{bad:?}");
        }
    }

    /// What may go into In-Reply-To and References: a Message-ID a header can carry, of at
    /// most 250 characters.
    #[test]
    fn thread_ids() {
        let longest = format!("{}@example.org", "a".repeat(238));
        for good in [
            "abc.1@example.org",
            "!#$%&'*+-/=?^_`{|}~@x",
            longest.as_str(),
        ] {
            assert!(threadable(good), "{good:?}");
        }
        let too_long = format!("a{longest}");
        for bad in [
            "",
            "ход.1@пример.рф",
            "a b@c",
            "a\tb@c",
            "a\u{1}b@c",
            "a\u{7f}b@c",
            "a@b\r\nBcc: x",
            "<a@b>",
            "a>b@c",
            too_long.as_str(),
        ] {
            assert!(!threadable(bad), "{bad:?}");
        }
    }

    #[test]
    fn a_thread_id_that_is_not_one_is_refused_in_words() {
        let mut msg = outgoing();
        msg.references = vec!["ok@x".into(), "ход.1@пример.рф".into()];
        let err = build(&msg).unwrap_err().to_string();
        assert!(
            err.contains("\"ход.1@пример.рф\" can't be named in References"),
            "{err}"
        );
        let mut msg = outgoing();
        msg.in_reply_to = Some("a".repeat(251));
        let err = build(&msg).unwrap_err().to_string();
        assert!(err.contains("can't be named in In-Reply-To"), "{err}");
    }

    fn outgoing() -> Outgoing {
        let m = |e: &str| Mailbox::new("", e);
        Outgoing {
            from: m("w@x.test"),
            to: vec![m("b@x.test")],
            cc: vec![m("a@x.test"), m("B@x.test")],
            subject: String::new(),
            body: String::new(),
            message_id: "1@x".into(),
            in_reply_to: None,
            references: vec![],
            date: DateTime::parse_from_rfc3339("2026-03-01T12:00:00+03:00").unwrap(),
            attachments: vec![],
        }
    }

    #[test]
    fn recipients_without_repeats() {
        let msg = outgoing();
        assert_eq!(msg.recipients(), vec!["b@x.test", "a@x.test"]);
        assert_eq!(msg.envelope_from(), "w@x.test");
    }
}
