//! `ccmail game set`, `game delete`, `game archive`: a game's settings changed after it was
//! created or imported, each change recorded and shown; a game removed or put away; and the
//! exported PGN shows no bidi control as it is.

mod common;

use common::{Player, cup_game, outgoing, sent_letters};
use serde_json::Value;

fn ivanov() -> Player {
    Player::new("Иванов Иван", "Иванов", "ivanov@example.org")
}

/// `game set` of `id` with `flags` on `day`: its output.
fn set_on(me: &Player, day: &str, id: &str, flags: &[&str]) -> String {
    let args = [&["--now", day, "game", "set", id][..], flags].concat();
    me.ok(&args)
}

/// A friendly game brought in from a first letter that was not copied to the arbiter.
const FIRST_LETTER: &str = "From: petrov@example.org\nTo: ivanov@example.org\n\
Subject: Kubok\nDate: Mon, 02 Mar 2026 10:00:00 +0300\nMessage-ID: <first@example.org>\n\
Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n\
Турнир: Кубок клуба 2026\nСтарт: 01.03.2026\nБелые: Петров\nЧерные: Иванов\n\
Мой ход: 1. 5254\nОтправлен: 02.03.2026\n";

#[test]
fn game_set_arbiter_makes_a_friendly_game_rated_and_the_change_is_recorded() {
    let me = ivanov();
    let path = me.home.path().join("first.eml");
    std::fs::write(&path, FIRST_LETTER).unwrap();
    let out = me.run(&["game", "import", path.to_str().unwrap()]);
    let id = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!(
            "a friendly game, nothing is copied to an arbiter; if it is rated: \
             ccmail game set {id} --arbiter EMAIL"
        )),
        "{said}"
    );
    let v = me.json(&["--now", "2026-03-03", "show", &id]);
    assert_eq!(v["arbiter"], Value::Null, "no copy to an arbiter: friendly");
    // A re-import with --arbiter is the same game: it says so and changes nothing.
    let again = me.run(&[
        "game",
        "import",
        path.to_str().unwrap(),
        "--arbiter",
        "arbiter@example.org",
    ]);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(
        said.contains("in the store already") && said.contains("game set"),
        "{said}"
    );
    assert_eq!(me.json(&["show", &id])["arbiter"], Value::Null);

    let out = set_on(
        &me,
        "2026-03-03",
        &id,
        &["--arbiter", "Arbiter@Example.org"],
    );
    assert_eq!(
        out,
        format!("game {id}: arbiter (none) → arbiter@example.org\n")
    );
    assert_eq!(
        me.json(&["show", &id])["arbiter"],
        "arbiter@example.org",
        "rated now"
    );
    let shown = me.ok(&["--now", "2026-03-03", "show", &id]);
    assert!(
        shown.contains(&format!(
            "Changes to the game:\n  2026-03-03 12:00  game {id}: arbiter (none) → arbiter@example.org\n"
        )),
        "{shown}"
    );
    // Our move goes out; no answer in 14 days: the repeat goes Cc the arbiter now (51.5.1).
    me.ok(&["--now", "2026-03-03", "move", &id, "e5", "--yes"]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    assert_eq!(rt.block_on(common::pass(&me, "2026-03-17")).len(), 1);
    let (to, _, _) = outgoing(&me, &id).pop().unwrap();
    assert_eq!(to, "petrov@example.org,arbiter@example.org");
    // Back to friendly, and nothing to change when nothing differs.
    let out = me.ok(&["game", "set", &id, "--arbiter", "none"]);
    assert!(
        out.contains("arbiter arbiter@example.org → (none)"),
        "{out}"
    );
    let out = me.ok(&["game", "set", &id, "--arbiter", "none"]);
    assert_eq!(out, format!("game {id}: nothing to change\n"));
    let err = me.fails(&["game", "set", &id]);
    assert!(err.contains("give at least one of --opponent"), "{err}");
}

#[test]
fn game_set_control_says_how_the_clocks_change() {
    let me = ivanov();
    let id = cup_game(&me, "white", "petrov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4", "--yes"]);
    let out = set_on(&me, "2026-03-10", &id, &["--control", "10/50"]);
    assert_eq!(
        out,
        format!(
            "game {id}: control 10/60 → 10/50\n\
             clocks before: White 1 days of 60 by move 10, 59 left, \
             Black 0 days of 60 by move 10, 52 left; \
             now: White 1 days of 50 by move 10, 49 left, \
             Black 0 days of 50 by move 10, 42 left\n"
        )
    );
    let v = me.json(&["--now", "2026-03-10", "show", &id]);
    assert_eq!(v["control"], serde_json::json!({"moves": 10, "days": 50}));
    let shown = me.ok(&["--now", "2026-03-10", "show", &id]);
    assert!(
        shown.contains(&format!(
            "game {id}: control 10/60 → 10/50\n    clocks before:"
        )),
        "{shown}"
    );
    // Every other setting changes too, each recorded.
    let out = set_on(
        &me,
        "2026-03-10",
        &id,
        &[
            "--opponent",
            "petrov@example.net",
            "--lang",
            "en",
            "--notation",
            "san",
            "--rules",
            "postal104",
            "--event",
            "Club Cup 2026",
            "--start",
            "2026-02-28",
        ],
    );
    for line in [
        "opponent petrov@example.org → petrov@example.net",
        "lang ru → en",
        "notation numeric → san",
        "rules article51 → postal104",
        "event Кубок клуба 2026 → Club Cup 2026",
        "start 2026-03-01 → 2026-02-28",
        "clocks before: White 1 days of 50",
        "now: White 2 days of 50",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    let v = me.json(&["--now", "2026-03-10", "show", &id]);
    assert_eq!(
        (&v["opponent"], &v["event"], &v["rules"], &v["start"]),
        (
            &Value::from("petrov@example.net"),
            &Value::from("Club Cup 2026"),
            &Value::from("postal104"),
            &Value::from("2026-02-28")
        )
    );
    assert_eq!(
        v["moves"][0]["received"], "2026-02-28",
        "ply 1 runs from the start"
    );
    let shown = me.ok(&["--now", "2026-03-10", "show", &id]);
    assert_eq!(shown.matches(&format!("game {id}: ")).count(), 7, "{shown}");
    // A wrong value is refused in words, and nothing changes.
    let err = me.fails(&["game", "set", &id, "--control", "ten"]);
    assert!(!err.is_empty());
    let err = me.fails(&["game", "set", &id, "--opponent", "ivanov@example.org"]);
    assert!(!err.is_empty());
    assert_eq!(me.json(&["show", &id])["opponent"], "petrov@example.net");
}

#[test]
fn game_delete_wants_yes_without_a_terminal_and_archive_keeps_the_game_out_of_games() {
    let me = ivanov();
    let gone = cup_game(&me, "white", "petrov@example.org", &[]);
    let kept = cup_game(&me, "white", "sidorov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &gone, "e4", "--yes"]);
    me.ok(&["--now", "2026-03-02", "move", &kept, "d4", "--yes"]);
    assert_eq!(sent_letters(&me, &gone).len(), 1);

    let err = me.fails(&["game", "delete", &gone]);
    assert!(err.contains("--yes"), "{err}");
    assert_eq!(me.json(&["games"]).as_array().unwrap().len(), 2);
    let out = me.ok(&["game", "delete", &gone, "--yes"]);
    assert_eq!(out, format!("game {gone} removed, with its 1 letters\n"));
    let err = me.fails(&["show", &gone]);
    assert!(err.contains("there is no game"), "{err}");
    let err = me.fails(&["export", &gone, "--mbox"]);
    assert!(!err.is_empty());
    // Its letter left the outbox with it: nothing of it is sent afterwards.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let queued = rt.block_on(async {
        let store = ccmail_store::Store::open(&me.home.path().join("ccmail.db"))
            .await
            .unwrap();
        let due = ccmail_store::due(&mut store.conn().await.unwrap(), "9999")
            .await
            .unwrap();
        store.close().await;
        due
    });
    let to: Vec<&str> = queued.iter().map(|q| q.recipients.as_str()).collect();
    assert_eq!(to, ["sidorov@example.org"]);

    let out = me.ok(&["game", "archive", &kept]);
    assert!(out.contains("archived"), "{out}");
    assert_eq!(me.json(&["games"]), serde_json::json!([]));
    let all = me.json(&["games", "--all"]);
    assert_eq!(all[0]["id"], kept.as_str(), "{all}");
    assert_eq!(all[0]["archived"], true, "{all}");
    // No chore of its own: no repeat on day 14.
    assert_eq!(
        rt.block_on(common::pass(&me, "2026-03-20")),
        Vec::<String>::new()
    );
    assert_eq!(me.json(&["show", &kept])["id"], kept.as_str(), "kept whole");
}

#[test]
fn export_shows_bidi_controls_as_the_other_commands_do() {
    let me = ivanov();
    let id = me
        .ok(&[
            "game",
            "new",
            "--event",
            "Cup \u{202e}2026",
            "--start",
            "2026-03-01",
            "--white",
            "Иванов",
            "--black",
            "Pet\u{2066}rov",
            "--color",
            "white",
            "--opponent",
            "petrov@example.org",
        ])
        .trim()
        .to_owned();
    let pgn = me.ok(&["export", &id, "--pgn"]);
    assert!(
        pgn.contains("[Event \"Cup <U+202E>2026\"]") && pgn.contains("[Black \"Pet<U+2066>rov\"]"),
        "{pgn}"
    );
    assert!(!pgn.contains('\u{202e}') && !pgn.contains('\u{2066}'));
    let all = me.ok(&["export", "--all"]);
    assert!(
        !all.contains('\u{202e}') && all.contains("<U+202E>"),
        "{all}"
    );
    // The JSON keeps the exact text, as every command's does.
    let v = me.json(&["export", &id, "--pgn"]);
    assert!(v["text"].as_str().unwrap().contains("Cup \u{202e}2026"));
}

/// `ccmail ARGS…` in a pseudo-terminal, as `me` at `now`.
fn on_a_terminal(me: &Player, now: &str, args: &[&str]) -> expectrl::session::OsSession {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"));
    command
        .args(args)
        .env_clear()
        .env("HOME", me.home.path())
        .env("CCMAIL_CONFIG", me.config())
        .env("CCMAIL_NOW", now)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut term = expectrl::session::OsSession::spawn(command).unwrap();
    term.set_expect_timeout(Some(std::time::Duration::from_secs(30)));
    term
}

#[test]
fn on_a_terminal_import_asks_for_our_last_move_s_date_and_delete_asks_first() {
    use expectrl::{Eof, Expect};
    let me = ivanov();
    let path = me.home.path().join("nodates.pgn");
    std::fs::write(
        &path,
        "[Event \"Cup\"]\n[Date \"2026.03.01\"]\n[White \"Иванов\"]\n[Black \"Петров\"]\n\
         [WhiteNA \"ivanov@example.org\"]\n[BlackNA \"petrov@example.org\"]\n\n1. e4 c5 2. Nf3 *\n",
    )
    .unwrap();
    let mut s = on_a_terminal(
        &me,
        "2026-04-20",
        &["game", "import", path.to_str().unwrap()],
    );
    s.expect("When did you send your last move (2. Nf3)?")
        .unwrap();
    s.send("1.4.2026\r").unwrap();
    s.expect(Eof).unwrap();
    let id = me.json(&["games"])[0]["id"].as_str().unwrap().to_owned();
    let v = me.json(&["--now", "2026-04-20", "show", &id]);
    assert_eq!(v["moves"][2]["sent"], "2026-04-01");
    assert_eq!(
        v["deadlines"][0],
        serde_json::json!({"kind": "repeat", "date": "2026-04-15"})
    );

    let mut s = on_a_terminal(&me, "2026-04-20", &["game", "delete", &id]);
    s.expect(
        format!("Remove game {id} (Cup: Иванов – Петров) with its 3 moves and 0 letters?").as_str(),
    )
    .unwrap();
    s.send("n\r").unwrap();
    s.expect(format!("game {id} is kept").as_str()).unwrap();
    s.expect(Eof).unwrap();
    assert_eq!(me.json(&["games"]).as_array().unwrap().len(), 1);
    let mut s = on_a_terminal(&me, "2026-04-20", &["game", "delete", &id]);
    s.expect("letters?").unwrap();
    s.send("y\r").unwrap();
    s.expect(format!("game {id} removed").as_str()).unwrap();
    s.expect(Eof).unwrap();
    assert_eq!(me.json(&["games", "--all"]), serde_json::json!([]));
}
