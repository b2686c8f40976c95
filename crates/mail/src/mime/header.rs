//! Header fields: the header block split into fields, unfolding, RFC 2047 encoded words,
//! message ids, dates.
//!
//! Ours, not mailparse's, for **linear time on hostile input** and **head-only reading**.
//! mailparse's value decoding scans the line again for every `=?` it meets, which a hostile
//! Subject can turn into quadratic time. And the daemon decides from a message's header
//! block alone (fetched without the body) whether the body is worth fetching: this reads a
//! header block with no message around it. Dates are parsed by `mailparse::dateparse`; the
//! charsets of encoded words by the `charset` crate, with what went wrong reported.

use std::borrow::Cow;

use chrono::{DateTime, FixedOffset};

use super::codec;
use super::note::{MimeNote, Whose};

/// One header field as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Field<'a> {
    /// The name, with any blanks before the colon (RFC 5322's obsolete syntax). A line
    /// without a colon is all name, and has an empty value.
    pub(crate) name: &'a [u8],
    /// The value: spaces after the colon and the final line end left out, the line breaks of
    /// folding kept.
    pub(crate) value: &'a [u8],
    /// The value as text, when the whole header block is UTF-8 (nearly every message's is):
    /// the block is checked once, not each value on its own.
    pub(crate) text: Option<&'a str>,
    /// Whether the value goes on over more lines than one (has a line break).
    pub(crate) folded: bool,
}

/// Splits the header block at the start of `raw` (LF or CRLF line ends; the caller has
/// rewritten lone CRs) into its fields. Returns them and where the body starts: after the
/// blank line that ends the block, or at the end of `raw` when there is none.
///
/// A field is its first line and every line after it that starts with a blank. The caller
/// has checked that `raw` starts with a field, not with a blank. `room` is how many fields
/// to make room for at first: a message's header has a dozen or two, a part's a few (and a
/// message may have thousands of parts).
pub(crate) fn split_block(raw: &[u8], room: usize) -> (Vec<Field<'_>>, usize) {
    let (mut fields, body) = split_fields(raw, room);
    // The block checked as UTF-8 once, with vector instructions; each value is then a piece
    // of it cut at ASCII bytes (a colon, blanks, line ends), at character boundaries.
    if let Ok(block) = simdutf8::basic::from_utf8(&raw[..body]) {
        for f in &mut fields {
            // The value is a piece of `raw`: where it starts is told by its address.
            f.text = (f.value.as_ptr() as usize)
                .checked_sub(raw.as_ptr() as usize)
                .and_then(|start| block.get(start..)?.get(..f.value.len()));
        }
    }
    (fields, body)
}

/// [`split_block`] less the text of the values.
fn split_fields(raw: &[u8], room: usize) -> (Vec<Field<'_>>, usize) {
    let line_end =
        |from: usize| memchr::memchr(b'\n', &raw[from..]).map_or(raw.len(), |i| from + i);
    let mut fields = Vec::with_capacity(room);
    let mut at = 0;
    while at < raw.len() {
        match raw[at..] {
            [b'\n', ..] => return (fields, at + 1),
            [b'\r', b'\n', ..] => return (fields, at + 2),
            _ => {}
        }
        let first_end = line_end(at);
        let mut end = first_end;
        while matches!(raw.get(end + 1), Some(b' ' | b'\t')) {
            end = line_end(end + 1);
        }
        let field = &raw[at..end];
        let field = match memchr::memchr(b':', &raw[at..first_end]) {
            Some(colon) => {
                let value = &field[colon + 1..];
                let value = &value[value.iter().take_while(|&&b| b == b' ').count()..];
                let kept = value.len()
                    - value
                        .iter()
                        .rev()
                        .take_while(|&&b| b == b'\r' || b == b'\n')
                        .count();
                Field {
                    name: &field[..colon],
                    value: &value[..kept],
                    text: None,
                    // A line break within the value: the blank that starts a line after the
                    // first keeps the break before it from being cut off with the line end.
                    folded: end != first_end,
                }
            }
            None => Field {
                name: &raw[at..first_end],
                value: &raw[first_end..first_end],
                text: None,
                folded: false,
            },
        };
        fields.push(field);
        at = end + 1;
    }
    (fields, raw.len())
}

/// Finds the first field called `name` (case-insensitive).
pub(crate) fn first<'h, 'a>(fields: &'h [Field<'a>], name: &str) -> Option<&'h Field<'a>> {
    fields
        .iter()
        .find(|f| f.name.trim_ascii().eq_ignore_ascii_case(name.as_bytes()))
}

/// The first field of each of `names`, as [`first`] finds it, in one pass over the fields:
/// the message's header is read for a dozen names, and one search for each trimmed every
/// field's name a dozen times.
pub(crate) fn firsts<'h, 'a, const N: usize>(
    fields: &'h [Field<'a>],
    names: [&str; N],
) -> [Option<&'h Field<'a>>; N] {
    let mut found = [None; N];
    for f in fields {
        let name = f.name.trim_ascii();
        if let Some(i) = names
            .iter()
            .position(|n| name.eq_ignore_ascii_case(n.as_bytes()))
        {
            found[i].get_or_insert(f);
        }
    }
    found
}

/// The raw value of a field as text, unfolded: each line break and the blanks
/// after it become one space. Raw 8-bit bytes are read as UTF-8 or, if they are
/// not UTF-8, as windows-1251 (with a problem noted).
pub(crate) fn unfolded<'a>(field: &Field<'a>, problems: &mut Vec<MimeNote>) -> Cow<'a, str> {
    let raw = field.value;
    // Most fields are one line: nothing to unfold, and nothing to copy.
    let one_line = !field.folded;
    match field.text.map_or_else(|| std::str::from_utf8(raw), Ok) {
        Ok(s) if one_line => Cow::Borrowed(s.trim()),
        Ok(s) => Cow::Owned(unfold(s)),
        Err(_) => {
            problems.push(MimeNote::RawHeaderBytes {
                field: String::from_utf8_lossy(field.name).trim().to_owned(),
            });
            Cow::Owned(unfold(&codec::windows_1251(raw)))
        }
    }
}

fn unfold(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // Line by line: each break and the blanks after it (and the CR before it) are one space.
    for (i, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = if i == 0 {
            line
        } else {
            line.trim_start_matches([' ', '\t', '\r'])
        };
        if line.is_empty() {
            continue;
        }
        if i > 0 && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(line);
    }
    // Trimmed where it stands, not copied once more.
    out.truncate(out.trim_end().len());
    let blanks = out.len() - out.trim_start().len();
    out.drain(..blanks);
    out
}

/// One RFC 2047 encoded word found at the start of `s`: its charset label, whether it is
/// base64 ("B") rather than "Q", its encoded text and the length it took. It is decoded
/// by [`decode_words`], onto the bytes of the words before it in the same charset.
struct Word<'s> {
    charset: &'s str,
    base64: bool,
    text: &'s [u8],
    len: usize,
}

impl Word<'_> {
    fn decode_onto(&self, bytes: &mut Vec<u8>) {
        if self.base64 {
            codec::base64_decode_into(self.text, bytes);
        } else {
            codec::qp_decode_into(self.text, true, bytes);
        }
    }
}

fn is_especial(b: u8) -> bool {
    // (A `match`, not a search of a list: that was a call to memchr a byte.)
    matches!(
        b,
        b'(' | b')'
            | b'<'
            | b'>'
            | b'@'
            | b','
            | b';'
            | b':'
            | b'"'
            | b'/'
            | b'['
            | b']'
            | b'?'
            | b'.'
            | b'='
            | 0..=b' ' | 0x7f
    )
}

/// Where the first `=?` of `s` is. Headers are short, and a search for `=` with a look at
/// the byte after it costs less there than setting up a substring search.
fn find_word_start(s: &[u8]) -> Option<usize> {
    memchr::memchr_iter(b'=', s).find(|&i| s.get(i + 1) == Some(&b'?'))
}

/// Parses `=?charset?B|Q?text?=` at the start of `s`. Each failed attempt only
/// reads up to the first `?`/blank of a run, so repeated attempts stay linear.
fn parse_word(s: &str) -> Option<Word<'_>> {
    let b = s.as_bytes();
    let rest = b.strip_prefix(b"=?")?;
    let cs_len = rest.iter().position(|&c| is_especial(c))?;
    if cs_len == 0 || rest.get(cs_len) != Some(&b'?') {
        return None;
    }
    let enc = *rest.get(cs_len + 1)?;
    if rest.get(cs_len + 2) != Some(&b'?') {
        return None;
    }
    let text_start = cs_len + 3;
    let text_len = rest[text_start..]
        .iter()
        .position(|&c| c == b'?' || c == b' ' || c == b'\t')?;
    let text = &rest[text_start..text_start + text_len];
    if rest.get(text_start + text_len + 1) != Some(&b'=') || rest[text_start + text_len] != b'?' {
        return None;
    }
    let base64 = match enc {
        b'B' | b'b' => true,
        b'Q' | b'q' => false,
        _ => return None,
    };
    // RFC 2231 allows a language after '*': "utf-8*ru".
    let label = &s[2..2 + cs_len];
    let charset = label.split('*').next().unwrap_or(label);
    Some(Word {
        charset,
        base64,
        text,
        len: 2 + text_start + text_len + 2,
    })
}

/// Decodes the RFC 2047 encoded words in an unfolded value. Blanks between two
/// encoded words are dropped, and adjacent words in the same charset are joined
/// as bytes before decoding (senders do split a UTF-8 character across words).
///
/// The words of one charset are decoded into one buffer, and the blanks after them are
/// kept as where they are in `value`: a Subject of two words costs the output and that
/// buffer, not a vector a word and a string of blanks.
pub(crate) fn decode_words(value: &str, problems: &mut Vec<MimeNote>) -> String {
    if find_word_start(value.as_bytes()).is_none() {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    // The charset of the pending words (their bytes in `bytes`), and the blanks seen after
    // them: `value[blanks.0..blanks.1]`, one run, since a word between two runs clears it.
    let mut pending: Option<&str> = None;
    // Room for all the words at once (each decodes to fewer bytes than it takes), so that
    // adding the second word does not move the first.
    let mut bytes = Vec::with_capacity(value.len());
    let mut blanks = (0, 0);
    let mut i = 0;
    while i < value.len() {
        let rest = &value[i..];
        if rest.starts_with("=?")
            && let Some(word) = parse_word(rest)
        {
            match pending {
                Some(cs) if cs.eq_ignore_ascii_case(word.charset) => {}
                _ => {
                    flush(&mut out, pending.take(), &bytes, problems);
                    bytes.clear();
                    pending = Some(word.charset);
                }
            }
            word.decode_onto(&mut bytes);
            blanks = (i + word.len, i + word.len);
            i += word.len;
            continue;
        }
        // Plain text up to the next `=?` that may start a word (an ASCII byte: the cut is
        // at a character boundary).
        let plain = find_word_start(&rest.as_bytes()[1..]).map_or(rest.len(), |n| n + 1);
        let plain = &rest[..plain];
        if pending.is_some() && plain.bytes().all(|b| b == b' ' || b == b'\t') {
            blanks.1 = i + plain.len();
        } else {
            flush(&mut out, pending.take(), &bytes, problems);
            out.push_str(&value[blanks.0..blanks.1]);
            out.push_str(plain);
            blanks = (i + plain.len(), i + plain.len());
        }
        i += plain.len();
    }
    flush(&mut out, pending, &bytes, problems);
    out.push_str(&value[blanks.0..blanks.1]);
    out
}

fn flush(out: &mut String, label: Option<&str>, bytes: &[u8], problems: &mut Vec<MimeNote>) {
    let Some(label) = label else {
        return;
    };
    let t = codec::decode_charset(bytes, Some(label), || Whose::EncodedWord);
    if let Some(p) = t.problem {
        problems.push(p);
    }
    out.push_str(&t.text);
}

/// Message ids as written between `<` and `>`, without the brackets and with
/// any folding blanks inside removed. A value with no brackets at all gives its
/// blank-separated words that contain an `@`.
pub(crate) fn message_ids(value: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut rest = value;
    while let Some(open) = rest.find('<') {
        let Some(len) = rest[open + 1..].find('>') else {
            break;
        };
        let id = clean_id(&rest[open + 1..open + 1 + len]);
        if !id.is_empty() {
            ids.push(id);
        }
        rest = &rest[open + 1 + len + 1..];
    }
    if ids.is_empty() && !value.contains('<') {
        ids = value
            .split_whitespace()
            .filter(|w| w.contains('@'))
            .map(str::to_owned)
            .collect();
    }
    ids
}

/// The first of [`message_ids`], without a vector for all of them: `Message-ID:` keeps one.
pub(crate) fn first_message_id(value: &str) -> Option<String> {
    let mut rest = value;
    while let Some(open) = rest.find('<') {
        let len = rest[open + 1..].find('>')?;
        let id = clean_id(&rest[open + 1..open + 1 + len]);
        if !id.is_empty() {
            return Some(id);
        }
        rest = &rest[open + 1 + len + 1..];
    }
    if value.contains('<') {
        return None;
    }
    value
        .split_whitespace()
        .find(|w| w.contains('@'))
        .map(str::to_owned)
}

/// An id as written between brackets, without the folding blanks inside.
fn clean_id(id: &str) -> String {
    if id.bytes().any(|b| b.is_ascii_whitespace() || !b.is_ascii()) {
        id.chars().filter(|c| !c.is_whitespace()).collect()
    } else {
        id.to_owned()
    }
}

/// Longest date text we try to read; a real one is about 40 characters.
const MAX_DATE_LEN: usize = 200;

/// Reads an RFC 5322 date, keeping the writer's UTC offset. Comments such as
/// `(MSK)` are dropped first; obsolete forms chrono refuses go through
/// mailparse's lenient reader, keeping a numeric offset if one is written.
pub(crate) fn parse_date(value: &str) -> Option<DateTime<FixedOffset>> {
    if value.len() > MAX_DATE_LEN {
        return None;
    }
    if let Some(d) = usual_date(value) {
        return Some(d);
    }
    // Most dates have no comment, and chrono reads them as they are.
    if !value.contains('(')
        && let Ok(d) = DateTime::parse_from_rfc2822(value)
    {
        return Some(d);
    }
    let cleaned = strip_comments(value);
    if let Ok(d) = DateTime::parse_from_rfc2822(&cleaned) {
        return Some(d);
    }
    // mailparse gives 0 when it found no day, month and year at all.
    let ts = mailparse::dateparse(&cleaned).ok().filter(|&ts| ts > 0)?;
    let offset = cleaned
        .split_whitespace()
        .rev()
        .find_map(numeric_offset)
        .unwrap_or(0);
    let tz = FixedOffset::east_opt(offset)?;
    Some(DateTime::from_timestamp(ts, 0)?.with_timezone(&tz))
}

/// Reads a date in the one form nearly every mail client writes, `Fri, 20 Mar 2026 22:55:00
/// +0300` (the day of the week may be left out, the day of the month may be one digit), by
/// its bytes: chrono's reader of RFC 2822 dates goes through its general parser of formats,
/// ten times the instructions. `None` for anything else, and for what chrono would refuse
/// or read otherwise (a day of the week wrong for the date, a leap second, a year before
/// 1000): [`parse_date`] then reads it as before. A property test holds it to chrono.
fn usual_date(value: &str) -> Option<DateTime<FixedOffset>> {
    use chrono::{Datelike, NaiveDate, TimeZone};
    const DAYS: [&[u8; 3]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
    const MONTHS: [&[u8; 3]; 12] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
        b"Dec",
    ];
    let digit = |b: u8| b.is_ascii_digit().then(|| u32::from(b - b'0'));
    let two = |a: u8, b: u8| Some(digit(a)? * 10 + digit(b)?);
    let mut b = value.as_bytes();
    let mut weekday = None;
    if let [x, y, z, b',', b' ', rest @ ..] = b {
        weekday = Some(DAYS.iter().position(|d| **d == [*x, *y, *z])?);
        b = rest;
    }
    let (day, rest) = match b {
        [d, b' ', rest @ ..] => (digit(*d)?, rest),
        [d1, d2, b' ', rest @ ..] => (two(*d1, *d2)?, rest),
        _ => return None,
    };
    let &[
        m1,
        m2,
        m3,
        b' ',
        y1,
        y2,
        y3,
        y4,
        b' ',
        h1,
        h2,
        b':',
        n1,
        n2,
        b':',
        s1,
        s2,
        b' ',
        sign,
        o1,
        o2,
        o3,
        o4,
    ] = rest
    else {
        return None;
    };
    let month = MONTHS.iter().position(|m| **m == [m1, m2, m3])?;
    if y1 == b'0' {
        return None;
    }
    let year = two(y1, y2)? * 100 + two(y3, y4)?;
    let (hour, minute, second) = (two(h1, h2)?, two(n1, n2)?, two(s1, s2)?);
    let (off_hours, off_minutes) = (two(o1, o2)?, two(o3, o4)?);
    if hour > 23 || minute > 59 || second > 59 || off_hours > 23 || off_minutes > 59 {
        return None;
    }
    let east = i32::try_from(off_hours * 3600 + off_minutes * 60).ok()?;
    let offset = match sign {
        b'+' => FixedOffset::east_opt(east)?,
        b'-' => FixedOffset::west_opt(east)?,
        _ => return None,
    };
    let date = NaiveDate::from_ymd_opt(i32::try_from(year).ok()?, month as u32 + 1, day)?;
    if weekday.is_some_and(|w| w != date.weekday().num_days_from_monday() as usize) {
        return None;
    }
    let local = date.and_hms_opt(hour, minute, second)?;
    offset.from_local_datetime(&local).single()
}

fn strip_comments(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut depth = 0usize;
    for c in value.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `+0300` → seconds east of UTC.
fn numeric_offset(token: &str) -> Option<i32> {
    let b = token.as_bytes();
    if b.len() != 5 || !(b[0] == b'+' || b[0] == b'-') || !b[1..].iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n: i32 = token[1..].parse().ok()?;
    let secs = (n / 100) * 3600 + (n % 100) * 60;
    Some(if b[0] == b'-' { -secs } else { secs })
}

#[cfg(test)]
mod tests;
