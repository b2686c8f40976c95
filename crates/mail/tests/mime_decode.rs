//! `mime::decode` on the fixtures in `tests/fixtures` (made by
//! `make_fixtures.py`), one kind of mail each, with exact expected values.

use ccmail_mail::mime::{Address, Decoded, MimeError, REFERENCES_LOOKED_UP, decode};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn decoded(name: &str) -> Decoded {
    decode(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn addr(name: Option<&str>, email: &str) -> Address {
    Address {
        name: name.map(str::to_owned),
        email: email.to_owned(),
    }
}

const RU_BODY: &str =
    "Турнир: Кубок Волги 2026\nБелые: Соловьёв\nЧерные: Зайцев\nМой ход: 12. 5131\n";

#[test]
fn utf8_8bit_body_and_crlf() {
    let d = decoded("utf8-8bit.eml");
    assert_eq!(d.text, RU_BODY);
    assert_eq!(
        d.from,
        Some(addr(Some("Зайцев Кирилл"), "zaitsev.k@mail.example.org"))
    );
    assert_eq!(d.to, [addr(None, "solovyov@post.example.net")]);
    assert_eq!(d.subject.as_deref(), Some("Ход 12"));
    assert_eq!(d.message_id.as_deref(), Some("utf8.1@mail.example.org"));
    assert_eq!(d.date.unwrap().to_rfc3339(), "2026-03-15T09:30:02+03:00");
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn windows_1251_base64() {
    let d = decoded("cp1251-base64.eml");
    assert_eq!(d.text, RU_BODY);
    assert_eq!(
        d.from,
        Some(addr(Some("Захаров Виктор"), "zakharov@mail.example.org"))
    );
    assert_eq!(d.subject.as_deref(), Some("Ход 15"));
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn koi8r_quoted_printable_with_koi8r_words() {
    let d = decoded("koi8r-qp.eml");
    let moves = "1. 5254 5755 ".repeat(8);
    assert_eq!(d.text, format!("{RU_BODY}Ходы: {}\n", moves.trim_end()));
    assert_eq!(
        d.from,
        Some(addr(Some("Соловьёв Игорь"), "solovyov@post.example.net"))
    );
    assert_eq!(
        d.subject.as_deref(),
        Some("Кубок Волги 2026: Соловьёв - Зайцев, 12. 5131")
    );
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn alternative_prefers_text_plain() {
    let d = decoded("alternative.eml");
    assert_eq!(d.text, "My move: 11. Rg1");
    assert_eq!(
        d.to,
        [
            addr(Some("Rhys Fletcher"), "rhys.fletcher@example.net"),
            addr(Some("Arbiter, The"), "arbiter@example.com")
        ]
    );
    assert_eq!(d.cc, [addr(None, "club@example.org")]);
    assert!(d.pgn.is_empty());
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn html_only_gmail_style() {
    let d = decoded("html-only.eml");
    assert_eq!(
        d.text,
        "Event: Riverside Email Cup 2026\n\
         White: Morgan\n\
         \n\
         My move: 23. Be7#\n\
         Morgan Alan <alan.morgan@example.org>\n\
         \n\
         On Thu, Apr 9, 2026 Rhys wrote:\n\
         > Your move & mine: 22... Nxf6\n\
         > Sent: 2026-04-09\n"
    );
    assert_eq!(
        d.subject.as_deref(),
        Some("Riverside Email Cup 2026: Morgan – Fletcher, 23. Be7#")
    );
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn format_flowed_without_delsp() {
    let d = decoded("flowed.eml");
    assert_eq!(
        d.text,
        "Move List: 1.e4 e5 2.Nf3 Nf6 3.Nxe5 d6 4.Nf3 Nxe4 5.d4 d5\n\
         \n\
         From the quoted mail:\n\
         > Your move 17. Nc3 was received.\n\
         Thanks\n\
         -- \n\
         Guy\n"
    );
}

#[test]
fn format_flowed_with_delsp() {
    let d = decoded("flowed-delsp.eml");
    assert_eq!(d.text, "Предлагаю ничью. Мой ход: 18... 1817\n");
}

#[test]
fn mixed_with_pgn_attachments() {
    let d = decoded("mixed-pgn.eml");
    assert_eq!(d.text, "Move List: 1.e4 e5 2.Nf3 Nf6\n");
    assert_eq!(
        d.pgn,
        [
            "[Event \"Email correspondence game\"]\n[White \"Lambert, Guy\"]\n[Black \"Osborne, Neil\"]\n\
             [Result \"*\"]\n\n1. e4 e5 2. Nf3 Nf6 *\n",
            "1. d4 d5 *",
        ]
    );
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn cmail_body_is_text_and_pgn() {
    let d = decoded("cmail.eml");
    let game = "[Event \"Email correspondence game\"]\n[CmailGameName \"keller-vs-bergmann\"]\n\n1. d4 Nf6 2. c4 e6\n*\n";
    assert_eq!(d.text, game);
    assert_eq!(d.pgn, [game]);
    assert_eq!(d.return_path.as_deref(), Some("jonas.bergmann@example.org"));
    assert_eq!(
        d.subject.as_deref(),
        Some("cmail 1 game <keller-vs-bergmann>")
    );
    assert_eq!(
        d.message_id.as_deref(),
        Some("edc6dec38f31.4722f1cf@example.org")
    );
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn received_date_is_the_topmost() {
    let d = decoded("received.eml");
    assert_eq!(
        d.received_date.unwrap().to_rfc3339(),
        "2026-04-02T18:17:07+00:00"
    );
    assert_eq!(d.date.unwrap().to_rfc3339(), "2026-04-02T20:17:03+02:00");
    assert_eq!(d.return_path.as_deref(), Some(""));
    assert_eq!(
        d.from,
        Some(addr(Some("Jonas Bergmann"), "jonas.bergmann@example.org"))
    );
    assert_eq!(d.sender, Some(addr(Some("Relay"), "relay@example.org")));
    let reply_to = d.reply_to.clone().unwrap();
    assert_eq!(reply_to.email, "Jonas.Bergmann@Example.org");
    assert!(reply_to.same_mailbox(d.from.as_ref().unwrap()));
    assert_eq!(d.text, "");
    assert!(d.problems.is_empty(), "{:?}", d.problems);
}

#[test]
fn in_reply_to_and_references() {
    let d = decoded("threading.eml");
    assert_eq!(d.message_id.as_deref(), Some("third.3@example.org"));
    assert_eq!(d.in_reply_to, ["second.2@example.net"]);
    assert_eq!(
        d.references,
        ["first.1@example.org", "second.2@example.net"]
    );
    assert_eq!(d.date.unwrap().to_rfc3339(), "2026-04-06T10:00:00-05:00");
    assert_eq!(d.received_date, None);
    assert_eq!(d.text, "ok\n");
    assert_eq!(
        d.answers(),
        [
            "second.2@example.net",
            "second.2@example.net",
            "first.1@example.org"
        ]
    );
}

/// Only the last 100 References count (the newest are at the end), newest first, after
/// In-Reply-To.
#[test]
fn a_message_answers_its_parent_and_its_last_hundred_references() {
    let ids: Vec<String> = (0..5_000).map(|n| format!("<r{n}@example.org>")).collect();
    let raw = format!(
        "From: a@example.org\r\nIn-Reply-To: <parent@example.org>\r\nReferences: {}\r\n\r\nok\r\n",
        ids.join("\r\n ")
    );
    let d = decode(raw.as_bytes()).unwrap();
    assert_eq!(d.references.len(), 5_000);
    let answers = d.answers();
    assert_eq!(answers.len(), 1 + REFERENCES_LOOKED_UP);
    assert_eq!(
        answers[..3],
        [
            "parent@example.org",
            "r4999@example.org",
            "r4998@example.org"
        ]
    );
    assert_eq!(answers.last(), Some(&"r4900@example.org"));
}

#[test]
fn a_gzip_blob_is_not_a_message() {
    match decode(&fixture("not-a-mail.eml")) {
        Err(MimeError::NotAMessage(words)) => {
            assert_eq!(
                words.to_string(),
                "not an e-mail message: it begins with gzip-compressed data, not with a header field such as \"From:\""
            );
        }
        other => panic!("expected NotAMessage, got {other:?}"),
    }
}

#[test]
fn missing_charset_on_cp1251_falls_back() {
    let d = decoded("no-charset-cp1251.eml");
    assert_eq!(d.text, RU_BODY);
    assert_eq!(
        d.problems,
        ["the message body has no charset; it is not UTF-8, so it was read as windows-1251"]
    );
}

#[test]
fn headers_only_and_odd_bodies_are_ok() {
    let d = decode(b"Subject: x\r\n").unwrap();
    assert_eq!((d.subject.as_deref(), d.text.as_str()), (Some("x"), ""));
    let d = decode(b"Subject: x\n\n\x00\x01binary").unwrap();
    assert_eq!(d.text, "\u{0}\u{1}binary");
}

#[test]
fn lone_cr_and_bom_in_body() {
    let d =
        decode(b"Content-Type: text/plain; charset=utf-8\r\rline1\rline2\r\n\xef\xbb\xbf").unwrap();
    assert_eq!(d.text, "line1\nline2\n\u{feff}");
    let d = decode(b"Subject: b\n\n\xef\xbb\xbfhello\r\n").unwrap();
    assert_eq!(d.text, "hello\n");
}

#[test]
fn broken_base64_and_unknown_charset_are_problems() {
    // "привет" in windows-1251, base64 with a stray '*'.
    let raw = b"Content-Type: text/plain; charset=x-martian\n\
        Content-Transfer-Encoding: base64\n\n7/Do*4uXy\n";
    let d = decode(raw).unwrap();
    assert_eq!(d.text, "привет");
    assert_eq!(
        d.problems,
        [
            "the message body has broken base64; it was decoded as far as it goes",
            "the message body says charset \"x-martian\", which is not known; \
             it is not UTF-8, so it was read as windows-1251",
        ]
    );
}

#[test]
fn blank_text_plain_beside_html_gives_the_html() {
    let raw = b"Content-Type: multipart/alternative; boundary=x\n\n--x\n\
        Content-Type: text/plain\n\n \n--x\nContent-Type: text/html\n\n<p>1. e4</p>\n--x--\n";
    assert_eq!(decode(raw).unwrap().text, "1. e4\n");
}

#[test]
fn text_from_an_attachment_only_as_a_last_resort() {
    let raw = b"Content-Type: multipart/mixed; boundary=x\n\n--x\n\
        Content-Type: image/png\n\n...\n--x\nContent-Type: text/plain\n\
        Content-Disposition: attachment; filename=move.txt\n\n12. Nf3\n--x--\n";
    let d = decode(raw).unwrap();
    assert_eq!(d.text, "12. Nf3");
    assert_eq!(
        d.problems,
        ["the message has no text of its own; the text was taken from an attached text file"]
    );
}

#[test]
fn broken_multiparts_still_give_text() {
    let d = decode(b"Content-Type: multipart/mixed\n\nplain words\n").unwrap();
    assert_eq!(d.text, "plain words\n");
    assert_eq!(
        d.problems,
        ["a multipart/mixed part has no boundary; its body was read as plain text"]
    );
    let d = decode(
        b"Content-Type: multipart/mixed; boundary=x\n\n--x\nno blank line after the boundary\n",
    )
    .unwrap();
    assert_eq!(d.text, "no blank line after the boundary\n");
    assert_eq!(
        d.problems,
        ["the multipart/mixed has no closing boundary; the message may be cut short"]
    );
}

#[test]
fn raw_8bit_headers_in_windows_1251() {
    let mut raw = b"From: ".to_vec();
    raw.extend_from_slice(
        b"\xcf\xe5\xf2\xf0\xee\xe2 <petrov@example.ru>\nSubject: \xd5\xee\xe4\n\nx",
    );
    let d = decode(&raw).unwrap();
    assert_eq!(d.from, Some(addr(Some("Петров"), "petrov@example.ru")));
    assert_eq!(d.subject.as_deref(), Some("Ход"));
    assert_eq!(
        d.problems,
        [
            "the From header has raw 8-bit bytes that are not UTF-8; read as windows-1251",
            "the Subject header has raw 8-bit bytes that are not UTF-8; read as windows-1251",
        ]
    );
}

#[test]
fn unreadable_dates_are_problems_not_errors() {
    let d = decode(b"Date: the day after tomorrow\nReceived: by mx; not a date\n\nx").unwrap();
    assert_eq!((d.date, d.received_date), (None, None));
    assert_eq!(
        d.problems,
        [
            "the Date date \"the day after tomorrow\" could not be read",
            "the topmost Received date \"not a date\" could not be read",
        ]
    );
}

/// A message of `parts`, each (content type and disposition lines, body), CRLF.
fn multipart(parts: &[(&str, String)]) -> Vec<u8> {
    let mut m = String::from(
        "From: <kuz@example.net>\r\nSubject: photos\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n",
    );
    for (head, body) in parts {
        m.push_str(&format!("--b1\r\n{head}\r\n\r\n{body}\r\n"));
    }
    m.push_str("--b1--\r\n");
    m.into_bytes()
}

fn base64_lines(bytes: usize) -> String {
    "QUJDRA==\r\n".repeat(bytes / 10)
}

/// The daemon's quick look: the head of a large message decodes as the whole would, for the
/// headers and the text, and the whole is asked for when the head can't tell.
#[test]
fn the_head_of_a_large_message_or_none() {
    use ccmail_mail::mime::decode_head;
    let text = (
        "Content-Type: text/plain; charset=utf-8",
        RU_BODY.replace('\n', "\r\n"),
    );
    let photo = (
        "Content-Type: image/jpeg\r\nContent-Disposition: attachment; filename=\"a.jpg\"\r\n\
         Content-Transfer-Encoding: base64",
        base64_lines(200_000),
    );
    // Small: the whole message.
    let small = multipart(std::slice::from_ref(&text));
    assert_eq!(decode_head(&small, 65_536), Some(decode(&small)));
    // Text, then a large photo: the head has the headers and the same text.
    let large = multipart(&[text.clone(), photo.clone()]);
    let head = decode_head(&large, 65_536).unwrap().unwrap();
    let whole = decode(&large).unwrap();
    assert_eq!((head.from, head.text), (whole.from, whole.text));
    // A PGN file after the photo, or a chess type (in capitals): the whole, not the head.
    for pgn_head in [
        "Content-Type: application/octet-stream; name=\"game.pgn\"",
        "Content-Type: APPLICATION/X-CHESS-PGN",
    ] {
        let pgn = (pgn_head, "[Event \"Cup\"]\r\n\r\n1. e4 *".to_owned());
        let m = multipart(&[text.clone(), photo.clone(), pgn]);
        assert_eq!(decode_head(&m, 65_536), None, "{pgn_head}");
    }
    // The photo first: no text in the head.
    let m = multipart(&[photo.clone(), text.clone()]);
    assert_eq!(decode_head(&m, 65_536), None);
    // A header block longer than the head.
    let mut long = format!("X-Long: {}\r\n", "a".repeat(70_000)).into_bytes();
    long.extend_from_slice(&large);
    assert_eq!(decode_head(&long, 65_536), None);

    // The head fetched alone (its PGN parts checked by the server): the same look.
    use ccmail_mail::mime::decode_cut;
    assert_eq!(decode_cut(&large[..65_536]), decode_head(&large, 65_536));
    let m = multipart(&[photo.clone(), text.clone()]);
    assert_eq!(decode_cut(&m[..65_536]), None, "no text in the head");
    assert_eq!(
        decode_cut(&long[..65_536]),
        None,
        "the header block goes on"
    );
}

#[test]
fn every_authentication_results_header_in_order_unfolded() {
    let raw = b"Return-Path: <white@example.test>\r\n\
        Authentication-Results: mail.example.test;\r\n\tdkim=pass (2048-bit key)\r\n\
        \theader.d=example.test\r\n\
        Received: from x by y; Tue, 3 Mar 2026 10:00:00 +0300\r\n\
        authentication-results: mail.example.test; dkim=pass header.d=forged.test\r\n\
        From: white@example.test\r\n\
        Subject: hi\r\n\r\nbody\r\n";
    let d = decode(raw).unwrap();
    assert_eq!(
        d.auth_results,
        [
            "mail.example.test; dkim=pass (2048-bit key) header.d=example.test",
            "mail.example.test; dkim=pass header.d=forged.test",
        ]
    );
    assert!(
        decode(b"From: a@b.test\r\n\r\nx")
            .unwrap()
            .auth_results
            .is_empty()
    );
}
