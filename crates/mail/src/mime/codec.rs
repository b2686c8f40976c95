//! Byte-level decoding: line endings, base64, quoted-printable and charsets.
//!
//! Our own small decoders rather than mailparse's because hostile or sloppy mail
//! must still give *something*: a base64 body with a stray character or a missing
//! pad is decoded as far as it goes (and the caller says so in `problems`) instead
//! of failing the whole part. Everything here is a single linear pass.

use std::borrow::Cow;

use charset::Charset;

/// Rewrites CRLF and lone CR as LF, in one pass.
pub(crate) fn normalize_newlines(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut rest = bytes;
    while let Some(i) = memchr::memchr(b'\r', rest) {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\n');
        rest = &rest[i + 1..];
        if rest.first() == Some(&b'\n') {
            rest = &rest[1..];
        }
    }
    out.extend_from_slice(rest);
    out
}

/// Whether a CR stands anywhere but before an LF: line ends [`normalize_newlines`] must
/// rewrite before the header block and the parts are read (CRLF and LF are read as they are).
pub(crate) fn has_lone_cr(bytes: &[u8]) -> bool {
    // A CRLF message has a CR on every line: it is looked at 64 bytes at a time (and the
    // byte after them), in a loop without branches that the compiler makes vector compares,
    // rather than by one search a line.
    const N: usize = 64;
    let mut start = 0;
    while start + N < bytes.len() {
        let Ok(w) = <&[u8; N + 1]>::try_from(&bytes[start..=start + N]) else {
            break;
        };
        let mut lone = false;
        for j in 0..N {
            lone |= (w[j] == b'\r') & (w[j + 1] != b'\n');
        }
        if lone {
            return true;
        }
        start += N;
    }
    let rest = &bytes[start..];
    memchr::memchr_iter(b'\r', rest).any(|i| rest.get(i + 1) != Some(&b'\n'))
}

/// The same as [`normalize_newlines`] for text already decoded, also dropping
/// a leading byte-order mark: text of its own, made in one copy (none when it is owned
/// already and has neither).
pub(crate) fn clean_text(text: Cow<'_, str>) -> String {
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => Cow::Borrowed(rest),
        None => text,
    };
    let bytes = text.as_bytes();
    let mut crs = memchr::memchr_iter(b'\r', bytes).peekable();
    if crs.peek().is_none() {
        return text.into_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for i in crs {
        // A CR is ASCII: the text is cut at character boundaries.
        out.push_str(&text[from..i]);
        if bytes.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        }
        from = i + 1;
    }
    out.push_str(&text[from..]);
    out
}

/// Each byte's value as a base64 digit, or [`NOT_BASE64`].
const BASE64: [u8; 256] = {
    let mut table = [NOT_BASE64; 256];
    let digits = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0;
    while i < digits.len() {
        table[digits[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// A byte that is no base64 digit (whitespace, `=`, anything else): its high bit is set.
const NOT_BASE64: u8 = 0x80;

/// Lenient base64: whitespace is skipped; any other stray byte is skipped too
/// but makes the result "not clean"; `=` ends a group (so concatenated padded
/// chunks decode correctly). Returns the bytes and whether the input was clean.
///
/// Four digits in a row, which is most of a body, are decoded together by the tables of
/// [`QUAD`], with one test for a byte that is no digit ([`quads_into`]); the rest a byte at
/// a time.
pub(crate) fn base64_decode(input: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(input.len() / 4 * 3 + 3);
    let clean = base64_decode_into(input, &mut out);
    (out, clean)
}

/// [`base64_decode`] onto the end of `out`, for the encoded words of a header, which are
/// gathered in one buffer rather than each in a vector of its own. Returns whether the
/// input was clean.
pub(crate) fn base64_decode_into(input: &[u8], out: &mut Vec<u8>) -> bool {
    out.reserve(input.len() / 4 * 3 + 3);
    let mut clean = true;
    let mut acc: u32 = 0;
    let mut n = 0u8;
    let flush = |acc: u32, n: u8, out: &mut Vec<u8>| -> bool {
        match n {
            0 => true,
            2 => {
                out.push((acc >> 4) as u8);
                true
            }
            3 => {
                out.push((acc >> 10) as u8);
                out.push((acc >> 2) as u8);
                true
            }
            _ => false,
        }
    };
    let mut i = 0;
    while i < input.len() {
        if n == 0 {
            i += quads_into(&input[i..], out);
            if i == input.len() {
                break;
            }
        }
        let byte = input[i];
        i += 1;
        let v = BASE64[usize::from(byte)];
        if v & NOT_BASE64 == 0 {
            acc = (acc << 6) | u32::from(v);
            n += 1;
            if n == 4 {
                out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
                acc = 0;
                n = 0;
            }
        } else if byte == b'=' {
            clean &= flush(acc, n, out);
            acc = 0;
            n = 0;
        } else if !byte.is_ascii_whitespace() {
            clean = false;
        }
    }
    if n != 0 {
        // Unpadded tail: common enough to accept silently when its bits make bytes.
        clean &= flush(acc, n, out);
    }
    clean
}

/// Each byte's value as the first, second, third and fourth digit of a quad: its six bits
/// where they go in the quad's 24, or [`NOT_IN_QUAD`] for a byte that is no digit. A quad is
/// the four values or-ed together.
const QUAD: [[u32; 256]; 4] = {
    let mut tables = [[NOT_IN_QUAD; 256]; 4];
    let mut b = 0;
    while b < 256 {
        let v = BASE64[b];
        if v & NOT_BASE64 == 0 {
            let mut place = 0;
            while place < 4 {
                tables[place][b] = (v as u32) << (18 - 6 * place);
                place += 1;
            }
        }
        b += 1;
    }
    tables
};

/// In a [`QUAD`] value: a byte that is no base64 digit.
const NOT_IN_QUAD: u32 = 1 << 31;

/// Decodes the quads of four digits at the start of `input` onto `out`, up to the first
/// byte that is no digit (a line end, `=`, …) or a last piece shorter than four: all of an
/// encoded word, a line of a body. Returns how many bytes it read.
///
/// Sixteen quads at a time go into a buffer of their own, and from there onto `out` in one
/// copy, rather than a quad at a time with a test of `out`'s room for each.
fn quads_into(input: &[u8], out: &mut Vec<u8>) -> usize {
    let mut buf = [[0u8; 3]; 16];
    let mut read = 0;
    for group in input.as_chunks::<4>().0.chunks(16) {
        let mut k = 0;
        for (&[a, b, c, d], bytes) in group.iter().zip(&mut buf) {
            let v = QUAD[0][usize::from(a)]
                | QUAD[1][usize::from(b)]
                | QUAD[2][usize::from(c)]
                | QUAD[3][usize::from(d)];
            if v & NOT_IN_QUAD != 0 {
                break;
            }
            *bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
            k += 1;
        }
        out.extend_from_slice(buf[..k].as_flattened());
        read += 4 * k;
        if k < group.len() {
            break;
        }
    }
    read
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Quoted-printable (RFC 2045 6.7), robust: `=XX` (either case) is a byte, `=`
/// before the end of a line (trailing blanks allowed) is a soft break, any other
/// `=` is kept literally. With `underscore_is_space` it is RFC 2047's "Q" coding.
/// Line ends are `\n` or CRLF (kept as they are, but for soft breaks).
pub(crate) fn qp_decode(input: &[u8], underscore_is_space: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    qp_decode_into(input, underscore_is_space, &mut out);
    out
}

/// [`qp_decode`] onto the end of `out`. The text between two `=` (or `_`) is copied as one
/// run, found by memchr, rather than a byte at a time: most of a quoted-printable body
/// is plain text.
pub(crate) fn qp_decode_into(input: &[u8], underscore_is_space: bool, out: &mut Vec<u8>) {
    out.reserve(input.len());
    let mut i = 0;
    while i < input.len() {
        let rest = &input[i..];
        // Text in Cyrillic is nearly all `=XX`: an escape right after an escape is seen
        // without asking memchr for a run of no bytes.
        let run = if rest[0] == b'=' || (underscore_is_space && rest[0] == b'_') {
            Some(0)
        } else if underscore_is_space {
            memchr::memchr2(b'=', b'_', rest)
        } else {
            memchr::memchr(b'=', rest)
        };
        let Some(run) = run else {
            out.extend_from_slice(rest);
            return;
        };
        out.extend_from_slice(&rest[..run]);
        i += run;
        if input[i] == b'_' {
            out.push(b' ');
            i += 1;
            continue;
        }
        if let (Some(h), Some(l)) = (
            input.get(i + 1).and_then(|&c| hex_value(c)),
            input.get(i + 2).and_then(|&c| hex_value(c)),
        ) {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        let mut j = i + 1;
        while j < input.len() && (input[j] == b' ' || input[j] == b'\t') {
            j += 1;
        }
        if j == input.len() {
            return;
        }
        if input[j] == b'\n' {
            i = j + 1;
            continue;
        }
        if input[j] == b'\r' && input.get(j + 1) == Some(&b'\n') {
            i = j + 2;
            continue;
        }
        out.push(b'=');
        i += 1;
    }
}

/// What a charset decision produced: the text (the bytes themselves when they were UTF-8)
/// and, if something was off, the words for `problems`.
pub(crate) struct Text<'a> {
    pub(crate) text: Cow<'a, str>,
    pub(crate) problem: Option<String>,
}

/// Decodes `bytes` labelled (or not) with `declared`; `what` names the part for
/// the problem words ("the text/plain part").
///
/// Without a usable label, 8-bit text is tried as UTF-8 and, failing that, read
/// as windows-1251 — what unlabelled 8-bit mail most often is among Russian
/// players — and the guess is reported.
///
/// UTF-8 is checked by simdutf8, with vector instructions: std's check goes through
/// non-ASCII text a character at a time, several times slower on Russian mail (it was a
/// seventh of the first sync's CPU). UTF-8 text is borrowed, not copied: the caller makes
/// its one copy ([`clean_text`]).
pub(crate) fn decode_charset<'a>(
    bytes: &'a [u8],
    declared: Option<&str>,
    what: &dyn std::fmt::Display,
) -> Text<'a> {
    let label = declared.map(str::trim).filter(|l| !l.is_empty());
    let Some(label) = label else {
        return guess(bytes, false, || format!("{what} has no charset"));
    };
    // Valid UTF-8 under its own label, most mail (and most encoded words): settled before
    // anything else is asked of the label.
    if (label.eq_ignore_ascii_case("utf-8") || label.eq_ignore_ascii_case("utf8"))
        && let Ok(text) = simdutf8::basic::from_utf8(bytes)
    {
        return Text {
            text: Cow::Borrowed(text),
            problem: None,
        };
    }
    let is_ascii_label = [
        "us-ascii",
        "ascii",
        "us_ascii",
        "ansi_x3.4-1968",
        "iso646-us",
    ]
    .iter()
    .any(|l| label.eq_ignore_ascii_case(l));
    match Charset::for_label(label.as_bytes()) {
        Some(cs) if is_ascii_label || (cs.is_ascii_compatible() && bytes.is_ascii()) => {
            guess(bytes, true, || {
                format!("{what} says charset {label} but has 8-bit bytes")
            })
        }
        Some(cs) => {
            let (text, malformed) = cs.decode_without_bom_handling(bytes);
            let problem = malformed.then(|| {
                format!(
                    "{what} has bytes that are not valid {label}; they were replaced with U+FFFD"
                )
            });
            Text { text, problem }
        }
        None => guess(bytes, true, || {
            format!("{what} says charset {label:?}, which is not known")
        }),
    }
}

/// ASCII as is; else UTF-8 if valid (said in `problems` only when `tell_utf8`,
/// i.e. a label was given and was unusable); else windows-1251, always said.
fn guess<'a>(bytes: &'a [u8], tell_utf8: bool, why: impl FnOnce() -> String) -> Text<'a> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Text {
            problem: (tell_utf8 && !text.is_ascii())
                .then(|| format!("{}; it was read as UTF-8", why())),
            text: Cow::Borrowed(text),
        },
        Err(_) => Text {
            text: Cow::Owned(windows_1251(bytes)),
            problem: Some(format!(
                "{}; it is not UTF-8, so it was read as windows-1251",
                why()
            )),
        },
    }
}

pub(crate) fn windows_1251(bytes: &[u8]) -> String {
    match Charset::for_label(b"windows-1251") {
        Some(cs) => cs.decode_without_bom_handling(bytes).0.into_owned(),
        None => String::from_utf8_lossy(bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::strategy::Strategy;

    use super::*;

    #[test]
    fn newlines() {
        assert_eq!(normalize_newlines(b"a\r\nb\rc\n\r\r\n"), b"a\nb\nc\n\n\n");
        // A lone CR anywhere, at the ends of the 64-byte steps and in the last bytes.
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
            let crlf: Vec<u8> = b"ab\r\n".iter().copied().cycle().take(len).collect();
            let whole = crlf.len() < 2 || crlf.ends_with(b"\n") || !crlf.ends_with(b"\r");
            assert_eq!(has_lone_cr(&crlf), !whole, "{len}");
            for at in 0..len {
                let mut one = vec![b'x'; len];
                one[at] = b'\r';
                assert!(has_lone_cr(&one), "{len} {at}");
                if at + 1 < len {
                    one[at + 1] = b'\n';
                    assert!(!has_lone_cr(&one), "{len} {at} CRLF");
                }
            }
        }
        assert_eq!(clean_text("\u{feff}a\r\nb\rc".into()), "a\nb\nc");
    }

    #[test]
    fn base64_cases() {
        let table: &[(&[u8], &[u8], bool)] = &[
            (b"aGVsbG8=", b"hello", true),
            (b"aGVs\nbG8=", b"hello", true),
            (b"aGVsbG8", b"hello", true),
            (b"aGk=aGk=", b"hihi", true),
            (b"aG*Vs bG8=", b"hello", false),
            (b"aGVsbG8=a", b"hello", false),
            (b"", b"", true),
        ];
        for (input, want, clean) in table {
            assert_eq!(base64_decode(input), (want.to_vec(), *clean), "{input:?}");
        }
    }

    /// [`base64_decode`] as it was written first, a byte at a time through a `match`: the
    /// reference for the one that decodes four digits at once.
    fn base64_by_bytes(input: &[u8]) -> (Vec<u8>, bool) {
        let value = |b: u8| match b {
            b'A'..=b'Z' => Some(u32::from(b - b'A')),
            b'a'..=b'z' => Some(u32::from(b - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(b - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        };
        let flush = |acc: u32, n: u8, out: &mut Vec<u8>| match n {
            0 => true,
            2 => {
                out.push((acc >> 4) as u8);
                true
            }
            3 => {
                out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]);
                true
            }
            _ => false,
        };
        let (mut out, mut clean, mut acc, mut n) = (Vec::new(), true, 0u32, 0u8);
        for &b in input {
            if let Some(v) = value(b) {
                acc = (acc << 6) | v;
                n += 1;
                if n == 4 {
                    out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
                    (acc, n) = (0, 0);
                }
            } else if b == b'=' {
                clean &= flush(acc, n, &mut out);
                (acc, n) = (0, 0);
            } else if !b.is_ascii_whitespace() {
                clean = false;
            }
        }
        if n != 0 {
            clean &= flush(acc, n, &mut out);
        }
        (out, clean)
    }

    proptest::proptest! {
        /// Four digits at a time decode as one at a time does: whole bodies, broken lines,
        /// padding in the middle, stray bytes, anything.
        #[test]
        fn base64_by_fours_as_by_bytes(
            input in proptest::prop_oneof![
                proptest::string::string_regex("([A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{1,3}=?=?|\\r?\\n| |\\*|-|_){0,40}")
                    .unwrap()
                    .prop_map(String::into_bytes),
                proptest::collection::vec(proptest::num::u8::ANY, 0..64),
            ],
        ) {
            let want = base64_by_bytes(&input);
            let mut appended = b"kept".to_vec();
            let clean = base64_decode_into(&input, &mut appended);
            proptest::prop_assert_eq!((&appended[4..], clean), (&want.0[..], want.1));
            proptest::prop_assert_eq!(base64_decode(&input), want);
        }
    }

    /// [`qp_decode`] as it was written first, a byte at a time: the reference for the one
    /// that copies runs.
    fn qp_by_bytes(input: &[u8], underscore_is_space: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(input.len());
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            if b == b'=' {
                if let (Some(h), Some(l)) = (
                    input.get(i + 1).and_then(|&c| hex_value(c)),
                    input.get(i + 2).and_then(|&c| hex_value(c)),
                ) {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
                let mut j = i + 1;
                while j < input.len() && (input[j] == b' ' || input[j] == b'\t') {
                    j += 1;
                }
                if j == input.len() {
                    i = j;
                    continue;
                }
                if input[j] == b'\n' {
                    i = j + 1;
                    continue;
                }
                if input[j] == b'\r' && input.get(j + 1) == Some(&b'\n') {
                    i = j + 2;
                    continue;
                }
                out.push(b'=');
            } else if b == b'_' && underscore_is_space {
                out.push(b' ');
            } else {
                out.push(b);
            }
            i += 1;
        }
        out
    }

    proptest::proptest! {
        /// Runs copied whole decode as a byte at a time does: escapes of either case, soft
        /// breaks with blanks before LF or CRLF, lone and final `=`, underscores, 8-bit bytes.
        #[test]
        fn qp_by_runs_as_by_bytes(
            input in proptest::prop_oneof![
                proptest::string::string_regex("(=[0-9A-Fa-f]{2}|=[0-9A-Za-z]?|= *\\r?\\n|=[ \\t]{0,2}|_|\\r|\\n|[a-z ]{1,6}|П){0,30}")
                    .unwrap()
                    .prop_map(String::into_bytes),
                proptest::collection::vec(proptest::sample::select(b"=_ \t\r\nA0fz\xd0".to_vec()), 0..64),
            ],
            underscore in proptest::bool::ANY,
        ) {
            let mut appended = b"kept".to_vec();
            qp_decode_into(&input, underscore, &mut appended);
            let want = qp_by_bytes(&input, underscore);
            proptest::prop_assert_eq!(&appended[4..], &want[..]);
            proptest::prop_assert_eq!(qp_decode(&input, underscore), want);
        }
    }

    #[test]
    fn qp_cases() {
        assert_eq!(qp_decode(b"a=3Db=\nc= \nd=e=", false), b"a=bcd=e");
        assert_eq!(qp_decode(b"=d0=BF_x=4", true), b"\xd0\xbf x=4");
    }

    #[test]
    fn charsets() {
        let t = decode_charset(b"\xcf\xf0\xe8", None, &"the part");
        assert_eq!(t.text, "При");
        assert!(t.problem.unwrap().contains("windows-1251"));
        let t = decode_charset("При".as_bytes(), None, &"the part");
        assert_eq!((&*t.text, t.problem), ("При", None));
        let t = decode_charset(b"\xf0\xd2\xc9", Some("KOI8-R"), &"x");
        assert_eq!((&*t.text, t.problem), ("При", None));
        let t = decode_charset(b"\xff", Some("utf-8"), &"x");
        assert_eq!(t.text, "\u{fffd}");
        assert!(t.problem.is_some());
        let t = decode_charset(b"abc", Some("x-nonsense"), &"x");
        assert_eq!((&*t.text, t.problem), ("abc", None));
        let t = decode_charset("П".as_bytes(), Some("x-nonsense"), &"x");
        assert_eq!(t.text, "П");
        assert_eq!(
            t.problem.unwrap(),
            "x says charset \"x-nonsense\", which is not known; it was read as UTF-8"
        );
        let t = decode_charset("П".as_bytes(), Some("us-ascii"), &"x");
        assert_eq!(
            t.problem.unwrap(),
            "x says charset us-ascii but has 8-bit bytes; it was read as UTF-8"
        );
    }
}
