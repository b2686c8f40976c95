//! The outbox as the player sees it: `ccmail outbox` lists a letter stuck behind an SMTP
//! server that does not answer, with its tries and its error; `games` and `show` say that a
//! letter of the game waits to go, and why; and a repeat waiting in the outbox is not called
//! sent. No mail server is needed: the SMTP server is a closed port on 127.0.0.1.

mod common;

use common::{Player, cup_game, friendly_game, pass};
use serde_json::Value;

const PARTNER: &str = "petrov@example.org";

/// A port on 127.0.0.1 that nothing listens on (bound, then closed).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A player whose `[smtp]` points at a closed port.
fn behind_a_dead_server() -> Player {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let config = std::fs::read_to_string(me.config()).unwrap();
    let smtp = format!(
        "\n[smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\n",
        closed_port()
    );
    std::fs::write(me.config(), config + &smtp).unwrap();
    me
}

#[test]
fn the_outbox_shows_a_letter_stuck_behind_a_dead_smtp_server_with_its_error() {
    let me = behind_a_dead_server();
    let id = cup_game(&me, "white", PARTNER, &[]);
    let moved = me.ok(&["--now", "2026-03-02T12:00:00+03:00", "move", &id, "e4"]);
    assert!(moved.starts_with("queued:"), "{moved}");

    // The JSON of docs/cli.md: every field there, the unknown ones null.
    let list = me.json(&["--now", "2026-03-02T12:01:00+03:00", "outbox"]);
    let letters = list.as_array().unwrap();
    assert_eq!(letters.len(), 1, "{list:#}");
    let l = &letters[0];
    let mut keys: Vec<&str> = l.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "attempts",
            "cc",
            "game",
            "id",
            "kind",
            "last_error",
            "next_try",
            "queued_at",
            "sent_at",
            "state",
            "subject",
            "to"
        ]
    );
    assert_eq!(l["game"], id.as_str());
    assert_eq!(l["kind"], "move");
    assert_eq!(l["state"], "retrying");
    assert_eq!(l["attempts"], 1);
    assert_eq!(l["to"], serde_json::json!([PARTNER]));
    assert_eq!(l["cc"], serde_json::json!([]));
    assert_eq!(l["sent_at"], Value::Null);
    assert_eq!(l["queued_at"], "2026-03-02T12:00:00+03:00");
    // The first retry a minute after the failed try.
    assert_eq!(l["next_try"], "2026-03-02T12:01:00+03:00");
    let error = l["last_error"].as_str().unwrap();
    assert!(error.contains("refused"), "{error}");
    let subject = l["subject"].as_str().unwrap();
    assert!(subject.contains("1. 5254"), "{subject}");

    // The table: the letter, its state, its error, its next try.
    let text = me.ok(&["--now", "2026-03-02T12:01:00+03:00", "outbox"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].contains("STATE") && lines[0].contains("TO"),
        "{text}"
    );
    assert!(
        lines[1].contains(&id)
            && lines[1].contains(" move ")
            && lines[1].contains(" retrying ")
            && lines[1].contains("2026-03-02 12:00")
            && lines[1].ends_with(PARTNER),
        "{text}"
    );
    assert_eq!(lines[2].trim(), subject, "{text}");
    assert!(
        lines[3].trim().starts_with("one failed try, the last: ")
            && lines[3].contains("refused")
            && lines[3].ends_with("; next try 2026-03-02 12:01"),
        "{text}"
    );

    // `games` and `show` say that the letter waits to go, and why.
    let games = me.ok(&["--now", "2026-03-02T12:01:00+03:00", "games"]);
    assert!(
        games.contains(&format!(
            "         waiting to go: {subject}: one failed try, the last: "
        )) && games.contains("refused")
            && games.contains("; next try 2026-03-02 12:01 (`ccmail outbox`)\n"),
        "{games}"
    );
    let show = me.ok(&["--now", "2026-03-02T12:01:00+03:00", "show", &id]);
    let message = l["id"].as_i64().unwrap();
    assert!(
        show.contains(&format!(
            "  message {message} waits to go: one failed try, the last: "
        )) && show.contains("; next try 2026-03-02 12:01\n"),
        "{show}"
    );
    let problems =
        me.json(&["--now", "2026-03-02T12:01:00+03:00", "show", &id])["problems"].clone();
    assert_eq!(problems[0]["code"], "send_waiting", "{problems:#}");
    let games = me.json(&["--now", "2026-03-02T12:01:00+03:00", "games"]);
    assert_eq!(games[0]["problems"][0]["code"], "send_waiting", "{games:#}");
}

#[test]
fn an_empty_outbox_says_so_and_all_lists_the_sent_letters_too() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    assert_eq!(
        me.ok(&["outbox"]),
        "Nothing waits to go, and nothing failed. `ccmail outbox --all` lists what was sent too.\n"
    );
    assert_eq!(me.json(&["outbox", "--all"]), serde_json::json!([]));
    // Without [smtp] a move stays queued: not tried yet, due at once.
    let id = cup_game(&me, "white", PARTNER, &[]);
    me.ok(&["--now", "2026-03-02T12:00:00+03:00", "move", &id, "e4"]);
    let l = me.json(&["outbox"])[0].clone();
    assert_eq!(
        [&l["state"], &l["attempts"], &l["last_error"], &l["sent_at"]],
        [
            &Value::from("queued"),
            &Value::from(0),
            &Value::Null,
            &Value::Null
        ]
    );
    assert_eq!(l["next_try"], "2026-03-02T12:00:00+03:00");
    // A queued letter that was never tried is not a problem of the game.
    let games = me.ok(&["--now", "2026-03-02", "games"]);
    assert!(!games.contains("waiting to go"), "{games}");
}

#[tokio::test]
async fn a_repeat_waiting_in_the_outbox_is_not_called_sent() {
    // Without [smtp]: the repeat the rules queue on day 14 stays in the outbox.
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = cup_game(&me, "white", PARTNER, &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    assert_eq!(pass(&me, "2026-03-16").await.len(), 1);
    let show = me.ok(&["--now", "2026-03-17", "show", &id]);
    assert!(
        show.contains(
            "  2026-03-16  repeat our move, Cc the arbiter (51.5.1) — queued, not sent yet\n"
        ) && !show.contains("— sent"),
        "{show}"
    );
    let letters = me.json(&["outbox"]);
    let repeat = letters
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "repeat")
        .unwrap_or_else(|| panic!("{letters:#}"));
    assert_eq!(repeat["state"], "queued");
    assert_eq!(repeat["cc"], serde_json::json!(["arbiter@example.org"]));

    // A friendly game says the same of its repeat.
    let friendly = friendly_game(&me, "white", PARTNER);
    me.ok(&["--now", "2026-03-02", "move", &friendly, "d4"]);
    assert_eq!(pass(&me, "2026-03-16").await.len(), 1);
    let show = me.ok(&["--now", "2026-03-17", "show", &friendly]);
    assert!(
        show.contains(
            "Friendly game: no arbiter; the repeat of 2026-03-16 waits to go, to the partner \
             only (51.5.1)"
        ) && !show.contains("went to the partner"),
        "{show}"
    );
}
