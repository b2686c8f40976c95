//! The command line's small promises, through the real binary: `--json` errors and the JSON
//! of `check` and `export`, dates typed as `DD.MM.YYYY`, a game refused for an empty name or
//! our own address, and the claim table in the game's language and notation.

mod common;

use common::{Player, cup_game};
use serde_json::{Value, json};

fn ivanov() -> Player {
    Player::new("Иванов Иван", "Иванов", "ivanov@example.org")
}

/// Runs with `--json` and expects exit 1: the one JSON object on standard output, and
/// nothing on standard error.
fn json_error(p: &Player, args: &[&str]) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let out = p.run(&all);
    assert_eq!(out.status.code(), Some(1), "{args:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn errors_under_json_are_one_object_on_standard_output() {
    let me = ivanov();
    assert_eq!(
        json_error(&me, &["show", "nosuch"]),
        json!({"error": "there is no game nosuch (see `ccmail games --all`)"})
    );
    assert_eq!(
        json_error(&me, &["--now", "tomorrow", "games"]),
        json!({"error": "--now \"tomorrow\" is not a date (YYYY-MM-DD or DD.MM.YYYY) or an RFC \
                         3339 time (2026-03-08T21:00:00+03:00)"})
    );
    // Without --json the same error is words on standard error.
    let err = me.fails(&["show", "nosuch"]);
    assert_eq!(
        err,
        "ccmail: there is no game nosuch (see `ccmail games --all`)\n"
    );
}

#[test]
fn check_json_reports_each_step() {
    // Not the starter config's address, which `check` fails.
    let me = Player::new("Иванов Иван", "Иванов", "ivan.ivanov@example.net");
    let out = me.run(&["--json", "check"]);
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let steps: Vec<(&str, &str)> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["step"].as_str().unwrap(), s["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        steps,
        [
            ("config", "ok"),
            ("database", "ok"),
            ("imap", "skip"),
            ("smtp", "skip")
        ],
        "{v}"
    );
    assert_eq!(v["failed"], 0, "{v}");
    // A config that can't be read: the step fails, in the object, and the exit status is 1.
    std::fs::write(me.config(), "[player]\nnmae = \"x\"\n").unwrap();
    let out = me.run(&["--json", "check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["failed"], 1, "{v}");
    assert_eq!(v["steps"][0]["status"], "fail", "{v}");
    assert!(
        v["steps"][0]["detail"].as_str().unwrap().contains("nmae"),
        "{v}"
    );
}

#[test]
fn export_json_carries_the_pgn_or_names_the_file() {
    let me = ivanov();
    let id = cup_game(&me, "white", "petrov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let pgn = me.ok(&["--now", "2026-03-02", "export", &id]);
    let v = me.json(&["--now", "2026-03-02", "export", &id]);
    assert_eq!(
        v,
        json!({"id": id, "format": "pgn", "output": null, "text": pgn})
    );
    let all = me.json(&["--now", "2026-03-02", "export", "--all"]);
    assert_eq!(
        all,
        json!([{"id": id, "format": "pgn", "output": null, "text": pgn}])
    );
    let file = me.home.path().join("game.pgn");
    let path = file.to_str().unwrap();
    let v = me.json(&["--now", "2026-03-02", "export", &id, "-o", path]);
    assert_eq!(
        v,
        json!({"id": id, "format": "pgn", "output": path, "text": null})
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), pgn);
    let mbox = me.json(&["export", &id, "--mbox"]);
    assert_eq!(mbox["format"], "mbox");
    assert!(
        mbox["text"]
            .as_str()
            .unwrap()
            .starts_with("From ivanov@example.org "),
        "{mbox}"
    );
}

#[test]
fn dates_are_taken_as_russian_players_write_them() {
    let me = ivanov();
    let id = cup_game(&me, "white", "petrov@example.org", &[]);
    me.ok(&["--now", "02.03.2026", "move", &id, "e4"]);
    let v = me.json(&["--now", "01.12.2026", "show", &id]);
    assert_eq!(v["moves"][0]["sent"], "2026-03-02", "{v}");
    // 51.5.3: 40 days after 02.03 is 11.04, overdue by December.
    assert_eq!(v["deadlines"][0]["kind"], "silence_40", "{v}");
    let out = me.ok(&[
        "--now",
        "2026-06-01",
        "break",
        "announce",
        "--from",
        "01.07.2026",
        "--to",
        "10.07.2026",
        "--dry-run",
    ]);
    assert!(
        out.contains("беру перерыв с 01.07.2026 по 10.07.2026"),
        "{out}"
    );
    let err = me.fails(&["--now", "2026-06-01", "break", "end", "--on", "31.06.2026"]);
    assert_eq!(
        err,
        "ccmail: --on \"31.06.2026\" is not a date (YYYY-MM-DD or DD.MM.YYYY)\n"
    );
}

#[test]
fn a_game_without_a_name_or_against_ourselves_is_refused() {
    let me = ivanov();
    let new = |event: &str, white: &str, opponent: &str| {
        let args = [
            "game",
            "new",
            "--event",
            event,
            "--start",
            "2026-03-01",
            "--white",
            white,
            "--black",
            "Петров",
            "--color",
            "white",
            "--opponent",
            opponent,
        ];
        me.fails(&args)
    };
    assert_eq!(
        new(" ", "Иванов", "petrov@example.org"),
        "ccmail: the competition's name is empty (51.2.2); give --event NAME\n"
    );
    assert_eq!(
        new("Кубок", "", "petrov@example.org"),
        "ccmail: White's name is empty (51.2.2)\n"
    );
    assert_eq!(
        new("Кубок", "Иванов", "Ivanov@Example.org"),
        "ccmail: the opponent's address Ivanov@Example.org is your own ([player] email); give \
         --opponent EMAIL\n"
    );
    assert_eq!(me.json(&["games", "--all"]), json!([]));
    // An import is held to the same.
    let pgn = "[Event \"Casual\"]\n[Date \"2026.02.11\"]\n[White \"ivanov\"]\n\
               [Black \"petrov\"]\n[Result \"*\"]\n\n1. d4 Nf6 *\n";
    let path = me.home.path().join("casual.pgn");
    std::fs::write(&path, pgn).unwrap();
    let file = path.to_str().unwrap();
    let err = me.fails(&[
        "game",
        "import",
        file,
        "--color",
        "white",
        "--opponent",
        "ivanov@example.org",
    ]);
    assert!(err.contains("is your own ([player] email)"), "{err}");
    let err = me.fails(&[
        "game",
        "import",
        file,
        "--color",
        "white",
        "--opponent",
        "petrov@example.org",
        "--event",
        "",
    ]);
    assert!(err.contains("the competition's name is empty"), "{err}");
    assert_eq!(me.json(&["games", "--all"]), json!([]));
}

#[test]
fn the_claim_table_is_in_the_games_language_and_notation() {
    let me = ivanov();
    // A Russian game in numeric notation (the defaults), one move in two days.
    let id = cup_game(&me, "white", "petrov@example.org", &["--control", "1/2"]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let late = "From: Петров Пётр <petrov@example.org>\r\nTo: ivanov@example.org\r\n\
                Date: 08 Mar 2026 21:00:00 +0300\r\nMessage-ID: <p1@example.org>\r\n\
                Subject: Кубок клуба 2026\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n\
                Турнир: Кубок клуба 2026\r\nСтарт: 01.03.2026\r\nБелые: Иванов\r\n\
                Черные: Петров\r\nХоды: 1. 5254\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\n\
                Получен: 03.03.2026\r\nМой ход: 1... 5755\r\nОтправлен: 08.03.2026\r\n";
    me.apply_text("late.eml", late, "2026-03-09");
    let claim = me.ok(&["--now", "2026-03-09", "claim", &id, "--dry-run"]);
    for line in [
        "Ход | получен | отправлен | дней | итого\n",
        "1. 5254 | 01.03.2026 | 02.03.2026 | 1 | 1\n",
        "1... 5755 | 03.03.2026 | 08.03.2026 | 5 | 5\n",
        "Итого черные: 5 дней при лимите 2 к 1-му ходу.\n",
    ] {
        assert!(claim.contains(line), "{line:?} in {claim}");
    }
    // In an English game in SAN, with English dates.
    let id = cup_game(
        &me,
        "white",
        "sidorov@example.org",
        &["--control", "1/2", "--lang", "en", "--notation", "san"],
    );
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let late = late
        .replace("petrov@", "sidorov@")
        .replace("<p1@", "<s1@")
        .replace("08 Mar", "06 Mar")
        .replace("Отправлен: 08.03.2026", "Отправлен: 06.03.2026");
    me.apply_text("late-en.eml", &late, "2026-03-07");
    let claim = me.ok(&["--now", "2026-03-07", "claim", &id, "--dry-run"]);
    for line in [
        "1... e5 | 2026-03-03 | 2026-03-06 | 3 | 3\n",
        "Total for Black: 3 days against a limit of 2 by move 1.\n",
    ] {
        assert!(claim.contains(line), "{line:?} in {claim}");
    }
}
