use super::*;

fn words(s: &str) -> String {
    decode_words(s, &mut Vec::new())
}

/// [`decode_words`] as it was first written, a vector of bytes for each word and a
/// string of blanks: the reference for the one that gathers words in one buffer.
mod first {
    use super::super::codec;
    use crate::mime::{MimeNote, Whose};

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
        if rest.get(text_start + text_len + 1) != Some(&b'=') || rest[text_start + text_len] != b'?'
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
    pub(super) fn decode_words(value: &str, problems: &mut Vec<MimeNote>) -> String {
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
            let plain =
                memchr::memmem::find(&rest.as_bytes()[1..], b"=?").map_or(rest.len(), |n| n + 1);
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

    fn flush(out: &mut String, pending: Option<(&str, Vec<u8>)>, problems: &mut Vec<MimeNote>) {
        let Some((label, bytes)) = pending else {
            return;
        };
        let t = codec::decode_charset(&bytes, Some(label), || Whose::EncodedWord);
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
fn unfolded_first<'a>(field: &Field<'a>, problems: &mut Vec<MimeNote>) -> Cow<'a, str> {
    let raw = field.value;
    let one_line = memchr::memchr2(b'\r', b'\n', raw).is_none();
    match std::str::from_utf8(raw) {
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
