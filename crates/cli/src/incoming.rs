//! An incoming message, from raw bytes to what the reader makes of it.
//!
//! The one path every message takes — `parse`, `apply` and the daemon alike: MIME decoding
//! (ccmail-mail), then the move-message reader (ccmail-core).

use ccmail_core::message::{self, Envelope, MoveMessage};

/// Decodes the MIME message and reads the move message in it. Never fails: a file that is
/// not mail gives a message with the `unreadable` problem.
pub fn read_raw(raw: &[u8]) -> (Envelope, MoveMessage, Vec<String>) {
    match ccmail_mail::mime::decode(raw) {
        Ok(decoded) => {
            let envelope = Envelope {
                from: decoded.from.as_ref().map(|a| a.email.clone()),
                subject: decoded.subject.clone(),
                date: decoded.date,
            };
            let msg = message::read(&decoded.text, &decoded.pgn, &envelope);
            (envelope, msg, decoded.problems)
        }
        Err(err) => (
            Envelope::default(),
            message::unreadable(err.to_string()),
            Vec::new(),
        ),
    }
}
