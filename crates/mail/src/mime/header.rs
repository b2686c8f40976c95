//! Header fields: the header block split into fields, unfolding, RFC 2047 encoded words,
//! message ids, dates.
//!
//! All of it is our own and single-pass. mailparse's value decoding scans the line again for
//! every `=?` it meets, which a hostile Subject can turn into quadratic time; and its
//! splitter of the header block goes byte by byte through a state machine, where ours goes
//! from one line end to the next (a fifth of the instructions, on the shared samples).

use std::borrow::Cow;

use chrono::{DateTime, FixedOffset};

use super::codec;

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
pub(crate) fn unfolded<'a>(field: &Field<'a>, problems: &mut Vec<String>) -> Cow<'a, str> {
    let raw = field.value;
    // Most fields are one line: nothing to unfold, and nothing to copy.
    let one_line = !field.folded;
    match field.text.map_or_else(|| std::str::from_utf8(raw), Ok) {
        Ok(s) if one_line => Cow::Borrowed(s.trim()),
        Ok(s) => Cow::Owned(unfold(s)),
        Err(_) => {
            problems.push(format!(
                "the {} header has raw 8-bit bytes that are not UTF-8; read as windows-1251",
                String::from_utf8_lossy(field.name).trim()
            ));
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
pub(crate) fn decode_words(value: &str, problems: &mut Vec<String>) -> String {
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

fn flush(out: &mut String, label: Option<&str>, bytes: &[u8], problems: &mut Vec<String>) {
    let Some(label) = label else {
        return;
    };
    let t = codec::decode_charset(bytes, Some(label), &"an encoded word in a header");
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
mod tests {
    use super::*;

    fn words(s: &str) -> String {
        decode_words(s, &mut Vec::new())
    }

    /// [`decode_words`] as it was first written, a vector of bytes for each word and a
    /// string of blanks: the reference for the one that gathers words in one buffer.
    mod first {
        use super::super::codec;

        fn is_especial(b: u8) -> bool {
            b"()<>@,;:\"/[]?.=".contains(&b) || b <= b' ' || b == 0x7f
        }

        /// One RFC 2047 encoded word found at the start of `s`: charset label, its
        /// decoded bytes, and the length it took.
        struct Word<'s> {
            charset: &'s str,
            bytes: Vec<u8>,
            len: usize,
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
            if rest.get(text_start + text_len + 1) != Some(&b'=')
                || rest[text_start + text_len] != b'?'
            {
                return None;
            }
            let bytes = match enc {
                b'B' | b'b' => codec::base64_decode(text).0,
                b'Q' | b'q' => codec::qp_decode(text, true),
                _ => return None,
            };
            // RFC 2231 allows a language after '*': "utf-8*ru".
            let label = &s[2..2 + cs_len];
            let charset = label.split('*').next().unwrap_or(label);
            Some(Word {
                charset,
                bytes,
                len: 2 + text_start + text_len + 2,
            })
        }

        /// Decodes the RFC 2047 encoded words in an unfolded value. Blanks between two
        /// encoded words are dropped, and adjacent words in the same charset are joined
        /// as bytes before decoding (senders do split a UTF-8 character across words).
        pub(super) fn decode_words(value: &str, problems: &mut Vec<String>) -> String {
            if !value.contains("=?") {
                return value.to_owned();
            }
            let mut out = String::with_capacity(value.len());
            // Pending bytes of adjacent words in one charset, and blanks seen after them.
            let mut pending: Option<(&str, Vec<u8>)> = None;
            let mut blanks = String::new();
            let mut i = 0;
            while i < value.len() {
                let rest = &value[i..];
                if rest.starts_with("=?")
                    && let Some(word) = parse_word(rest)
                {
                    match &mut pending {
                        Some((cs, bytes)) if cs.eq_ignore_ascii_case(word.charset) => {
                            bytes.extend_from_slice(&word.bytes)
                        }
                        _ => {
                            flush(&mut out, pending.take(), problems);
                            pending = Some((word.charset, word.bytes));
                        }
                    }
                    blanks.clear();
                    i += word.len;
                    continue;
                }
                // Plain text up to the next `=?` that may start a word (an ASCII byte: the cut is
                // at a character boundary).
                let plain = memchr::memmem::find(&rest.as_bytes()[1..], b"=?")
                    .map_or(rest.len(), |n| n + 1);
                let plain = &rest[..plain];
                if pending.is_some() && plain.bytes().all(|b| b == b' ' || b == b'\t') {
                    blanks.push_str(plain);
                } else {
                    flush(&mut out, pending.take(), problems);
                    out.push_str(&blanks);
                    blanks.clear();
                    out.push_str(plain);
                }
                i += plain.len();
            }
            flush(&mut out, pending, problems);
            out.push_str(&blanks);
            out
        }

        fn flush(out: &mut String, pending: Option<(&str, Vec<u8>)>, problems: &mut Vec<String>) {
            let Some((label, bytes)) = pending else {
                return;
            };
            let t = codec::decode_charset(&bytes, Some(label), &"an encoded word in a header");
            if let Some(p) = t.problem {
                problems.push(p);
            }
            out.push_str(&t.text);
        }
    }

    proptest::proptest! {
        /// Words gathered in one buffer decode as words decoded one by one do: words in
        /// one charset or several (of any case), split characters, blanks between and
        /// after them, broken and unfinished words, `=?` in plain text.
        #[test]
        fn words_as_first_written(
            value in "(=\\?(utf-8|UTF-8|koi8-r|KOI8-R|windows-1251|x-bad|utf-8\\*ru|us-ascii|a\\.b|x@y|a\\[b|\x7f|)\\?(B|b|Q|q|x)\\?([A-Za-z0-9+/]{0,8}=?=?|(=[0-9A-F]{2}|_|[a-z.]){0,6})\\?=| |\t|  |=\\?|\\?=|\\?|abc|П|=D0|_){0,12}"
        ) {
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            let got = decode_words(&value, &mut ours);
            let want = first::decode_words(&value, &mut theirs);
            proptest::prop_assert_eq!((got, ours), (want, theirs), "{:?}", value);
        }
    }

    proptest::proptest! {
        /// One pass finds for each name the field a search for that name alone finds: names
        /// in any case, with blanks around them, repeated, and names that are not asked for.
        #[test]
        fn firsts_as_first_finds(
            names in proptest::collection::vec(
                "( |\t)?(From|FROM|from|To|to|TO|Cc|cc|Reply-To|Sender|Return-Path|Subject|Date|date|Received|Message-ID|message-id|In-Reply-To|References|X-To|Tox|T|)( |\t)?",
                0..16,
            )
        ) {
            let fields: Vec<Field<'_>> = names
                .iter()
                .enumerate()
                .map(|(i, n)| Field {
                    name: n.as_bytes(),
                    value: &b"0123456789abcdef"[i..],
                    text: None,
                    folded: false,
                })
                .collect();
            let asked = ["From", "To", "Cc", "Reply-To", "Sender", "Return-Path", "Subject", "Date",
                "Received", "Message-ID", "In-Reply-To", "References"];
            let found = firsts(&fields, asked);
            for (name, got) in asked.iter().zip(found) {
                proptest::prop_assert_eq!(got, first(&fields, name), "{} in {:?}", name, names);
            }
        }
    }

    #[test]
    fn encoded_words() {
        assert_eq!(words("=?KOI8-R?B?88/Mz9fYo9c=?="), "Соловьёв");
        assert_eq!(words("a =?utf-8?q?b_c?= d"), "a b c d");
        assert_eq!(words("=?utf-8?q?a?= \t =?utf-8?q?b?="), "ab");
        // One UTF-8 character split across two words.
        assert_eq!(words("=?utf-8?q?=D0?= =?utf-8?q?=9F?="), "П");
        assert_eq!(words("=?utf-8*ru?q?x?="), "x");
        assert_eq!(words("=?=?=?x?= =?bad"), "=?=?=?x?= =?bad");
        assert_eq!(words("=?utf-8?x?abc?="), "=?utf-8?x?abc?=");
    }

    #[test]
    fn header_blocks() {
        let pairs = |raw: &[u8]| {
            let (fields, body) = split_block(raw, 1);
            let fields: Vec<(String, String)> = fields
                .iter()
                .map(|f| {
                    let s = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
                    (s(f.name), s(f.value))
                })
                .collect();
            (fields, String::from_utf8(raw[body..].to_vec()).unwrap())
        };
        let owned = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        // CRLF, folding (kept in the value), blanks before the colon, an empty value.
        let (fields, body) =
            pairs(b"Subject: a\r\n  b\r\n\tc \r\nX-Y :  v:w\r\nEmpty:\r\nZ:   \r\n\r\nbody\r\n");
        assert_eq!(
            fields,
            owned(&[
                ("Subject", "a\r\n  b\r\n\tc "),
                ("X-Y ", "v:w"),
                ("Empty", ""),
                ("Z", ""),
            ])
        );
        assert_eq!(body, "body\r\n");
        // LF; a tab after the colon is the value's; a line without a colon is all name.
        let (fields, body) = pairs(b"A:\tx\nno colon here\nB: y\n\nbody");
        assert_eq!(
            fields,
            owned(&[("A", "\tx"), ("no colon here", ""), ("B", "y")])
        );
        assert_eq!(body, "body");
        // No blank line: all header, no body; a value folded onto its next line.
        let (fields, body) = pairs(b"A: 1\nB:\n 2");
        assert_eq!(fields, owned(&[("A", "1"), ("B", "\n 2")]));
        assert_eq!(body, "");
    }

    /// [`unfolded`] as it was before the header block was checked as UTF-8 once: each value
    /// checked on its own, and looked through for line ends.
    fn unfolded_first<'a>(field: &Field<'a>, problems: &mut Vec<String>) -> Cow<'a, str> {
        let raw = field.value;
        let one_line = memchr::memchr2(b'\r', b'\n', raw).is_none();
        match std::str::from_utf8(raw) {
            Ok(s) if one_line => Cow::Borrowed(s.trim()),
            Ok(s) => Cow::Owned(unfold(s)),
            Err(_) => {
                problems.push(format!(
                    "the {} header has raw 8-bit bytes that are not UTF-8; read as windows-1251",
                    String::from_utf8_lossy(field.name).trim()
                ));
                Cow::Owned(unfold(&codec::windows_1251(raw)))
            }
        }
    }

    use proptest::strategy::Strategy;

    proptest::proptest! {
        /// Values read from a block checked once read as values checked each on its own:
        /// blocks of UTF-8 and not, folded and not, CRLF and LF, blanks of every kind, lines
        /// without a colon, and the body after them.
        #[test]
        fn unfolded_as_first_read(
            block in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex(
                        "(Subject|From|X-Y |To|П|a b)(:)?( |\t|  )?(abc|Ход| |\t|\r|=\\?utf-8\\?q\\?x\\?=|:|\u{a0}){0,6}(\r?\n( |\t)+(def|Ход| |\r)?){0,2}(\r)?\n"
                    ).unwrap().prop_map(String::into_bytes),
                    proptest::collection::vec(
                        proptest::sample::select(b"ab: \t\r\n\xd0\x9f\xcf\xff".to_vec()),
                        0..24,
                    ),
                ],
                0..8,
            ).prop_map(|pieces: Vec<Vec<u8>>| {
                let mut raw = b"A: 1\n".to_vec();
                raw.extend(pieces.concat());
                raw
            })
        ) {
            // As the caller does: lone CRs rewritten, the block starting with a field.
            let raw = if codec::has_lone_cr(&block) { codec::normalize_newlines(&block) } else { block };
            let (fields, _) = split_block(&raw, 1);
            for f in &fields {
                let (mut ours, mut theirs) = (Vec::new(), Vec::new());
                proptest::prop_assert_eq!(
                    (unfolded(f, &mut ours), ours),
                    (unfolded_first(f, &mut theirs), theirs),
                    "{:?}", String::from_utf8_lossy(&raw)
                );
                proptest::prop_assert_eq!(f.folded, f.value.contains(&b'\n'));
            }
        }
    }

    /// [`unfold`] as it was first written, trimmed into a copy: the reference for the one that
    /// trims where it stands.
    fn unfold_first(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
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
        out.trim().to_owned()
    }

    proptest::proptest! {
        /// Trimmed in place as trimmed into a copy, and the first id found alone as the first
        /// of all: blanks of every kind (Unicode's too) at the ends and between, CRLF, empty
        /// brackets, unclosed ones, ids without brackets.
        #[test]
        fn unfold_and_first_id_as_first_written(
            value in "( |\t|\r|\n|\u{a0}|\u{3000}|a|П|<|>|@|x@y|<a@b>|<>|< >|<c@\n d>){0,12}"
        ) {
            proptest::prop_assert_eq!(unfold(&value), unfold_first(&value), "{:?}", value);
            proptest::prop_assert_eq!(
                first_message_id(&value),
                message_ids(&value).into_iter().next(),
                "{:?}", value
            );
        }
    }

    #[test]
    fn unfolding() {
        assert_eq!(unfold("a\n b\n\tc  d"), "a b c  d");
    }

    #[test]
    fn ids() {
        assert_eq!(message_ids("<a@b> <c@\n d>"), ["a@b", "c@d"]);
        assert_eq!(message_ids("<a@b> (Bob's message of Monday)"), ["a@b"]);
        assert_eq!(message_ids("a@b"), ["a@b"]);
        assert!(message_ids("<>").is_empty());
    }

    /// [`parse_date`] as it was before [`usual_date`] came first: the reference for it.
    fn parse_date_first(value: &str) -> Option<DateTime<FixedOffset>> {
        if value.len() > MAX_DATE_LEN {
            return None;
        }
        if !value.contains('(')
            && let Ok(d) = DateTime::parse_from_rfc2822(value)
        {
            return Some(d);
        }
        let cleaned = strip_comments(value);
        if let Ok(d) = DateTime::parse_from_rfc2822(&cleaned) {
            return Some(d);
        }
        let ts = mailparse::dateparse(&cleaned).ok().filter(|&ts| ts > 0)?;
        let offset = cleaned
            .split_whitespace()
            .rev()
            .find_map(numeric_offset)
            .unwrap_or(0);
        let tz = FixedOffset::east_opt(offset)?;
        Some(DateTime::from_timestamp(ts, 0)?.with_timezone(&tz))
    }

    proptest::proptest! {
        // Many cases: one odd piece of ten sends a date to the general reader, and the
        // test is about the ones that are not.
        #![proptest_config(proptest::test_runner::Config::with_cases(4096))]

        /// Dates read by their bytes read as before, on dates made of the usual pieces and
        /// of the odd ones next to them: wrong days of the week, capitals, one-digit and
        /// impossible days, years of two digits or before 1000, leap seconds, hours and
        /// offsets out of range, extra blanks and comments.
        #[test]
        fn dates_as_before(
            value in "((Mon|Tue|Wed|Thu|Fri|Sat|Sun|fri|Xyz), |Fri,|Fri ,  )?(0|1|5|05|13|29|30|31|00|7|123) (Jan|Feb|Mar|Apr|Dec|mar|MAR|Foo) (2026|2024|1999|0026|2000|1000|0999|999|26|9999|20266) (00|23|24|9|09|1x):(00|59|60|5):(00|30|59|60|61) (\\+|-)(0000|0300|2359|2400|0060|1200|030|0330)( |  |\\(MSK\\)| \\(MSK\\))?"
        ) {
            proptest::prop_assert_eq!(parse_date(&value), parse_date_first(&value), "{:?}", value);
            if let Some(d) = usual_date(&value) {
                proptest::prop_assert_eq!(Some(d), DateTime::parse_from_rfc2822(&value).ok());
            }
        }

        /// Every date of the usual form is read by bytes (so the test above does test it),
        /// and as chrono reads it.
        #[test]
        fn usual_dates_read_by_bytes(
            days in 0u64..80_000, seconds in 0u32..86_400, offset in -1439i32..1440,
            with_weekday in proptest::bool::ANY,
        ) {
            let date = chrono::NaiveDate::from_ymd_opt(1900, 1, 1).unwrap() + chrono::Days::new(days);
            let time = chrono::NaiveTime::from_num_seconds_from_midnight_opt(seconds, 0).unwrap();
            let tz = FixedOffset::east_opt(offset * 60).unwrap();
            let d = date.and_time(time).and_local_timezone(tz).unwrap();
            let text = if with_weekday {
                d.format("%a, %-d %b %Y %H:%M:%S %z").to_string()
            } else {
                d.format("%d %b %Y %H:%M:%S %z").to_string()
            };
            proptest::prop_assert_eq!(usual_date(&text), Some(d), "{}", text);
            proptest::prop_assert_eq!(Some(d), DateTime::parse_from_rfc2822(&text).ok());
        }
    }

    #[test]
    fn dates() {
        let d = parse_date("Thu, 02 Apr 2026 20:17:03 +0200").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-04-02T20:17:03+02:00");
        let d = parse_date("Sat, 14 Mar 2026 21:14:05 +0300 (MSK)").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-03-14T21:14:05+03:00");
        let d = parse_date("2 Apr 2026 9:07:03 -0700").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-04-02T09:07:03-07:00");
        let d = parse_date("Mon, 6 Apr 2026 10:00 GMT").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-04-06T10:00:00+00:00");
        let d = parse_date("Mon, 6 Apr 26 10:00:00 +0300").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-04-06T10:00:00+03:00");
        let d = parse_date("Mon,  6 Apr 2026 10:00:00 +0300 (MSK)").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-04-06T10:00:00+03:00");
        // Day of week wrong for the date: chrono refuses, the fallback reads it.
        let d = parse_date("Sun, 6 Apr 2026 10:00:00 +0300").unwrap();
        assert_eq!(d.to_rfc3339(), "2026-04-06T10:00:00+03:00");
        assert_eq!(parse_date("yesterday"), None);
        assert_eq!(parse_date("5 Mar"), None);
    }
}
