//! The daemon (`ccmail run`) against the real test mail servers: a move pushed by IDLE is
//! applied within two seconds; the servers stopped and started again cost nothing, and a move
//! queued while SMTP was down goes out once, when it is back; private mail is left exactly as it
//! was; a changed UIDVALIDITY is read again without applying anything twice; an unanswered move
//! is repeated on the day it falls due (51.5.1); `ccmail check` says how each step went.

mod support;

use std::time::{Duration, Instant};

use support::instance::Instance;
use support::{Player, create_mailboxes, flags, messages, servers, unique, with_photo};

const ARBITER: &str = "arbiter@example.test";
/// The log level the tests read: the daemon's own debug lines, nothing from sqlx.
const LOG: &str = "info,ccmail=debug";

/// `ccmail run --once` on day `now` with the daemon's debug log, which must succeed: the log.
fn run_once_logged(player: &Player, now: &str) -> String {
    let out = player
        .command(&["--now", now, "run", "--once"])
        .env("RUST_LOG", LOG)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{log}");
    log
}

/// White and Black, each watching a fresh mailbox `TAG` of their own login.
fn players(s: &support::Servers, tag: &str, extra: &str) -> (Player, Player) {
    create_mailboxes(
        s,
        &["white@example.test", "black@example.test", ARBITER],
        tag,
    );
    let white = Player::new(s, "Белов Борис", "Белов", "white@example.test", tag, extra);
    let black = Player::new(
        s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        tag,
        extra,
    );
    (white, black)
}

/// The arbiter's address for a test: their mailbox `TAG`.
fn arbiter(tag: &str) -> String {
    support::mail::detail_address(ARBITER, tag)
}

#[test]
fn idle_applies_a_delivered_move_within_two_seconds() {
    let Some(s) = servers() else { return };
    let tag = unique("idle");
    let (white, black) = players(&s, &tag, "");
    let arbiter = arbiter(&tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter, &[]);
    let now = "2026-03-02";
    let wd = white.spawn(&["--now", now, "run"], LOG);
    let bd = black.spawn(&["--now", now, "run"], LOG);
    for d in [&wd, &bd] {
        d.wait_for("waiting for new mail idle=true", Duration::from_secs(20));
    }
    // Each move is sent by `ccmail move` (which returns once the server took it) and must be
    // applied by the other side's daemon, woken by IDLE: no polling happens within 2 s.
    let plies = [
        (&white, &wg, "e4", &bd, "1. e4"),
        (&black, &bg, "c5", &wd, "1... c5"),
        (&white, &wg, "Nf3", &bd, "2. Nf3"),
        (&black, &bg, "d6", &wd, "2... d6"),
    ];
    let mut latencies = Vec::new();
    for (mover, game, mv, receiver, applied) in plies {
        let mark = receiver.mark();
        let out = mover.ok(&["--now", now, "move", game, mv, "--yes"]);
        let sent = Instant::now();
        assert!(out.starts_with("sent:"), "{out}");
        let at = receiver.wait_after(
            mark,
            &format!("applied {applied} by"),
            Duration::from_secs(10),
        );
        let latency = at.saturating_duration_since(sent);
        latencies.push(latency);
        assert!(
            latency < Duration::from_secs(2),
            "{applied} took {latency:?} from SMTP to applied"
        );
    }
    eprintln!("IDLE: SMTP accepted → move applied by the daemon: {latencies:?}");
    for (d, who) in [(&wd, "white"), (&bd, "black")] {
        // Woken by the server's push (IDLE), twice each, and never by a time-out.
        assert_eq!(d.count("awake outcome=NewMail"), 2, "{who}:\n{}", d.log());
        assert_eq!(d.count("outcome=Timeout"), 0, "{who} did not poll");
        assert_eq!(d.count("IMAP connected"), 1, "{who} stayed connected");
    }
    // Both sides agree, and a stop is clean.
    let moves = |p: &Player, g: &str| p.json(&["--now", now, "show", g])["moves"].clone();
    assert_eq!(moves(&white, &wg), moves(&black, &bg));
    for mut d in [wd, bd] {
        let status = d.stop();
        assert!(status.success(), "exit {status}:\n{}", d.log());
        assert!(d.log().contains("stopped"), "{}", d.log());
    }
}

#[test]
fn survives_a_server_restart_and_sends_the_move_queued_meanwhile_once() {
    let Some(_shared) = servers() else { return };
    let Some(inst) = Instance::start("restart") else {
        return;
    };
    let s = &inst.servers;
    // A fresh instance: the players' own INBOXes.
    let white = Player::new(s, "Белов Борис", "Белов", "white@example.test", "INBOX", "");
    let black = Player::new(
        s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        "INBOX",
        "",
    );
    let wg = white.new_game("2026-03-01", "white", &black, ARBITER, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, ARBITER, &[]);
    let now = "2026-03-02";
    let wd = white.spawn(&["--now", now, "run"], LOG);
    let bd = black.spawn(&["--now", now, "run"], LOG);
    for d in [&wd, &bd] {
        d.wait_for("waiting for new mail idle=true", Duration::from_secs(20));
    }

    inst.stop();
    let (wm, bm) = (wd.mark(), bd.mark());
    for (d, m) in [(&wd, wm), (&bd, bm)] {
        d.wait_after(m, "connecting again", Duration::from_secs(10));
    }
    // SMTP is down too: the move stays in the outbox.
    let out = white.ok(&["--now", now, "move", &wg, "e4", "--yes"]);
    assert!(out.starts_with("queued:"), "{out}");
    std::thread::sleep(Duration::from_millis(1500));
    let (wm, bm) = (wd.mark(), bd.mark());
    inst.start_again();

    // White's daemon sends it when the server answers; Black's reconnects and applies it.
    wd.wait_after(wm, " sent item=", Duration::from_secs(30));
    bd.wait_after(bm, "applied 1. e4 by White", Duration::from_secs(30));
    let inbox = messages(s, "black@example.test", "INBOX");
    assert_eq!(inbox.len(), 1, "exactly one copy arrived");
    assert_eq!(
        black.json(&["--now", now, "show", &bg])["moves"][0]["san"],
        "e4"
    );
    let unsent = white.ok(&["--now", now, "games"]);
    assert!(!unsent.contains("not sent"), "{unsent}");

    // And the daemons are back on IDLE: Black's answer reaches White at once.
    let mark = wd.mark();
    let out = black.ok(&["--now", now, "move", &bg, "e5", "--yes"]);
    assert!(out.starts_with("sent:"), "{out}");
    wd.wait_after(mark, "applied 1... e5 by Black", Duration::from_secs(5));
    assert_eq!(messages(s, "white@example.test", "INBOX").len(), 1);
    for mut d in [wd, bd] {
        assert!(d.count("IMAP connected") >= 2, "{}", d.log());
        let status = d.stop();
        assert!(status.success(), "exit {status}:\n{}", d.log());
    }
}

/// A message of the player's own: from, a name for its Message-ID, body, flags, INTERNALDATE.
struct Own<'a>(&'a str, &'a str, &'a str, &'a [&'a str], Option<&'a str>);

impl Own<'_> {
    /// APPENDs it to `login`'s mailbox `tag`; returns its Message-ID and bytes.
    fn append(&self, s: &support::Servers, login: &str, tag: &str) -> (String, Vec<u8>) {
        let Own(from, name, body, flags, at) = *self;
        let mid = format!("{name}.{tag}@example.org");
        let raw = format!(
            "From: <{from}>\r\nTo: <{login}>\r\nSubject: {name}\r\n\
             Date: Sun, 01 Mar 2026 09:00:00 +0300\r\nMessage-ID: <{mid}>\r\nMIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
             {body}\r\n"
        )
        .into_bytes();
        support::append(s, login, tag, &raw, flags, at);
        (mid, raw)
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn private_mail_is_left_exactly_as_it_was() {
    let Some(s) = servers() else { return };
    let tag = unique("guest");
    let (white, black) = players(&s, &tag, "first_sync_since = 2026-02-01");
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter(&tag), &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter(&tag), &[]);
    let login = "white@example.test";
    // The player's own mail, flagged every which way, in the mailbox ccmail watches.
    let black_email = black.email.as_str();
    let table = [
        Own(
            "mom@example.org",
            "dinner",
            "Are you coming at 5?",
            &[],
            None,
        ),
        Own(
            "news@example.org",
            "news",
            "Nothing new.",
            &["\\Seen"],
            None,
        ),
        Own(
            "boss@example.org",
            "boss",
            "Signed.",
            &["\\Flagged", "\\Answered"],
            None,
        ),
        Own(
            "mom@example.org",
            "party",
            "Event: birthday. White wine or black tea?",
            &["$Forwarded", "\\Seen"],
            None,
        ),
        Own(
            "friend@example.org",
            "chat",
            "What do you think of 1. e4 e5 2. Nf3 Nc6?",
            &["\\Seen", "\\Flagged"],
            None,
        ),
        // From the opponent, but received before first_sync_since: not read at all.
        Own(
            black_email,
            "old",
            "Looking forward to our game.",
            &["\\Seen"],
            Some("2026-01-15T10:00:00+03:00"),
        ),
    ];
    let mut mail: Vec<(String, Vec<u8>)> = Vec::new();
    for own in &table {
        mail.push(own.append(&s, login, &tag));
    }
    // The chess mail: White's move to Black, Black's answer into White's mailbox.
    white.ok(&["--now", "2026-03-01", "move", &wg, "e4", "--yes"]);
    black.ok(&["--now", "2026-03-02", "run", "--once"]);
    black.ok(&["--now", "2026-03-02", "move", &bg, "e5", "--yes"]);
    mail.push(
        Own(
            "mom@example.org",
            "later",
            "Bring a cake.",
            &["\\Draft"],
            None,
        )
        .append(&s, login, &tag),
    );

    let before = flags(&s, login, &tag);
    assert_eq!(before.len(), mail.len() + 1);
    for _ in 0..2 {
        white.ok(&["--now", "2026-03-03", "run", "--once"]);
        assert_eq!(
            flags(&s, login, &tag),
            before,
            "no flag changed, nothing moved or deleted"
        );
    }
    let shown = white.json(&["--now", "2026-03-03", "show", &wg]);
    assert_eq!(shown["moves"][1]["san"], "e5", "{shown}");
    assert_eq!(
        (&shown["moves"][1]["received"], &shown["moves"][1]["sent"]),
        (&"2026-03-02".into(), &"2026-03-02".into())
    );

    // None of the private mail was stored; nothing is held.
    support::block_on(async {
        let store = ccmail_store::Store::open(&white.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        for (mid, raw) in &mail {
            let found =
                ccmail_store::find_message(&mut conn, ccmail_store::Direction::In, Some(mid), raw)
                    .await
                    .unwrap();
            assert_eq!(found, None, "{mid} was stored");
        }
        assert!(ccmail_store::held(&mut conn).await.unwrap().is_empty());
        assert_eq!(
            ccmail_store::game_messages(&mut conn, &wg)
                .await
                .unwrap()
                .len(),
            2
        );
    });
}

/// A first read decides by the headers first, and by what the server finds in the text:
/// private mail, with an attachment or without, is skipped without its body being
/// downloaded, and chess mail with a large attachment — from the opponent, in a game's
/// thread, a PGN file after a photo, or the standard form from a new address below a photo —
/// is fetched and kept whole, byte for byte, and applied or held as before. Nothing is
/// flagged.
#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn large_mail_is_looked_at_by_its_head_and_chess_mail_is_kept_whole() {
    let Some(s) = servers() else { return };
    let tag = unique("large");
    let (white, black) = players(&s, &tag, "first_sync_since = 2026-02-01");
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter(&tag), &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter(&tag), &[]);
    let login = "white@example.test";
    white.ok(&["--now", "2026-03-01", "move", &wg, "e4", "--yes"]);
    black.ok(&["--now", "2026-03-02", "run", "--once"]);
    black.ok(&["--now", "2026-03-02", "move", &bg, "e5", "--yes"]);
    // Our move's Message-ID, which a reply from a new address answers.
    let ours = support::block_on(async {
        let store = ccmail_store::Store::open(&white.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let sent = ccmail_store::game_messages(&mut conn, &wg).await.unwrap();
        sent[0].message_id.clone().expect("our move's Message-ID")
    });
    let pgn =
        "[Event \"Daemon Cup 2026\"]\r\n[White \"Белов\"]\r\n[Black \"Чернов\"]\r\n\r\n1. e4 e5 *";
    let black_email = black.email.as_str();
    let reply = format!("In-Reply-To: <{ours}>\r\n");
    // Chess mail, each with a photo.
    let chess = [
        with_photo(
            black_email,
            login,
            &format!("photos.{tag}"),
            "",
            "Photos from the club!",
            None,
        ),
        with_photo(
            "black@new.example.org",
            login,
            &format!("new-address.{tag}"),
            &reply,
            "My new address.",
            None,
        ),
        with_photo(
            "black@new.example.org",
            login,
            &format!("pgn-file.{tag}"),
            "",
            "The game so far.",
            Some(pgn),
        ),
        below_a_photo(
            "black@new.example.org",
            login,
            &format!("deep.{tag}"),
            "Event: Daemon Cup 2026\r\nWhite: Белов\r\nЧёрные: Чернов\r\n\r\n1. e2-e4 e7-e5\r\n",
        ),
    ];
    let private = with_photo(
        "mom@example.org",
        login,
        &format!("holiday.{tag}"),
        "",
        "Holiday photos!",
        None,
    );
    // Received the day before: the server's search is asked about mail from an unknown
    // address (mail of the last hour ccmail reads itself).
    let received = Some("2026-03-02T10:00:00+03:00");
    for raw in chess.iter().chain([&private]) {
        assert!(raw.len() > 150_000);
        support::append(&s, login, &tag, raw, &[], received);
    }
    // Enough small private mail for the first read to ask the messages' sizes (it does from
    // 26 new messages on).
    let mut small = Vec::new();
    for i in 0..30 {
        let name = format!("note{i}");
        small.push(
            Own("news@example.org", &name, "Nothing new.", &[], received).append(&s, login, &tag),
        );
    }
    let before = flags(&s, login, &tag);
    let log = run_once_logged(&white, "2026-03-03");
    assert_eq!(flags(&s, login, &tag), before, "nothing flagged");
    assert_eq!(
        log.matches("skipped, no game header in its text").count(),
        31,
        "the private mail is settled by its headers and the server's search: {log}"
    );
    assert_eq!(log.matches("skipped by its head").count(), 0, "{log}");
    assert_eq!(
        log.matches("asking the server's text search").count(),
        1,
        "{log}"
    );
    let shown = white.json(&["--now", "2026-03-03", "show", &wg]);
    assert_eq!(shown["moves"][1]["san"], "e5", "{shown}");
    support::block_on(async {
        let store = ccmail_store::Store::open(&white.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        for raw in &chess {
            let mid = support::message_id(raw);
            let id = ccmail_store::find_by_message_id(&mut conn, ccmail_store::Direction::In, &mid)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("{mid} was not kept"));
            let kept = ccmail_store::raw(&mut conn, id).await.unwrap().unwrap();
            assert!(
                kept == *raw,
                "{mid}: {} bytes kept of {}",
                kept.len(),
                raw.len()
            );
        }
        // The standard form from a new address is held (51.1.2), as it was when every body
        // was fetched.
        let mid = support::message_id(&chess[3]);
        let id = ccmail_store::find_by_message_id(&mut conn, ccmail_store::Direction::In, &mid)
            .await
            .unwrap()
            .unwrap();
        let row = ccmail_store::message(&mut conn, id).await.unwrap().unwrap();
        assert_eq!(row.status, ccmail_store::MessageStatus::Held, "{row:?}");
        assert!(
            row.reason
                .as_deref()
                .unwrap_or("")
                .contains("not the address on file"),
            "{row:?}"
        );
        for raw in small.iter().map(|(_, raw)| raw).chain([&private]) {
            let found =
                ccmail_store::find_message(&mut conn, ccmail_store::Direction::In, None, raw)
                    .await
                    .unwrap();
            assert_eq!(found, None, "{} was stored", support::message_id(raw));
        }
    });
}

/// Mail that has just arrived is read by ccmail itself, not asked of the server's text search,
/// whose index may not have taken it in yet: a standard form from an unknown address is held
/// as ever, a private note is skipped and not stored, and no search is sent for either.
#[test]
fn mail_that_just_arrived_is_read_by_ccmail_not_asked_of_the_search() {
    let Some(s) = servers() else { return };
    let tag = unique("recent");
    let (white, black) = players(&s, &tag, "first_sync_since = 2026-02-01");
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter(&tag), &[]);
    let login = "white@example.test";
    white.ok(&["--now", "2026-03-01", "move", &wg, "e4", "--yes"]);
    // Neither has an INTERNALDATE of its own: the server's, now.
    let (form_id, form) = Own(
        "black@new.example.org",
        "form",
        "Турнир: Daemon Cup 2026\r\nБелые: Белов\r\nЧёрные: Чернов\r\n\r\n1. e2-e4 e7-e5",
        &[],
        None,
    )
    .append(&s, login, &tag);
    let (note_id, note) =
        Own("mom@example.org", "note", "Dinner at eight?", &[], None).append(&s, login, &tag);
    let log = run_once_logged(&white, "2026-03-03");
    assert_eq!(
        log.matches("arrived within the hour: not asked of the search")
            .count(),
        2,
        "{log}"
    );
    assert!(!log.contains("asking the server's text search"), "{log}");
    assert!(!log.contains("no game header in its text"), "{log}");
    support::block_on(async {
        let store = ccmail_store::Store::open(&white.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let id = ccmail_store::find_by_message_id(&mut conn, ccmail_store::Direction::In, &form_id)
            .await
            .unwrap()
            .expect("the standard form was kept");
        let row = ccmail_store::message(&mut conn, id).await.unwrap().unwrap();
        assert_eq!(row.status, ccmail_store::MessageStatus::Held, "{row:?}");
        assert_eq!(ccmail_store::raw(&mut conn, id).await.unwrap(), Some(form));
        let found = ccmail_store::find_message(&mut conn, ccmail_store::Direction::In, None, &note)
            .await
            .unwrap();
        assert_eq!(found, None, "{note_id} was stored");
    });
}

/// A message from `from` whose only text, `text`, comes after a photo of some 200 KB: what
/// the first 64 KB hold says nothing of it.
fn below_a_photo(from: &str, to: &str, id: &str, text: &str) -> Vec<u8> {
    let photo = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0a\r\n"
        .repeat(2_600);
    format!(
        "From: <{from}>\r\nTo: <{to}>\r\nSubject: {id}\r\n\
         Date: Mon, 02 Mar 2026 09:00:00 +0300\r\nMessage-ID: <{id}@example.org>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: image/jpeg; name=\"club.jpg\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{photo}\
         --b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}--b--\r\n"
    )
    .into_bytes()
}

#[test]
fn a_changed_uidvalidity_reads_the_mailbox_again_without_applying_twice() {
    let Some(s) = servers() else { return };
    let tag = unique("validity");
    let (white, black) = players(&s, &tag, "");
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter(&tag), &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter(&tag), &[]);
    white.ok(&["--now", "2026-03-01", "move", &wg, "d4", "--yes"]);
    black.ok(&["--now", "2026-03-02", "run", "--once"]);
    black.ok(&["--now", "2026-03-02", "move", &bg, "d5", "--yes"]);
    white.ok(&["--now", "2026-03-03", "run", "--once"]);
    white.ok(&["--now", "2026-03-03", "move", &wg, "c4", "--yes"]);
    black.ok(&["--now", "2026-03-04", "run", "--once"]);
    let shown = black.json(&["--now", "2026-03-04", "show", &bg]);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 3);

    // The server renumbered the mailbox (a restore, a migration): UIDs seen before mean nothing.
    let key = format!("black@example.test@{}:{}/{tag}", s.host, s.imap_port);
    let state = support::block_on(async {
        let store = ccmail_store::Store::open(&black.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let state = ccmail_store::sync_state(&mut conn, &key)
            .await
            .unwrap()
            .expect("a sync state");
        assert_eq!(state.last_uid, 2);
        let other = ccmail_store::SyncState {
            uid_validity: state.uid_validity + 1,
            last_uid: 2,
        };
        ccmail_store::set_sync_state(&mut conn, &key, other, "2026-03-04T12:00:00+03:00")
            .await
            .unwrap();
        state
    });
    let log = run_once_logged(&black, "2026-03-05");
    assert!(log.contains("UIDVALIDITY changed"), "{log}");
    assert_eq!(
        log.matches("was already stored; nothing changed").count(),
        2,
        "{log}"
    );
    assert_eq!(black.json(&["--now", "2026-03-04", "show", &bg]), shown);
    support::block_on(async {
        let store = ccmail_store::Store::open(&black.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let now = ccmail_store::sync_state(&mut conn, &key).await.unwrap();
        assert_eq!(now, Some(state), "read again up to the same UID");
    });
}

#[test]
fn check_says_how_each_step_went() {
    let Some(s) = servers() else { return };
    let tag = unique("check");
    let (white, _black) = players(&s, &tag, "sent_mailbox = \"Sent\"");
    let out = white.ok(&["check"]);
    let lines: Vec<&str> = out.lines().collect();
    let want = [
        format!("ok    config: read from {}", white.config().display()),
        "ok    database: opened ".to_owned(),
        format!(
            "ok    imap: connected to 127.0.0.1:{} with STARTTLS",
            s.imap_port
        ),
        "ok    imap: logged in as white@example.test".to_owned(),
        format!("ok    imap: mailbox {tag} has 0 message(s); IDLE: yes"),
        "ok    imap: copies of sent mail go to Sent".to_owned(),
        "-     security: senders are checked by address and envelope only".to_owned(),
        format!(
            "ok    smtp: connected to 127.0.0.1:{} with STARTTLS",
            s.submission_port
        ),
        "ok    smtp: logged in as white@example.test".to_owned(),
    ];
    assert_eq!(lines.len(), want.len(), "{out}");
    for (line, want) in lines.iter().zip(&want) {
        assert!(
            line.starts_with(want.as_str()),
            "{line:?} should start with {want:?}"
        );
    }

    // A wrong password: the step says so, in words, without the password.
    let out = white
        .command(&["check"])
        .env(support::PASSWORD_VAR, "hunter2-wrong")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL  imap: IMAP login refused for white@example.test"),
        "{text}"
    );
    assert!(text.contains("ok    smtp: logged in as"), "{text}");
    assert!(text.contains("ccmail: 1 check failed"), "{text}");
    assert!(!text.contains("hunter2"), "{text}");

    // Nothing listening: both servers fail to connect.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let config = std::fs::read_to_string(white.config()).unwrap();
    let config = config
        .replace(
            &format!("port = {}", s.imap_port),
            &format!("port = {closed}"),
        )
        .replace(
            &format!("port = {}", s.submission_port),
            &format!("port = {closed}"),
        );
    std::fs::write(white.config(), config).unwrap();
    let out = white.run(&["check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "FAIL  imap: cannot connect: cannot connect to IMAP server 127.0.0.1:{closed}"
        )),
        "{text}"
    );
    assert!(text.contains("FAIL  smtp: cannot connect"), "{text}");
}

#[test]
fn run_needs_imap_and_says_so() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[player]\nname = \"Белов Борис\"\nsurname = \"Белов\"\nemail = \"w@example.test\"\n\
             timezone = \"Europe/Moscow\"\n[store]\npath = \"{}\"\n",
            home.path().join("ccmail.db").display()
        ),
    )
    .unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"))
            .args(args)
            .env("CCMAIL_CONFIG", &config)
            .env_remove("RUST_LOG")
            .output()
            .unwrap()
    };
    let out = run(&["run"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("`ccmail run` needs an [imap] section"),
        "{err}"
    );
    // One pass has nothing to read or send, and says so.
    let out = run(&["run", "--once"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("no [imap] in the config"), "{err}");
    // `check` skips what is not configured.
    let out = run(&["check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("-     imap: not configured"), "{text}");
}

#[test]
fn the_daemon_repeats_an_unanswered_move_on_the_day_it_falls_due() {
    let Some(s) = servers() else { return };
    let tag = unique("repeat");
    let (white, black) = players(&s, &tag, "");
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter(&tag), &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter(&tag), &[]);
    white.ok(&["--now", "2026-03-01", "move", &wg, "e4", "--yes"]);
    // Black does not answer. 51.5.1: after 14 days White's daemon repeats the move, Cc the
    // arbiter, by itself.
    let shown = white.json(&["--now", "2026-03-02", "show", &wg]);
    let due = shown["deadlines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == "repeat")
        .map(|d| d["date"].as_str().unwrap().to_owned())
        .expect("a repeat deadline");
    assert_eq!(due, "2026-03-15", "{shown}");
    let mut before = white.spawn(&["--now", "2026-03-14", "run"], LOG);
    before.wait_for("waiting for new mail", Duration::from_secs(20));
    std::thread::sleep(Duration::from_millis(300));
    assert!(before.stop().success());
    assert_eq!(
        before.count("repeated"),
        0,
        "not due yet:\n{}",
        before.log()
    );

    let mut daemon = white.spawn(&["--now", &due, "run"], LOG);
    daemon.wait_for(
        "our move repeated, Cc the arbiter (51.5.1) (queued)",
        Duration::from_secs(20),
    );
    daemon.wait_for(" sent item=", Duration::from_secs(20));
    let at_arbiter = messages(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 1, "the repeat, Cc the arbiter");
    let to_black = messages(&s, "black@example.test", &tag);
    assert_eq!(to_black.len(), 2, "the move and its repeat");
    assert_eq!(
        support::message_id(&to_black[1].raw),
        support::message_id(&at_arbiter[0].raw)
    );
    assert!(daemon.stop().success());
    // Once only: another pass the same day sends nothing more.
    white.ok(&["--now", &due, "run", "--once"]);
    assert_eq!(messages(&s, ARBITER, &tag).len(), 1);

    // Black reads both (the repeat of a move it has changes nothing) and answers: the answer
    // to a repeat goes Cc the arbiter too.
    black.ok(&["--now", "2026-03-16", "run", "--once"]);
    let shown = black.json(&["--now", "2026-03-16", "show", &bg]);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 1, "{shown}");
    black.ok(&["--now", "2026-03-16", "move", &bg, "e5", "--yes"]);
    assert_eq!(messages(&s, ARBITER, &tag).len(), 2);
    white.ok(&["--now", "2026-03-17", "run", "--once"]);
    let shown = white.json(&["--now", "2026-03-17", "show", &wg]);
    assert_eq!(shown["moves"][1]["san"], "e5", "{shown}");
}

#[test]
fn a_move_queued_by_another_process_is_sent_by_the_daemon_at_once_without_polling() {
    let Some(s) = servers() else { return };
    let tag = unique("nudge");
    let (white, black) = players(&s, &tag, "");
    let arbiter = arbiter(&tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &[]);
    black.new_game("2026-03-01", "black", &white, &arbiter, &[]);
    let now = "2026-03-02";
    let wd = white.spawn(&["--now", now, "run"], LOG);
    wd.wait_for("waiting for new mail idle=true", Duration::from_secs(20));
    // `move` from a config without [smtp] (the same store): it queues and does not send.
    let no_smtp = white.config_without_smtp();
    let mark = wd.mark();
    let out = white.ok(&[
        "--config",
        no_smtp.to_str().unwrap(),
        "--now",
        now,
        "move",
        &wg,
        "e4",
        "--yes",
    ]);
    assert!(out.starts_with("queued:"), "{out}");
    // The daemon is told (it no longer looks every few seconds), and sends it.
    wd.wait_after(mark, "nudged", Duration::from_secs(2));
    wd.wait_after(mark, " sent item=", Duration::from_secs(5));
    let mut d = wd;
    let status = d.stop();
    assert!(status.success(), "exit {status}:\n{}", d.log());
    assert!(
        !white.db().with_extension("db.nudge").exists(),
        "the socket is removed at the stop"
    );
}
