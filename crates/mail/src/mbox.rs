//! Writing and reading an mbox: the messages of a mail archive, as `ccmail export --mbox` and
//! mail clients write them (mboxo and mboxrd).
//!
//! Our own code, and small: the format is a `From ` line before each message, and (mboxrd)
//! one `>` added to body lines that begin with `>*From `; no crate in the lock file reads it,
//! and a dependency for forty lines would cost more than it saves.
//!
//! An export is evidence (51.1.3–4: the arbiter may ask for the correspondence), so
//! [`write_entry`] works on bytes and changes nothing else: no charset is decoded, no line end
//! converted. [`split`] undoes exactly what it did.

use chrono::NaiveDateTime;

/// One message of an mbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The date on its `From ` line (the delivery time, as the archive says), if readable.
    pub delivered: Option<NaiveDateTime>,
    /// The message, `>From ` quoting undone, lines ending in `\n`.
    pub raw: Vec<u8>,
}

/// Appends one mboxrd entry to `out`: the `From SENDER DATE` line, the message byte for byte
/// except that a line beginning with `>*From ` gets one more `>`, and the blank line that ends
/// an entry. The only other change: a line end (`\n`) after the last line of a message that
/// has none. [`split`] gives the message back.
pub fn write_entry(out: &mut Vec<u8>, sender: &str, delivered: NaiveDateTime, raw: &[u8]) {
    let when = delivered.format("%a %b %e %H:%M:%S %Y");
    // One word: an address with a space or a line end in it would break the line.
    let one_word =
        !sender.is_empty() && !sender.contains(|c: char| c.is_whitespace() || c.is_control());
    let sender = if one_word { sender } else { "MAILER-DAEMON" };
    out.extend_from_slice(format!("From {sender} {when}\n").as_bytes());
    for line in raw.split_inclusive(|&b| b == b'\n') {
        let quoted = line.iter().position(|&b| b != b'>');
        if quoted.is_some_and(|n| line[n..].starts_with(b"From ")) {
            out.push(b'>');
        }
        out.extend_from_slice(line);
    }
    if !raw.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// Whether `bytes` looks like an mbox: it begins with a `From ` line.
pub fn is_mbox(bytes: &[u8]) -> bool {
    bytes.starts_with(b"From ")
}

/// The messages of an mbox, in order. A `From ` line starts a message only at the start of the
/// file or after a blank line; that blank line, and the one at the end of the file, belong to
/// no message.
pub fn split(bytes: &[u8]) -> Vec<Entry> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut blank_before = true;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if blank_before && text.starts_with(b"From ") {
            if let Some(last) = entries.last_mut() {
                end_entry(last);
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
    if let Some(last) = entries.last_mut() {
        end_entry(last);
    }
    entries
}

/// The blank line that ends an entry is the mbox's, not the message's.
fn end_entry(entry: &mut Entry) {
    if entry.raw.ends_with(b"\n\n") {
        entry.raw.pop();
    }
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

    /// Whatever the bytes — CRLF or LF, 8-bit text in any charset, bytes that are no text,
    /// lines that begin with `From ` or `>From `, blank lines at the end — `split` gives back
    /// what `write_entry` was given.
    #[test]
    fn what_is_written_is_read_back_byte_for_byte() {
        let messages: [&[u8]; 6] = [
            b"Subject: one\r\n\r\nFrom Moscow\r\n>From here\r\n>>From there\r\nok\r\n",
            b"Subject: \xcf\xf0\xe8\xe2\xe5\xf2\n\n\xd5\xee\xe4: e4\nFrom \xcc\xee\xf1\xea\xe2\xfb\n",
            b"Subject: blank lines at the end\r\n\r\nbody\r\n\r\n\r\n",
            b"Subject: bytes\n\n\x00\xff\xfe\r\rFrom\n From \n>From\n",
            b"Subject: last\n\nFrom the end\n\n",
            b"Subject: LF blank lines\n\n\n\n",
        ];
        let at = NaiveDateTime::parse_from_str("2026-03-05 10:15:00", "%Y-%m-%d %H:%M:%S").unwrap();
        let mut out = Vec::new();
        for raw in messages {
            write_entry(&mut out, "a@example.org", at, raw);
        }
        assert!(out.starts_with(b"From a@example.org Thu Mar  5 10:15:00 2026\n"));
        let entries = split(&out);
        let back: Vec<&[u8]> = entries.iter().map(|e| e.raw.as_slice()).collect();
        assert_eq!(back, messages);
        assert!(entries.iter().all(|e| e.delivered == Some(at)));
        // The quoting is mboxrd's: one more `>` on each `>*From ` line, nothing else.
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("\r\n>From Moscow\r\n>>From here\r\n>>>From there\r\n"));
        assert!(text.contains("\rFrom\n From \n>From\n"), "{text}");
    }

    #[test]
    fn a_message_without_a_last_line_end_gets_one() {
        let at = NaiveDateTime::default();
        let mut out = Vec::new();
        write_entry(&mut out, "a@example.org", at, b"Subject: x\r\n\r\nno end");
        write_entry(&mut out, "b@example.org", at, b"Subject: y\r\n\r\nno end");
        let back: Vec<Vec<u8>> = split(&out).into_iter().map(|e| e.raw).collect();
        assert_eq!(
            back,
            [b"Subject: x\r\n\r\nno end\n", b"Subject: y\r\n\r\nno end\n"]
        );
    }
}
