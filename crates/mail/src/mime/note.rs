//! What the decoder had to work around in a message, as values: [`Decoded::problems`]
//! holds them, `Display` says each in English (logs, tests, `--json`), and an interface may
//! say them in its own words from the fields. The enums are exhaustive on purpose: a new
//! note is a compile error in each interface that has yet to say it.
//!
//! [`Decoded::problems`]: super::Decoded::problems

use std::fmt;

/// Which text a charset or transfer-encoding note is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Whose {
    /// The body of a message that is not multipart.
    Body,
    /// A part of a multipart message, by its MIME type (`text/html`).
    Part(String),
    /// An RFC 2047 encoded word in a header field.
    EncodedWord,
}

impl fmt::Display for Whose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Whose::Body => f.write_str("the message body"),
            Whose::Part(mimetype) => write!(f, "the {mimetype} part"),
            Whose::EncodedWord => f.write_str("an encoded word in a header"),
        }
    }
}

/// How text with no usable charset label was read in the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadAs {
    /// It was valid UTF-8.
    Utf8,
    /// It was not UTF-8: the guess for 8-bit Russian mail.
    Windows1251,
}

impl fmt::Display for ReadAs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadAs::Utf8 => f.write_str("; it was read as UTF-8"),
            ReadAs::Windows1251 => f.write_str("; it is not UTF-8, so it was read as windows-1251"),
        }
    }
}

/// One thing in a message that went wrong but was survived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MimeNote {
    /// `Date:` could not be parsed; `value` is its first 80 characters.
    BadDate { value: String },
    /// The date after the last `;` of the topmost `Received:` could not be parsed.
    BadReceivedDate { value: String },
    /// A header field (`field`, its name) has 8-bit bytes that are not UTF-8.
    RawHeaderBytes { field: String },
    /// An address field's `value` ends inside a quote, a comment or angle brackets.
    UnclosedAddress { value: String },
    /// Multipart nesting deeper than `max` levels: the rest was skipped.
    TooDeep { max: usize },
    /// More than `max` parts: the rest were skipped.
    TooManyParts { max: usize },
    /// A multipart of type `mimetype` has no boundary parameter.
    NoBoundary { mimetype: String },
    /// No part was found in a multipart by its `boundary`.
    NoPartFound { mimetype: String, boundary: String },
    /// A multipart's closing boundary is missing.
    NoClosingBoundary { mimetype: String },
    /// The text was taken from an attached `text/plain` file.
    TextFromAttachment,
    /// No part to read the text from.
    NoText,
    /// Broken base64, decoded as far as it goes.
    BrokenBase64 { whose: Whose },
    /// A transfer encoding not known (`encoding`, lower case), read as is.
    UnknownEncoding { whose: Whose, encoding: String },
    /// 8-bit text without a charset that is not UTF-8: read as windows-1251.
    NoCharset { whose: Whose },
    /// 8-bit bytes under a 7-bit (ASCII) `label`.
    EightBit {
        whose: Whose,
        label: String,
        read_as: ReadAs,
    },
    /// Bytes not valid in the declared `label`, replaced with U+FFFD.
    InvalidBytes { whose: Whose, label: String },
    /// A charset `label` that is not known.
    UnknownCharset {
        whose: Whose,
        label: String,
        read_as: ReadAs,
    },
}

impl fmt::Display for MimeNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MimeNote::BadDate { value } => write!(f, "the Date date {value:?} could not be read"),
            MimeNote::BadReceivedDate { value } => {
                write!(f, "the topmost Received date {value:?} could not be read")
            }
            MimeNote::RawHeaderBytes { field } => write!(
                f,
                "the {field} header has raw 8-bit bytes that are not UTF-8; read as windows-1251"
            ),
            MimeNote::UnclosedAddress { value } => write!(
                f,
                "an address header ends inside a quote, comment or <…>: {value:?}"
            ),
            MimeNote::TooDeep { max } => write!(
                f,
                "the MIME parts are nested more than {max} levels deep; the deeper parts were not read"
            ),
            MimeNote::TooManyParts { max } => write!(
                f,
                "the message has more than {max} MIME parts; the rest were not read"
            ),
            MimeNote::NoBoundary { mimetype } => write!(
                f,
                "a {mimetype} part has no boundary; its body was read as plain text"
            ),
            MimeNote::NoPartFound { mimetype, boundary } => write!(
                f,
                "no part of the {mimetype} was found (boundary {boundary:?}); its body was read as plain text"
            ),
            MimeNote::NoClosingBoundary { mimetype } => write!(
                f,
                "the {mimetype} has no closing boundary; the message may be cut short"
            ),
            MimeNote::TextFromAttachment => f.write_str(
                "the message has no text of its own; the text was taken from an attached text file",
            ),
            MimeNote::NoText => f.write_str("the message has no readable text part"),
            MimeNote::BrokenBase64 { whose } => write!(
                f,
                "{whose} has broken base64; it was decoded as far as it goes"
            ),
            MimeNote::UnknownEncoding { whose, encoding } => write!(
                f,
                "{whose} has the unknown transfer encoding {encoding:?}; it was read as is"
            ),
            MimeNote::NoCharset { whose } => {
                write!(f, "{whose} has no charset{}", ReadAs::Windows1251)
            }
            MimeNote::EightBit {
                whose,
                label,
                read_as,
            } => write!(
                f,
                "{whose} says charset {label} but has 8-bit bytes{read_as}"
            ),
            MimeNote::InvalidBytes { whose, label } => write!(
                f,
                "{whose} has bytes that are not valid {label}; they were replaced with U+FFFD"
            ),
            MimeNote::UnknownCharset {
                whose,
                label,
                read_as,
            } => write!(
                f,
                "{whose} says charset {label:?}, which is not known{read_as}"
            ),
        }
    }
}

/// Why a message is more than ccmail reads ([`super::Decoded::too_large`]): such a message
/// is held whole, never read in part, since a move read from part of a letter could be
/// the wrong one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TooLarge {
    /// More than `max` MIME parts.
    Parts { max: usize },
    /// Multipart nesting deeper than `max` levels.
    Depth { max: usize },
    /// More than `max` PGN parts.
    PgnParts { max: usize },
    /// A text or PGN part of `bytes` bytes as sent (encoded), more than `max`.
    Part { bytes: usize, max: usize },
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TooLarge::Parts { max } => write!(f, "it has more than {max} MIME parts"),
            TooLarge::Depth { max } => {
                write!(f, "its MIME parts are nested more than {max} levels deep")
            }
            TooLarge::PgnParts { max } => write!(f, "it has more than {max} PGN parts"),
            TooLarge::Part { bytes, max } => write!(
                f,
                "a text part of it is {bytes} bytes long, more than {max}"
            ),
        }
    }
}

/// A note equals its English words: tests compare the notes with the texts they expect.
impl PartialEq<str> for MimeNote {
    fn eq(&self, other: &str) -> bool {
        let mut rest = Rest(other);
        fmt::Write::write_fmt(&mut rest, format_args!("{self}")).is_ok() && rest.0.is_empty()
    }
}

impl PartialEq<&str> for MimeNote {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

/// What is left of a text being compared with a note's words, piece by piece as they are
/// written (no copy of them made).
struct Rest<'a>(&'a str);

impl fmt::Write for Rest<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
        Ok(())
    }
}
