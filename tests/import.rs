//! `ccmail game import`: games brought in under way — from a partner's hand-written message,
//! ChessBase, lichess, cmail and Scid, an mbox and ccmail's own PGN — and the next message
//! from the partner applies with no fine on either side.

mod common;

use common::{Player, fixtures, sans, sent_letters};
use serde_json::Value;

fn ivanov() -> Player {
    Player::new("Иванов Иван", "Иванов", "ivanov@example.org")
}

fn petrov() -> Player {
    Player::new("Петров Пётр", "Петров", "petrov@example.org")
}

/// Writes `text` in the player's home and imports it; the ids printed.
fn import(p: &Player, name: &str, text: &str, flags: &[&str]) -> Vec<String> {
    let path = p.home.path().join(name);
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["game", "import", path.to_str().unwrap()];
    args.extend(flags);
    p.ok(&args).lines().map(str::to_owned).collect()
}

fn show(p: &Player, game: &str, day: &str) -> Value {
    p.json(&["--now", day, "show", game])
}

fn totals(v: &Value) -> (i64, i64) {
    let t = |c: &str| v["clock"][c]["total"].as_i64().unwrap();
    (t("white"), t("black"))
}

/// No penalty on either clock, no problem, nothing held and no correction request sent.
fn no_fine(p: &Player, game: &str, day: &str) {
    let v = show(p, game, day);
    for color in ["white", "black"] {
        assert_eq!(v["clock"][color]["penalty"], 0, "{v}");
    }
    assert_eq!(v["problems"], serde_json::json!([]), "{v}");
    assert!(
        sent_letters(p, game)
            .iter()
            .all(|(raw, _)| !raw.contains("51.3.4") && !raw.contains("51.4.7")),
        "a correction request went out"
    );
    assert!(p.ok(&["inbox"]).contains("No held messages"), "held mail");
}

/// `p` applies `raw`, received on `day`; what apply printed.
fn receive(p: &Player, name: &str, raw: &str, day: &str) -> String {
    p.apply_text(name, raw, day)
}

/// The letters `from` sent in `game` after the first `after`, applied by `to` on `day`.
fn post(from: &Player, game: &str, after: usize, to: &Player, day: &str) -> usize {
    let letters = sent_letters(from, game);
    for (i, (raw, _)) in letters.iter().enumerate().skip(after) {
        let out = receive(to, &format!("post-{day}-{i}.eml"), raw, day);
        assert!(out.contains("applied"), "{out}");
    }
    letters.len()
}

const AT_MOVE_20: &str = "From: =?UTF-8?B?0J/QtdGC0YDQvtCyINCf0ZHRgtGA?= <petrov@example.org>\n\
To: ivanov@example.org\nCc: arbiter@example.org\n\
Subject: =?UTF-8?B?0JrRg9Cx0L7QuiDQutC70YPQsdCwIDIwMjY=?=\n\
Date: Wed, 24 Jun 2026 21:40:00 +0300\nMessage-ID: <move20@example.org>\n\
Received: from mx.example.org by mail.example.org; Thu, 25 Jun 2026 08:01:00 +0300\n\
MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n\
Иван, привет!\n\nТурнир: Кубок клуба 2026\nСтарт: 01.03.2026\nБелые: Иванов\nЧерные: Петров\n\
Ходы: 1. 3234 7776 2. 4243 6765 3. 5253 5756 4. 4185 7866 5. 5142 6678 6. 2113 6824 \
7. 4232 1715 8. 5354 5857 9. 5455 7886 10. 1321 4868 11. 8541 3736 12. 7152 1514 \
13. 3142 1815 14. 4253 1555 15. 5331 2446 16. 7274 5535 17. 1213 6564 18. 5244 2816 \
19. 8171 6848 20. 4436\nВаш ход 20. 4436 отправлен: 20.06.2026\nПолучен: 22.06.2026\n\
Мой ход: 20... 5767\nОтправлен: 24.06.2026\nВремя на ход: 2\n\
Итого дней: белые 41, черные 38\n\nПетров Пётр\n";

#[test]
fn a_partner_s_hand_written_russian_message_at_move_20() {
    let me = ivanov();
    let ids = import(&me, "last.eml", AT_MOVE_20, &[]);
    assert_eq!(ids.len(), 1);
    let id = &ids[0];
    let v = show(&me, id, "2026-06-26");
    assert_eq!(v["moves"].as_array().unwrap().len(), 40);
    assert_eq!(
        (&v["my_color"], &v["opponent"], &v["arbiter"]),
        (
            &Value::from("white"),
            &Value::from("petrov@example.org"),
            &Value::from("arbiter@example.org")
        )
    );
    assert_eq!(v["event"], "Кубок клуба 2026", "{v}");
    assert_eq!(totals(&v), (41, 38), "the totals the message stated");
    assert_eq!(
        v["running_days"], 1,
        "ours runs from the 25th, the day it arrived"
    );
    assert_eq!(v["to_move"], "white");

    // Importing again changes nothing.
    assert_eq!(&import(&me, "again.eml", AT_MOVE_20, &[]), &ids);
    assert_eq!(me.json(&["games"]).as_array().unwrap().len(), 1);

    // Its PGN carries the stated totals where the dates are not known, and comes back the same.
    let pgn = me.ok(&["export", id, "--pgn"]);
    let words = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words
            .contains("20. Nxc6+ Kf7 {[%ccsnt 2026.06.24] [%ccrcv 2026.06.22] [%cctotal 41 38]} *"),
        "{pgn}"
    );
    assert!(words.contains("1. c4 g6 2. d3"), "no dates before: {pgn}");
    let copy = ivanov();
    let again = import(
        &copy,
        "exported.pgn",
        &pgn,
        &["--opponent", "petrov@example.org"],
    )[0]
    .clone();
    let (a, b) = (
        show(&copy, &again, "2026-06-26"),
        show(&me, id, "2026-06-26"),
    );
    assert_eq!(totals(&a), totals(&b));
    assert_eq!(sans(&a), sans(&b));
    // The day his move reached us is not in a PGN: then it is the day it was sent (51.2.3).
    assert_eq!(a["running_days"], 2);

    // We answer on the 26th; the partner's next hand-written message comes on the 30th.
    me.ok(&["--now", "2026-06-26", "move", id, "3628", "--yes"]);
    let (_, ours) = &sent_letters(&me, id)[0];
    assert!(ours.text.contains("Получен: 25.06.2026"), "{}", ours.text);
    assert!(
        ours.text.contains("Итого дней: белые 42, черные 38"),
        "{}",
        ours.text
    );
    let next = AT_MOVE_20
        .replace("<move20@", "<move21@")
        .replace(
            "Date: Wed, 24 Jun 2026 21:40:00",
            "Date: Mon, 29 Jun 2026 20:00:00",
        )
        .replace(
            "20. 4436\nВаш ход 20. 4436 отправлен: 20.06.2026\nПолучен: 22.06.2026\n",
            "20. 4436 5767 21. 3628\nВаш ход 21. 3628 отправлен: 26.06.2026\n\
             Получен: 27.06.2026\n",
        )
        .replace(
            "Мой ход: 20... 5767\nОтправлен: 24.06.2026",
            "Мой ход: 21... 8878\nОтправлен: 29.06.2026",
        )
        .replace("белые 41, черные 38", "белые 42, черные 40");
    let out = receive(&me, "next.eml", &next, "2026-06-30");
    assert!(out.contains("applied"), "{out}");
    no_fine(&me, id, "2026-06-30");
    let v = show(&me, id, "2026-06-30");
    assert_eq!(totals(&v), (42, 40));
    assert_eq!(v["moves"].as_array().unwrap().len(), 42);
}

/// A ChessBase correspondence game: `[%ccsnt]` dates, a NAG, a variation with a comment.
const CHESSBASE: &str = include_str!("fixtures/import/chessbase.pgn");

#[test]
fn a_chessbase_pgn_with_ccsnt_then_two_ccmail_homes_play_on() {
    let (white, black) = (ivanov(), petrov());
    let w = import(&white, "cb.pgn", CHESSBASE, &[])[0].clone();
    let b = import(&black, "cb.pgn", CHESSBASE, &[])[0].clone();
    let v = show(&white, &w, "2026-03-10");
    assert_eq!(sans(&v), ["e4", "c5", "Nf3", "d6"]);
    assert_eq!(
        (&v["my_color"], &v["arbiter"]),
        (&Value::from("white"), &Value::Null)
    );
    let days: Vec<i64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["days"].as_i64().unwrap())
        .collect();
    assert_eq!(
        days,
        [1, 2, 2, 3],
        "received = the previous move's send date (51.2.3)"
    );
    assert_eq!(show(&black, &b, "2026-03-10")["my_color"], "black");
    assert_eq!(
        v["control"],
        serde_json::json!({"moves": 10, "days": 60}),
        "{v}"
    );

    white.ok(&["--now", "2026-03-11", "move", &w, "d4", "--yes"]);
    let posted = post(&white, &w, 0, &black, "2026-03-12");
    no_fine(&black, &b, "2026-03-12");
    black.ok(&["--now", "2026-03-13", "move", &b, "cxd4", "--yes"]);
    post(&black, &b, 0, &white, "2026-03-14");
    no_fine(&white, &w, "2026-03-14");
    assert_eq!(posted, 1);
    let (vw, vb) = (
        show(&white, &w, "2026-03-14"),
        show(&black, &b, "2026-03-14"),
    );
    assert_eq!(sans(&vw), sans(&vb));
    assert_eq!(totals(&vw), totals(&vb), "both homes count the same days");
    assert_eq!(totals(&vw), (5, 6));
}

const LICHESS: &str = "[Event \"Casual correspondence game\"]\n\
[Site \"https://lichess.org/abcdefgh\"]\n[Date \"2026.02.11\"]\n[White \"ivanov\"]\n\
[Black \"petrov\"]\n[Result \"*\"]\n[TimeControl \"-\"]\n[Variant \"Standard\"]\n\n\
1. d4 { [%clk 72:00:00] } 1... Nf6 { [%clk 71:59:58] } 2. c4 { [%clk 71:10:00] } *\n";

#[test]
fn a_lichess_pgn_needs_the_opponent_and_then_plays_on() {
    let me = ivanov();
    let path = me.home.path().join("lichess.pgn");
    std::fs::write(&path, LICHESS).unwrap();
    let file = path.to_str().unwrap();
    let err = me.fails(&["game", "import", file]);
    assert!(
        err.contains("your colour") && err.contains("--color"),
        "{err}"
    );
    let err = me.fails(&["game", "import", file, "--color", "white"]);
    assert!(
        err.contains("opponent's address") && err.contains("--opponent"),
        "{err}"
    );
    let id = import(
        &me,
        "lichess.pgn",
        LICHESS,
        &["--color", "white", "--opponent", "petrov@example.org"],
    )[0]
    .clone();
    let v = show(&me, &id, "2026-02-20");
    assert_eq!(totals(&v), (0, 0), "no dates, no totals: nothing carried");
    assert_eq!(v["to_move"], "black");
    let next = "From: petrov@example.org\nTo: ivanov@example.org\nSubject: lichess\n\
                Date: Sat, 21 Feb 2026 10:00:00 +0300\nMessage-ID: <l2@example.org>\n\n\
                Турнир: Casual correspondence game\nСтарт: 11.02.2026\nБелые: ivanov\n\
                Черные: petrov\nХоды: 1. 4244 7866 2. 3234\nМой ход: 2... 5756\n\
                Отправлен: 21.02.2026\n";
    let out = receive(&me, "next.eml", next, "2026-02-21");
    assert!(out.contains("applied"), "{out}");
    no_fine(&me, &id, "2026-02-21");
}

#[test]
fn a_cmail_message_then_the_partner_s_next() {
    let holm = Player::new("Anders Holm", "Holm", "anders.holm@example.com");
    let raw = std::fs::read_to_string(fixtures().join("09-xboard-cmail-white.eml")).unwrap();
    let id = import(&holm, "cmail.eml", &raw, &[])[0].clone();
    let v = show(&holm, &id, "2026-04-16");
    assert_eq!(
        (&v["my_color"], &v["opponent"]),
        (
            &Value::from("black"),
            &Value::from("p.lindqvist@example.net")
        )
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 39);
    holm.ok(&["--now", "2026-04-16", "move", &id, "Nxd4", "--yes"]);
    let next = raw
        .replace("Message-Id: <20260415180248", "Message-Id: <20260418120000")
        .replace("15 Apr 2026", "18 Apr 2026")
        .replace("20. Nxd4 *", "20. Nxd4 Nxd4 21. Bxd4 *");
    let out = receive(&holm, "next.eml", &next, "2026-04-18");
    assert!(out.contains("applied"), "{out}");
    no_fine(&holm, &id, "2026-04-18");
    assert_eq!(
        sans(&show(&holm, &id, "2026-04-18")).last().unwrap(),
        "Bxd4"
    );
}

#[test]
fn a_scid_mail_then_the_partner_s_next() {
    let brandt = Player::new("Jonas Brandt", "Brandt", "j.brandt@example.com");
    let raw = std::fs::read_to_string(fixtures().join("10-scid-thunderbird-black.eml")).unwrap();
    let id = import(&brandt, "scid.eml", &raw, &[])[0].clone();
    let v = show(&brandt, &id, "2026-03-31");
    assert_eq!(
        (&v["my_color"], &v["opponent"], &v["to_move"]),
        (
            &Value::from("white"),
            &Value::from("katrin.vogel@example.de"),
            &Value::from("white")
        )
    );
    brandt.ok(&["--now", "2026-03-31", "move", &id, "Rb1", "--yes"]);
    let next = raw
        .replace("<6c1d8e2fa0b3.", "<7d2e9f3ab1c4.")
        .replace("Mon, 30 Mar 2026", "Thu, 2 Apr 2026")
        .replace("18. Nxb4 Qxb4 *", "18. Nxb4 Qxb4 19. Rb1 Rac8 *")
        .replace("18.Nxb4 Qxb4", "18.Nxb4 Qxb4 19.Rb1 Rac8");
    let out = receive(&brandt, "next.eml", &next, "2026-04-02");
    assert!(out.contains("applied"), "{out}");
    no_fine(&brandt, &id, "2026-04-02");
}

/// White and Black create the same game, play three moves through files, and White keeps
/// the mail; their ids.
fn three_moves(white: &Player, black: &Player) -> (String, String) {
    let new = |p: &Player, color: &str, opponent: &str| common::cup_game(p, color, opponent, &[]);
    let w = new(white, "white", "petrov@example.org");
    let b = new(black, "black", "ivanov@example.org");
    white.ok(&["--now", "2026-03-02", "move", &w, "e4", "--yes"]);
    post(white, &w, 0, black, "2026-03-03");
    black.ok(&["--now", "2026-03-05", "move", &b, "c5", "--yes"]);
    post(black, &b, 0, white, "2026-03-06");
    white.ok(&["--now", "2026-03-06", "move", &w, "Nf3", "--yes"]);
    post(white, &w, 1, black, "2026-03-08");
    (w, b)
}

/// What must survive an import: the moves with their dates and days, and both clocks.
fn kept(v: &Value) -> Value {
    serde_json::json!({ "moves": v["moves"], "clock": v["clock"], "to_move": v["to_move"] })
}

#[test]
fn an_mbox_of_the_game_s_mail_and_the_partner_plays_on() {
    let (white, black) = (ivanov(), petrov());
    let (w, b) = three_moves(&white, &black);
    let mbox = white.ok(&["export", &w, "--mbox"]);
    let fresh = ivanov();
    // Moves go to the partner alone: the arbiter's address is not in this mail.
    let id = import(
        &fresh,
        "game.mbox",
        &mbox,
        &["--arbiter", "arbiter@example.org"],
    )[0]
    .clone();
    assert_eq!(
        kept(&show(&fresh, &id, "2026-03-08")),
        kept(&show(&white, &w, "2026-03-08"))
    );
    assert_eq!(
        show(&fresh, &id, "2026-03-08")["arbiter"],
        "arbiter@example.org"
    );
    black.ok(&["--now", "2026-03-09", "move", &b, "d6", "--yes"]);
    post(&black, &b, 1, &fresh, "2026-03-10");
    no_fine(&fresh, &id, "2026-03-10");
    post(&black, &b, 1, &white, "2026-03-10");
    assert_eq!(
        kept(&show(&fresh, &id, "2026-03-10")),
        kept(&show(&white, &w, "2026-03-10"))
    );
    // The imported game answers; the partner's ccmail, which kept the game from the start,
    // takes it with no fine.
    let imported = sent_letters(&fresh, &id).len();
    assert_eq!(imported, 2, "our own letters in the mbox are kept as sent");
    fresh.ok(&["--now", "2026-03-11", "move", &id, "d4", "--yes"]);
    post(&fresh, &id, imported, &black, "2026-03-12");
    no_fine(&black, &b, "2026-03-12");
    assert_eq!(sans(&show(&black, &b, "2026-03-12")).last().unwrap(), "d4");
}

#[test]
fn ccmail_s_own_pgn_comes_back_the_same_active_and_finished() {
    let (white, black) = (ivanov(), petrov());
    let (w, _) = three_moves(&white, &black);
    let active = white.ok(&["export", &w, "--pgn"]);
    let fresh = ivanov();
    let id = import(&fresh, "active.pgn", &active, &[])[0].clone();
    assert_eq!(
        kept(&show(&fresh, &id, "2026-03-09")),
        kept(&show(&white, &w, "2026-03-09"))
    );

    white.ok(&["--now", "2026-03-09", "resign", &w, "--yes"]);
    let finished = white.ok(&["export", &w, "--pgn"]);
    let again = ivanov();
    let id = import(&again, "finished.pgn", &finished, &[])[0].clone();
    let (v, orig) = (
        show(&again, &id, "2026-03-20"),
        show(&white, &w, "2026-03-20"),
    );
    assert_eq!(kept(&v), kept(&orig));
    assert_eq!(
        (&v["status"], &v["result"]),
        (&Value::from("finished"), &Value::from("0-1"))
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    assert_eq!(
        rt.block_on(common::pass(&again, "2026-03-20")),
        Vec::<String>::new(),
        "a game brought in finished: its PGN was the player's to send then"
    );
}

#[test]
fn a_broken_or_empty_file_is_refused_in_words() {
    let me = ivanov();
    let path = me.home.path().join("broken.pgn");
    std::fs::write(
        &path,
        "[Event \"Cup\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n",
    )
    .unwrap();
    let err = me.fails(&["game", "import", path.to_str().unwrap()]);
    assert!(err.contains("Ke3") && err.contains("broken.pgn"), "{err}");
    std::fs::write(&path, "Subject: hello\n\nJust a note.\n").unwrap();
    let err = me.fails(&["game", "import", path.to_str().unwrap()]);
    assert!(err.contains("no message in it carries a move"), "{err}");
    assert_eq!(me.json(&["games"]), serde_json::json!([]));
}

#[test]
fn an_imported_friendly_game_copies_no_arbiter_in_any_chore() {
    let me = ivanov();
    let id = import(&me, "cb.pgn", CHESSBASE, &[])[0].clone();
    assert_eq!(show(&me, &id, "2026-03-10")["arbiter"], Value::Null);
    me.ok(&["--now", "2026-03-11", "move", &id, "d4", "--yes"]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    // 51.5.1: no answer in 14 days: the repeat, to the partner alone.
    let done = rt.block_on(common::pass(&me, "2026-03-25"));
    assert_eq!(done.len(), 1, "{done:?}");
    me.ok(&["--now", "2026-03-26", "resign", &id, "--yes"]);
    let done = rt.block_on(common::pass(&me, "2026-03-26"));
    assert_eq!(done, Vec::<String>::new(), "no arbiter to send the PGN to");
    let to: Vec<String> = common::outgoing(&me, &id)
        .into_iter()
        .map(|(to, _, _)| to)
        .collect();
    assert_eq!(to, ["petrov@example.org"; 3], "move, repeat, resignation");
}

/// Writes `bytes` in the player's home and imports them; the ids printed.
fn import_bytes(p: &Player, name: &str, bytes: &[u8], flags: &[&str]) -> Vec<String> {
    let path = p.home.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    let mut args = vec!["game", "import", path.to_str().unwrap()];
    args.extend(flags);
    p.ok(&args).lines().map(str::to_owned).collect()
}

/// A one-game PGN of Ivanov's with these names, dated, Black (`black`) to answer 2. Nf3.
fn named_pgn(event: &str, black: &str) -> String {
    format!(
        "[Event \"{event}\"]\n[Site \"ICCF\"]\n[Date \"2026.03.01\"]\n[Round \"4\"]\n\
         [White \"Иванов, Иван\"]\n[Black \"{black}\"]\n[Result \"*\"]\n\
         [WhiteNA \"ivanov@example.org\"]\n[BlackNA \"partner@example.org\"]\n\n\
         1. e4 {{[%ccsnt 2026.03.02]}} 1... c5 {{[%ccsnt 2026.03.04]}} \
         2. Nf3 {{[%ccsnt 2026.03.06]}} *\n"
    )
}

#[test]
fn a_windows_1251_or_latin_1_pgn_imports_with_its_names_and_only_once() {
    let me = ivanov();
    // ChessBase writes a Russian user's PGN in windows-1251; the PGN standard's charset is
    // Latin-1.
    let russian = named_pgn("Кубок клуба 2026", "Петров, Пётр");
    let cp1251: Vec<u8> = russian
        .chars()
        .map(|c| match c {
            'А'..='я' => u8::try_from(u32::from(c) - 0x410 + 0xC0).unwrap(),
            'ё' => 0xB8,
            c => u8::try_from(u32::from(c)).unwrap(),
        })
        .collect();
    assert!(std::str::from_utf8(&cp1251).is_err());
    let id = import_bytes(&me, "cb.pgn", &cp1251, &[])[0].clone();
    let v = show(&me, &id, "2026-03-07");
    assert_eq!(
        (&v["event"], &v["white"], &v["black"]),
        (
            &Value::from("Кубок клуба 2026"),
            &Value::from("Иванов, Иван"),
            &Value::from("Петров, Пётр")
        )
    );
    assert_eq!(import_bytes(&me, "again.pgn", &cp1251, &[]), [id.as_str()]);

    // Müller in Latin-1 (the Cyrillic White written as a Latin name: Latin-1 has no Cyrillic).
    let german =
        named_pgn("ICCF Email 2026", "Müller, Jürgen").replace("Иванов, Иван", "Ivanov, Ivan");
    let latin1: Vec<u8> = german
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect();
    let other = import_bytes(&me, "l1.pgn", &latin1, &[])[0].clone();
    assert_ne!(other, id);
    assert_eq!(show(&me, &other, "2026-03-07")["black"], "Müller, Jürgen");
    assert_eq!(
        import_bytes(&me, "l1-again.pgn", &latin1, &[]),
        [other.as_str()]
    );
    let listed = me.json(&["games"]);
    assert_eq!(listed.as_array().unwrap().len(), 2, "{listed}");
    // Told the charset, the file is read as told.
    let fresh = ivanov();
    let told = import_bytes(&fresh, "l1.pgn", &latin1, &["--encoding", "windows-1251"]);
    assert_eq!(
        show(&fresh, &told[0], "2026-03-07")["black"],
        "Mьller, Jьrgen"
    );
    let path = fresh.home.path().join("l1.pgn");
    let err = fresh.fails(&[
        "game",
        "import",
        path.to_str().unwrap(),
        "--encoding",
        "koi9",
    ]);
    assert!(err.contains("unknown encoding"), "{err}");
}

#[test]
fn an_export_imported_again_keeps_the_arbiter_the_round_and_the_clocks() {
    let me = ivanov();
    let pgn = named_pgn("Кубок клуба 2026", "Петров, Пётр");
    let id = import(&me, "cup.pgn", &pgn, &["--arbiter", "arbiter@example.org"])[0].clone();
    // Black was fined two days for his 1... c5 (51.4.7): a penalty is part of his clock.
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let store = ccmail_store::Store::open(&me.home.path().join("ccmail.db"))
            .await
            .unwrap();
        let penalty = ccmail_store::PenaltyRow {
            id: 0,
            game_id: id.clone(),
            player: "black".into(),
            days: 2,
            cause: Ok(ccmail_core::clock::PenaltyCause::WrongRepetition),
            ply: 2,
            message: None,
            created_at: "2026-03-04T12:00:00+03:00".into(),
        };
        let mut conn = store.conn().await.unwrap();
        ccmail_store::insert_penalty(&mut conn, &penalty)
            .await
            .unwrap();
        // … he had a day more for a correction he was asked for (51.4.8) …
        let extra = ccmail_store::ExtraRow {
            id: 0,
            game_id: id.clone(),
            player: "black".into(),
            from_date: "2026-03-04".parse().unwrap(),
            to_date: "2026-03-05".parse().unwrap(),
            kind: ccmail_store::ExtraPeriodKind::CorrectionRequest,
            fault: Some(Ok(ccmail_core::clock::PenaltyCause::Impossible)),
            ply: 2,
        };
        ccmail_store::insert_extra(&mut conn, &extra).await.unwrap();
        // … and he is on a break from the 10th to the 14th (51.7), announced on the 8th.
        let pause = ccmail_store::BreakRow {
            id: 0,
            game_id: Some(id.clone()),
            from_date: "2026-03-10".parse().unwrap(),
            to_date: "2026-03-14".parse().unwrap(),
            notice_date: Some("2026-03-08".parse().unwrap()),
            ended_on: None,
            created_at: "2026-03-08T12:00:00+03:00".into(),
        };
        ccmail_store::insert_break(&mut conn, &pause).await.unwrap();
        drop(conn);
        store.close().await;
    });
    let before = show(&me, &id, "2026-03-20");
    assert_eq!(before["clock"]["black"]["penalty"], 2, "{before}");
    let exported = me.ok(&["export", &id, "--pgn"]);
    for mark in [
        "[%ccpen black 2 wrong_repetition 2]",
        "[%ccextra black 2026.03.04 2026.03.05 correction_request impossible 2]",
        "[%ccbreak 2026.03.10 2026.03.14 2026.03.08 -]",
    ] {
        assert!(exported.contains(mark), "{mark}: {exported}");
    }
    assert!(exported.contains("[Round \"4\"]"), "{exported}");
    assert!(
        exported.contains("[ArbiterNA \"arbiter@example.org\"]"),
        "{exported}"
    );
    let fresh = ivanov();
    let again = import(&fresh, "exported.pgn", &exported, &[])[0].clone();
    let (a, b) = (
        show(&fresh, &again, "2026-03-20"),
        show(&me, &id, "2026-03-20"),
    );
    assert_eq!(
        a["arbiter"], "arbiter@example.org",
        "not a friendly game now"
    );
    assert_eq!(kept(&a), kept(&b));
    assert_eq!(a["deadlines"], b["deadlines"]);
    assert_eq!(
        fresh.ok(&["export", &again, "--pgn"]),
        exported,
        "and back the same"
    );
}

/// Our 2. Nf3 is the last move, and the file has no date at all.
const NO_DATES: &str = "[Event \"Кубок клуба 2026\"]\n[Date \"2026.03.01\"]\n\
[White \"Иванов\"]\n[Black \"Петров\"]\n[WhiteNA \"ivanov@example.org\"]\n\
[BlackNA \"petrov@example.org\"]\n[Result \"*\"]\n\n1. e4 c5 2. Nf3 *\n";

#[test]
fn a_game_imported_without_dates_runs_no_clock_and_queues_no_repeat_until_dated() {
    let me = ivanov();
    let path = me.home.path().join("nodates.pgn");
    std::fs::write(&path, NO_DATES).unwrap();
    let out = me.run(&[
        "--now",
        "2026-04-20",
        "game",
        "import",
        path.to_str().unwrap(),
        "--arbiter",
        "arbiter@example.org",
    ]);
    assert!(out.status.success());
    let id = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let note = String::from_utf8(out.stderr).unwrap();
    assert!(
        note.contains("when your last move (2. Nf3) was sent")
            && note.contains(&format!("ccmail game set {id} --last-sent")),
        "{note}"
    );
    let v = show(&me, &id, "2026-04-20");
    assert_eq!(v["deadlines"], serde_json::json!([]), "{v}");
    assert_eq!(v["running_days"], 0);
    assert_eq!(v["problems"][0]["code"], "last_sent_unknown", "{v}");
    let listing = me.ok(&["--now", "2026-04-20", "games"]);
    assert!(
        listing.contains("the date our last move was sent is not known")
            && !listing.contains("40 days"),
        "{listing}"
    );
    let rt = tokio::runtime::Runtime::new().unwrap();
    assert_eq!(
        rt.block_on(common::pass(&me, "2026-04-20")),
        Vec::<String>::new()
    );
    // The partner's answer comes: applied, and no repeat of ours goes out with it.
    let answer = "From: petrov@example.org\nTo: ivanov@example.org\nCc: arbiter@example.org\n\
                  Subject: move\nDate: Tue, 21 Apr 2026 10:00:00 +0300\n\
                  Message-ID: <nd1@example.org>\n\nТурнир: Кубок клуба 2026\nСтарт: 01.03.2026\n\
                  Белые: Иванов\nЧерные: Петров\nХоды: 1. 5254 3735 2. 7163\n\
                  Мой ход: 2... 4746\nОтправлен: 21.04.2026\n";
    let applied = receive(&me, "answer.eml", answer, "2026-04-21");
    assert!(applied.contains("applied"), "{applied}");
    assert!(sent_letters(&me, &id).is_empty(), "a repeat went out");
    let v = show(&me, &id, "2026-04-21");
    assert_eq!(v["problems"], serde_json::json!([]), "{v}");
    assert_eq!(v["to_move"], "white");
    // Nothing says when he had our move: his answer is not charged from the start date.
    assert_eq!(totals(&v), (0, 0), "{v}");

    // Another such game, dated afterwards: from then on the repeat is due as for any game.
    let other = ivanov();
    let id = import(&other, "nodates.pgn", NO_DATES, &[])[0].clone();
    let out = other.ok(&[
        "--now",
        "2026-04-20",
        "game",
        "set",
        &id,
        "--last-sent",
        "2026-04-01",
    ]);
    assert!(out.contains("last-sent"), "{out}");
    let v = show(&other, &id, "2026-04-20");
    assert_eq!(
        v["deadlines"][0],
        serde_json::json!({"kind": "repeat", "date": "2026-04-15"})
    );
    assert_eq!(v["running_days"], 19);
}

#[test]
fn a_russian_numeric_letter_is_answered_in_russian_numeric_whatever_the_config_says() {
    let me = ivanov();
    let mut config = std::fs::read_to_string(me.config()).unwrap();
    config.push_str("\n[defaults]\nlanguage = \"en\"\nnotation = \"san\"\n");
    std::fs::write(me.config(), config).unwrap();
    let id = import(&me, "last.eml", AT_MOVE_20, &[])[0].clone();
    me.ok(&["--now", "2026-06-26", "move", &id, "3628", "--yes"]);
    let (_, ours) = &sent_letters(&me, &id)[0];
    assert!(
        ours.text.contains("Мой ход: 21. 3628") && ours.text.contains("Итого дней"),
        "{}",
        ours.text
    );
    // A game made with `game new` still takes the config's.
    let new = common::cup_game(&me, "white", "sidorov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &new, "e4", "--yes"]);
    let (_, first) = &sent_letters(&me, &new)[0];
    assert!(first.text.contains("My move: 1. e4"), "{}", first.text);
}
