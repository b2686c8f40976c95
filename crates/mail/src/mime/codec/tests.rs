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

/// Lenient base64 spelled out a byte at a time: the meaning [`base64_decode`] must have
/// around the crate's decoding.
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
    /// The crate's decoding with our leniency decodes as the reference does: whole bodies,
    /// broken lines, padding in the middle, stray bytes, anything.
    #[test]
    fn base64_as_the_reference(
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

#[test]
fn qp_cases() {
    assert_eq!(qp_decode(b"a=3Db=\nc= \nd=e=", false), b"a=bcd=e");
    assert_eq!(qp_decode(b"=d0=BF_x=4", true), b"\xd0\xbf x=4");
    assert_eq!(qp_decode(b"=d0=BF_x=4", false), b"\xd0\xbf_x=4");
    // Raw 8-bit bytes (windows-1251 "При") are kept; a soft break before CRLF and at the end.
    assert_eq!(
        qp_decode(b"\xcf\xf0\xe8=\r\n=3D =\t", false),
        b"\xcf\xf0\xe8= "
    );
    assert_eq!(qp_decode(b"a=\rb=\r\n", false), b"a=\rb");
}

#[test]
fn charsets() {
    let part = || Whose::Part("text/plain".to_owned());
    let t = decode_charset(b"\xcf\xf0\xe8", None, || Whose::Body);
    assert_eq!(t.text, "При");
    assert!(t.problem.unwrap().to_string().contains("windows-1251"));
    let t = decode_charset("При".as_bytes(), None, || Whose::Body);
    assert_eq!((&*t.text, t.problem), ("При", None));
    let t = decode_charset(b"\xf0\xd2\xc9", Some("KOI8-R"), part);
    assert_eq!((&*t.text, t.problem), ("При", None));
    let t = decode_charset(b"\xff", Some("utf-8"), part);
    assert_eq!(t.text, "\u{fffd}");
    assert!(t.problem.is_some());
    let t = decode_charset(b"abc", Some("x-nonsense"), part);
    assert_eq!((&*t.text, t.problem), ("abc", None));
    let t = decode_charset("П".as_bytes(), Some("x-nonsense"), part);
    assert_eq!(t.text, "П");
    assert_eq!(
        t.problem.unwrap(),
        "the text/plain part says charset \"x-nonsense\", which is not known; it was read as UTF-8"
    );
    let t = decode_charset("П".as_bytes(), Some("us-ascii"), part);
    assert_eq!(
        t.problem.unwrap(),
        "the text/plain part says charset us-ascii but has 8-bit bytes; it was read as UTF-8"
    );
}
