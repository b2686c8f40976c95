//! Server faults, on the real Dovecot and Postfix: the IMAP connection cut in the middle of a
//! FETCH; the IMAP server restarted during a FETCH and during IDLE (an instance of the test's
//! own); the SMTP server refusing with 421 at the greeting, a connection cut in the middle of
//! DATA, a recipient refused with 550; the mailbox deleted and created again with the same mail
//! (a new UIDVALIDITY). In each case nothing is lost and nothing is applied twice.
//!
//! The cuts, the slow line and the 421 greeting come from a TCP proxy in the test
//! (`support::proxy`) between ccmail and the real server; every successful exchange is the
//! real server's. The 550 is Postfix's own (an unknown user).

mod support;

use std::io::{BufRead, BufReader, Write};
use std::time::{Duration, Instant};

use support::instance::Instance;
use support::proxy::{Cut, Dir, Plan, Proxy};
use support::{Player, create_mailboxes, flags, messages, servers, unique, with_photo};

const ARBITER: &str = "arbiter@example.test";
const NOW: &str = "2026-03-02";
const LOG: &str = "info,ccmail=debug";

/// The daemon's player (Black, `login`) and the partner (White) who opened `n` games with
/// 1. e4, each message in the player's mailbox. Returns (player, partner, the player's games).
fn opened(s: &support::Servers, mailbox: &str, n: usize) -> (Player, Player, Vec<String>) {
    let me = Player::new(
        s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        mailbox,
        "",
    );
    let partner = Player::new(s, "Белов Борис", "Белов", "white@example.test", mailbox, "");
    let arbiter = if mailbox == "INBOX" {
        ARBITER.to_owned()
    } else {
        support::mail::detail_address(ARBITER, mailbox)
    };
    let mut games = Vec::new();
    for i in 0..n {
        let event = format!("Fault Cup {i:03}");
        let new = |p: &Player, color: &str, opponent: &Player| {
            p.new_game_in(&event, "2026-03-01", color, opponent, &arbiter, &[])
        };
        let theirs = new(&partner, "white", &me);
        games.push(new(&me, "black", &partner));
        let out = partner.ok(&["--now", "2026-03-01", "move", &theirs, "e4", "--yes"]);
        assert!(out.starts_with("sent:"), "{out}");
    }
    (me, partner, games)
}

/// Points the player's `[imap]` at 127.0.0.1:`port` without TLS (a proxy in the test:
/// `plain` is allowed for a server on this machine only).
fn through(p: &Player, s: &support::Servers, port: u16) {
    let config = std::fs::read_to_string(p.config()).unwrap();
    let from = format!("port = {}\nsecurity = \"starttls\"", s.imap_port);
    let to = format!("port = {port}\nsecurity = \"plain\"");
    assert!(config.contains(&from), "{config}");
    std::fs::write(p.config(), config.replace(&from, &to)).unwrap();
}

/// The player of [`opened`] with 30 games, in a fresh mailbox `tag`, whose IMAP goes through
/// a proxy that makes `cut`.
fn opened_through(s: &support::Servers, tag: &str, cut: Cut) -> (Player, Vec<String>, Proxy) {
    create_mailboxes(
        s,
        &["white@example.test", "black@example.test", ARBITER],
        tag,
    );
    let (me, _partner, games) = opened(s, tag, 30);
    let proxy = Proxy::start(
        s.imap_port,
        Plan {
            cut: Some(cut),
            ..Plan::default()
        },
    );
    through(&me, s, proxy.port);
    (me, games, proxy)
}

/// How many moves the player's database holds.
fn moves(p: &Player) -> usize {
    support::block_on(async {
        let store = ccmail_store::Store::open(&p.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        let n = ccmail_store::all_moves(&mut c, true).await.unwrap().len();
        drop(c);
        store.close().await;
        n
    })
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Each game holds exactly the partner's 1. e4, and nothing is held.
fn each_applied_once(me: &Player, games: &[String]) {
    for g in games {
        let shown = me.json(&["--now", NOW, "show", g]);
        let sans: Vec<&str> = shown["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["san"].as_str().unwrap())
            .collect();
        assert_eq!(sans, ["e4"], "game {g}");
    }
    assert_eq!(me.json(&["inbox"]), serde_json::json!([]));
    let stored = support::block_on(async {
        let store = ccmail_store::Store::open(&me.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        let mut n = 0;
        for g in games {
            n += ccmail_store::game_messages(&mut c, g).await.unwrap().len();
        }
        n
    });
    assert_eq!(stored, games.len(), "each message stored once");
}

#[test]
fn an_imap_connection_cut_in_the_middle_of_a_fetch_loses_nothing() {
    let Some(s) = servers() else { return };
    let tag = unique("cutfetch");
    // The first two connections that fetch bodies are cut 3,000 bytes into the first body.
    let (me, games, proxy) = opened_through(
        &s,
        &tag,
        Cut {
            dir: Dir::Down,
            marker: b"BODY[] {".to_vec(),
            after: 3000,
            times: 2,
        },
    );
    let before = flags(&s, "black@example.test", &tag);
    let mut d = me.spawn(&["--now", NOW, "run"], LOG);
    wait_until("every move applied", Duration::from_secs(60), || {
        moves(&me) == games.len()
    });
    d.wait_for("waiting for new mail", Duration::from_secs(20));
    assert!(d.stop().success(), "{}", d.log());
    assert_eq!(proxy.cuts(), 2, "{}", d.log());
    assert!(d.count("connecting again") >= 2, "{}", d.log());
    me.ok(&["--now", NOW, "run", "--once"]);
    each_applied_once(&me, &games);
    assert_eq!(
        flags(&s, "black@example.test", &tag),
        before,
        "no flag changed"
    );
    eprintln!(
        "IMAP cut mid-FETCH: {} cuts, {} moves applied once each",
        proxy.cuts(),
        games.len()
    );
}

/// The first read looks at a large message from an unknown address that the server's search
/// finds a game header's words in by its head (`BODYSTRUCTURE BODY.PEEK[]<0.n>`); when that
/// look fails — here the connection is cut in the middle of the server's answer — the same
/// pass connects again and fetches the message whole.
#[test]
fn a_failed_look_at_large_mail_fetches_it_whole_in_the_same_pass() {
    let Some(s) = servers() else { return };
    let tag = unique("cutheads");
    // 30 games, and private mail with a photo that speaks of an event: the server's search
    // finds it, and it is looked at by its head. The first answer with a head is cut.
    let (me, games, proxy) = opened_through(
        &s,
        &tag,
        Cut {
            dir: Dir::Down,
            marker: b"BODY[]<0> {".to_vec(),
            after: 50,
            times: 1,
        },
    );
    let private = with_photo(
        "mom@example.org",
        "black@example.test",
        &format!("holiday.{tag}"),
        "",
        "Photos of the club's event! More soon.",
        None,
    );
    // Received the day before: mail of the last hour ccmail would read itself.
    let received = Some("2026-03-01T10:00:00+03:00");
    support::append(&s, "black@example.test", &tag, &private, &[], received);
    let before = flags(&s, "black@example.test", &tag);
    let out = me
        .command(&["--now", NOW, "run", "--once"])
        .env("RUST_LOG", LOG)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert_eq!(proxy.cuts(), 1, "{log}");
    assert!(log.contains("asking the server's text search"), "{log}");
    assert!(
        log.contains("connecting again to fetch them whole"),
        "{log}"
    );
    each_applied_once(&me, &games);
    let kept = support::block_on(async {
        let store = ccmail_store::Store::open(&me.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        ccmail_store::find_message(&mut c, ccmail_store::Direction::In, None, &private)
            .await
            .unwrap()
    });
    assert_eq!(kept, None, "the private mail was stored");
    assert_eq!(
        flags(&s, "black@example.test", &tag),
        before,
        "no flag changed"
    );
}

#[test]
fn the_imap_server_restarted_during_a_fetch_and_during_idle_loses_nothing() {
    let Some(_shared) = servers() else { return };
    let Some(inst) = Instance::start("fetchrestart") else {
        return;
    };
    let s = &inst.servers;
    let (me, partner, games) = opened(s, "INBOX", 30);
    // A slow line (6 KB/s) so that the FETCH of 30 messages takes seconds.
    let proxy = Proxy::start(
        s.imap_port,
        Plan {
            throttle: Some(6 * 1024),
            ..Plan::default()
        },
    );
    through(&me, s, proxy.port);
    let mut d = me.spawn(&["--now", NOW, "run"], LOG);
    // Mid-FETCH: well past the greeting and the SELECT, far from the end.
    wait_until("the FETCH under way", Duration::from_secs(60), || {
        proxy.down() > 16 * 1024
    });
    let applied_before = moves(&me);
    let restarted = d.mark();
    inst.stop();
    std::thread::sleep(Duration::from_millis(500));
    inst.start_again();
    assert!(
        applied_before < games.len(),
        "the restart came after the fetch: {applied_before} applied"
    );
    wait_until("every move applied", Duration::from_secs(90), || {
        moves(&me) == games.len()
    });
    d.wait_after(
        restarted,
        "waiting for new mail idle=true",
        Duration::from_secs(30),
    );
    // During IDLE: stopped and started again; then a new game's move arrives.
    std::thread::sleep(Duration::from_millis(300));
    let mark = d.mark();
    inst.stop();
    d.wait_after(mark, "connecting again", Duration::from_secs(20));
    inst.start_again();
    d.wait_after(mark, "IMAP connected", Duration::from_secs(60));
    let (more_me, _) = more_game(&me, &partner);
    wait_until("the new move applied", Duration::from_secs(60), || {
        moves(&me) == games.len() + 1
    });
    assert!(d.stop().success(), "{}", d.log());
    me.ok(&["--now", NOW, "run", "--once"]);
    let mut all = games.clone();
    all.push(more_me);
    each_applied_once(&me, &all);
    eprintln!(
        "IMAP restart: during FETCH ({applied_before} of {} applied before it) and during \
         IDLE; {} moves applied once each",
        games.len(),
        all.len()
    );
}

/// One more game, the partner's first move in it sent now; returns (player's, partner's) ids.
fn more_game(me: &Player, partner: &Player) -> (String, String) {
    let args = |color: &str, opponent: &str| {
        vec![
            "--now".to_owned(),
            "2026-03-01".into(),
            "game".into(),
            "new".into(),
            "--event".into(),
            "Fault Cup late".into(),
            "--start".into(),
            "2026-03-01".into(),
            "--white".into(),
            "Белов".into(),
            "--black".into(),
            "Чернов".into(),
            "--color".into(),
            color.into(),
            "--opponent".into(),
            opponent.into(),
            "--arbiter".into(),
            ARBITER.into(),
        ]
    };
    let a = args("black", &partner.email);
    let mine = me.ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let a = args("white", &me.email);
    let theirs = partner.ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let theirs = theirs.trim().to_owned();
    let out = partner.ok(&["--now", "2026-03-01", "move", &theirs, "e4", "--yes"]);
    assert!(out.starts_with("sent:"), "{out}");
    (mine.trim().to_owned(), theirs)
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn smtp_refusals_and_a_cut_in_data_send_each_message_once() {
    let Some(s) = servers() else { return };
    let tag = unique("smtpfault");
    create_mailboxes(
        &s,
        &["white@example.test", "black@example.test", ARBITER],
        &tag,
    );
    let me = Player::new(&s, "Белов Борис", "Белов", "white@example.test", &tag, "");
    let partner = Player::new(
        &s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        &tag,
        "",
    );
    let arbiter = support::mail::detail_address(ARBITER, &tag);
    let mine = me.new_game("2026-03-01", "white", &partner, &arbiter, &[]);
    let theirs = partner.new_game("2026-03-01", "black", &me, &arbiter, &[]);
    // Postfix on its no-auth port behind the proxy: two connections refused with 421 at the
    // greeting, then two cut 200 bytes into the message after DATA.
    let proxy = Proxy::start(
        s.smtp_port,
        Plan {
            refuse: 2,
            refusal: "421 4.3.2 Service not available, try again later".into(),
            cut: Some(Cut {
                dir: Dir::Up,
                marker: b"DATA\r\n".to_vec(),
                after: 200,
                times: 2,
            }),
            ..Plan::default()
        },
    );
    let config = std::fs::read_to_string(me.config()).unwrap();
    let from = format!(
        "[smtp]\nhost = \"{}\"\nport = {}\nsecurity = \"starttls\"\n",
        s.host, s.submission_port
    );
    assert!(config.contains(&from), "{config}");
    let cut = config.find(&from).unwrap();
    std::fs::write(
        me.config(),
        format!(
            "{}[smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\n",
            &config[..cut],
            proxy.port
        ),
    )
    .unwrap();

    let out = me.ok(&["--now", NOW, "move", &mine, "e4", "--yes"]);
    assert!(out.starts_with("queued:"), "the 421 keeps it queued: {out}");
    let mut d = me.spawn(&["--now", NOW, "run"], LOG);
    d.wait_for(" sent item=", Duration::from_secs(60));
    assert!(d.stop().success(), "{}", d.log());
    assert_eq!((proxy.refused(), proxy.cuts()), (2, 2), "{}", d.log());
    let arrived = messages(&s, "black@example.test", &tag);
    assert_eq!(arrived.len(), 1, "exactly one copy arrived:\n{}", d.log());
    partner.ok(&["--now", NOW, "run", "--once"]);
    let shown = partner.json(&["--now", NOW, "show", &theirs]);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 1, "{shown}");
    let games = me.ok(&["--now", NOW, "games"]);
    assert!(!games.contains("not sent"), "{games}");

    // A 550 from Postfix (no such user): failed for good, kept, shown, not retried.
    let nobody = me.ok(&[
        "--now",
        "2026-03-01",
        "game",
        "new",
        "--event",
        "Nobody Cup",
        "--start",
        "2026-03-01",
        "--white",
        "Белов",
        "--black",
        "Никто",
        "--color",
        "white",
        "--opponent",
        "nobody@example.test",
        "--arbiter",
        &arbiter,
    ]);
    let nobody = nobody.trim();
    let out = me.ok(&["--now", NOW, "move", nobody, "d4", "--yes"]);
    assert!(out.starts_with("queued:"), "{out}");
    let mut d = me.spawn(&["--now", NOW, "run"], LOG);
    d.wait_for("waiting for new mail", Duration::from_secs(20));
    std::thread::sleep(Duration::from_secs(3));
    assert!(d.stop().success());
    let listed = me.ok(&["--now", NOW, "games"]);
    assert!(listed.contains("550"), "the refusal is shown: {listed}");
    let rows = support::block_on(async {
        let store = ccmail_store::Store::open(&me.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        ccmail_store::unsent(&mut c).await.unwrap()
    });
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].status.as_str(), rows[0].attempts), ("failed", 1));
    eprintln!(
        "SMTP: {} refusals (421), {} cuts in DATA, one copy delivered; 550 kept as failed",
        proxy.refused(),
        proxy.cuts()
    );
}

/// Deletes `mailbox` of `login` and creates it again, speaking IMAP directly: the server gives
/// the new mailbox a new UIDVALIDITY.
fn recreate(s: &support::Servers, login: &str, mailbox: &str) {
    let tcp = std::net::TcpStream::connect((s.host.as_str(), s.imap_port)).unwrap();
    let mut read = BufReader::new(tcp.try_clone().unwrap());
    let mut write = tcp;
    let mut line = String::new();
    read.read_line(&mut line).unwrap();
    for (tag, command) in [
        ("a", format!("LOGIN \"{login}\" \"{}\"", s.password)),
        ("b", format!("DELETE \"{mailbox}\"")),
        ("c", format!("CREATE \"{mailbox}\"")),
        ("d", "LOGOUT".to_owned()),
    ] {
        write
            .write_all(format!("{tag} {command}\r\n").as_bytes())
            .unwrap();
        loop {
            line.clear();
            read.read_line(&mut line).unwrap();
            if line.starts_with(&format!("{tag} ")) {
                assert!(line.starts_with(&format!("{tag} OK")), "{command}: {line}");
                break;
            }
        }
    }
}

#[test]
fn a_mailbox_recreated_with_the_same_mail_applies_nothing_twice() {
    let Some(s) = servers() else { return };
    let tag = unique("recreate");
    create_mailboxes(
        &s,
        &["white@example.test", "black@example.test", ARBITER],
        &tag,
    );
    let (me, _partner, games) = opened(&s, &tag, 5);
    me.ok(&["--now", NOW, "run", "--once"]);
    each_applied_once(&me, &games);
    // The same mail, with its dates, in a mailbox of the same name created anew.
    let login = "black@example.test";
    let mail = messages(&s, login, &tag);
    assert_eq!(mail.len(), games.len());
    recreate(&s, login, &tag);
    for m in &mail {
        let at = m.internal_date.to_rfc3339();
        support::append(&s, login, &tag, &m.raw, &[], Some(&at));
    }
    let out = me
        .command(&["--now", NOW, "run", "--once"])
        .env("RUST_LOG", LOG)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert!(log.contains("UIDVALIDITY changed"), "{log}");
    assert_eq!(
        log.matches("was already stored; nothing changed").count(),
        games.len(),
        "{log}"
    );
    each_applied_once(&me, &games);
}

/// Fails the test when a command's output speaks of a locked database.
fn never_locked(what: &str, out: &std::process::Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && !text.contains("locked"),
        "{what}: {}\n{text}",
        out.status
    );
    text
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn move_and_reply_while_the_daemon_works_never_meet_a_locked_database() {
    use expectrl::{Eof, Expect, Regex};

    let Some(s) = servers() else { return };
    let tag = unique("concurrent");
    create_mailboxes(
        &s,
        &["white@example.test", "black@example.test", ARBITER],
        &tag,
    );
    let (me, partner, games) = opened(&s, &tag, 30);
    // Five games where we have the first move, for the prompt.
    let arbiter = support::mail::detail_address(ARBITER, &tag);
    let firsts: Vec<String> = (0..5)
        .map(|i| {
            me.ok(&[
                "--now",
                "2026-03-01",
                "game",
                "new",
                "--event",
                &format!("Prompt Cup {i}"),
                "--start",
                "2026-03-01",
                "--white",
                "Чернов",
                "--black",
                "Белов",
                "--color",
                "white",
                "--opponent",
                &partner.email,
                "--arbiter",
                &arbiter,
            ])
            .trim()
            .to_owned()
        })
        .collect();
    // A slow line makes the daemon's work last seconds, while the player types.
    let proxy = Proxy::start(
        s.imap_port,
        Plan {
            throttle: Some(8 * 1024),
            ..Plan::default()
        },
    );
    through(&me, &s, proxy.port);
    let mut d = me.spawn(&["--now", NOW, "run"], LOG);
    let mut commands = 0;
    let transcript = std::thread::scope(|scope| {
        let prompt = scope.spawn(|| {
            let mut command = me.command(&["--now", NOW, "reply"]);
            command.env("TERM", "xterm");
            let mut term = expectrl::session::OsSession::spawn(command).unwrap();
            term.get_process_mut().set_window_size(120, 40).unwrap();
            term.set_expect_timeout(Some(Duration::from_secs(60)));
            let mut transcript = String::new();
            let mut answered = 0;
            while answered < firsts.len() {
                let found = term
                    .expect(Regex(r"([0-9a-z]+) 1\.(\.\.)?> "))
                    .unwrap_or_else(|e| panic!("{e}; the prompt so far:\n{transcript}"));
                transcript.push_str(&String::from_utf8_lossy(found.as_bytes()));
                let prompt = String::from_utf8_lossy(found.get(1).unwrap()).into_owned();
                if firsts.contains(&prompt) {
                    term.send("e4\r").unwrap();
                    let found = term.expect("Send it? ").unwrap();
                    transcript.push_str(&String::from_utf8_lossy(found.before()));
                    term.send("y\r").unwrap();
                    let found = term.expect(Regex(r"(sent|queued): [^\r\n]*")).unwrap();
                    transcript.push_str(&String::from_utf8_lossy(found.before()));
                    transcript.push_str(&String::from_utf8_lossy(found.as_bytes()));
                    answered += 1;
                } else {
                    term.send("skip\r").unwrap();
                    transcript.push_str("skip\n");
                }
            }
            term.send("quit\r").unwrap();
            let rest = term.expect(Eof).unwrap();
            transcript.push_str(&String::from_utf8_lossy(rest.as_bytes()));
            transcript
        });
        // Meanwhile each 1. e4 is answered as soon as the daemon has applied it.
        let mut left: Vec<&String> = games.iter().collect();
        let deadline = Instant::now() + Duration::from_secs(120);
        while !left.is_empty() {
            assert!(Instant::now() < deadline, "{} games unanswered", left.len());
            let mut next = Vec::new();
            for g in left {
                let out = me.run(&["--json", "--now", NOW, "show", g]);
                let shown: serde_json::Value =
                    serde_json::from_str(&never_locked("show", &out)).unwrap();
                commands += 1;
                if shown["moves"].as_array().unwrap().len() == 1 {
                    let out = me.run(&["--now", NOW, "move", g, "e5", "--yes"]);
                    let text = never_locked("move", &out);
                    assert!(text.starts_with("sent:"), "{text}");
                    commands += 1;
                } else {
                    next.push(g);
                }
            }
            left = next;
            std::thread::sleep(Duration::from_millis(50));
        }
        prompt.join().unwrap()
    });
    assert!(!transcript.contains("locked"), "{transcript}");
    assert_eq!(
        transcript.matches("sent: ").count(),
        firsts.len(),
        "{transcript}"
    );
    assert!(d.stop().success(), "{}", d.log());
    assert!(!d.log().contains("locked"), "{}", d.log());
    for g in &games {
        let shown = me.json(&["--now", NOW, "show", g]);
        assert_eq!(shown["moves"].as_array().unwrap().len(), 2, "{shown}");
    }
    for g in &firsts {
        let shown = me.json(&["--now", NOW, "show", g]);
        assert_eq!(shown["moves"].as_array().unwrap().len(), 1, "{shown}");
    }
    // Each message went out once.
    assert_eq!(
        messages(&s, "white@example.test", &tag).len(),
        games.len() + firsts.len()
    );
    let _ = partner;
    eprintln!(
        "concurrency: {commands} show/move commands and {} answers at the prompt while the \
         daemon applied {} moves; no database-locked failure",
        firsts.len(),
        games.len()
    );
}
