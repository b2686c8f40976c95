//! Byte-level decoding: line endings, base64, quoted-printable and charsets.
//!
//! Ours for **lenient decoding with problems reported**: hostile or sloppy mail must still
//! give *something*, and say what was wrong. A base64 body with a stray character or a
//! missing pad is decoded as far as it goes (the `base64` crate decodes; the leniency around
//! it is ours), quoted-printable keeps the 8-bit bytes the `quoted_printable` crate drops,
//! and a charset is decoded by the `charset` crate with an unlabelled 8-bit text guessed and
//! the guess reported — mailparse decodes all three but says nothing of what was wrong.
//! Everything here is a single linear pass.

use std::borrow::Cow;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use charset::Charset;

use super::note::{MimeNote, ReadAs, Whose};

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

/// The base64 engine for mail: the standard alphabet, padding taken or left out, and the
/// unused bits of a last digit ignored, as mail clients write it.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// Lenient base64: whitespace is skipped; any other stray byte is skipped too
/// but makes the result "not clean"; `=` ends a group (so concatenated padded
/// chunks decode correctly). Returns the bytes and whether the input was clean.
pub(crate) fn base64_decode(input: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(input.len() / 4 * 3 + 3);
    let clean = base64_decode_into(input, &mut out);
    (out, clean)
}

/// [`base64_decode`] onto the end of `out`, for the encoded words of a header, which are
/// gathered in one buffer rather than each in a vector of its own. Returns whether the
/// input was clean.
///
/// The decoding is the `base64` crate's; what is ours is the leniency it does not have:
/// each group up to a `=` is cleared of line breaks and stray bytes and decoded on its own,
/// and a last digit that makes no byte is dropped.
pub(crate) fn base64_decode_into(input: &[u8], out: &mut Vec<u8>) -> bool {
    out.reserve(input.len() / 4 * 3 + 3);
    let mut clean = true;
    let mut digits = Vec::with_capacity(input.len());
    for group in input.split(|&b| b == b'=') {
        digits.clear();
        for &b in group {
            if b.is_ascii_alphanumeric() || b == b'+' || b == b'/' {
                digits.push(b);
            } else if !b.is_ascii_whitespace() {
                clean = false;
            }
        }
        // One digit alone holds six bits: no byte.
        if digits.len() % 4 == 1 {
            digits.pop();
            clean = false;
        }
        clean &= BASE64.decode_vec(&digits, out).is_ok();
    }
    clean
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
/// `=` is kept literally, and so is every other byte, 8-bit ones included. With
/// `underscore_is_space` it is RFC 2047's "Q" coding. Line ends are `\n` or CRLF (kept as
/// they are, but for soft breaks).
///
/// Ours, not the `quoted_printable` crate's: its robust mode drops every 8-bit byte, and
/// with them the text of a letter an old client wrote in raw windows-1251 and labelled
/// quoted-printable; it also rewrites line ends and trailing blanks.
pub(crate) fn qp_decode(input: &[u8], underscore_is_space: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    qp_decode_into(input, underscore_is_space, &mut out);
    out
}

/// [`qp_decode`] onto the end of `out`.
pub(crate) fn qp_decode_into(input: &[u8], underscore_is_space: bool, out: &mut Vec<u8>) {
    out.reserve(input.len());
    let mut i = 0;
    while let Some(&b) = input.get(i) {
        i += 1;
        if b == b'_' && underscore_is_space {
            out.push(b' ');
            continue;
        }
        if b != b'=' {
            out.push(b);
            continue;
        }
        if let (Some(h), Some(l)) = (
            input.get(i).and_then(|&c| hex_value(c)),
            input.get(i + 1).and_then(|&c| hex_value(c)),
        ) {
            out.push(h << 4 | l);
            i += 2;
            continue;
        }
        // A soft break: `=`, blanks, then the line end (or the end of the text).
        let mut j = i;
        while matches!(input.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        match (input.get(j), input.get(j + 1)) {
            (None, _) => i = j,
            (Some(b'\n'), _) => i = j + 1,
            (Some(b'\r'), Some(b'\n')) => i = j + 2,
            _ => out.push(b'='),
        }
    }
}

/// What a charset decision produced: the text (the bytes themselves when they were UTF-8)
/// and, if something was off, the note for `problems`.
pub(crate) struct Text<'a> {
    pub(crate) text: Cow<'a, str>,
    pub(crate) problem: Option<MimeNote>,
}

/// Decodes `bytes` labelled (or not) with `declared`; `whose` names the part for
/// the note (the `text/plain` part), asked only when there is one.
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
    whose: impl FnOnce() -> Whose,
) -> Text<'a> {
    let label = declared.map(str::trim).filter(|l| !l.is_empty());
    let Some(label) = label else {
        return guess(bytes, false, |_| MimeNote::NoCharset { whose: whose() });
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
            guess(bytes, true, |read_as| MimeNote::EightBit {
                whose: whose(),
                label: label.to_owned(),
                read_as,
            })
        }
        Some(cs) => {
            let (text, malformed) = cs.decode_without_bom_handling(bytes);
            let problem = malformed.then(|| MimeNote::InvalidBytes {
                whose: whose(),
                label: label.to_owned(),
            });
            Text { text, problem }
        }
        None => guess(bytes, true, |read_as| MimeNote::UnknownCharset {
            whose: whose(),
            label: label.to_owned(),
            read_as,
        }),
    }
}

/// ASCII as is; else UTF-8 if valid (said in `problems` only when `tell_utf8`,
/// i.e. a label was given and was unusable); else windows-1251, always said.
fn guess<'a>(bytes: &'a [u8], tell_utf8: bool, why: impl FnOnce(ReadAs) -> MimeNote) -> Text<'a> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Text {
            problem: (tell_utf8 && !text.is_ascii()).then(|| why(ReadAs::Utf8)),
            text: Cow::Borrowed(text),
        },
        Err(_) => Text {
            text: Cow::Owned(windows_1251(bytes)),
            problem: Some(why(ReadAs::Windows1251)),
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
mod tests;
