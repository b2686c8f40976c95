//! SMTP: the message as the opponent's mail program sees it, and sending through the real
//! test Postfix (tests/mailserver/mailserver.sh), checked by reading the recipients' mailboxes
//! over IMAP.

mod support;

use std::time::{Duration, Instant};

use ccmail_mail::imap::{Imap, ImapConfig, Security};
use ccmail_mail::smtp::{Attachment, Mailbox, Outgoing, Smtp, SmtpConfig, SmtpError, build};
use chrono::DateTime;
use mailparse::MailHeaderMap;
use support::{Servers, detail_address, header, servers, unique};

fn game_message() -> Outgoing {
    Outgoing {
        from: Mailbox::new("Петров Пётр", "white@example.test"),
        to: vec![Mailbox::new("Ivan \"The\" Black", "black@example.test")],
        cc: vec![Mailbox::new("", "arbiter@example.test")],
        subject: "Партия 7: ход 12".into(),
        body: "12. Кf3 (5163)\nДата получения: 01.03.2026\n".into(),
        message_id: "g7.m12.white@example.test".into(),
        in_reply_to: Some("g7.m11.black@example.test".into()),
        references: vec![
            "g7.m1.white@example.test".into(),
            "g7.m11.black@example.test".into(),
        ],
        date: DateTime::parse_from_rfc3339("2026-03-01T12:00:00+03:00").unwrap(),
        attachments: vec![],
    }
}

fn head_lines(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8(raw.to_vec()).expect("UTF-8");
    let head = text.split("\r\n\r\n").next().unwrap().to_owned();
    head.split("\r\n").map(str::to_owned).collect()
}

#[test]
fn build_writes_the_exact_header_lines() {
    let raw = build(&game_message()).unwrap();
    let lines = head_lines(&raw);
    for want in [
        "From: =?utf-8?b?0J/QtdGC0YDQvtCyINCf0ZHRgtGA?= <white@example.test>",
        "To: \"Ivan \\\"The\\\" Black\" <black@example.test>",
        "Cc: arbiter@example.test",
        "Subject: =?utf-8?b?0J/QsNGA0YLQuNGP?= 7: =?utf-8?b?0YXQvtC0?= 12",
        "Message-ID: <g7.m12.white@example.test>",
        "In-Reply-To: <g7.m11.black@example.test>",
        "References: <g7.m1.white@example.test> <g7.m11.black@example.test>",
        "Date: Sun, 01 Mar 2026 12:00:00 +0300",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 8bit",
    ] {
        assert!(
            lines.iter().any(|l| l == want),
            "missing {want:?} in {lines:#?}"
        );
    }
    assert_eq!(lines.len(), 11, "{lines:#?}");
    // The body is readable in the raw mail, with CRLF line ends.
    let text = String::from_utf8(raw.clone()).unwrap();
    assert!(
        text.ends_with("\r\n\r\n12. Кf3 (5163)\r\nДата получения: 01.03.2026\r\n"),
        "{text}"
    );
    // Same input, same bytes.
    assert_eq!(build(&game_message()).unwrap(), raw);

    // A mail reader decodes it back.
    let parsed = mailparse::parse_mail(&raw).unwrap();
    let h = parsed.get_headers();
    assert_eq!(h.get_first_value("Subject").unwrap(), "Партия 7: ход 12");
    assert_eq!(
        h.get_first_value("From").unwrap(),
        "Петров Пётр <white@example.test>"
    );
    assert_eq!(
        parsed.get_body().unwrap(),
        "12. Кf3 (5163)\r\nДата получения: 01.03.2026\r\n"
    );
}

#[test]
fn ascii_text_goes_as_7bit_and_long_lines_as_quoted_printable() {
    let mut msg = game_message();
    msg.body = "12. Nf3\n".into();
    let raw = build(&msg).unwrap();
    assert!(head_lines(&raw).contains(&"Content-Transfer-Encoding: 7bit".to_owned()));

    msg.body = "ход ".repeat(300);
    let raw = build(&msg).unwrap();
    assert!(head_lines(&raw).contains(&"Content-Transfer-Encoding: quoted-printable".to_owned()));
    let parsed = mailparse::parse_mail(&raw).unwrap();
    assert_eq!(parsed.get_body().unwrap().trim_end(), msg.body.trim_end());
}

#[test]
fn a_pgn_attachment_stays_readable() {
    let mut msg = game_message();
    let pgn = "[Event \"Партия 7\"]\n\n1. e4 e5 2. Nf3 *\n";
    msg.attachments.push(Attachment {
        filename: "game-7.pgn".into(),
        mime_type: "application/x-chess-pgn".into(),
        data: pgn.as_bytes().to_vec(),
    });
    let raw = build(&msg).unwrap();
    let parsed = mailparse::parse_mail(&raw).unwrap();
    assert_eq!(parsed.ctype.mimetype, "multipart/mixed");
    assert_eq!(parsed.subparts.len(), 2);
    let part = &parsed.subparts[1];
    assert_eq!(part.ctype.mimetype, "application/x-chess-pgn");
    // The name in the type too, for the readers that look only there.
    assert_eq!(part.ctype.params.get("name").unwrap(), "game-7.pgn");
    assert_eq!(
        part.get_body_raw().unwrap(),
        pgn.replace('\n', "\r\n").into_bytes()
    );
    assert_eq!(
        part.get_content_disposition()
            .params
            .get("filename")
            .unwrap(),
        "game-7.pgn"
    );
    assert_eq!(build(&msg).unwrap(), raw, "deterministic boundary");
}

#[test]
fn crlf_in_subject_or_names_never_makes_a_header() {
    let mut msg = game_message();
    msg.subject = "Ход 12\r\nBcc: x@example.test".into();
    msg.from.name = "White\r\nBcc: y@example.test".into();
    msg.to[0].name = "Black\nReply-To: z@example.test".into();
    let raw = build(&msg).unwrap();
    for line in head_lines(&raw) {
        assert!(!line.to_ascii_lowercase().starts_with("bcc:"), "{line:?}");
        assert!(
            !line.to_ascii_lowercase().starts_with("reply-to:"),
            "{line:?}"
        );
    }
    let parsed = mailparse::parse_mail(&raw).unwrap();
    let h = parsed.get_headers();
    assert!(h.get_first_value("Bcc").is_none());
    assert!(h.get_first_value("Reply-To").is_none());
    assert_eq!(h.get_all_values("Subject").len(), 1);
    assert_eq!(
        h.get_first_value("Subject").unwrap(),
        "Ход 12  Bcc: x@example.test"
    );

    msg.message_id = "id@example.test\r\nBcc: x@example.test".into();
    assert!(matches!(build(&msg), Err(SmtpError::Build(_))));
}

#[test]
fn bad_addresses_are_refused_before_sending() {
    let mut msg = game_message();
    msg.to[0].email = "not an address".into();
    let err = build(&msg).unwrap_err();
    assert!(matches!(err, SmtpError::Address { .. }), "{err}");
    assert!(!err.is_transient());
}

// ------------------------------------------------------------------ real servers

fn plain_smtp(s: &Servers) -> Smtp {
    let mut cfg = SmtpConfig::new(&s.host, s.smtp_port, Security::Plain);
    cfg.plain_ok = true;
    cfg.timeout = Duration::from_secs(15);
    Smtp::new(&cfg).unwrap()
}

fn submission(s: &Servers, user: &str, password: &str) -> SmtpConfig {
    let mut cfg =
        SmtpConfig::new(&s.host, s.submission_port, Security::StartTls).with_login(user, password);
    cfg.ca_file = Some(s.ca.clone());
    cfg.timeout = Duration::from_secs(15);
    cfg
}

/// A message from `from` to `to` with a fresh Message-ID.
fn message(from: &str, to: &[&str], cc: &[&str]) -> Outgoing {
    let mut msg = game_message();
    msg.from = Mailbox::new("White", from);
    msg.to = to.iter().map(|a| Mailbox::new("", *a)).collect();
    msg.cc = cc.iter().map(|a| Mailbox::new("", *a)).collect();
    msg.message_id = format!("{}@example.test", unique("smtp"));
    msg
}

/// Waits (up to 5 s) for the message with `message_id` in the mailbox of `cfg`, looking at
/// UIDs from `after_uid` on; returns its raw bytes.
async fn arrived(cfg: &ImapConfig, after_uid: u32, message_id: &str) -> Option<Vec<u8>> {
    let mut imap = Imap::connect(cfg).await.unwrap();
    let start = Instant::now();
    let found = loop {
        let fetched = imap.fetch_since(after_uid, None).await.unwrap();
        let want = format!("<{message_id}>");
        if let Some(m) = fetched
            .into_iter()
            .find(|m| header(&m.raw, "Message-ID").as_deref() == Some(want.as_str()))
        {
            break Some(m.raw);
        }
        if start.elapsed() > Duration::from_secs(5) {
            break None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    imap.logout().await;
    found
}

/// The next UID of a mailbox now: later deliveries have this UID or more.
async fn next_uid(cfg: &ImapConfig) -> u32 {
    let imap = Imap::connect(cfg).await.unwrap();
    let next = imap.uid_next().unwrap();
    imap.logout().await;
    next
}

#[tokio::test]
async fn send_reaches_to_and_cc_inboxes() {
    let Some(s) = servers() else { return };
    let (white, black, arbiter) = (s.user(0), s.user(1), s.user(2));
    let black_inbox = s.imap(black, Security::Plain);
    let arbiter_inbox = s.imap(arbiter, Security::Plain);
    let (b0, a0) = (next_uid(&black_inbox).await, next_uid(&arbiter_inbox).await);

    let msg = message(white, &[black], &[arbiter]);
    let raw = build(&msg).unwrap();
    let smtp = plain_smtp(&s);
    smtp.send(&raw, msg.envelope_from(), &msg.recipients())
        .await
        .expect("send");

    for (who, cfg, from_uid) in [(black, &black_inbox, b0), (arbiter, &arbiter_inbox, a0)] {
        let got = arrived(cfg, from_uid - 1, &msg.message_id)
            .await
            .unwrap_or_else(|| panic!("not in {who}'s INBOX"));
        // Delivered as written, with the server's Return-Path in front.
        assert_eq!(header(&got, "Return-Path").unwrap(), format!("<{white}>"));
        assert!(
            got.ends_with(&raw),
            "{who}: the message was changed on the way"
        );
    }
}

#[tokio::test]
async fn unknown_recipient_is_refused_for_good_with_the_servers_words() {
    let Some(s) = servers() else { return };
    let nobody = format!("nobody@{}", s.domain());
    let msg = message(s.user(0), &[&nobody], &[]);
    let err = plain_smtp(&s)
        .send(
            &build(&msg).unwrap(),
            msg.envelope_from(),
            &msg.recipients(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, SmtpError::Rejected { code: 550, .. }),
        "{err:?}"
    );
    assert!(!err.is_transient());
    let text = err.to_string();
    for word in ["550", &nobody, "User unknown"] {
        assert!(text.contains(word), "{word:?} not in {text:?}");
    }
}

#[tokio::test]
async fn submission_with_starttls_and_login_delivers() {
    let Some(s) = servers() else { return };
    let (white, black) = (s.user(0), s.user(1));
    let box_name = unique("submission");
    let mut inbox = s.imap(black, Security::Plain);
    let mut setup = Imap::connect(&inbox).await.unwrap();
    setup.create_mailbox(&box_name).await.unwrap();
    setup.logout().await;
    inbox.mailbox = box_name.clone();

    let smtp = Smtp::new(&submission(&s, white, &s.password)).unwrap();
    smtp.check().await.expect("check: STARTTLS + AUTH");
    let msg = message(white, &[&detail_address(black, &box_name)], &[]);
    smtp.send(
        &build(&msg).unwrap(),
        msg.envelope_from(),
        &msg.recipients(),
    )
    .await
    .expect("send over submission");
    assert!(arrived(&inbox, 0, &msg.message_id).await.is_some());
}

#[tokio::test]
async fn smtps_with_implicit_tls_and_login_delivers() {
    let Some(s) = servers() else { return };
    let (white, arbiter) = (s.user(0), s.user(2));
    let inbox = s.imap(arbiter, Security::Plain);
    let from_uid = next_uid(&inbox).await;
    let mut cfg = submission(&s, white, &s.password);
    cfg.port = s.smtps_port;
    cfg.security = Security::Tls;
    let smtp = Smtp::new(&cfg).unwrap();
    let msg = message(white, &[arbiter], &[]);
    smtp.send(
        &build(&msg).unwrap(),
        msg.envelope_from(),
        &msg.recipients(),
    )
    .await
    .expect("send over smtps");
    assert!(
        arrived(&inbox, from_uid - 1, &msg.message_id)
            .await
            .is_some()
    );
}

#[tokio::test]
async fn wrong_password_or_no_login_on_submission_is_refused_for_good() {
    let Some(s) = servers() else { return };
    let smtp = Smtp::new(&submission(&s, s.user(0), "wrong-Passw0rd-9")).unwrap();
    let err = smtp.check().await.unwrap_err();
    assert_eq!(err.code(), Some(535), "{err:?}");
    assert!(!err.is_transient());
    assert!(!format!("{err} {err:?}").contains("wrong-Passw0rd"));

    let mut cfg = submission(&s, s.user(0), "x");
    cfg.username = None;
    cfg.password = None;
    let msg = message(s.user(0), &[s.user(1)], &[]);
    let err = Smtp::new(&cfg)
        .unwrap()
        .send(
            &build(&msg).unwrap(),
            msg.envelope_from(),
            &msg.recipients(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(err, SmtpError::Rejected { code: 554, .. }),
        "{err:?}"
    );
    assert!(!err.is_transient());
}

#[tokio::test]
async fn tls_without_the_test_ca_fails_verification() {
    let Some(s) = servers() else { return };
    for (port, security) in [
        (s.smtps_port, Security::Tls),
        (s.submission_port, Security::StartTls),
    ] {
        let mut cfg = submission(&s, s.user(0), &s.password);
        cfg.port = port;
        cfg.security = security;
        cfg.ca_file = None;
        let err = Smtp::new(&cfg).unwrap().check().await.unwrap_err();
        assert!(matches!(err, SmtpError::Tls { .. }), "{security}: {err:?}");
        assert!(!err.is_transient());
        assert!(err.to_string().contains("certificate"), "{err}");
    }
}

#[tokio::test]
async fn nothing_listening_is_transient() {
    let Some(s) = servers() else { return };
    let mut cfg = SmtpConfig::new(&s.host, 1, Security::Tls);
    cfg.ca_file = Some(s.ca.clone());
    let err = Smtp::new(&cfg).unwrap().check().await.unwrap_err();
    assert!(matches!(err, SmtpError::Connection { .. }), "{err:?}");
    assert!(err.is_transient());
}
