//! The MIME tree, walked without recursion, flattened into its leaf parts.
//!
//! Ours for **linear time on hostile nesting**; the parameters of `Content-Type` and
//! `Content-Disposition` are read by mailparse. mailparse's `parse_mail` recurses once per
//! nesting level and gives up on the
//! whole message past 100 levels; hostile mail can nest thousands. So we split
//! multiparts ourselves with an explicit stack, and stop descending at
//! [`MAX_DEPTH`]: what lies deeper is skipped and a problem says so. Each level
//! reads its own body once, so the work is at most `MAX_DEPTH` passes over the
//! message, never quadratic.

use std::borrow::Cow;

use mailparse::DispositionType;

use super::header::{self, Field};
use super::note::MimeNote;

/// Nesting beyond this many multipart levels is not read.
pub const MAX_DEPTH: usize = 50;

/// Parts beyond this many are not read (each costs a little memory).
pub const MAX_PARTS: usize = 10_000;

/// A part that is not a multipart, in document order.
#[derive(Debug)]
pub(crate) struct Leaf<'a> {
    pub(crate) headers: Vec<Field<'a>>,
    pub(crate) body: &'a [u8],
    pub(crate) ctype: ContentType<'a>,
    /// `Content-Disposition: attachment`.
    pub(crate) attachment: bool,
    /// From the disposition's `filename` or the type's `name`, decoded.
    pub(crate) filename: Option<String>,
    /// 0 for the message itself, 1 for its parts, …
    pub(crate) depth: usize,
}

/// A part's `Content-Type`: its type, lower case, and its parameters (names lower case).
///
/// What mailparse's `ParsedContentType` says, less its `charset` (the parameter is read
/// instead), with the parameters in a vector rather than a map: a part has one or two, and a
/// map built and dropped for them cost more than the rest of the field's reading. The pieces
/// are borrowed from the field's value where it is one line and they are lower case already,
/// as nearly all are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ContentType<'a> {
    pub(crate) mimetype: Cow<'a, str>,
    /// In the order written. A name given twice counts its last value, as in mailparse's map.
    params: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

impl Default for ContentType<'_> {
    /// `text/plain` without parameters (RFC 2045 5.2), as mailparse's default.
    fn default() -> Self {
        ContentType {
            mimetype: Cow::Borrowed("text/plain"),
            params: Vec::new(),
        }
    }
}

impl<'a> ContentType<'a> {
    /// The value of the parameter `name` (lower case), the last one when it is given twice.
    pub(crate) fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| &**v)
    }

    fn from_mailparse(ctype: mailparse::ParsedContentType) -> Self {
        ContentType {
            mimetype: Cow::Owned(ctype.mimetype),
            params: ctype
                .params
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), Cow::Owned(v)))
                .collect(),
        }
    }

    /// The same, owning its pieces: for a value that was unfolded into a string of its own.
    fn into_owned(self) -> ContentType<'static> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        ContentType {
            mimetype: own(self.mimetype),
            params: self
                .params
                .into_iter()
                .map(|(k, v)| (own(k), own(v)))
                .collect(),
        }
    }
}

struct Pending<'a> {
    headers: Vec<Field<'a>>,
    body: &'a [u8],
    depth: usize,
    in_digest: bool,
}

/// Flattens the message whose header block is `headers` and whose body (with
/// `\n` line ends) is `body` into its leaves.
pub(crate) fn leaves<'a>(
    headers: Vec<Field<'a>>,
    body: &'a [u8],
    problems: &mut Vec<MimeNote>,
) -> Vec<Leaf<'a>> {
    let mut out = Vec::new();
    let mut stack = vec![Pending {
        headers,
        body,
        depth: 0,
        in_digest: false,
    }];
    let mut too_deep = false;
    let mut count = 1;
    let mut too_many = false;
    while let Some(part) = stack.pop() {
        let ctype = content_type(&part.headers, part.in_digest, problems);
        if !ctype.mimetype.starts_with("multipart/") {
            out.push(leaf(part, ctype, problems));
            continue;
        }
        if part.depth >= MAX_DEPTH {
            if !too_deep {
                problems.push(MimeNote::TooDeep { max: MAX_DEPTH });
                too_deep = true;
            }
            continue;
        }
        let Some(boundary) = ctype.param("boundary").filter(|b| !b.is_empty()) else {
            problems.push(MimeNote::NoBoundary {
                mimetype: ctype.mimetype.to_string(),
            });
            out.push(leaf(part, ContentType::default(), problems));
            continue;
        };
        let (children, closed) = split(part.body, boundary.as_bytes());
        if children.is_empty() {
            problems.push(MimeNote::NoPartFound {
                mimetype: ctype.mimetype.to_string(),
                boundary: boundary.to_owned(),
            });
            out.push(leaf(part, ContentType::default(), problems));
            continue;
        }
        if !closed {
            problems.push(MimeNote::NoClosingBoundary {
                mimetype: ctype.mimetype.to_string(),
            });
        }
        let in_digest = ctype.mimetype == "multipart/digest";
        let mut children = children;
        if count + children.len() > MAX_PARTS {
            if !too_many {
                problems.push(MimeNote::TooManyParts { max: MAX_PARTS });
                too_many = true;
            }
            children.truncate(MAX_PARTS.saturating_sub(count));
        }
        count += children.len();
        for child in children.into_iter().rev() {
            let (headers, body) = part_headers(child);
            stack.push(Pending {
                headers,
                body,
                depth: part.depth + 1,
                in_digest,
            });
        }
    }
    out
}

fn content_type<'a>(
    headers: &[Field<'a>],
    in_digest: bool,
    problems: &mut Vec<MimeNote>,
) -> ContentType<'a> {
    match header::first(headers, "Content-Type") {
        Some(h) => {
            let ctype = match header::unfolded(h, problems) {
                Cow::Borrowed(value) => parse_content_type(value),
                Cow::Owned(value) => parse_content_type(&value).into_owned(),
            };
            if ctype.mimetype.is_empty() {
                ContentType::default()
            } else {
                ctype
            }
        }
        None if in_digest => ContentType {
            mimetype: Cow::Borrowed("message/rfc822"),
            params: Vec::new(),
        },
        None => ContentType::default(),
    }
}

/// `mailparse::parse_content_type`, read here when the value has neither a backslash nor a
/// `*` (no escapes in quotes, no RFC 2231 parameters): what nearly every message's
/// `Content-Type` is, read without mailparse's passes for those (3.5 k instructions a field,
/// on the shared samples). The same answer: a property test compares the two.
///
/// The pieces between the semicolons outside quotes are read as they are found.
fn parse_content_type<'s>(value: &'s str) -> ContentType<'s> {
    if value.contains(['\\', '*']) {
        return ContentType::from_mailparse(mailparse::parse_content_type(value));
    }
    let mut ctype = ContentType {
        mimetype: Cow::Borrowed(""),
        params: Vec::new(),
    };
    let mut piece = |text: &'s str, first: bool| {
        if first {
            ctype.mimetype = lowercase(text.trim());
            return;
        }
        let Some((key, v)) = text.split_once('=') else {
            return;
        };
        let v = v.trim();
        // Quotes around the whole value go (a lone `"` stays).
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v);
        ctype.params.push((lowercase(key.trim()), Cow::Borrowed(v)));
    };
    let (mut start, mut quoted) = (0, false);
    for (i, b) in value.bytes().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b';' if !quoted => {
                piece(&value[start..i], start == 0);
                start = i + 1;
            }
            _ => {}
        }
    }
    piece(&value[start..], start == 0);
    ctype
}

/// `str::to_lowercase`, by bytes when the text is ASCII, as types and parameter names are:
/// the same string, without a look at each character for the cases of Unicode. Borrowed when
/// it is lower case already.
fn lowercase(s: &str) -> Cow<'_, str> {
    if !s.is_ascii() {
        Cow::Owned(s.to_lowercase())
    } else if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

fn leaf<'a>(part: Pending<'a>, ctype: ContentType<'a>, problems: &mut Vec<MimeNote>) -> Leaf<'a> {
    let disposition = header::first(&part.headers, "Content-Disposition")
        .map(|h| mailparse::parse_content_disposition(&header::unfolded(h, problems)))
        .unwrap_or_default();
    let filename = disposition
        .params
        .get("filename")
        .map(String::as_str)
        .or_else(|| ctype.param("name"))
        .map(|n| header::decode_words(n.trim(), problems));
    Leaf {
        headers: part.headers,
        body: part.body,
        ctype,
        attachment: disposition.disposition == DispositionType::Attachment,
        filename,
        depth: part.depth,
    }
}

/// The header block and body of one part. A part whose first line is not a
/// header field has no headers (RFC 2046 5.1.1: defaults apply), rather than its
/// first text line read as a field name.
fn part_headers(part: &[u8]) -> (Vec<Field<'_>>, &[u8]) {
    if let Some(body) = part
        .strip_prefix(b"\n")
        .or_else(|| part.strip_prefix(b"\r\n"))
    {
        return (Vec::new(), body);
    }
    if !super::starts_with_field(part) {
        return (Vec::new(), part);
    }
    let (headers, ix) = header::split_block(part, 4);
    (headers, &part[ix..])
}

/// Splits a multipart body at its delimiter lines (`--boundary`, then only
/// blanks) up to the close delimiter (`--boundary--`). Returns the parts and
/// whether the close delimiter was seen. The line break (LF or CRLF) before a
/// delimiter belongs to the delimiter (RFC 2046 5.1.1). One pass over the body,
/// by a search for the delimiter, not line by line.
fn split<'a>(body: &'a [u8], boundary: &[u8]) -> (Vec<&'a [u8]>, bool) {
    let mut parts = Vec::new();
    let mut start: Option<usize> = None;
    let mut delimiter = Vec::with_capacity(boundary.len() + 3);
    delimiter.extend_from_slice(b"\n--");
    delimiter.extend_from_slice(boundary);
    // The line starts that begin with `--boundary`: the body's first, then each after an LF.
    let at_start = body.starts_with(&delimiter[1..]).then_some(0);
    let after_lf = memchr::memmem::find_iter(body, &delimiter).map(|i| i + 1);
    for line_start in at_start.into_iter().chain(after_lf) {
        let line_end =
            memchr::memchr(b'\n', &body[line_start..]).map_or(body.len(), |p| line_start + p);
        // (A boundary never holds an LF: header values are unfolded before they are read.)
        let rest = body
            .get(line_start + delimiter.len() - 1..line_end)
            .unwrap_or_default();
        let close = rest.starts_with(b"--");
        if close || rest.iter().all(|b| b.is_ascii_whitespace()) {
            if let Some(s) = start {
                let mut end = line_start.saturating_sub(1).max(s);
                if end > s && body[end - 1] == b'\r' {
                    end -= 1;
                }
                parts.push(&body[s..end]);
            }
            if close {
                return (parts, true);
            }
            start = Some((line_end + 1).min(body.len()));
        }
    }
    if let Some(s) = start {
        parts.push(&body[s..]);
    }
    (parts, false)
}

#[cfg(test)]
mod tests {
    use super::{parse_content_type, split};

    proptest::proptest! {
        /// Our reading of a `Content-Type` is mailparse's, on values made of the pieces
        /// they are made of (quotes, semicolons, blanks, capitals, non-ASCII), escapes and
        /// RFC 2231 parameters included.
        #[test]
        fn content_types_read_as_mailparse_reads_them(
            value in proptest::prop_oneof![
                "(text/plain|Multipart/Mixed|TEXT/HTML|application/x-chess-pgn| |;|=|\"|\\\\|\\*|charset|CharSet|utf-8|boundary|name|Ä|ё|x|0|'|%41|\t){0,16}",
                // Whole parameters, names given twice among them.
                "(text/plain|TEXT/HTML|Ä)?(;( |\t)*(charset|CharSet|name|format| name )( )?=( )?(\"[a-z; ]*\"|utf-8|x|Ä|\"|)( )?){0,5}",
            ]
        ) {
            let ours = parse_content_type(&value);
            let theirs = mailparse::parse_content_type(&value);
            // A name given twice: the last value, as the map keeps it.
            let params: std::collections::BTreeMap<String, String> =
                ours.params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            proptest::prop_assert_eq!(
                (&*ours.mimetype, ours.param("charset").unwrap_or("us-ascii"), &params),
                (theirs.mimetype.as_str(), theirs.charset.as_str(), &theirs.params),
                "{:?}", value
            );
            for (k, v) in &theirs.params {
                proptest::prop_assert_eq!(ours.param(k), Some(v.as_str()), "{:?}", value);
            }
        }
    }

    #[test]
    fn content_types() {
        let t = parse_content_type("Text/Plain; charset=\"UTF-8\"; format=flowed; delsp=yes");
        assert_eq!(t.mimetype, "text/plain");
        assert_eq!(t.param("charset"), Some("UTF-8"));
        assert_eq!(t.param("format"), Some("flowed"));
        assert_eq!(t.param("delsp"), Some("yes"));
        let t = parse_content_type("multipart/mixed; boundary=\"a;b=c\"");
        assert_eq!(t.param("boundary"), Some("a;b=c"));
        assert_eq!(t.param("charset"), None);
        // A name given twice: its last value.
        let t = parse_content_type("text/plain; charset=koi8-r; Charset=utf-8");
        assert_eq!(t.param("charset"), Some("utf-8"));
    }

    #[test]
    fn splitting() {
        let body = b"preamble\n--b\nA: 1\n\none\n--b \n\ntwo\n\n--bb\n--b--\nepilogue";
        let (parts, closed) = split(body, b"b");
        assert_eq!(parts, [&b"A: 1\n\none"[..], b"\ntwo\n\n--bb"]);
        assert!(closed);
        let (parts, closed) = split(b"--b\nx\n--b\n", b"b");
        assert_eq!(parts, [&b"x"[..], b""]);
        assert!(!closed);
        assert_eq!(split(b"no delimiters", b"b").0.len(), 0);
        // CRLF line ends: the CRLF before a delimiter is the delimiter's too.
        let body = b"preamble\r\n--b\r\nA: 1\r\n\r\none\r\n--b \r\n\r\ntwo\r\n--b--\r\nx";
        let (parts, closed) = split(body, b"b");
        assert_eq!(parts, [&b"A: 1\r\n\r\none"[..], b"\r\ntwo"]);
        assert!(closed);
        // Only a delimiter at the start of a line counts.
        let (parts, closed) = split(b"x --b\n--b\ny--b\n--b--", b"b");
        assert_eq!(parts, [&b"y--b"[..]]);
        assert!(closed);
    }
}
