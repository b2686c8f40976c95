//! An incoming message, from raw bytes to what the reader makes of it.
//!
//! The one path every message takes — `parse`, `apply` and the daemon alike: MIME decoding
//! (ccmail-mail), then the move-message reader (ccmail-core).

use ccmail_core::message::{self, Envelope, MoveMessage};
use ccmail_mail::mime::{self, Decoded, MimeNote};

/// A message as read.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// The MIME layer's view (headers, text); `None` when it is not mail at all.
    pub decoded: Option<Decoded>,
    pub envelope: Envelope,
    pub message: MoveMessage,
}

impl Incoming {
    /// The From address, lower case.
    pub fn from(&self) -> Option<String> {
        let from = self.decoded.as_ref()?.from.as_ref()?;
        Some(from.normalized_email())
    }

    pub fn message_id(&self) -> Option<&str> {
        self.decoded.as_ref()?.message_id.as_deref()
    }

    /// The survivable problems of the MIME layer (`Display`: English; the interface's words:
    /// [`mime_note`](crate::app::errors::mime_note)).
    pub fn mime_notes(&self) -> &[MimeNote] {
        self.decoded.as_ref().map_or(&[], |d| &d.problems)
    }
}

/// Decodes the MIME message and reads the move message in it. Never fails: a file that is
/// not mail gives a message with the `unreadable` problem.
pub fn read(raw: &[u8]) -> Incoming {
    match ccmail_mail::mime::decode(raw) {
        Ok(decoded) => read_decoded(decoded),
        Err(err) => Incoming {
            decoded: None,
            envelope: Envelope::default(),
            message: message::unreadable(err.to_string()),
        },
    }
}

/// Reads the move message in a message already decoded (the daemon's filter decodes first and
/// reads only mail that may be chess mail).
pub fn read_decoded(decoded: Decoded) -> Incoming {
    let envelope = Envelope {
        from: decoded.from.as_ref().map(|a| a.email.clone()),
        from_name: decoded.from.as_ref().and_then(|a| a.name.clone()),
        subject: decoded.subject.clone(),
        date: decoded.date,
        replies: !decoded.in_reply_to.is_empty() || !decoded.references.is_empty(),
        automatic: decoded.automatic.is_some(),
    };
    let message = match decoded.too_large {
        Some(why) => message::too_large(too_large(why)),
        None => message::read(&decoded.text, &decoded.pgn, &envelope),
    };
    Incoming {
        decoded: Some(decoded),
        envelope,
        message,
    }
}

/// The MIME layer's reason a message is too large, as the reader says it.
fn too_large(why: mime::TooLarge) -> message::TooLarge {
    let wide = |n: usize| n as u64;
    match why {
        mime::TooLarge::Parts { max } => message::TooLarge::Parts { max: wide(max) },
        mime::TooLarge::Depth { max } => message::TooLarge::Depth { max: wide(max) },
        mime::TooLarge::PgnParts { max } => message::TooLarge::PgnParts { max: wide(max) },
        mime::TooLarge::Part { bytes, max } => message::TooLarge::Part {
            bytes: wide(bytes),
            max: wide(max),
        },
    }
}

/// [`read`], in the shape `parse` and the benchmarks use.
pub fn read_raw(raw: &[u8]) -> (Envelope, MoveMessage, Vec<MimeNote>) {
    let incoming = read(raw);
    let notes = incoming.mime_notes().to_vec();
    (incoming.envelope, incoming.message, notes)
}
