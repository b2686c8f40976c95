//! A game's life through the real binary: create it, play a dozen moves from both sides by
//! `apply`-ing the partner's mail with chosen dates and `move --now`, and compare `show
//! --json` with clocks computed by hand. Then what goes wrong: a wrongly repeated move, a
//! stranger's address, the same file twice, an illegal move typed by the player, a partner's
//! Message-ID no header of ours can carry.

mod common;

use common::{Player, sans};
use serde_json::Value;

const EVENT: &str = "Кубок клуба 2026";

/// Ivanov (White, us) against Petrov (Black) from 2026-03-01, 10 moves / 60 days.
fn new_game() -> (Player, String) {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = me
        .ok(&[
            "game",
            "new",
            "--event",
            EVENT,
            "--start",
            "2026-03-01",
            "--white",
            "Иванов",
            "--black",
            "Петров",
            "--color",
            "white",
            "--opponent",
            "Petrov@Example.org",
            "--arbiter",
            "arbiter@example.org",
        ])
        .trim()
        .to_owned();
    (me, id)
}

/// Black's message in the Russian standard form, as his own program (or hand) writes it.
struct Reply<'a> {
    from: &'a str,
    record: &'a str,
    our_last: &'a str,
    our_sent: &'a str,
    received: &'a str,
    mine: &'a str,
    sent: &'a str,
    extra: &'a str,
}

impl Reply<'_> {
    fn text(&self, id: usize) -> String {
        let (d, m, y) = (&self.sent[..2], &self.sent[3..5], &self.sent[6..]);
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"][m.parse::<usize>().unwrap() - 1];
        format!(
            "From: Петров Пётр <{from}>\r\nTo: ivanov@example.org\r\n\
             Date: {d} {month} {y} 21:00:00 +0300\r\nMessage-ID: <petrov.{id}@example.org>\r\n\
             Subject: {EVENT}\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n\
             Турнир: {EVENT}\r\nСтарт: 01.03.2026\r\nБелые: Иванов\r\nЧерные: Петров\r\n\
             Ходы: {record}\r\nВаш ход {our_last} отправлен: {our_sent}\r\nПолучен: {received}\r\n\
             Мой ход: {mine}\r\n{extra}Отправлен: {sent}\r\n",
            from = self.from,
            record = self.record,
            our_last = self.our_last,
            our_sent = self.our_sent,
            received = self.received,
            mine = self.mine,
            extra = self.extra,
            sent = self.sent,
        )
    }
}

fn reply<'a>(
    record: &'a str,
    our_last: &'a str,
    our_sent: &'a str,
    received: &'a str,
    mine: &'a str,
    sent: &'a str,
) -> Reply<'a> {
    Reply {
        from: "petrov@example.org",
        record,
        our_last,
        our_sent,
        received,
        mine,
        sent,
        extra: "",
    }
}

/// The partner's answer to our 1. e4 of 02.03.2026: received 03.03, 1... e5 sent 05.03.
fn their_e5() -> Reply<'static> {
    reply(
        "1. e4",
        "1. e4",
        "02.03.2026",
        "03.03.2026",
        "1... e5",
        "05.03.2026",
    )
}

/// The decoded text of each message of an mbox, as a mail client shows it.
fn mail_texts(mbox: &str) -> Vec<String> {
    mbox.split("\nFrom ")
        .map(|entry| {
            let raw = entry.split_once('\n').map_or("", |(_, rest)| rest);
            ccmail_mail::mime::decode(raw.as_bytes())
                .map(|d| d.text)
                .unwrap_or_default()
        })
        .collect()
}

fn show(me: &Player, id: &str, now: &str) -> Value {
    me.json(&["--now", now, "show", id])
}

fn clock(v: &Value, side: &str) -> (i64, i64, i64, i64) {
    let c = &v["clock"][side];
    (
        c["days"].as_i64().unwrap(),
        c["penalty"].as_i64().unwrap(),
        c["total"].as_i64().unwrap(),
        c["left"].as_i64().unwrap(),
    )
}

fn days(v: &Value) -> Vec<i64> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["days"].as_i64().unwrap())
        .collect()
}

/// Plays the first 13 plies. White's thinking days: 1 0 3 4 4 1 1 = 14; Black's:
/// 2 2 0 4 2 0 = 10 (each: days d with received < d <= sent).
fn play_thirteen(me: &Player, id: &str) {
    me.ok(&["--now", "2026-03-02", "move", id, "e4"]);
    let r = their_e5();
    me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    me.ok(&["--now", "2026-03-06", "move", id, "Кg1-f3"]);
    let r = reply(
        "1. e4 e5 2. Nf3",
        "2. Nf3",
        "06.03.2026",
        "08.03.2026",
        "2... Nc6",
        "10.03.2026",
    );
    me.apply_text("m2.eml", &r.text(2), "2026-03-11");
    me.ok(&["--now", "2026-03-14", "move", id, "6125"]);
    let r = reply(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5",
        "3. Bb5",
        "14.03.2026",
        "15.03.2026",
        "3... a6",
        "15.03.2026",
    );
    me.apply_text("m3.eml", &r.text(3), "2026-03-16");
    me.ok(&["--now", "2026-03-20", "move", id, "Ba4"]);
    let r = reply(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4",
        "4. Ba4",
        "20.03.2026",
        "21.03.2026",
        "4... Nf6",
        "25.03.2026",
    );
    me.apply_text("m4.eml", &r.text(4), "2026-03-27");
    me.ok(&["--now", "2026-03-31", "move", id, "0-0"]);
    let r = reply(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O",
        "5. O-O",
        "31.03.2026",
        "01.04.2026",
        "5... Be7",
        "03.04.2026",
    );
    me.apply_text("m5.eml", &r.text(5), "2026-04-03");
    me.ok(&["--now", "2026-04-04", "move", id, "Re1"]);
    let r = reply(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1",
        "6. Re1",
        "04.04.2026",
        "05.04.2026",
        "6... b5",
        "05.04.2026",
    );
    me.apply_text("m6.eml", &r.text(6), "2026-04-06");
    me.ok(&["--now", "2026-04-07", "move", id, "Bb3"]);
}

#[test]
fn a_dozen_moves_and_the_clocks_by_hand() {
    let (me, id) = new_game();
    play_thirteen(&me, &id);
    let v = show(&me, &id, "2026-04-09");
    assert_eq!(
        sans(&v),
        [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3"
        ]
    );
    assert_eq!(days(&v), [1, 2, 0, 2, 3, 0, 4, 4, 4, 2, 1, 0, 1]);
    // Black is to move; his running days count from our send date 07.04 (51.2.3): 2.
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["running_days"], 2);
    assert_eq!(clock(&v, "white"), (14, 0, 14, 46));
    assert_eq!(clock(&v, "black"), (10, 0, 10, 48));
    assert_eq!(v["clock"]["white"]["next_control"], 10);
    assert_eq!(v["clock"]["white"]["limit"], 60);
    assert_eq!(v["status"], "active");
    assert_eq!(v["opponent"], "petrov@example.org");
    // Moves record when the mover received the previous move and when it was sent.
    let m = &v["moves"][7];
    assert_eq!(
        (
            m["san"].as_str(),
            m["numeric"].as_str(),
            m["received"].as_str(),
            m["sent"].as_str()
        ),
        (
            Some("Nf6"),
            Some("7866"),
            Some("2026-03-21"),
            Some("2026-03-25")
        )
    );
    // 40 days without a move: 40 days after our last send date.
    let deadlines = v["deadlines"].as_array().unwrap();
    assert!(
        deadlines
            .iter()
            .any(|d| d["kind"] == "silence_40" && d["date"] == "2026-05-17"),
        "{deadlines:?}"
    );
    assert_eq!(v["problems"], Value::Array(vec![]));
    // `games` (which reads each game's moves from its one-row record) gives the same clocks
    // and the same first deadline as `show`.
    let listed = me.json(&["--now", "2026-04-09", "games"]);
    assert_eq!(listed[0]["clock"], v["clock"]);
    assert_eq!(listed[0]["deadlines"], v["deadlines"]);
    let line = me.ok(&["--now", "2026-04-09", "games"]);
    assert!(
        line.contains("their move")
            && line.contains("move   7 ")
            // Black's 60 − 10 less the 2 days running on his move.
            && line.contains("left W 46 B 48"),
        "{line}"
    );
    assert!(!line.contains("no move for"), "{line}");
    // From day 30 after our move of 07.04 without an answer, `games` warns (51.5.3).
    let day29 = me.ok(&["--now", "2026-05-06", "games"]);
    assert!(!day29.contains("no move for"), "{day29}");
    let day30 = me.ok(&["--now", "2026-05-07", "games"]);
    assert!(
        day30.contains(
            "no move for 30 days: on day 40 (2026-05-17) the game can be lost by the side that \
             has not told the arbiter (51.5.3)"
        ),
        "{day30}"
    );
    let first = &deadlines[0];
    assert!(
        line.contains(&format!("{} ", first["date"].as_str().unwrap())),
        "{line}"
    );

    // The message we compose now carries every date and both totals.
    let r = reply(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3",
        "7. Bb3",
        "07.04.2026",
        "08.04.2026",
        "7... d6",
        "10.04.2026",
    );
    me.apply_text("m7.eml", &r.text(7), "2026-04-10");
    let preview = me.ok(&["--now", "2026-04-12", "move", &id, "c3", "--dry-run"]);
    let want = "\
To: petrov@example.org
Subject: Кубок клуба 2026: Иванов – Петров, 8. 3233

Турнир: Кубок клуба 2026
Старт: 01.03.2026
Белые: Иванов
Черные: Петров
----------------------------------------
Ходы: 1. 5254 5755 2. 7163 2836 3. 6125 1716 4. 2514 7866 5. 5171 6857 6. 6151 2725 7. 1423 4746
Ваш ход 7... 4746 отправлен: 10.04.2026
Получен: 10.04.2026
Мой ход: 8. 3233
Отправлен: 12.04.2026
Время на ход: 2
Итого дней: белые 16, черные 12
----------------------------------------
Иванов Иван <ivanov@example.org>
";
    assert_eq!(preview, want);
    // --dry-run changed nothing.
    assert_eq!(sans(&show(&me, &id, "2026-04-12")).len(), 14);
}

#[test]
fn a_wrongly_repeated_move_costs_two_days_and_is_held() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let r = their_e5();
    me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    me.ok(&["--now", "2026-03-06", "move", &id, "Nf3"]);
    // Black repeats our 2. Nf3 as 2. Nc3 (51.3.3).
    let bad = reply(
        "1. e4 e5 2. Nc3",
        "2. Nc3",
        "06.03.2026",
        "07.03.2026",
        "2... Nc6",
        "08.03.2026",
    );
    let bad = common::signed_by_sender(&me, &bad.text(2));
    let out = me.apply_text("bad.eml", &bad, "2026-03-09");
    assert!(out.contains("held as message"), "{out}");
    assert!(
        out.contains("our move 2. Nf3 was repeated as 2. Nc3 (51.3.3)"),
        "{out}"
    );
    // The correction request is queued at once (51.3.4), with what was wrong.
    assert!(
        out.contains("correction requested (51.3.4) (queued)"),
        "{out}"
    );
    let v = show(&me, &id, "2026-03-09");
    assert_eq!(sans(&v), ["e4", "e5", "Nf3"]);
    assert_eq!(clock(&v, "black").1, 2, "two penalty days (51.4.7)");
    let problems = v["problems"].as_array().unwrap();
    assert!(
        problems.iter().any(|p| p["code"] == "held_message"),
        "{problems:?}"
    );
    assert!(
        !problems.iter().any(|p| p["code"] == "correction_due"),
        "{problems:?}"
    );
    let mbox = me.ok(&["export", &id, "--mbox"]);
    let request = mail_texts(&mbox)
        .into_iter()
        .find(|m| m.contains("Прошу исправить ход"))
        .expect("a correction request");
    assert!(request.contains("Мой ход: 2. 7163\n"), "{request}");
    // In the game's language, its moves in its notation; the inbox says it in English.
    assert!(request.contains("- наш ход 2. 7163 повторён неправильно: 2. 2133 (51.3.3); начислено штрафных дней: 2 (51.4.7)\n- Прошу исправить ход (51.3.4)\n"), "{request}");
    let inbox = me.ok(&["inbox"]);
    assert!(
        inbox.contains("our move 2. Nf3 was repeated as 2. Nc3"),
        "{inbox}"
    );
    // The corrected message is applied; the penalty stays.
    let good = reply(
        "1. e4 e5 2. Nf3",
        "2. Nf3",
        "06.03.2026",
        "07.03.2026",
        "2... Nc6",
        "10.03.2026",
    );
    let good = common::signed_by_sender(&me, &good.text(3));
    me.apply_text("good.eml", &good, "2026-03-11");
    let v = show(&me, &id, "2026-03-11");
    assert_eq!(sans(&v), ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(clock(&v, "black").1, 2);
    assert!(
        !v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["code"] == "correction_due")
    );
    // The statement went with the correction request; our next move doesn't repeat it.
    let preview = me.ok(&["--now", "2026-03-12", "move", &id, "Bb5", "--dry-run"]);
    assert!(!preview.contains("Замечания"), "{preview}");
    // Black: 2 (e5) + 1 (the rejected message, 07–08.03) + 2 (the corrected Nc6 from its
    // send date 08.03 to 10.03, not counted twice) + 2 penalty = 7. White: 1 + 0 + 1 = 2.
    assert!(
        preview.contains("Итого дней: белые 2, черные 7\n"),
        "{preview}"
    );
}

#[test]
fn a_move_from_another_address_is_held_until_accepted() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let mut r = their_e5();
    r.from = "petrov@other.example";
    let out = me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    assert!(
        out.contains(
            "comes from petrov@other.example, not the address on file petrov@example.org (51.1.2"
        ),
        "{out}"
    );
    assert_eq!(sans(&show(&me, &id, "2026-03-06")), ["e4"]);
    let inbox = me.json(&["inbox"]);
    let held = &inbox[0];
    assert_eq!(held["from"], "petrov@other.example");
    // The user accepts the new address: the move is applied, the game's address changes.
    let msg = held["id"].as_i64().unwrap().to_string();
    me.ok(&[
        "--now",
        "2026-03-06",
        "inbox",
        "accept",
        &msg,
        "--game",
        &id,
    ]);
    let v = show(&me, &id, "2026-03-06");
    assert_eq!(sans(&v), ["e4", "e5"]);
    assert_eq!(v["opponent"], "petrov@other.example");
    assert_eq!(me.json(&["inbox"]), Value::Array(vec![]));
}

#[test]
fn a_forged_from_with_another_envelope_sender_is_held() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    // The partner's name and address in From:, but the server recorded another envelope
    // sender (Return-Path): someone else wrote it (51.1.2). Held, never applied.
    let r = their_e5();
    let raw = format!("Return-Path: <mallory@evil.example>\r\n{}", r.text(1));
    let out = me.apply_text("forged.eml", &raw, "2026-03-06");
    assert!(
        out.contains(
            "the envelope sender mallory@evil.example is not the From address petrov@example.org"
        ),
        "{out}"
    );
    assert_eq!(sans(&show(&me, &id, "2026-03-06")), ["e4"]);
    let inbox = me.json(&["inbox"]);
    assert_eq!(inbox.as_array().unwrap().len(), 1, "{inbox}");
    // The same message with the partner's own envelope sender is applied.
    let raw = format!("Return-Path: <petrov@example.org>\r\n{}", r.text(2));
    me.apply_text("real.eml", &raw, "2026-03-06");
    assert_eq!(sans(&show(&me, &id, "2026-03-06")), ["e4", "e5"]);
}

/// Mail no person wrote quotes our move message whole: a mail server's failure notice, the
/// partner's absence notice. Neither is the partner's move, nor a new address of theirs: each
/// is held, in words that say what it is, and the game does not change.
#[test]
fn a_bounce_and_an_auto_reply_quoting_our_move_are_held_in_words() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    // A move message's text, below each notice as it is (qmail's style), with no quote marks.
    let form = their_e5().text(1);
    let ours = form.split_once("\r\n\r\n").unwrap().1;
    let bounce = format!(
        "Return-Path: <>\r\nFrom: MAILER-DAEMON@mx.example.org\r\nTo: ivanov@example.org\r\n\
         Date: Mon, 02 Mar 2026 12:00:00 +0000\r\nMessage-ID: <b1@mx.example.org>\r\n\
         Subject: failure notice\r\n\r\nI'm afraid I wasn't able to deliver your message to \
         <petrov@example.org>.\r\nSorry, no mailbox here by that name. (#5.1.1)\r\n\r\n\
         --- Below this line is a copy of the message.\r\n\r\n{ours}"
    );
    let out = me.apply_text("bounce.eml", &bounce, "2026-03-02");
    assert!(
        out.contains(
            "a delivery failure notice from mailer-daemon@mx.example.org: a message of ours may \
             not have reached its recipient"
        ),
        "{out}"
    );
    assert!(!out.contains("inbox accept"), "{out}");
    // The partner's own absence notice, quoting the same.
    let auto = format!(
        "From: petrov@example.org\r\nTo: ivanov@example.org\r\nAuto-Submitted: auto-replied\r\n\
         Date: Mon, 02 Mar 2026 12:05:00 +0000\r\nMessage-ID: <a1@example.org>\r\n\
         Subject: Out of office\r\n\r\nI am away until 20 March.\r\n\r\n{ours}"
    );
    let out = me.apply_text("auto.eml", &auto, "2026-03-02");
    assert!(
        out.contains("an automatic reply from petrov@example.org"),
        "{out}"
    );
    let v = show(&me, &id, "2026-03-02");
    assert_eq!(sans(&v), ["e4"]);
    assert_eq!(v["opponent"], "petrov@example.org");
    assert_eq!(me.json(&["inbox"]).as_array().unwrap().len(), 2);
}

/// The totals a partner states are compared with the clock once his move is charged: wrong
/// ones are said in our next reply (message-form.md, "Notes"), right ones not at all.
#[test]
fn stated_totals_that_differ_from_the_clock_are_said_in_the_reply() {
    for (totals, differ) in [("белые 1, черные 2", false), ("белые 1, черные 5", true)]
    {
        let (me, id) = new_game();
        me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
        let mut r = their_e5();
        let extra = format!("Итого дней: {totals}\r\n");
        r.extra = &extra;
        me.apply_text("m.eml", &r.text(1), "2026-03-06");
        let preview = me.ok(&["--now", "2026-03-06", "move", &id, "Nf3", "--dry-run"]);
        let said = "указанные итоги, белые 1 и чёрные 5, расходятся с нашими: белые 1, чёрные 2";
        assert_eq!(preview.contains(said), differ, "{totals}\n{preview}");
        assert!(differ || !preview.contains("итоги"), "{preview}");
    }
}

#[test]
fn a_stranger_with_no_game_is_held_and_can_be_dismissed() {
    let (me, _) = new_game();
    let raw = "From: someone@example.net\r\nTo: ivanov@example.org\r\nDate: Thu, 05 Mar 2026 10:00:00 +0000\r\nMessage-ID: <x1@example.net>\r\nSubject: hello\r\n\r\nMy move: 1. e4\r\n";
    let out = me.apply_text("x.eml", raw, "2026-03-05");
    assert!(
        out.contains("no game with someone@example.net matches it"),
        "{out}"
    );
    me.ok(&["inbox", "dismiss", "1"]);
    assert_eq!(me.json(&["inbox"]), Value::Array(vec![]));
    assert!(
        me.fails(&["inbox", "dismiss", "1"])
            .contains("message 1 is not held (it is dismissed)")
    );
}

#[test]
fn applying_the_same_file_twice_changes_nothing() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let r = their_e5();
    me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    let before = show(&me, &id, "2026-03-07");
    let out = me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    assert!(out.contains("already stored; nothing changed"), "{out}");
    // Also when the copy arrives later with other headers but the same Message-ID.
    let again = r.text(1).replace(
        "To: ivanov@example.org",
        "To: ivanov@example.org, x@example.org",
    );
    me.apply_text("m1-copy.eml", &again, "2026-03-08");
    assert_eq!(show(&me, &id, "2026-03-07"), before);
}

#[test]
fn the_players_own_mistakes_are_refused_in_words() {
    let (me, id) = new_game();
    let err = me.fails(&["--now", "2026-03-02", "move", &id, "Bb5"]);
    assert!(
        err.contains("Bb5 is not playable: no bishop of White can go to b5"),
        "{err}"
    );
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let err = me.fails(&["--now", "2026-03-03", "move", &id, "d4"]);
    assert!(err.contains("it is not your move in game"), "{err}");
    let err = me.fails(&["show", "nosuchgame"]);
    assert!(err.contains("there is no game nosuchgame"), "{err}");
    let out = me.run(&["game", "new", "--event", "x"]);
    assert_eq!(out.status.code(), Some(2), "usage error");
}

#[test]
fn resignation_draws_and_the_end_of_the_game() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let mut r = their_e5();
    r.extra = "Предлагаю ничью\r\n";
    me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    assert_eq!(show(&me, &id, "2026-03-06")["draw_offered_by"], "black");
    // Accepting ends the game without a move.
    let out = me.ok(&[
        "--now",
        "2026-03-07",
        "move",
        &id,
        "Nf3",
        "--accept-draw",
        "--dry-run",
    ]);
    assert!(out.contains("Ничья принята"), "{out}");
    me.ok(&["--now", "2026-03-07", "resign", &id]);
    let v = show(&me, &id, "2026-03-07");
    assert_eq!(
        (v["status"].as_str(), v["result"].as_str()),
        (Some("finished"), Some("0-1"))
    );
    assert_eq!(me.json(&["games"]), Value::Array(vec![]));
    assert_eq!(me.json(&["games", "--all"]).as_array().unwrap().len(), 1);
    // The PGN says how it ended, from the resignation we sent.
    let pgn = me.ok(&["--now", "2026-03-07", "export", &id]);
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with("{White resigns} 0-1"), "{pgn}");
    // Mail for a finished game is held.
    let late = reply(
        "1. e4 e5",
        "1... e5",
        "05.03.2026",
        "06.03.2026",
        "2. Nf3",
        "08.03.2026",
    );
    let out = me.apply_text("late.eml", &late.text(9), "2026-03-09");
    assert!(out.contains("the game is finished"), "{out}");
}

#[test]
fn export_gives_pgn_with_dates_and_the_whole_mail() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let r = their_e5();
    me.apply_text("m1.eml", &r.text(1), "2026-03-06");
    let pgn = me.ok(&["--now", "2026-03-06", "export", &id, "--pgn"]);
    assert!(pgn.starts_with("[Event \"Кубок клуба 2026\"]\n[Site \"Email\"]\n[Date \"2026.03.01\"]\n[Round \"-\"]\n[White \"Иванов\"]\n[Black \"Петров\"]\n[Result \"*\"]\n[EventDate \"2026.03.01\"]\n[Mode \"EM\"]\n[WhiteNA \"ivanov@example.org\"]\n[BlackNA \"petrov@example.org\"]\n[ArbiterNA \"arbiter@example.org\"]\n[TimeControl \"10/5184000\"]\n[Termination \"unterminated\"]\n\n"), "{pgn}");
    assert!(pgn.lines().all(|l| l.chars().count() <= 80));
    let movetext = pgn
        .split("\n\n")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        movetext,
        "1. e4 {[%ccsnt 2026.03.02] [%ccrcv 2026.03.01] [%ccdays 1]} 1... e5 {[%ccsnt 2026.03.05] [%ccrcv 2026.03.03] [%ccdays 2]} *"
    );
    let mbox = me.ok(&["export", &id, "--mbox"]);
    assert_eq!(
        mbox.matches("\nFrom ").count() + usize::from(mbox.starts_with("From ")),
        2,
        "{mbox}"
    );
    assert!(mbox.contains("Message-ID: <petrov.1@example.org>"));
}

#[test]
fn output_cut_short_by_the_reader_is_not_a_crash() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"))
        .args(["show", &id])
        .env("CCMAIL_CONFIG", me.config())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_replys_statements_are_in_the_games_language() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    // Sent on 05.03 (Date:), stated as 04.03; our move confirmed as sent 01.03, not 02.03.
    let r = reply(
        "1. e4",
        "1. e4",
        "01.03.2026",
        "03.03.2026",
        "1... e5",
        "05.03.2026",
    );
    let text = r
        .text(1)
        .replace("Отправлен: 05.03.2026", "Отправлен: 04.03.2026");
    me.apply_text("m1.eml", &text, "2026-03-06");
    let preview = me.ok(&["--now", "2026-03-06", "move", &id, "Nf3", "--dry-run"]);
    assert!(
        preview.contains(
            "Замечания:\n- ход указан отправленным 04.03.2026, но отправлен 05.03.2026 (51.2.3)\n\
             - наш ход 1. 5254 отправлен 02.03.2026, а не 01.03.2026\n"
        ),
        "{preview}"
    );
}

/// Our messages of a game, each as (its header block, its decoded head), oldest first, with
/// `\n` line ends (they are kept with the CRLF they went out with).
fn our_mail(me: &Player, id: &str) -> Vec<(String, ccmail_mail::mime::Decoded)> {
    let mbox = me.ok(&["export", id, "--mbox"]).replace("\r\n", "\n");
    mbox.split("\nFrom ")
        .filter_map(|entry| {
            let (from_line, raw) = entry.split_once('\n')?;
            if !from_line.trim_start_matches("From ").starts_with("ivanov@") {
                return None;
            }
            let head = raw.split_once("\n\n").map_or(raw, |(head, _)| head);
            let d = ccmail_mail::mime::decode(raw.as_bytes()).ok()?;
            Some((head.to_owned(), d))
        })
        .collect()
}

/// A partner's Message-ID that is not printable ASCII (here Cyrillic, raw UTF-8) or is over
/// 250 characters can't go into a header of ours: it is left out of In-Reply-To and
/// References, the game's other ids stay, and the reply goes.
#[test]
fn a_partner_message_id_not_in_ascii_or_too_long_is_left_out_of_our_thread() {
    let (me, id) = new_game();
    let long = format!("{}@example.org", "x".repeat(239));
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let r = their_e5();
    let raw = r
        .text(1)
        .replace("<petrov.1@example.org>", "<ход.1@пример.рф>");
    me.apply_text("m1.eml", &raw, "2026-03-06");
    me.ok(&["--now", "2026-03-06", "move", &id, "Nf3", "--dry-run"]);
    me.ok(&["--now", "2026-03-06", "move", &id, "Nf3", "--yes"]);
    let r = reply(
        "1. e4 e5 2. Nf3",
        "2. Nf3",
        "06.03.2026",
        "08.03.2026",
        "2... Nc6",
        "10.03.2026",
    );
    let raw = r.text(2).replace("petrov.2@example.org", &long);
    me.apply_text("m2.eml", &raw, "2026-03-11");
    me.ok(&["--now", "2026-03-11", "move", &id, "Bb5", "--yes"]);
    let r = reply(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5",
        "3. Bb5",
        "11.03.2026",
        "12.03.2026",
        "3... a6",
        "13.03.2026",
    );
    me.apply_text("m3.eml", &r.text(3), "2026-03-14");
    me.ok(&["--now", "2026-03-14", "move", &id, "Ba4", "--yes"]);

    let ours = our_mail(&me, &id);
    assert_eq!(ours.len(), 4);
    let ids: Vec<&str> = ours
        .iter()
        .map(|(_, d)| d.message_id.as_deref().unwrap())
        .collect();
    // After the Cyrillic id: our own first message is the last one that can be named.
    assert_eq!(ours[1].1.in_reply_to, [ids[0]]);
    assert_eq!(ours[1].1.references, [ids[0]]);
    // After the long one: the same, and our second message.
    assert_eq!(ours[2].1.in_reply_to, [ids[1]]);
    assert_eq!(ours[2].1.references, [ids[0], ids[1]]);
    // A valid id of the partner's is answered again.
    assert_eq!(ours[3].1.in_reply_to, ["petrov.3@example.org"]);
    assert_eq!(
        ours[3].1.references,
        [ids[0], ids[1], ids[2], "petrov.3@example.org"]
    );
    for (head, _) in &ours {
        assert!(head.is_ascii(), "{head}");
        assert!(!head.contains("xxxxxxxxxx"), "{head}");
    }
}

/// A held message is never answered: our next message names in In-Reply-To and References
/// the game's own mail only, not a move held beside it because it came from another address
/// (51.1.2), though it was held as the game's.
#[test]
fn a_held_message_is_never_named_in_our_thread() {
    let (me, id) = new_game();
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let mut r = their_e5();
    r.from = "petrov@other.example";
    let out = me.apply_text("other.eml", &r.text(1), "2026-03-06");
    assert!(out.contains(&format!("it looks like game {id}")), "{out}");
    r.from = "petrov@example.org";
    me.apply_text("real.eml", &r.text(2), "2026-03-06");
    me.ok(&["--now", "2026-03-06", "move", &id, "Nf3", "--yes"]);
    let ours = our_mail(&me, &id);
    let first = ours[0].1.message_id.as_deref().unwrap();
    assert_eq!(ours[1].1.in_reply_to, ["petrov.2@example.org"]);
    assert_eq!(ours[1].1.references, [first, "petrov.2@example.org"]);
}
