//! IMAP against the real test Dovecot (tests/mailserver/mailserver.sh): what the player would
//! notice — logging in, mail read without being marked read, new mail noticed in time.
//!
//! Each test watches a mailbox of its own (created fresh), so tests run in parallel without
//! seeing each other's mail; SMTP deliveries reach it through `user+mailbox@domain`.

mod support;

use std::time::{Duration, Instant};

use ccmail_mail::imap::{Imap, ImapConfig, ImapError, Security, WaitOutcome};
use chrono::{DateTime, FixedOffset, NaiveDate};
use support::{Servers, deliver, detail_address, header, sample_message, servers, unique};

/// Creates a fresh mailbox for `user` and returns a config watching it.
async fn fresh_mailbox(s: &Servers, user: &str, tag: &str) -> ImapConfig {
    let name = unique(tag);
    let mut imap = Imap::connect(&s.imap(user, Security::Plain))
        .await
        .expect("connect");
    imap.create_mailbox(&name).await.expect("CREATE");
    imap.logout().await;
    let mut cfg = s.imap(user, Security::Plain);
    cfg.mailbox = name;
    cfg
}

/// The stored flags: `\Recent` belongs to a session, not to the message.
fn stored(flags: Vec<(u32, Vec<String>)>) -> Vec<(u32, Vec<String>)> {
    flags
        .into_iter()
        .map(|(uid, f)| (uid, f.into_iter().filter(|f| f != "\\Recent").collect()))
        .collect()
}

fn date(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).unwrap()
}

#[tokio::test]
async fn logs_in_over_plain_starttls_and_tls() {
    let Some(s) = servers() else { return };
    for security in [Security::Plain, Security::StartTls, Security::Tls] {
        let cfg = s.imap(s.user(0), security);
        let imap = Imap::connect(&cfg)
            .await
            .unwrap_or_else(|e| panic!("{security}: {e}"));
        assert!(imap.uid_validity() > 0, "{security}");
        assert!(imap.uid_next().is_some(), "{security}");
        assert!(imap.has_idle(), "{security}: Dovecot offers IDLE");
        assert_eq!(imap.mailbox(), "INBOX");
        imap.logout().await;
    }
    // The certificate names localhost too.
    let mut cfg = s.imap(s.user(0), Security::Tls);
    cfg.host = "localhost".into();
    Imap::connect(&cfg)
        .await
        .expect("TLS to localhost")
        .logout()
        .await;
}

#[tokio::test]
async fn tls_without_the_test_ca_fails_verification() {
    let Some(s) = servers() else { return };
    for security in [Security::Tls, Security::StartTls] {
        let mut cfg = s.imap(s.user(0), security);
        cfg.ca_file = None;
        let err = Imap::connect(&cfg).await.unwrap_err();
        assert!(matches!(err, ImapError::Tls { .. }), "{security}: {err:?}");
        assert!(
            !err.is_transient(),
            "{security}: a certificate problem needs the user"
        );
        let text = err.to_string();
        assert!(text.contains("certificate"), "{security}: {text}");
    }
}

#[tokio::test]
async fn plain_text_must_be_allowed_explicitly() {
    let Some(s) = servers() else { return };
    let mut cfg = s.imap(s.user(0), Security::Plain);
    cfg.plain_ok = false;
    let err = Imap::connect(&cfg).await.unwrap_err();
    assert!(matches!(err, ImapError::Config(_)), "{err:?}");
    assert!(!err.is_transient());
}

#[tokio::test]
async fn wrong_password_is_refused_for_good_and_never_shown() {
    let Some(s) = servers() else { return };
    let mut cfg = s.imap(s.user(0), Security::StartTls);
    cfg.password = String::from("wrong-Passw0rd-7731").into();
    let err = Imap::connect(&cfg).await.unwrap_err();
    assert!(matches!(err, ImapError::Login { .. }), "{err:?}");
    assert!(
        !err.is_transient(),
        "retrying a wrong password helps nobody"
    );
    for text in [err.to_string(), format!("{err:?}")] {
        assert!(!text.contains("wrong-Passw0rd"), "{text}");
        assert!(text.contains(s.user(0)), "names the user: {text}");
    }
}

#[tokio::test]
async fn unknown_mailbox_is_a_lasting_error() {
    let Some(s) = servers() else { return };
    let mut cfg = s.imap(s.user(0), Security::Plain);
    cfg.mailbox = unique("missing");
    let err = Imap::connect(&cfg).await.unwrap_err();
    assert!(matches!(err, ImapError::Protocol { .. }), "{err:?}");
    assert!(!err.is_transient());
    assert!(err.to_string().contains(&cfg.mailbox), "{err}");
}

#[tokio::test]
async fn nothing_listening_is_transient() {
    let Some(s) = servers() else { return };
    let mut cfg = s.imap(s.user(0), Security::Tls);
    cfg.port = 1; // nothing listens on tcpmux
    let err = Imap::connect(&cfg).await.unwrap_err();
    assert!(matches!(err, ImapError::Connect { .. }), "{err:?}");
    assert!(err.is_transient());
}

#[tokio::test]
async fn fetch_since_reads_mail_without_marking_it_read() {
    let Some(s) = servers() else { return };
    let user = s.user(1);
    let cfg = fresh_mailbox(&s, user, "fetch").await;
    let mut imap = Imap::connect(&cfg).await.expect("connect");
    assert_eq!(imap.exists(), 0);

    // Single-digit day, other zones, one message flagged by the user.
    let messages = [
        ("fetch-1@example.test", "2026-03-01T09:30:15+03:00", &[][..]),
        ("fetch-2@example.test", "2026-03-02T23:59:59-05:00", &[][..]),
        (
            "fetch-3@example.test",
            "2026-03-14T12:00:00+00:00",
            &["\\Flagged"][..],
        ),
    ];
    for (id, when, flags) in messages {
        let raw = sample_message(
            s.user(0),
            user,
            id,
            "Ход 12. Kf3\r\n.начало строки с точкой",
        );
        imap.append_with(&cfg.mailbox, &raw, flags, Some(date(when)))
            .await
            .expect("APPEND");
    }
    let flags_before = stored(imap.flags("1:*").await.unwrap());
    assert_eq!(flags_before.len(), 3);

    let all = imap.fetch_since(0, None).await.expect("fetch");
    assert_eq!(all.len(), 3);
    for (m, (id, when, _)) in all.iter().zip(messages) {
        let want = sample_message(
            s.user(0),
            user,
            id,
            "Ход 12. Kf3\r\n.начало строки с точкой",
        );
        assert_eq!(m.raw, want, "bytes of {id}");
        // The server keeps the instant, not the zone.
        assert_eq!(m.internal_date, date(when), "INTERNALDATE of {id}");
        assert_eq!(header(&m.raw, "Message-ID").unwrap(), format!("<{id}>"));
    }
    assert!(all.windows(2).all(|w| w[0].uid < w[1].uid), "UID order");

    let flags_after = stored(imap.flags("1:*").await.unwrap());
    assert_eq!(flags_after, flags_before, "fetching must not change flags");
    for (uid, flags) in &flags_after {
        assert!(!flags.iter().any(|f| f == "\\Seen"), "UID {uid} got \\Seen");
    }
    assert!(flags_after[2].1.iter().any(|f| f == "\\Flagged"));

    // A UID set is only digits, ':', ',' and '*': nothing can be smuggled into the command.
    let err = imap.flags("1\r\nA1 LOGOUT").await.unwrap_err();
    assert!(matches!(err, ImapError::Config(_)), "{err:?}");

    // Only newer ones.
    let newer = imap.fetch_since(all[0].uid, None).await.unwrap();
    assert_eq!(
        newer.iter().map(|m| m.uid).collect::<Vec<_>>(),
        vec![all[1].uid, all[2].uid]
    );
    assert!(imap.fetch_since(all[2].uid, None).await.unwrap().is_empty());
    assert!(imap.fetch_since(u32::MAX, None).await.unwrap().is_empty());

    // SINCE narrows by the server's day.
    let since = imap
        .fetch_since(0, NaiveDate::from_ymd_opt(2026, 3, 10))
        .await
        .unwrap();
    assert_eq!(
        since.iter().map(|m| m.uid).collect::<Vec<_>>(),
        vec![all[2].uid]
    );

    // The sizes, for fetching in batches of bounded size, with the same choice of messages.
    let size = |i: usize| (all[i].uid, all[i].raw.len() as u32);
    assert_eq!(
        imap.sizes_since(0, None).await.unwrap(),
        [size(0), size(1), size(2)]
    );
    assert_eq!(
        imap.sizes_since(all[0].uid, None).await.unwrap(),
        [size(1), size(2)]
    );
    assert!(imap.sizes_since(all[2].uid, None).await.unwrap().is_empty());
    assert!(imap.sizes_since(u32::MAX, None).await.unwrap().is_empty());
    // The day as the server writes it (its own zone: the instant is what it keeps), as its
    // SEARCH SINCE counts it.
    for day in [1, 2, 3, 4, 14, 15] {
        let since = NaiveDate::from_ymd_opt(2026, 3, day).unwrap();
        let want: Vec<(u32, u32)> = (0..3)
            .filter(|&i| all[i].internal_date.date_naive() >= since)
            .map(size)
            .collect();
        assert_eq!(
            imap.sizes_since(0, Some(since)).await.unwrap(),
            want,
            "since {day}"
        );
        let found = imap.uids_since(0, Some(since)).await.unwrap();
        let want: Vec<u32> = want.iter().map(|&(uid, _)| uid).collect();
        assert_eq!(found, want, "SEARCH SINCE {day}");
    }

    // A second session sees the same: nothing was marked read on the server.
    let mut other = Imap::connect(&cfg).await.unwrap();
    assert_eq!(stored(other.flags("1:*").await.unwrap()), flags_before);
    other.logout().await;
    imap.logout().await;
}

/// A multipart message with a large attachment named `file` (base64 lines of 76 characters).
fn with_attachment(to: &str, id: &str, file: &str, kb: usize) -> Vec<u8> {
    let line = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n";
    format!(
        "From: <mom@example.org>\r\nTo: <{to}>\r\nSubject: {file}\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nСмотри вложение.\r\n\
         --b1\r\nContent-Type: application/octet-stream; name=\"{file}\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}--b1--\r\n",
        line.repeat(kb * 1024 / line.len())
    )
    .into_bytes()
}

/// Large mail over TLS, as the daemon's first read takes it: the sizes, a look at each by its
/// head and the server's BODYSTRUCTURE, the whole bytes; and a delivery during the read is
/// noticed as new mail.
#[tokio::test]
async fn large_mail_is_looked_at_by_its_head_and_read_whole_over_tls() {
    let Some(s) = servers() else { return };
    let user = s.user(2);
    let mailbox = fresh_mailbox(&s, user, "heads").await.mailbox;
    let cfg = ImapConfig {
        mailbox,
        ..s.imap(user, Security::Tls)
    };
    let mut imap = Imap::connect(&cfg).await.expect("connect over TLS");
    let photo = with_attachment(user, "photo@example.test", "holiday.jpg", 300);
    let game = with_attachment(user, "game@example.test", "Партия.PGN", 100);
    let small = sample_message(s.user(0), user, "small@example.test", "1. e4");
    for raw in [&photo, &game, &small] {
        imap.append_with(&cfg.mailbox, raw, &[], None)
            .await
            .expect("APPEND");
    }
    let sizes = imap.sizes_since(0, None).await.unwrap();
    let lens = [photo.len(), game.len(), small.len()].map(|n| n as u32);
    assert_eq!(sizes.iter().map(|&(_, n)| n).collect::<Vec<_>>(), lens);
    let uids: Vec<u32> = sizes.iter().map(|&(uid, _)| uid).collect();

    let heads = imap.fetch_heads(&uids, 65_536).await.unwrap();
    assert_eq!(heads.iter().map(|h| h.uid).collect::<Vec<_>>(), uids);
    assert_eq!(heads[0].head, photo[..65_536]);
    assert!(!heads[0].pgn_part, "a photo");
    assert_eq!(heads[1].head, game[..65_536]);
    assert!(heads[1].pgn_part, "a .pgn file, its name in UTF-8");
    assert_eq!(heads[2].head, small, "a small message is all head");

    // Another client delivers while the whole messages are read.
    let news = sample_message(s.user(0), user, "news@example.test", "2. d4");
    let mut other = Imap::connect(&cfg).await.unwrap();
    other
        .append_with(&cfg.mailbox, &news, &[], None)
        .await
        .unwrap();
    other.logout().await;
    let whole = imap.fetch_uids(&uids).await.unwrap();
    assert_eq!(
        whole.iter().map(|m| m.raw.as_slice()).collect::<Vec<_>>(),
        [&photo[..], &game[..], &small[..]]
    );
    assert_eq!(imap.exists(), 4, "the delivery was counted");
    // And the session goes on.
    let newer = imap.fetch_since(uids[2], None).await.unwrap();
    assert_eq!(newer.len(), 1);
    assert_eq!(newer[0].raw, news);
    imap.logout().await;
}

/// A message from an unknown address whose text, after a photo of `kb` KB, is `text`
/// (quoted-printable: the server must decode it to find the words).
fn text_after_photo(to: &str, id: &str, kb: usize, text: &str) -> Vec<u8> {
    let line = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0a\r\n";
    let qp: String = text
        .bytes()
        .map(|b| match b {
            b'\r' | b'\n' => (b as char).to_string(),
            b if b.is_ascii_alphanumeric() || b == b' ' => (b as char).to_string(),
            b => format!("={b:02X}"),
        })
        .collect();
    format!(
        "From: <partner@new.example.org>\r\nTo: <{to}>\r\nSubject: photos\r\nMessage-ID: <{id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n\
         --b1\r\nContent-Type: image/jpeg; name=\"club.jpg\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}\
         --b1\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\r\n{qp}\r\n--b1--\r\n",
        line.repeat(kb * 1024 / line.len())
    )
    .into_bytes()
}

/// What the daemon asks first: every message's From, In-Reply-To and References (the fields
/// alone, not the header block) and size, then which messages' text holds a game header's words
/// — found by the server deep in a large message, in any case, `Чёрные` by its spelling with
/// `ё`, quoted-printable, with the words sent as literals either way (announced or waiting for
/// the go-ahead); private mail is not found, and nothing is downloaded.
#[tokio::test]
async fn headers_first_and_the_server_finds_a_game_header_deep_in_large_mail() {
    let Some(s) = servers() else { return };
    let user = s.user(2);
    let cfg = fresh_mailbox(&s, user, "search").await;
    let mut imap = Imap::connect(&cfg).await.expect("connect");
    let standard = "Турнир: Кубок клуба 2026\r\nБелые: Белов\r\nЧёрные: Чернов\r\n\r\n1. e2-e4\r\n";
    let messages = [
        text_after_photo(user, "deep@example.test", 400, standard),
        text_after_photo(user, "pgn@example.test", 100, "[EVENT \"Cup\"]\r\n1. e4 *"),
        text_after_photo(
            user,
            "holiday@example.test",
            400,
            "White sand and a blue sea.",
        ),
        with_attachment(user, "photo@example.test", "holiday.jpg", 300),
        sample_message(
            s.user(0),
            user,
            "note@example.test",
            "See you at the event.",
        ),
        // A provider's delivery trace and signature, and a thread's folded References.
        format!(
            "Received: from mx.example.test by imap.example.test;\r\n Mon, 2 Mar 2026 10:00:00 +0300\r\n\
             DKIM-Signature: v=1; a=rsa-sha256; d=example.test; s=s1;\r\n b=AAAA\r\n\
             From: Friend <friend@example.test>\r\nTo: <{user}>\r\nSubject: Re: lunch\r\n\
             Message-ID: <thread-3@example.test>\r\nIn-Reply-To: <thread-2@example.test>\r\n\
             References: <thread-1@example.test>\r\n <thread-2@example.test>\r\n\
             Date: Mon, 2 Mar 2026 10:00:00 +0300\r\n\r\nSee you at lunch.\r\n"
        )
        .into_bytes(),
    ];
    for raw in &messages {
        imap.append_with(&cfg.mailbox, raw, &[], None)
            .await
            .expect("APPEND");
    }
    let uids = imap.uids_since(0, None).await.unwrap();
    let fields = ["From", "In-Reply-To", "References"];
    let headers = imap.fetch_headers(&uids, &fields).await.unwrap();
    assert_eq!(headers.len(), messages.len());
    for (h, raw) in headers.iter().zip(&messages) {
        assert_eq!(
            String::from_utf8_lossy(&h.header),
            String::from_utf8_lossy(&header_fields(raw, &fields)),
            "the fields asked for, folded lines and all, and the blank line"
        );
        assert_eq!(h.size as usize, raw.len());
    }
    assert_eq!(
        headers[5].header,
        b"From: Friend <friend@example.test>\r\nIn-Reply-To: <thread-2@example.test>\r\n\
          References: <thread-1@example.test>\r\n <thread-2@example.test>\r\n\r\n"
    );
    let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let query = vec![
        vec![words(&["турнир", "event"])],
        vec![
            words(&["белые", "white"]),
            words(&["черные", "чёрные", "black"]),
        ],
    ];
    // The server's index takes in mail as it is saved, a moment behind (ccmail asks the
    // search only of mail older than that): the search is asked once the index has the
    // last message, by a word only it has.
    let last = &uids[5..];
    let lunch = vec![vec![words(&["lunch"])]];
    for _ in 0..100 {
        if imap.search_text(last, &lunch).await.unwrap() == last {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for plus in [true, false] {
        imap.set_literal_plus(plus);
        let found = imap.search_text(&uids, &query).await.unwrap();
        // The standard form after 400 KB of photo, the PGN tag, and the note with "event"
        // (more than a game header: its body is then read); not the holiday photos, which
        // say white but not black, nor the attachment.
        assert_eq!(found, [uids[0], uids[1], uids[4]], "LITERAL+ {plus}");
        // Only among the UIDs asked.
        let some = imap.search_text(&uids[1..4], &query).await.unwrap();
        assert_eq!(some, [uids[1]], "LITERAL+ {plus}");
    }
    imap.logout().await;
}

/// The lines of `raw`'s header block that belong to the fields named (a folded field with its
/// continuation lines), in their order, and the empty line that ends a header block.
fn header_fields(raw: &[u8], fields: &[&str]) -> Vec<u8> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 2;
    let mut out = Vec::new();
    let mut keep = false;
    for line in raw[..end].split_inclusive(|&b| b == b'\n') {
        if !line.starts_with(b" ") && !line.starts_with(b"\t") {
            let name = line.split(|&b| b == b':').next().unwrap_or_default();
            keep = fields
                .iter()
                .any(|f| f.as_bytes().eq_ignore_ascii_case(name));
        }
        if keep {
            out.extend_from_slice(line);
        }
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// Appends `n` move messages from another player to `user`, in `cfg`'s mailbox (which starts
/// empty): their bytes, and their UIDs, in order.
async fn append_moves(
    s: &Servers,
    imap: &mut Imap,
    (cfg, user): (&ImapConfig, &str),
    tag: &str,
    n: usize,
) -> (Vec<Vec<u8>>, Vec<u32>) {
    let sent: Vec<Vec<u8>> = (1..=n)
        .map(|k| {
            let id = format!("{tag}-{k}@example.test");
            sample_message(s.user(0), user, &id, &format!("{k}. e4"))
        })
        .collect();
    for raw in &sent {
        imap.append_with(&cfg.mailbox, raw, &[], None)
            .await
            .expect("APPEND");
    }
    let sizes = imap.sizes_since(0, None).await.expect("the sizes");
    let uids: Vec<u32> = sizes.iter().map(|&(uid, _)| uid).collect();
    assert_eq!(uids.len(), n);
    (sent, uids)
}

/// A batch read in groups as it arrives: every message once, in the groups asked for, the
/// same bytes as a read of the whole batch; a UID asked for twice, or one not (or no longer)
/// in the mailbox, changes nothing.
#[tokio::test]
async fn messages_are_handed_on_in_groups_as_they_arrive() {
    let Some(s) = servers() else { return };
    let user = s.user(1);
    let cfg = fresh_mailbox(&s, user, "groups").await;
    let mut imap = Imap::connect(&cfg).await.expect("connect");
    let (sent, uids) = append_moves(&s, &mut imap, (&cfg, user), "group", 7).await;
    let mut asked = uids.clone();
    asked.push(uids[2]);
    asked.push(uids[6] + 50);

    // A channel of one: the reading waits for each group to be taken.
    let (to, mut from) = tokio::sync::mpsc::channel(1);
    let taking = async {
        let mut groups: Vec<Vec<(u32, Vec<u8>)>> = Vec::new();
        while let Some(group) = from.recv().await {
            let group: Vec<ccmail_mail::imap::Fetched> = group;
            groups.push(group.into_iter().map(|m| (m.uid, m.raw)).collect());
        }
        groups
    };
    let (fetched, groups) = tokio::join!(imap.fetch_uids_in_groups(&asked, 3, to), taking);
    fetched.unwrap();
    assert_eq!(groups.iter().map(Vec::len).collect::<Vec<_>>(), [3, 3, 1]);
    let read: Vec<(u32, Vec<u8>)> = groups.concat();
    assert_eq!(read.iter().map(|(uid, _)| *uid).collect::<Vec<_>>(), uids);
    assert_eq!(
        read.iter().map(|(_, raw)| raw.clone()).collect::<Vec<_>>(),
        sent
    );
    let whole = imap.fetch_uids(&asked).await.unwrap();
    assert_eq!(
        whole
            .into_iter()
            .map(|m| (m.uid, m.raw))
            .collect::<Vec<_>>(),
        read
    );
    // And the session goes on.
    assert_eq!(imap.fetch_since(uids[5], None).await.unwrap().len(), 1);
    imap.logout().await;
}

/// The time limit is on the server's silence, not on the whole read: a caller that takes its
/// time over each group, far longer in all than the limit, still gets every message, and
/// the session goes on.
#[tokio::test]
async fn a_reader_that_takes_its_time_is_not_cut_off() {
    let Some(s) = servers() else { return };
    let user = s.user(2);
    let cfg = ImapConfig {
        timeout: Duration::from_secs(1),
        ..fresh_mailbox(&s, user, "slow").await
    };
    let mut imap = Imap::connect(&cfg).await.expect("connect");
    let (_, uids) = append_moves(&s, &mut imap, (&cfg, user), "slow", 5).await;
    let (to, mut from) = tokio::sync::mpsc::channel(1);
    let started = Instant::now();
    let taking = async {
        let mut read = Vec::new();
        while let Some(group) = from.recv().await {
            let group: Vec<ccmail_mail::imap::Fetched> = group;
            tokio::time::sleep(Duration::from_millis(400)).await;
            read.extend(group.into_iter().map(|m| m.uid));
        }
        read
    };
    let (fetched, read) = tokio::join!(imap.fetch_uids_in_groups(&uids, 1, to), taking);
    fetched.expect("read to the end, though it took longer than the time limit");
    assert_eq!(read, uids);
    assert!(started.elapsed() > Duration::from_secs(2));
    assert_eq!(imap.fetch_since(uids[3], None).await.unwrap().len(), 1);
    imap.logout().await;
}

#[tokio::test]
async fn append_to_sent_marks_the_copy_read() {
    let Some(s) = servers() else { return };
    let user = s.user(0);
    let sent = fresh_mailbox(&s, user, "sent").await;
    let mut imap = Imap::connect(&s.imap(user, Security::Plain)).await.unwrap();
    let id = format!("{}@example.test", unique("sent"));
    imap.append(&sent.mailbox, &sample_message(user, s.user(1), &id, "e4"))
        .await
        .unwrap();
    imap.logout().await;

    let mut check = Imap::connect(&sent).await.unwrap();
    let flags = check.flags("1:*").await.unwrap();
    assert_eq!(flags.len(), 1);
    assert!(flags[0].1.iter().any(|f| f == "\\Seen"), "{flags:?}");
    check.logout().await;
}

#[tokio::test]
async fn wait_reports_an_smtp_delivery_within_two_seconds() {
    let Some(s) = servers() else { return };
    let user = s.user(0);
    let cfg = fresh_mailbox(&s, user, "idle").await;
    let mut imap = Imap::connect(&cfg).await.unwrap();
    let id = format!("{}@example.test", unique("idle"));
    let raw = sample_message(s.user(1), user, &id, "1. e4");
    let to = detail_address(user, &cfg.mailbox);

    let sender = {
        let (s, from, raw) = (s.clone(), s.user(1).to_owned(), raw.clone());
        tokio::spawn(async move {
            // Let the IDLE begin first.
            tokio::time::sleep(Duration::from_millis(300)).await;
            let sent_at = Instant::now();
            deliver(&s, &from, &to, &raw).await;
            sent_at
        })
    };
    let outcome = imap
        .wait(Duration::from_secs(10), std::future::pending())
        .await
        .unwrap();
    let noticed = Instant::now();
    let sent_at = sender.await.unwrap();
    assert_eq!(outcome, WaitOutcome::NewMail);
    let latency = noticed - sent_at;
    eprintln!("IDLE push latency (SMTP delivery start to NewMail): {latency:?}");
    assert!(latency < Duration::from_secs(2), "took {latency:?}");

    let got = imap.fetch_since(0, None).await.unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(
        header(&got[0].raw, "Message-ID").unwrap(),
        format!("<{id}>")
    );
    imap.logout().await;
}

#[tokio::test]
async fn wait_times_out_when_nothing_comes_and_the_session_goes_on() {
    let Some(s) = servers() else { return };
    let cfg = fresh_mailbox(&s, s.user(2), "quiet").await;
    let mut imap = Imap::connect(&cfg).await.unwrap();
    let start = Instant::now();
    let outcome = imap
        .wait(Duration::from_millis(1200), std::future::pending())
        .await
        .unwrap();
    let took = start.elapsed();
    assert_eq!(outcome, WaitOutcome::Timeout);
    assert!(took >= Duration::from_millis(1200), "{took:?}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    // IDLE was ended properly: the session still answers.
    assert!(imap.fetch_since(0, None).await.unwrap().is_empty());
    assert_eq!(
        imap.wait(Duration::from_millis(300), std::future::pending())
            .await
            .unwrap(),
        WaitOutcome::Timeout
    );
    imap.logout().await;
}

#[tokio::test]
async fn wait_stops_promptly_on_the_stop_signal() {
    let Some(s) = servers() else { return };
    let cfg = fresh_mailbox(&s, s.user(2), "stop").await;
    let mut imap = Imap::connect(&cfg).await.unwrap();
    let (tx, mut rx) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        tx.send(true).unwrap();
        // Keep the sender until the test is done with the receiver.
        tokio::time::sleep(Duration::from_secs(5)).await;
    });
    let start = Instant::now();
    let outcome = imap
        .wait(Duration::from_secs(60), async {
            let _ = rx.wait_for(|stop| *stop).await;
        })
        .await
        .unwrap();
    let took = start.elapsed();
    assert_eq!(outcome, WaitOutcome::Stopped);
    assert!(took < Duration::from_secs(1), "stopping took {took:?}");
    // DONE was sent and answered: the session is usable.
    assert!(imap.fetch_since(0, None).await.unwrap().is_empty());
    imap.logout().await;
}

#[tokio::test]
async fn mail_arriving_between_waits_is_reported_at_once() {
    let Some(s) = servers() else { return };
    let user = s.user(2);
    let cfg = fresh_mailbox(&s, user, "between").await;
    let mut imap = Imap::connect(&cfg).await.unwrap();
    let id = format!("{}@example.test", unique("between"));
    deliver(
        &s,
        s.user(0),
        &detail_address(user, &cfg.mailbox),
        &sample_message(s.user(0), user, &id, "1. d4"),
    )
    .await;
    let start = Instant::now();
    let outcome = imap
        .wait(Duration::from_secs(10), std::future::pending())
        .await
        .unwrap();
    assert_eq!(outcome, WaitOutcome::NewMail);
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(imap.fetch_since(0, None).await.unwrap().len(), 1);
    // Reported once: the next wait has nothing new.
    assert_eq!(
        imap.wait(Duration::from_millis(300), std::future::pending())
            .await
            .unwrap(),
        WaitOutcome::Timeout
    );
    imap.logout().await;
}

#[tokio::test]
async fn polling_without_idle_sees_new_mail_too() {
    let Some(s) = servers() else { return };
    let user = s.user(1);
    let cfg = fresh_mailbox(&s, user, "poll").await;
    let mut imap = Imap::connect(&cfg).await.unwrap();
    imap.set_use_idle(false);
    imap.set_poll_interval(Duration::from_millis(200));
    assert_eq!(
        imap.wait(Duration::from_millis(500), std::future::pending())
            .await
            .unwrap(),
        WaitOutcome::Timeout
    );
    let to = detail_address(user, &cfg.mailbox);
    let raw = sample_message(
        s.user(0),
        user,
        &format!("{}@x.test", unique("poll")),
        "1. c4",
    );
    let sender = {
        let (s, from) = (s.clone(), s.user(0).to_owned());
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            let at = Instant::now();
            deliver(&s, &from, &to, &raw).await;
            at
        })
    };
    let outcome = imap
        .wait(Duration::from_secs(10), std::future::pending())
        .await
        .unwrap();
    let latency = sender.await.unwrap().elapsed();
    assert_eq!(outcome, WaitOutcome::NewMail);
    assert!(latency < Duration::from_secs(2), "{latency:?}");
    imap.logout().await;
}

/// ccmail reads the answers of its UID FETCH off the connection itself, between async-imap's
/// own commands on the same socket (`crates/mail/src/imap/fetch.rs`). That holds only while
/// neither reader keeps bytes the other needs: async-imap holds none when a FETCH is sent
/// (the server sends nothing between commands), and what ccmail's reader reads past its
/// tagged end goes back to the stream. Here mail arrives before, during and after each kind
/// of command, twelve rounds over: every message comes back whole, byte for byte where we
/// wrote it ourselves, at the size the server counts, and every command finds the connection
/// in step.
#[tokio::test]
#[allow(
    clippy::too_many_lines,
    reason = "one session's twelve rounds, read as one story"
)]
async fn the_fetch_reader_and_async_imap_take_turns_on_one_connection() {
    let Some(s) = servers() else { return };
    let user = s.user(3);
    let cfg = fresh_mailbox(&s, user, "turns").await;
    let to = detail_address(user, &cfg.mailbox);
    let mut imap = Imap::connect(&cfg).await.expect("connect");
    let mut ids = Vec::new();
    let mut appended = Vec::new();
    let mut last = 0;
    for round in 0..12 {
        // Delivered before IDLE (async-imap) starts, and one racing the commands after it.
        let id = format!("{}@example.test", unique("turns"));
        let raw = sample_message(s.user(0), user, &id, &format!("{}. e4", round + 1));
        deliver(&s, s.user(0), &to, &raw).await;
        ids.push(id);
        let outcome = imap
            .wait(Duration::from_secs(10), std::future::pending())
            .await
            .expect("IDLE");
        assert_eq!(outcome, WaitOutcome::NewMail, "round {round}");
        let racing_id = format!("{}@example.test", unique("turns"));
        let racing = {
            let (s, from, to) = (s.clone(), s.user(0).to_owned(), to.clone());
            let raw = sample_message(&from, user, &racing_id, "2. d4");
            tokio::spawn(async move { deliver(&s, &from, &to, &raw).await })
        };
        ids.push(racing_id);
        // ccmail's reader, then async-imap's commands, then ccmail's again.
        let fetched = imap.fetch_since(last, None).await.expect("UID FETCH");
        assert!(!fetched.is_empty(), "round {round}");
        let flags = imap
            .flags(&format!("{}:*", last + 1))
            .await
            .expect("FETCH FLAGS");
        assert!(!flags.is_empty(), "round {round}");
        let own = sample_message(user, user, &format!("{}@x.test", unique("own")), "3. c4");
        imap.append(&cfg.mailbox, &own).await.expect("APPEND");
        appended.push(own);
        assert!(
            imap.folders()
                .await
                .expect("LIST")
                .iter()
                .any(|f| f.name == cfg.mailbox),
            "round {round}"
        );
        racing.await.unwrap();
        let sizes = imap.sizes_since(last, None).await.expect("sizes");
        last = sizes.last().map_or(last, |&(uid, _)| uid);
        let _ = imap
            .wait(Duration::from_millis(200), std::future::pending())
            .await
            .expect("IDLE");
    }
    // All of it, read again: each delivered message whole at the size the server counts,
    // each appended one byte for byte, in the order they came.
    // (The last racing delivery may still be on its way into the mailbox.)
    let deadline = Instant::now() + Duration::from_secs(10);
    let sizes = loop {
        let sizes = imap.sizes_since(0, None).await.expect("sizes");
        if sizes.len() == ids.len() + appended.len() || Instant::now() > deadline {
            break sizes;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let all = imap.fetch_since(0, None).await.expect("UID FETCH 1:*");
    assert_eq!(
        all.iter()
            .map(|m| (m.uid, u32::try_from(m.raw.len()).unwrap()))
            .collect::<Vec<_>>(),
        sizes
    );
    let (ours, delivered): (Vec<_>, Vec<_>) = all
        .iter()
        .partition(|m| m.raw.starts_with(format!("From: <{user}>").as_bytes()));
    assert_eq!(
        ours.iter().map(|m| m.raw.clone()).collect::<Vec<_>>(),
        appended
    );
    let mut seen: Vec<&str> = delivered
        .iter()
        .map(|m| {
            let text = std::str::from_utf8(&m.raw).unwrap();
            ids.iter()
                .find(|id| text.contains(&format!("Message-ID: <{id}>")))
                .expect("a message delivered here")
                .as_str()
        })
        .collect();
    seen.sort_unstable();
    let mut want: Vec<&str> = ids.iter().map(String::as_str).collect();
    want.sort_unstable();
    assert_eq!(seen, want);
    imap.logout().await;
}
