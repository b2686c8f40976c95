//! The rules' chores end to end, on the real Dovecot and Postfix, with `--now` moving the
//! calendar: what each chore sends lands in the right mailboxes (partner, arbiter), decoded
//! and read back as the recipient's mail client would. The same scenarios checked in the store
//! only are in tests/chores.rs.
//!
//! Each test has mailboxes of its own (`user+TAG@example.test` is delivered into mailbox
//! `TAG`), so they run in parallel. Without servers a test prints a note and passes, except
//! under `CI=true`, where it fails (see tests/support).

mod support;

use ccmail_mail::imap::Fetched;
use support::{Player, Servers, create_mailboxes, messages, servers, unique};

const WHITE: &str = "white@example.test";
const BLACK: &str = "black@example.test";
const ARBITER: &str = "arbiter@example.test";

/// A message as the recipient reads it.
#[derive(Debug)]
struct Mail {
    from: String,
    to: Vec<String>,
    cc: Vec<String>,
    subject: String,
    text: String,
    pgn: Vec<String>,
    id: String,
}

fn read(fetched: &Fetched) -> Mail {
    let d = ccmail_mail::mime::decode(&fetched.raw).expect("a mail message");
    let emails = |v: &[ccmail_mail::mime::Address]| -> Vec<String> {
        v.iter().map(|a| a.email.to_lowercase()).collect()
    };
    Mail {
        from: d.from.map(|a| a.email.to_lowercase()).unwrap_or_default(),
        to: emails(&d.to),
        cc: emails(&d.cc),
        subject: d.subject.unwrap_or_default(),
        text: d.text,
        pgn: d.pgn,
        id: d.message_id.unwrap_or_default(),
    }
}

/// Every message of `login`'s mailbox `tag`, decoded, in order of arrival.
fn mailbox(s: &Servers, login: &str, tag: &str) -> Vec<Mail> {
    messages(s, login, tag).iter().map(read).collect()
}

/// The arbiter's address for a test: their mailbox `TAG`.
fn arbiter(tag: &str) -> String {
    support::mail::detail_address(ARBITER, tag)
}

/// White and Black, each watching a fresh mailbox `TAG` of their own login (the arbiter too).
fn players(s: &Servers, tag: &str) -> (Player, Player) {
    create_mailboxes(s, &[WHITE, BLACK, ARBITER], tag);
    let white = Player::new(s, "Белов Борис", "Белов", WHITE, tag, "");
    let black = Player::new(s, "Чернов Чеслав", "Чернов", BLACK, tag, "");
    (white, black)
}

/// Names the servers' authserv-id in `p`'s `[security]`: their DKIM verdict on a letter then
/// vouches for its sender, as in a real setup.
fn name_the_servers(s: &Servers, p: &Player) {
    let mut config = std::fs::read_to_string(p.config()).unwrap();
    config.push_str(&format!(
        "\n[security]\nauthserv_id = \"{}\"\n",
        s.authserv_id
    ));
    std::fs::write(p.config(), config).unwrap();
}

/// `run --once` for `p` on `day` (what it sent is delivered when it returns).
fn once(p: &Player, day: &str) {
    p.ok(&["--now", day, "run", "--once"]);
}

/// `move` for `p` on `day`; it must have been sent.
fn play(p: &Player, day: &str, game: &str, mv: &str) -> String {
    let out = p.ok(&["--now", day, "move", game, mv, "--yes"]);
    assert!(out.starts_with("sent:"), "{day} {mv}: {out}");
    out
}

/// The date of the first deadline of `kind` in `show --json`.
fn deadline(p: &Player, day: &str, game: &str, kind: &str) -> String {
    let shown = p.json(&["--now", day, "show", game]);
    shown["deadlines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["kind"] == kind)
        .and_then(|d| d["date"].as_str())
        .unwrap_or_else(|| panic!("no {kind} deadline: {shown}"))
        .to_owned()
}

#[test]
fn the_repeat_reaches_partner_and_arbiter_on_day_14_not_13() {
    let Some(s) = servers() else { return };
    let tag = unique("c-repeat");
    let (white, black) = players(&s, &tag);
    let arb = arbiter(&tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arb, &[]);
    black.new_game("2026-03-01", "black", &white, &arb, &[]);
    play(&white, "2026-03-01", &wg, "e4");
    assert_eq!(deadline(&white, "2026-03-01", &wg, "repeat"), "2026-03-15");
    assert_eq!(mailbox(&s, BLACK, &tag).len(), 1, "the move");

    // Day 13: nothing goes out.
    once(&white, "2026-03-14");
    assert_eq!(mailbox(&s, BLACK, &tag).len(), 1, "day 13: no repeat");
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 0, "day 13: no repeat");

    // Day 14: the repeat, To the partner, Cc the arbiter (51.5.1).
    once(&white, "2026-03-15");
    let to_black = mailbox(&s, BLACK, &tag);
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!((to_black.len(), at_arbiter.len()), (2, 1));
    for m in [&to_black[1], &at_arbiter[0]] {
        assert_eq!(m.from, white.email);
        assert_eq!(m.to, [black.email.as_str()]);
        assert_eq!(m.cc, [arb.as_str()]);
        assert_eq!(
            m.subject,
            "ПОВТОР: Daemon Cup 2026: Белов – Чернов, 1. 5254"
        );
        assert!(
            m.text
                .contains("Мой ход: 1. 5254\nПОВТОР хода от 01.03.2026\nОтправлен: 01.03.2026\n"),
            "{}",
            m.text
        );
    }
    assert_eq!(
        to_black[1].id, at_arbiter[0].id,
        "one message, two recipients"
    );
    assert_ne!(to_black[0].id, to_black[1].id);
    assert!(
        !to_black[0].subject.starts_with("ПОВТОР"),
        "{:?}",
        to_black[0]
    );

    // Once only: another pass the same day and the next send nothing more.
    once(&white, "2026-03-15");
    once(&white, "2026-03-16");
    assert_eq!(mailbox(&s, BLACK, &tag).len(), 2);
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 1);
}

#[test]
fn no_repeat_while_the_partner_is_on_break() {
    let Some(s) = servers() else { return };
    let tag = unique("c-break");
    let (white, black) = players(&s, &tag);
    let arb = arbiter(&tag);
    // White's server vouches for Black's signed letters.
    name_the_servers(&s, &white);
    let wg = white.new_game("2026-03-01", "white", &black, &arb, &[]);
    black.new_game("2026-03-01", "black", &white, &arb, &[]);
    play(&white, "2026-03-01", &wg, "e4");
    once(&black, "2026-03-02");
    // Black announces a break 05.03–14.03 (10 days): it reaches White (and the arbiter).
    let out = black.ok(&[
        "--now",
        "2026-03-02",
        "break",
        "announce",
        "--from",
        "2026-03-05",
        "--to",
        "2026-03-14",
    ]);
    assert!(
        out.contains("break 2026-03-05 – 2026-03-14 (10 days) recorded; notices to 1 game(s)"),
        "{out}"
    );
    let to_white = mailbox(&s, WHITE, &tag);
    assert_eq!(to_white.len(), 1);
    assert_eq!(to_white[0].cc, [arb.as_str()]);
    assert!(
        to_white[0]
            .text
            .contains("Беру перерыв с 05.03.2026 по 14.03.2026\n"),
        "{}",
        to_white[0].text
    );
    once(&white, "2026-03-03");
    // White's 14 days end 10 days later: 25.03, not 15.03.
    assert_eq!(deadline(&white, "2026-03-03", &wg, "repeat"), "2026-03-25");

    for day in ["2026-03-15", "2026-03-24"] {
        once(&white, day);
        assert_eq!(mailbox(&s, BLACK, &tag).len(), 1, "{day}: no repeat");
    }
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 1, "the break notice only");
    once(&white, "2026-03-25");
    let to_black = mailbox(&s, BLACK, &tag);
    assert_eq!(to_black.len(), 2);
    assert_eq!(
        to_black[1].subject,
        "ПОВТОР: Daemon Cup 2026: Белов – Чернов, 1. 5254"
    );
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 2);
    assert_eq!(at_arbiter[1].id, to_black[1].id);
}

#[test]
fn an_impossible_move_brings_a_correction_request_with_the_penalty() {
    let Some(s) = servers() else { return };
    let tag = unique("c-fix");
    let (white, black) = players(&s, &tag);
    let arb = arbiter(&tag);
    // White's server vouches for Black's signed letters.
    name_the_servers(&s, &white);
    let wg = white.new_game("2026-03-01", "white", &black, &arb, &[]);
    play(&white, "2026-03-01", &wg, "e4");
    // Black's answer, written by hand and sent from his login (so signed): the king from e8
    // to e5.
    let bad = format!(
        "From: Чернов <{from}>\r\nTo: <{to}>\r\nSubject: Daemon Cup 2026\r\n\
         Date: Tue, 03 Mar 2026 10:00:00 +0300\r\nMessage-ID: <bad.{tag}@example.test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n\
         Ходы: 1. 5254\r\nВаш ход 1. 5254 отправлен: 01.03.2026\r\nПолучен: 02.03.2026\r\n\
         Мой ход: 1... 5855\r\nОтправлен: 03.03.2026\r\n",
        from = black.email,
        to = white.email,
    );
    support::block_on(support::mail::submit(
        &s,
        BLACK,
        &black.email,
        &white.email,
        bad.as_bytes(),
    ));
    support::wait_delivered();
    once(&white, "2026-03-04");

    let to_black = mailbox(&s, BLACK, &tag);
    assert_eq!(to_black.len(), 2, "the move and the correction request");
    let m = &to_black[1];
    assert_eq!(m.from, white.email);
    assert_eq!(m.to, [black.email.as_str()]);
    assert_eq!(m.cc, Vec::<String>::new(), "plenty of time: no Cc");
    assert_eq!(m.subject, "Daemon Cup 2026: Белов – Чернов, исправьте ход");
    assert!(
        m.text.contains(
            "- ход 1... 5855 невозможен (51.3.4): король с e8 не может пойти на e5; начислено \
             штрафных дней: 2 (51.4.7)\n\
             - Прошу исправить ход (51.3.4)\n"
        ),
        "{}",
        m.text
    );
    assert!(m.text.contains("Мой ход: 1. 5254\n"), "{}", m.text);
    let shown = white.json(&["--now", "2026-03-04", "show", &wg]);
    assert_eq!(shown["clock"]["black"]["penalty"], 2, "{shown}");
    assert_eq!(shown["moves"].as_array().unwrap().len(), 1, "{shown}");
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 0);
    // Asked once.
    once(&white, "2026-03-05");
    assert_eq!(mailbox(&s, BLACK, &tag).len(), 2);
}

#[test]
fn the_arbiter_is_copied_once_five_days_or_fewer_are_left() {
    let Some(s) = servers() else { return };
    let tag = unique("c-cc");
    let (white, black) = players(&s, &tag);
    let arb = arbiter(&tag);
    // Two moves in six days each.
    let control = ["--control", "2/6"];
    let wg = white.new_game("2026-03-01", "white", &black, &arb, &control);
    let bg = black.new_game("2026-03-01", "black", &white, &arb, &control);
    let left = |p: &Player, day: &str, g: &str| {
        let v = p.json(&["--now", day, "show", g]);
        let l = |c: &str| v["clock"][c]["left"].as_i64().unwrap();
        (l("white"), l("black"))
    };

    // 1. e4 at once: six days left each, no copy.
    play(&white, "2026-03-01", &wg, "e4");
    assert_eq!(left(&white, "2026-03-01", &wg), (6, 6));
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 0);
    let to_black = mailbox(&s, BLACK, &tag);
    assert_eq!(to_black[0].cc, Vec::<String>::new());

    // Black thinks a day: 5 left → from this message on, Cc the arbiter (51.4.10).
    once(&black, "2026-03-02");
    play(&black, "2026-03-03", &bg, "e5");
    assert_eq!(left(&black, "2026-03-03", &bg), (6, 5));
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 1);
    let to_white = mailbox(&s, WHITE, &tag);
    assert_eq!(to_white.len(), 1);
    assert_eq!(to_white[0].to, [white.email.as_str()]);
    assert_eq!(to_white[0].cc, [arb.as_str()]);
    assert_eq!(at_arbiter[0].id, to_white[0].id);
    assert!(
        at_arbiter[0].text.contains("Мой ход: 1... 5755\n"),
        "{}",
        at_arbiter[0].text
    );

    // White answers the same day: Black still has 5 left, so the copy goes again.
    once(&white, "2026-03-04");
    play(&white, "2026-03-04", &wg, "Nf3");
    assert_eq!(left(&white, "2026-03-04", &wg), (12, 5));
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 2);
    let to_black = mailbox(&s, BLACK, &tag);
    assert_eq!(to_black.len(), 2);
    assert_eq!(to_black[1].cc, [arb.as_str()]);
    assert_eq!(at_arbiter[1].id, to_black[1].id);
    assert_ne!(
        at_arbiter[0].id, to_black[0].id,
        "the first move was not copied"
    );
}

#[test]
fn a_break_notice_reaches_every_opponent_and_the_31st_day_is_refused() {
    let Some(s) = servers() else { return };
    let tag = unique("c-notice");
    let second = format!("{tag}-2");
    create_mailboxes(&s, &[WHITE, BLACK, ARBITER], &tag);
    create_mailboxes(&s, &[BLACK], &second);
    let me = Player::new(&s, "Белов Борис", "Белов", WHITE, &tag, "");
    let first_opponent = Player::new(&s, "Чернов Чеслав", "Чернов", BLACK, &tag, "");
    let second_opponent = Player::new(&s, "Сидоров Семён", "Сидоров", BLACK, &second, "");
    let arb = arbiter(&tag);
    me.new_game("2026-03-01", "white", &first_opponent, &arb, &[]);
    me.new_game("2026-03-01", "white", &second_opponent, &arb, &[]);

    let announce = |from: &str, to: &str| {
        me.run(&[
            "--now",
            "2026-06-01",
            "break",
            "announce",
            "--from",
            from,
            "--to",
            to,
        ])
    };
    let out = announce("2026-06-10", "2026-06-29");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("break 2026-06-10 – 2026-06-29 (20 days) recorded; notices to 2 game(s)"),
        "{stdout}"
    );
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 2, "one notice per game");
    for (box_, opponent) in [(&tag, &first_opponent), (&second, &second_opponent)] {
        let got = mailbox(&s, BLACK, box_);
        assert_eq!(got.len(), 1, "{box_}");
        let m = &got[0];
        assert_eq!(m.from, me.email);
        assert_eq!(m.to, [opponent.email.as_str()]);
        assert_eq!(m.cc, [arb.as_str()]);
        assert_eq!(
            m.subject,
            "Daemon Cup 2026: Белов – Чернов, беру перерыв с 10.06.2026 по 29.06.2026"
        );
        assert!(
            m.text.contains("Беру перерыв с 10.06.2026 по 29.06.2026\n"),
            "{}",
            m.text
        );
        assert_eq!(
            at_arbiter.iter().filter(|a| a.id == m.id).count(),
            1,
            "the arbiter has this notice"
        );
    }

    // 20 + 11 = 31 days in 2026: refused, in words; nothing more goes out.
    let out = announce("2026-08-01", "2026-08-11");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the break can't be taken"), "{err}");
    assert_eq!(mailbox(&s, BLACK, &tag).len(), 1);
    assert_eq!(mailbox(&s, BLACK, &second).len(), 1);
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 2);
    assert_eq!(
        me.json(&["--now", "2026-06-01", "break", "list"])["days_used"],
        20
    );
}

#[test]
fn a_claim_reaches_the_arbiter_with_the_time_table() {
    let Some(s) = servers() else { return };
    let tag = unique("c-claim");
    let (white, black) = players(&s, &tag);
    let arb = arbiter(&tag);
    // One move in five days; Black answers 1. e4 after seven.
    let control = ["--control", "1/5"];
    let wg = white.new_game("2026-03-01", "white", &black, &arb, &control);
    let bg = black.new_game("2026-03-01", "black", &white, &arb, &control);
    play(&white, "2026-03-02", &wg, "e4");
    once(&black, "2026-03-03");
    play(&black, "2026-03-10", &bg, "e5");
    once(&white, "2026-03-10");
    let shown = white.json(&["--now", "2026-03-10", "show", &wg]);
    assert_eq!(shown["clock"]["black"]["overstepped_at"], 1, "{shown}");
    // With one move in five days each side is always within five days of a control: both moves
    // went Cc the arbiter already (51.4.10).
    let before = mailbox(&s, ARBITER, &tag);
    assert_eq!(before.len(), 2, "{before:?}");
    assert_eq!(before[1].from, black.email);

    let out = white.ok(&["--now", "2026-03-10", "claim", &wg, "--yes"]);
    assert!(
        out.contains(&format!(
            "game {wg} is suspended until the arbiter's decision"
        )),
        "{out}"
    );
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 3);
    let m = at_arbiter.last().unwrap();
    assert_eq!(m.from, white.email);
    assert_eq!(m.to, [arb.as_str()]);
    assert_eq!(m.cc, [black.email.as_str()]);
    assert_eq!(
        m.subject,
        "Daemon Cup 2026: Белов – Чернов, заявление о просрочке времени"
    );
    let table = "Заявляю о просрочке времени (51.6): черные превысили контроль на 1-м ходу.\n\
         Ход | получен | отправлен | дней | итого\n\
         1. 5254 | 01.03.2026 | 02.03.2026 | 1 | 1\n\
         1... 5755 | 03.03.2026 | 10.03.2026 | 7 | 7\n\
         Итого черные: 7 дней при лимите 5 к 1-му ходу.\n";
    assert!(m.text.contains(table), "{}", m.text);
    // The opponent has the same message (Cc).
    let to_black = mailbox(&s, BLACK, &tag);
    assert_eq!(to_black.last().unwrap().id, m.id);
    assert_eq!(
        white.json(&["--now", "2026-03-10", "show", &wg])["status"],
        "suspended"
    );
}

#[test]
fn the_pgn_reaches_the_arbiter_after_mate() {
    let Some(s) = servers() else { return };
    let tag = unique("c-mate");
    let (white, black) = players(&s, &tag);
    let arb = arbiter(&tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arb, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arb, &[]);
    // White moves on odd days, Black answers the day it arrives; each reads the next day.
    for (mine, theirs, day, next, after) in [
        ("e4", "e5", "2026-03-01", "2026-03-02", "2026-03-03"),
        ("Bc4", "Nc6", "2026-03-03", "2026-03-04", "2026-03-05"),
        ("Qh5", "Nf6", "2026-03-05", "2026-03-06", "2026-03-07"),
    ] {
        play(&white, day, &wg, mine);
        once(&black, next);
        play(&black, next, &bg, theirs);
        once(&white, after);
    }
    assert_eq!(
        mailbox(&s, ARBITER, &tag).len(),
        0,
        "no copies before the end"
    );
    let out = play(&white, "2026-03-07", &wg, "Qxf7");
    assert!(out.contains("The game is over: 1-0."), "{out}");

    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 1, "the PGN: {at_arbiter:?}");
    let m = &at_arbiter[0];
    assert_eq!(m.from, white.email);
    assert_eq!(m.to, [arb.as_str()]);
    assert_eq!(m.cc, Vec::<String>::new());
    assert_eq!(
        m.subject,
        "Daemon Cup 2026: Белов – Чернов, 1-0: партия для судьи"
    );
    assert!(
        m.text
            .starts_with("Партия окончена: 1-0. Запись в формате PGN (51.9.1):\n"),
        "{}",
        m.text
    );
    assert_eq!(m.pgn.len(), 1, "the PGN attached");
    for pgn in [&m.text, &m.pgn[0]] {
        assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
        assert!(pgn.contains("4. Qxf7#"), "{pgn}");
    }
    // Never twice.
    once(&white, "2026-03-08");
    assert_eq!(mailbox(&s, ARBITER, &tag).len(), 1);

    // Black's side, reading the mate, finishes the game too and sends its own copy, once.
    once(&black, "2026-03-08");
    once(&black, "2026-03-09");
    let shown = black.json(&["--now", "2026-03-08", "show", &bg]);
    assert_eq!(
        (&shown["status"], &shown["result"]),
        (&"finished".into(), &"1-0".into()),
        "{shown}"
    );
    let at_arbiter = mailbox(&s, ARBITER, &tag);
    assert_eq!(at_arbiter.len(), 2, "{at_arbiter:?}");
    let m = &at_arbiter[1];
    assert_eq!(m.from, black.email);
    assert_eq!(m.to, [arb.as_str()]);
    assert_eq!(
        m.subject,
        "Daemon Cup 2026: Белов – Чернов, 1-0: партия для судьи"
    );
    assert!(m.pgn[0].contains("4. Qxf7#"), "{}", m.pgn[0]);
}
