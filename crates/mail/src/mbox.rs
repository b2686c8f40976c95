//! Reading an mbox: the messages of a mail archive, as `ccmail export --mbox` and mail clients
//! write them (mboxo and mboxrd).
//!
//! Our own code, and small: the format is a `From ` line before each message, and (mboxrd)
//! one `>` added to body lines that begin with `>*From `; no crate in the lock file reads it,
//! and a dependency for forty lines would cost more than it saves.

use chrono::NaiveDateTime;

/// One message of an mbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The date on its `From ` line (the delivery time, as the archive says), if readable.
    pub delivered: Option<NaiveDateTime>,
    /// The message, `>From ` quoting undone, lines ending in `\n`.
    pub raw: Vec<u8>,
}

/// Whether `bytes` looks like an mbox: it begins with a `From ` line.
pub fn is_mbox(bytes: &[u8]) -> bool {
    bytes.starts_with(b"From ")
}

/// The messages of an mbox, in order. A `From ` line starts a message only at the start of the
/// file or after a blank line; the blank line before it belongs to no message.
pub fn split(bytes: &[u8]) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut blank_before = true;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if blank_before && text.starts_with(b"From ") {
            if let Some(last) = entries.last_mut() {
                // The separating blank line is the mbox's, not the message's.
                if last.raw.ends_with(b"\n\n") {
                    last.raw.pop();
                }
            }
            entries.push(Entry {
                delivered: from_line_date(&String::from_utf8_lossy(text)),
                raw: Vec::new(),
            });
            blank_before = false;
            continue;
        }
        blank_before = text.is_empty();
        let Some(entry) = entries.last_mut() else {
            continue;
        };
        let unquoted = match text.iter().position(|&b| b != b'>') {
            Some(n) if n > 0 && text[n..].starts_with(b"From ") => &line[1..],
            _ => line,
        };
        entry.raw.extend_from_slice(unquoted);
    }
    entries
}

/// The date of a `From sender Thu Mar  5 10:15:00 2026` line.
fn from_line_date(line: &str) -> Option<NaiveDateTime> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let tail = words.get(words.len().checked_sub(5)?..)?.join(" ");
    NaiveDateTime::parse_from_str(&tail, "%a %b %d %H:%M:%S %Y").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_from_lines_and_quoting() {
        let text = b"From a@example.org Thu Mar  5 10:15:00 2026\nSubject: one\n\n\
>From here on\nbody\n\nFrom b@example.org Fri Mar  6 08:00:00 2026\nSubject: two\n\nbody\nFrom inside, not after a blank\n";
        let entries = split(text);
        assert_eq!(entries.len(), 2);
        assert_eq!(
            String::from_utf8_lossy(&entries[0].raw),
            "Subject: one\n\nFrom here on\nbody\n"
        );
        assert_eq!(
            entries[0].delivered.map(|d| d.to_string()),
            Some("2026-03-05 10:15:00".into())
        );
        assert!(
            String::from_utf8_lossy(&entries[1].raw).ends_with("From inside, not after a blank\n")
        );
        assert!(is_mbox(text) && !is_mbox(b"Subject: x\n"));
    }
}
