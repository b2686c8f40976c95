//! The rules' chores and the commands for the rules' duties (breaks, claims, adjudication, a
//! new address), checked in the store (what is queued, to whom, saying what). The same chores on real mail servers are in the end-to-end tests.

mod common;

use ccmail_store::Store;
use common::{Player, full_pass, outgoing, pass, scholars_mate};
use serde_json::Value;

fn new_game(me: &Player, opponent: &str, rules: &str) -> String {
    new_game_with(me, opponent, &["--rules", rules])
}

fn new_game_with(me: &Player, opponent: &str, extra: &[&str]) -> String {
    common::cup_game(me, "white", opponent, extra)
}

#[tokio::test]
async fn the_repeat_goes_on_day_14_not_13_with_the_arbiter_copied() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = new_game(&me, "petrov@example.org", "article51");
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    assert!(pass(&me, "2026-03-15").await.is_empty(), "day 13: nothing");
    assert_eq!(outgoing(&me, &id).len(), 1);
    let done = pass(&me, "2026-03-16").await;
    assert_eq!(
        done,
        [format!(
            "game {id}: our move repeated, Cc the arbiter (51.5.1)"
        )]
    );
    let out = outgoing(&me, &id);
    let (to, subject, text) = &out[1];
    assert_eq!(to, "petrov@example.org,arbiter@example.org");
    assert_eq!(
        subject,
        "ПОВТОР: Кубок клуба 2026: Иванов – Петров, 1. 5254"
    );
    assert!(
        text.contains("Мой ход: 1. 5254\nПОВТОР хода от 02.03.2026\nОтправлен: 02.03.2026\n"),
        "{text}"
    );
    // Once is enough until the next one is due, 14 days later.
    assert!(pass(&me, "2026-03-17").await.is_empty());
    assert!(pass(&me, "2026-03-29").await.is_empty());
    assert_eq!(pass(&me, "2026-03-30").await.len(), 1);
}

#[tokio::test]
async fn no_repeat_while_the_partner_is_on_break() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = new_game(&me, "petrov@example.org", "article51");
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    // Petrov announces a break 05.03–14.03 (10 days): his 14 days end on 26.03, not 16.03.
    let notice = "From: petrov@example.org\r\nDate: Wed, 04 Mar 2026 10:00:00 +0300\r\nMessage-ID: <b1@example.org>\r\nSubject: break\r\n\r\nТурнир: Кубок клуба 2026\r\nБеру перерыв с 05.03.2026 по 14.03.2026\r\n";
    let notice = common::signed_by_sender(&me, notice);
    let out = me.apply_text("b.eml", &notice, "2026-03-04");
    assert!(
        out.contains("Black takes a break from 2026-03-05 to 2026-03-14"),
        "{out}"
    );
    assert!(pass(&me, "2026-03-16").await.is_empty());
    assert!(pass(&me, "2026-03-25").await.is_empty());
    assert_eq!(pass(&me, "2026-03-26").await.len(), 1);
}

/// A pass looks at all games at once and works only on those with something due: here, of
/// five games, a repeat due, a correction pending, and a finished game whose PGN never went
/// (as an older version could leave it), in the order of `ccmail games`.
#[tokio::test]
async fn a_pass_finds_each_due_chore_among_quiet_games() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let ids: Vec<String> = (0..5)
        .map(|n| new_game(&me, &format!("p{n}@example.org"), "article51"))
        .collect();
    // Games 0, 1 and 3 wait for the partner from 02.03; game 2 from 10.03; game 4 has no move.
    for (n, id) in ids.iter().enumerate().take(4) {
        let day = if n == 2 { "2026-03-10" } else { "2026-03-02" };
        me.ok(&["--now", day, "move", id, "e4"]);
    }
    let store = Store::open(&me.home.path().join("ccmail.db"))
        .await
        .unwrap();
    let mut conn = store.conn().await.unwrap();
    sqlx::query("UPDATE games SET correction_due = '2026-03-12' WHERE id = ?")
        .bind(&ids[1])
        .execute(&mut *conn)
        .await
        .unwrap();
    sqlx::query("UPDATE games SET status = 'finished', result = '1-0' WHERE id = ?")
        .bind(&ids[3])
        .execute(&mut *conn)
        .await
        .unwrap();
    drop(conn);
    store.close().await;
    let done = pass(&me, "2026-03-16").await;
    assert_eq!(
        done,
        [
            format!(
                "game {}: our move repeated, Cc the arbiter (51.5.1)",
                ids[0]
            ),
            format!("game {}: correction requested (51.3.4)", ids[1]),
            format!(
                "game {}: the finished game sent to the arbiter as PGN (51.9.1)",
                ids[3]
            ),
        ]
    );
    // Game 2's repeat is due on 24.03; game 0's next one on 30.03; the PGN is not sent twice.
    let done = pass(&me, "2026-03-24").await;
    let repeat = format!(
        "game {}: our move repeated, Cc the arbiter (51.5.1)",
        ids[2]
    );
    assert!(done.contains(&repeat), "{done:?}");
    for quiet in [&ids[0], &ids[3], &ids[4]] {
        assert!(!done.iter().any(|d| d.contains(quiet.as_str())), "{done:?}");
    }
}

/// Writes a penalty with a cause this version does not know into `game`, as a newer version
/// or a damaged file could leave it: the game loads, but its clock can't be read.
async fn break_the_clock(store: &Store, game: &str) {
    let mut conn = store.conn().await.unwrap();
    sqlx::query(
        "INSERT INTO penalties (game_id, player, days, cause, ply, created_at) \
         VALUES (?, 'black', 2, 'no_such_cause', 2, '2026-03-05T10:00:00+03:00')",
    )
    .bind(game)
    .execute(&mut *conn)
    .await
    .unwrap();
}

/// A game whose chores fail (its clock can't be read: [`break_the_clock`]) is reported and
/// left as it was; the games after it still get theirs, their repeats on day 14 (51.5.1).
#[tokio::test]
async fn one_games_failure_leaves_the_other_games_chores_done() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let ids: Vec<String> = (0..3)
        .map(|n| new_game(&me, &format!("p{n}@example.org"), "article51"))
        .collect();
    for id in &ids {
        me.ok(&["--now", "2026-03-02", "move", id, "e4"]);
    }
    let store = Store::open(&me.home.path().join("ccmail.db"))
        .await
        .unwrap();
    break_the_clock(&store, &ids[0]).await;
    store.close().await;
    let pass = full_pass(&me, "2026-03-16").await;
    let repeated = |id: &String| format!("game {id}: our move repeated, Cc the arbiter (51.5.1)");
    assert_eq!(pass.done, [repeated(&ids[1]), repeated(&ids[2])]);
    assert_eq!(pass.failed.len(), 1, "{:?}", pass.failed);
    assert_eq!(pass.failed[0].game, ids[0]);
    assert_eq!(
        pass.failed[0].words(),
        format!("game {}: \"no_such_cause\" is not a penalty cause", ids[0])
    );
    assert_eq!(
        outgoing(&me, &ids[0]).len(),
        1,
        "the broken game: nothing more"
    );
    for id in &ids[1..] {
        let out = outgoing(&me, id);
        assert_eq!(out.len(), 2, "game {id}: {out:?}");
        assert!(out[1].1.starts_with("ПОВТОР: "), "{}", out[1].1);
    }
}

/// `run --once` with a game whose chores fail: the error is logged with the game's id, the
/// other game's repeat is still queued, and the pass ends in failure, saying which game.
#[test]
fn run_once_reports_a_games_failed_chores_and_does_the_others() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let broken = new_game(&me, "p0@example.org", "article51");
    let fine = new_game(&me, "p1@example.org", "article51");
    for id in [&broken, &fine] {
        me.ok(&["--now", "2026-03-02", "move", id, "e4"]);
    }
    tokio::runtime::Runtime::new().unwrap().block_on(async {
        let store = Store::open(&me.home.path().join("ccmail.db"))
            .await
            .unwrap();
        break_the_clock(&store, &broken).await;
        store.close().await;
    });
    let err = me.fails(&["--now", "2026-03-16", "run", "--once"]);
    assert!(
        err.contains(&format!(
            "ERROR the chores of game {broken} failed: \"no_such_cause\" is not a penalty cause"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "ccmail: the rules' chores failed (tried again on the next pass): game {broken}: "
        )),
        "{err}"
    );
    assert_eq!(outgoing(&me, &broken).len(), 1);
    assert_eq!(outgoing(&me, &fine).len(), 2);
}

#[test]
fn an_impossible_move_brings_a_correction_request_at_once() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = new_game(&me, "petrov@example.org", "article51");
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let bad = "From: petrov@example.org\r\nDate: Thu, 05 Mar 2026 10:00:00 +0300\r\nMessage-ID: <p1@example.org>\r\nSubject: move\r\n\r\nХоды: 1. 5254\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\nПолучен: 03.03.2026\r\nМой ход: 1... 5855\r\nОтправлен: 05.03.2026\r\n";
    let bad = common::signed_by_sender(&me, bad);
    let out = me.apply_text("bad.eml", &bad, "2026-03-06");
    assert!(out.contains("correction requested (51.3.4)"), "{out}");
    let v = me.json(&["--now", "2026-03-06", "show", &id]);
    assert_eq!(v["clock"]["black"]["penalty"], 2);
    let out = outgoing(&me, &id);
    let (to, subject, text) = out.last().unwrap();
    assert_eq!(to, "petrov@example.org");
    assert_eq!(subject, "Кубок клуба 2026: Иванов – Петров, исправьте ход");
    assert!(
        text.contains(
            "- ход 1... 5855 невозможен (51.3.4): король с e8 не может пойти на e5; начислено \
             штрафных дней: 2 (51.4.7)\n\
             - Прошу исправить ход (51.3.4)\n"
        ),
        "{text}"
    );
    // The player reads it in English.
    let inbox = me.ok(&["inbox"]);
    assert!(
        inbox.contains("the move 1... 5855: the king on e8 can't go to e5"),
        "{inbox}"
    );
}

/// What was wrong, as the correction request tells the partner in the game's language (our
/// move repeated wrongly, 51.3.3; an empty move line, 51.3.5; an impossible move in an English
/// game, 51.3.4), and as the player reads it in English.
#[test]
fn a_correction_request_says_what_was_wrong_in_the_games_language() {
    let head = "From: petrov@example.org\r\nDate: Thu, 05 Mar 2026 10:00:00 +0300\r\n\
                Message-ID: <p1@example.org>\r\nSubject: move\r\n\r\n";
    let rows: [(&str, &str, &str, &str); 3] = [
        (
            "ru",
            "Ходы: 1. 5253\r\nВаш ход 1. 5253 отправлен: 02.03.2026\r\n\
             Получен: 03.03.2026\r\nМой ход: 1... 5755\r\nОтправлен: 05.03.2026\r\n",
            "our move 1. e4 was repeated as 1. e3 (51.3.3)",
            "- наш ход 1. 5254 повторён неправильно: 1. 5253 (51.3.3); начислено штрафных \
             дней: 2 (51.4.7)\n",
        ),
        (
            "ru",
            "Ходы: 1. 5254\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\n\
             Получен: 03.03.2026\r\nМой ход:\r\nОтправлен: 05.03.2026\r\n",
            "the message has no move of its own (51.3.5)",
            "- сообщение отправлено без ответного хода (51.3.5); начислено штрафных дней: 2 \
             (51.4.7)\n",
        ),
        (
            "en",
            "Moves: 1. 5254\r\nYour move 1. 5254 sent: 2026-03-02\r\nReceived: 2026-03-03\r\n\
             My move: 1... 5855\r\nSent: 2026-03-05\r\n",
            "the move 1... 5855: the king on e8 can't go to e5",
            "- the move 1... 5855: the king on e8 can't go to e5; 2 penalty days recorded \
             (51.4.7)\n",
        ),
    ];
    for (lang, body, reason, note) in rows {
        let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
        let id = new_game_with(&me, "petrov@example.org", &["--lang", lang]);
        me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
        let bad = common::signed_by_sender(&me, &format!("{head}{body}"));
        let out = me.apply_text("bad.eml", &bad, "2026-03-06");
        assert!(out.contains("correction requested (51.3.4)"), "{out}");
        assert!(out.contains(reason), "{out}");
        let (_, _, text) = outgoing(&me, &id).pop().unwrap();
        assert!(text.contains(note), "{text}");
    }
}

/// What ccmail could not make sense of is its own doubt, not the partner's fault (RULES.md,
/// "What a message is"): held for the player, with no penalty and no correction request.
#[test]
fn doubt_is_held_without_a_fine_or_a_correction_request() {
    let head = "From: petrov@example.org\r\nDate: Thu, 05 Mar 2026 10:00:00 +0300\r\n\
                Message-ID: <p1@example.org>\r\nSubject: move\r\n\r\n";
    let rows: [(&str, &str); 3] = [
        (
            "Ходы: 1. 5254 5755 2. 7163\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\n\
             Получен: 03.03.2026\r\nМой ход: 2... 2836\r\nОтправлен: 05.03.2026\r\n",
            "the record has moves after our move 1. 5254 that we did not play or offer",
        ),
        (
            "Ходы: 1. 5254\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\n\
             Получен: 03.03.2026\r\nОтправлен: 05.03.2026\r\n",
            "no move of the sender's could be found in it",
        ),
        (
            "Ходы: 1. 5254 5755 2. 7163\r\nПолучен: 03.03.2026\r\nОтправлен: 05.03.2026\r\n",
            "the record has moves after our move 1. 5254",
        ),
    ];
    for (body, reason) in rows {
        let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
        let id = new_game_with(&me, "petrov@example.org", &[]);
        me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
        let out = me.apply_text("doubt.eml", &format!("{head}{body}"), "2026-03-06");
        assert!(out.contains(reason), "{out}");
        assert!(!out.contains("correction"), "{out}");
        let show = me.json(&["--now", "2026-03-06", "show", &id]);
        assert_eq!(show["clock"]["black"]["penalty"], 0, "{show}");
        assert_eq!(outgoing(&me, &id).len(), 1, "only our move went out");
        let inbox = me.ok(&["inbox"]);
        assert!(inbox.contains(reason), "{inbox}");
    }
}

/// The held message's number, from `apply`'s "held as message N".
fn held_number(out: &str) -> String {
    let (_, rest) = out.split_once("held as message ").expect(out);
    rest.split_whitespace().next().unwrap().to_owned()
}

/// A held message is the player's to settle: `show` and `games` point at it until then; the
/// player applies it with the move read by eye, fines the partner by hand, or dismisses it.
#[test]
fn a_held_message_is_settled_by_the_player() {
    let head = "From: petrov@example.org\r\nDate: Thu, 05 Mar 2026 10:00:00 +0300\r\n\
                Message-ID: <p1@example.org>\r\nSubject: move\r\n\r\n";
    // No move line ccmail could find: the partner wrote the move in words.
    let body = "Ходы: 1. 5254\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\n\
                Получен: 03.03.2026\r\nОтправлен: 05.03.2026\r\nОтвечаю пешкой e7 на e5.\r\n";
    let raw = format!("{head}{body}");
    let new = || {
        let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
        let id = new_game_with(&me, "petrov@example.org", &[]);
        me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
        let out = me.apply_text("words.eml", &raw, "2026-03-06");
        let n = held_number(&out);
        (me, id, n)
    };
    // Pointed at, then applied with the move read by eye.
    let (me, id, n) = new();
    let games = me.ok(&["--now", "2026-03-06", "games"]);
    assert!(
        games.contains("1 held message(s) of this game wait for you"),
        "{games}"
    );
    let json = me.json(&["--now", "2026-03-06", "games"]);
    let codes: Vec<&str> = json[0]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["held_message"], "{json}");
    let accept = |mv: &str| -> Vec<String> {
        [
            "--now",
            "2026-03-06",
            "inbox",
            "accept",
            &n,
            "--game",
            &id,
            "--move",
            mv,
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let args = accept("e4");
    let err = me.fails(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(err.contains("is not a move in game"), "{err}");
    let args = accept("5755");
    let out = me.ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.contains("applied 1... e5 by Black"), "{out}");
    let show = me.json(&["--now", "2026-03-06", "show", &id]);
    assert_eq!(show["moves"][1]["san"], "e5", "{show}");
    assert_eq!(show["moves"][1]["sent"], "2026-03-05", "{show}");
    assert_eq!(show["problems"], serde_json::json!([]), "{show}");
    let games = me.ok(&["--now", "2026-03-06", "games"]);
    assert!(!games.contains("held message"), "{games}");

    // Fined by hand: two days, and the correction request in the game's language.
    let (me, id, n) = new();
    let out = me.ok(&[
        "--now",
        "2026-03-06",
        "inbox",
        "fine",
        &n,
        "--cause",
        "no-move",
    ]);
    assert!(out.contains("correction requested (51.3.4)"), "{out}");
    let show = me.json(&["--now", "2026-03-06", "show", &id]);
    assert_eq!(show["clock"]["black"]["penalty"], 2, "{show}");
    let (_, _, text) = outgoing(&me, &id).pop().unwrap();
    assert!(
        text.contains(
            "- сообщение отправлено без ответного хода (51.3.5); начислено штрафных дней: 2"
        ),
        "{text}"
    );
    assert!(me.ok(&["inbox"]).contains("No held messages."));

    // Dismissed: nothing changes but the pointer goes.
    let (me, id, n) = new();
    me.ok(&["inbox", "dismiss", &n]);
    let show = me.json(&["--now", "2026-03-06", "show", &id]);
    assert_eq!(show["problems"], serde_json::json!([]), "{show}");
    assert_eq!(show["clock"]["black"]["penalty"], 0, "{show}");
}

#[test]
fn break_notices_reach_every_opponent_and_the_31st_day_is_refused() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let a = new_game(&me, "petrov@example.org", "article51");
    let b = new_game(&me, "sidorov@example.org", "article51");
    let out = me.ok(&[
        "--now",
        "2026-06-01",
        "break",
        "announce",
        "--from",
        "2026-06-10",
        "--to",
        "2026-06-29",
    ]);
    assert!(
        out.contains("break 2026-06-10 – 2026-06-29 (20 days) recorded; notices to 2 game(s)"),
        "{out}"
    );
    for (game, opponent) in [(&a, "petrov@example.org"), (&b, "sidorov@example.org")] {
        let sent = outgoing(&me, game);
        assert_eq!(sent.len(), 1);
        assert_eq!(sent[0].0, format!("{opponent},arbiter@example.org"));
        assert!(
            sent[0]
                .2
                .contains("Беру перерыв с 10.06.2026 по 29.06.2026\n"),
            "{}",
            sent[0].2
        );
    }
    // 20 + 11 = 31 days in 2026: refused, nothing sent.
    let err = me.fails(&[
        "--now",
        "2026-06-01",
        "break",
        "announce",
        "--from",
        "2026-08-01",
        "--to",
        "2026-08-11",
    ]);
    assert!(err.contains("the break can't be taken"), "{err}");
    assert_eq!(outgoing(&me, &a).len(), 1);
    me.ok(&[
        "--now",
        "2026-06-01",
        "break",
        "announce",
        "--from",
        "2026-08-01",
        "--to",
        "2026-08-10",
    ]);
    let list: Value = me.json(&["--now", "2026-06-01", "break", "list"]);
    assert_eq!(list["days_used"], 30);
    // Ending the August break early gives days back.
    let out = me.ok(&["--now", "2026-08-05", "break", "end"]);
    assert!(out.contains("6 day(s) back in the allowance"), "{out}");
    assert_eq!(
        me.json(&["--now", "2026-08-05", "break", "list"])["days_used"],
        24
    );
    assert!(
        me.fails(&[
            "--now",
            "2026-06-01",
            "break",
            "announce",
            "--from",
            "2026-05-01",
            "--to",
            "2026-05-02"
        ])
        .contains("in advance (51.7.2)")
    );
}

#[test]
fn a_claim_needs_an_overstepped_control_and_suspends_the_game() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = new_game(&me, "petrov@example.org", "article51");
    me.ok(&[
        "game",
        "new",
        "--event",
        "x",
        "--start",
        "2026-03-01",
        "--white",
        "a",
        "--black",
        "b",
        "--color",
        "white",
        "--opponent",
        "q@example.org",
        "--arbiter",
        "arbiter@example.org",
        "--control",
        "1/5",
    ]);
    let err = me.fails(&["--now", "2026-03-02", "claim", &id]);
    assert!(
        err.contains("the opponent has not overstepped a time control"),
        "{err}"
    );
    // A 1-move/5-day control: Black answers 1. e4 after 7 days.
    let fast = me.ok(&["games", "--json"]);
    let games: Value = serde_json::from_str(&fast).unwrap();
    let quick = games
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["event"] == "x")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    me.ok(&["--now", "2026-03-02", "move", &quick, "e4"]);
    let late = "From: q@example.org\r\nDate: Tue, 10 Mar 2026 10:00:00 +0300\r\nMessage-ID: <q1@example.org>\r\nSubject: move\r\n\r\nEvent: x\r\nMoves: 1. e4\r\nYour move 1. e4 sent: 2026-03-02\r\nReceived: 2026-03-03\r\nMy move: 1... e5\r\nSent: 2026-03-10\r\n";
    me.apply_text("late.eml", late, "2026-03-10");
    let v = me.json(&["--now", "2026-03-10", "show", &quick]);
    assert_eq!(v["clock"]["black"]["overstepped_at"], 1);
    let draft = me.ok(&["--now", "2026-03-10", "claim", &quick, "--dry-run"]);
    // The game's language, notation and dates (Russian, numeric).
    assert!(
        draft.starts_with("To: arbiter@example.org\nCc: q@example.org\n"),
        "{draft}"
    );
    assert!(
        draft
            .contains("Заявляю о просрочке времени (51.6): черные превысили контроль на 1-м ходу."),
        "{draft}"
    );
    assert!(
        draft.contains(
            "1. 5254 | 01.03.2026 | 02.03.2026 | 1 | 1\n1... 5755 | 03.03.2026 | 10.03.2026 | 7 | 7\n"
        ),
        "{draft}"
    );
    assert!(
        draft.contains("Итого черные: 7 дней при лимите 5 к 1-му ходу."),
        "{draft}"
    );
    me.ok(&["--now", "2026-03-10", "claim", &quick, "--yes"]);
    assert_eq!(
        me.json(&["--now", "2026-03-10", "show", &quick])["status"],
        "suspended"
    );
}

#[test]
fn mate_sends_the_pgn_to_the_arbiter() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = new_game(&me, "petrov@example.org", "article51");
    scholars_mate(&me, &id, "petrov@example.org");
    let out = me.ok(&["--now", "2026-03-09", "move", &id, "Qxf7"]);
    assert!(out.contains("The game is over: 1-0."), "{out}");
    let sent = outgoing(&me, &id);
    let (to, subject, text) = sent.last().unwrap();
    assert_eq!(to, "arbiter@example.org");
    assert_eq!(
        subject,
        "Кубок клуба 2026: Иванов – Петров, 1-0: партия для судьи"
    );
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("4. Qxf7#"), "{text}");
    // Never twice.
    me.ok(&["--now", "2026-03-10", "games"]);
    assert_eq!(outgoing(&me, &id).len(), sent.len());
}

#[test]
fn adjudication_and_address_change() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = new_game(&me, "petrov@example.org", "article51");
    let err = me.fails(&[
        "--now",
        "2026-03-02",
        "adjudicate",
        &id,
        "--claim",
        "1-0",
        "--reason",
        "x",
    ]);
    assert!(err.contains("name your sealed move with --move"), "{err}");
    let pkg = me.ok(&[
        "--now",
        "2026-03-02",
        "adjudicate",
        &id,
        "--claim",
        "1/2-1/2",
        "--reason",
        "Equal.",
        "--move",
        "d4",
        "--dry-run",
    ]);
    assert!(pkg.starts_with("To: arbiter@example.org\n"), "{pkg}");
    assert!(
        pkg.contains("Заявка на присуждение результата (51.9.4): 1/2-1/2"),
        "{pkg}"
    );
    assert!(
        pkg.contains(
            "Конечная позиция (FEN): rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        ),
        "{pkg}"
    );
    assert!(pkg.contains("Записанный ход: d4 (4244)"), "{pkg}");
    let out = me.ok(&[
        "--now",
        "2026-03-02",
        "address",
        "change",
        "Ivanov@New.example",
    ]);
    assert!(
        out.contains("notices to 1 game(s); now set [player] email = \"ivanov@new.example\""),
        "{out}"
    );
    let sent = outgoing(&me, &id);
    assert_eq!(sent[0].0, "petrov@example.org,arbiter@example.org");
    assert!(
        sent[0]
            .2
            .contains("Мой новый адрес электронной почты: ivanov@new.example (51.1.2)"),
        "{}",
        sent[0].2
    );
}
