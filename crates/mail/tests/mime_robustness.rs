//! Hostile and broken input: `mime::decode` must never panic, and must finish in
//! time and memory proportional to the input. Every input is made in memory.
//!
//! The time limits below are loose on purpose (debug build, a shared 2-core
//! machine): they are there to catch quadratic behaviour, which on these sizes
//! takes minutes, not to measure speed.

use std::time::{Duration, Instant};

use ccmail_mail::mime::{
    Decoded, Limits, MAX_PART_BYTES, MimeError, TooLarge, decode, decode_within,
};

const LIMIT: Duration = Duration::from_secs(10);

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read(&p).unwrap_or_default(),
            )
        })
        .collect();
    out.sort();
    assert!(out.len() >= 12, "fixtures missing in {dir}");
    out
}

/// Decodes within [`LIMIT`], every part whatever its size (the decoders themselves are
/// measured here; mail's parts are capped by [`decode`]); a panic fails the test by itself.
fn timed(what: &str, raw: &[u8]) -> Result<Decoded, MimeError> {
    let start = Instant::now();
    let result = decode_within(raw, Limits::NONE);
    let took = start.elapsed();
    assert!(took < LIMIT, "{what}: took {took:?}");
    result
}

/// A small deterministic generator (xorshift64), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Bytes that mean something to a MIME parser, plus noise.
const NASTY: &[u8] = b"\n\r\0\xff\xd0-=?<>&;:\"( \t*";

#[test]
fn truncated_fixtures_never_panic() {
    for (name, raw) in fixtures() {
        for n in 0..=raw.len() {
            let _ = decode(&raw[..n]);
        }
        let _ = name;
    }
}

/// `lf` with each LF written as `end`.
fn with_line_ends(lf: &[u8], end: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(lf.len() * 2);
    for &b in lf {
        if b == b'\n' {
            out.extend_from_slice(end);
        } else {
            out.push(b);
        }
    }
    out
}

/// CRLF and LF mail is read as it is, lone-CR mail is rewritten first: all three must read
/// alike, to the last problem noted, whole, cut short anywhere, or with bytes changed.
#[test]
fn line_ends_do_not_change_the_reading() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let same = |lf: &[u8], what: &str| {
        let want = decode(lf);
        for end in [&b"\r\n"[..], b"\r"] {
            let got = decode(&with_line_ends(lf, end));
            assert_eq!(got, want, "{what}, line ends {end:?}");
        }
    };
    // Anything but a CR, which would be a line end of a third kind.
    let nasty: Vec<u8> = NASTY.iter().copied().filter(|&b| b != b'\r').collect();
    for (name, raw) in fixtures() {
        let lf: Vec<u8> = raw.iter().copied().filter(|&b| b != b'\r').collect();
        for n in 0..=lf.len() {
            same(&lf[..n], &format!("{name} cut at {n}"));
        }
        let mut copy = lf.clone();
        for i in 0..lf.len() {
            let r = rng.next();
            copy[i] = nasty[(r >> 8) as usize % nasty.len()];
            same(&copy, &format!("{name} with byte {i} changed"));
            copy[i] = lf[i];
        }
    }
    // Soft line breaks of quoted-printable, and blanks before them.
    same(
        b"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n\
          one=\ntwo=  \nthree =D0=BF\nfour=",
        "quoted-printable",
    );
}

#[test]
fn byte_flipped_fixtures_never_panic() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (_, raw) in fixtures() {
        let mut copy = raw.clone();
        for i in 0..raw.len() {
            let r = rng.next();
            copy[i] = if r.is_multiple_of(3) {
                (r >> 8) as u8
            } else {
                NASTY[(r >> 8) as usize % NASTY.len()]
            };
            let _ = decode(&copy);
            copy[i] = raw[i];
        }
        // And a copy with many flips at once.
        for _ in 0..raw.len() / 8 {
            let r = rng.next();
            let i = r as usize % copy.len().max(1);
            if let Some(b) = copy.get_mut(i) {
                *b = NASTY[(r >> 16) as usize % NASTY.len()];
            }
        }
        let _ = decode(&copy);
    }
}

#[test]
fn ten_megabyte_flowed_quoted_printable_message() {
    let mut raw = b"From: a@example.org\r\nSubject: big\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\n\
        Content-Transfer-Encoding: quoted-printable\r\n\r\n"
        .to_vec();
    let line = b"12. e4 e5 =D0=9F=D1=80=D0=B8 soft break=20\r\n> quoted line =\r\ncontinued\r\n";
    while raw.len() < 10 << 20 {
        raw.extend_from_slice(line);
    }
    let d = timed("10 MB", &raw).unwrap();
    // Soft breaks join lines of one quote depth only (RFC 3676 4.5).
    assert!(
        d.text.starts_with(
            "12. e4 e5 При soft break\n> quoted line continued\n12. e4 e5 При soft break\n"
        ),
        "{}",
        &d.text[..200]
    );
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn two_megabyte_html_message() {
    let mut raw = b"From: a@example.org\nContent-Type: text/html\n\n".to_vec();
    let chunk = b"<div>1. e4 &amp; e5<br></div><blockquote><p>quoted &#1055;</p></blockquote>\n";
    while raw.len() < 2 << 20 {
        raw.extend_from_slice(chunk);
    }
    let d = timed("2 MB HTML", &raw).unwrap();
    assert!(
        d.text.starts_with("1. e4 & e5\n> quoted П\n1. e4 & e5\n"),
        "{}",
        &d.text[..100]
    );
}

#[test]
fn a_million_line_body() {
    let mut raw = b"From: a@example.org\nSubject: lines\n\n".to_vec();
    for _ in 0..1_000_000 {
        raw.extend_from_slice(b"e4\n");
    }
    let d = timed("1,000,000 lines", &raw).unwrap();
    assert_eq!(d.text.lines().count(), 1_000_000);
}

#[test]
fn ten_thousand_nested_multiparts() {
    let depth = 10_000;
    let mut raw = b"From: a@example.org\n".to_vec();
    for i in 0..depth {
        raw.extend_from_slice(
            format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\n\n--b{i}\n").as_bytes(),
        );
    }
    raw.extend_from_slice(b"Content-Type: text/plain\n\ndeep text\n");
    for i in (0..depth).rev() {
        raw.extend_from_slice(format!("--b{i}--\n").as_bytes());
    }
    let d = timed("10,000 levels", &raw).unwrap();
    assert_eq!(d.text, "");
    assert_eq!(
        d.problems,
        ["the MIME parts are nested more than 50 levels deep; the deeper parts were not read"]
    );
    // Not read in part: too large.
    assert_eq!(d.too_large, Some(TooLarge::Depth { max: 50 }));
}

#[test]
fn nesting_within_the_limit_is_read() {
    let mut raw = b"From: a@example.org\n".to_vec();
    for i in 0..49 {
        raw.extend_from_slice(
            format!("Content-Type: multipart/mixed; boundary=b{i}\n\n--b{i}\n").as_bytes(),
        );
    }
    raw.extend_from_slice(b"Content-Type: text/plain\n\ndeep text\n");
    let d = timed("49 levels", &raw).unwrap();
    assert_eq!(d.text, "deep text\n");
}

#[test]
fn pathological_shapes_stay_linear() {
    let big = |unit: &str, n: usize| unit.repeat(n);
    // About 200 KB to 1 MB each: quadratic work on these takes minutes.
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "encoded-word starts",
            format!("Subject: {}\n\nx", big("=?", 100_000)).into_bytes(),
        ),
        (
            "unclosed encoded words",
            format!("Subject: {}\n\nx", big("=?utf-8?q?a", 20_000)).into_bytes(),
        ),
        (
            "address comments",
            format!("From: {}a@b\n\nx", big("(", 200_000)).into_bytes(),
        ),
        (
            "many addresses",
            format!("To: {}\n\nx", big("a@b, ", 40_000)).into_bytes(),
        ),
        (
            "long folded header",
            format!("Subject: x{}\n\nx", big("\n y", 100_000)).into_bytes(),
        ),
        (
            "html unclosed tags",
            format!("Content-Type: text/html\n\n{}", big("<a", 100_000)).into_bytes(),
        ),
        (
            "html unclosed style",
            format!("Content-Type: text/html\n\n{}", big("<style><", 40_000)).into_bytes(),
        ),
        (
            "html entities",
            format!(
                "Content-Type: text/html\n\n{}",
                big("&#12345678901234567890", 10_000)
            )
            .into_bytes(),
        ),
        (
            "html deep quotes",
            format!(
                "Content-Type: text/html\n\n{}",
                big("<blockquote>x<br>", 20_000)
            )
            .into_bytes(),
        ),
        (
            "many parts",
            format!(
                "Content-Type: multipart/mixed; boundary=b\n\n{}",
                big("--b\n\nx\n", 40_000)
            )
            .into_bytes(),
        ),
        (
            "many params",
            format!(
                "Content-Type: text/plain; {}\n\nx",
                big("name*0*=utf-8''%D0; ", 10_000)
            )
            .into_bytes(),
        ),
        (
            "base64 noise",
            format!(
                "Content-Transfer-Encoding: base64\n\n{}",
                big("*=", 200_000)
            )
            .into_bytes(),
        ),
        (
            "qp noise",
            format!(
                "Content-Transfer-Encoding: quoted-printable\n\n{}",
                big("=\n=", 200_000)
            )
            .into_bytes(),
        ),
        (
            "flowed quotes",
            format!(
                "Content-Type: text/plain; format=flowed\n\n{}",
                big("> \n>> x \n", 50_000)
            )
            .into_bytes(),
        ),
        ("headers only", big("X-A: b\n", 100_000).into_bytes()),
        (
            "carriage returns",
            format!("Subject: x\r\r{}", big("\r", 1_000_000)).into_bytes(),
        ),
    ];
    for (what, raw) in cases {
        let _ = timed(what, &raw);
    }
}

#[test]
fn not_a_message_inputs() {
    for raw in [
        &b""[..],
        b"\n\nbody",
        b" folded: first",
        b"\x00\x01\x02",
        b"PK\x03\x04zip",
        b"%PDF-1.7\n",
    ] {
        assert!(
            matches!(decode(raw), Err(MimeError::NotAMessage(_))),
            "{raw:?}"
        );
    }
}

#[test]
fn scrambled_content_type_parameters_never_panic() {
    // RFC 2231 continuations and charsets are where parameter parsers get clever.
    const PIECES: &[&str] = &[
        "name",
        "filename",
        "boundary",
        "charset",
        "*",
        "*0",
        "*1",
        "*0*",
        "*1*",
        "*2",
        "=",
        "\"",
        ";",
        " ",
        "utf-8''",
        "koi8-r'ru'",
        "%D0",
        "%9F",
        "%",
        "'",
        "\\",
        "x.pgn",
        "=?utf-8?q?a?=",
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..3_000 {
        let mut value = String::from("application/x-chess-pgn");
        for _ in 0..(rng.next() % 24) {
            value.push_str(PIECES[(rng.next() % PIECES.len() as u64) as usize]);
        }
        let raw = format!(
            "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: {value}\n\
             Content-Disposition: attachment; {value}\n\n1. e4\n--b--\n"
        );
        let _ = decode(raw.as_bytes());
    }
}

/// A text part over [`MAX_PART_BYTES`] is not decoded at all: the message is too large, its
/// text empty. A large photo beside a small text is not read, and does not count.
#[test]
fn a_text_part_over_the_cap_is_too_large_and_not_decoded() {
    let head = "From: a@example.org\nSubject: big\n";
    let mut raw = format!("{head}Content-Type: text/plain\n\nMy move: 1. e4\n").into_bytes();
    raw.resize(raw.len() + MAX_PART_BYTES, b'\n');
    let d = decode(&raw).unwrap();
    assert_eq!(
        d.too_large,
        Some(TooLarge::Part {
            bytes: MAX_PART_BYTES + 15,
            max: MAX_PART_BYTES
        })
    );
    assert_eq!(d.text, "");
    assert_eq!(
        d.too_large.unwrap().to_string(),
        format!(
            "a text part of it is {} bytes long, more than {MAX_PART_BYTES}",
            MAX_PART_BYTES + 15
        )
    );
    let photo = "A".repeat(3 * MAX_PART_BYTES);
    let raw = format!(
        "{head}Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n\
         My move: 1. e4\n--b\nContent-Type: image/jpeg\nContent-Transfer-Encoding: base64\n\n\
         {photo}\n--b--\n"
    );
    let d = decode(raw.as_bytes()).unwrap();
    assert_eq!((d.too_large, d.text.as_str()), (None, "My move: 1. e4"));
}

/// More parts than are read make the message too large, not read in part.
#[test]
fn more_parts_than_read_is_too_large() {
    let mut raw =
        String::from("From: a@example.org\nContent-Type: multipart/mixed; boundary=b\n\n");
    for _ in 0..=ccmail_mail::mime::MAX_PARTS {
        raw.push_str("--b\nContent-Type: text/plain\n\nhi\n");
    }
    raw.push_str("--b--\n");
    let d = decode(raw.as_bytes()).unwrap();
    assert_eq!(
        d.too_large,
        Some(TooLarge::Parts {
            max: ccmail_mail::mime::MAX_PARTS
        })
    );
}
