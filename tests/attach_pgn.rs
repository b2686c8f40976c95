//! The PGN attachment on move messages (message-form.md: "A PGN of the whole game … may be
//! attached"): off by default, on per game (`game new --attach-pgn`, `game set`) or from the
//! config's `[defaults] attach_pgn`. The text part stays the standard form, and ccmail's own
//! reader reads such a message as the move it is.

mod common;

use common::{Player, outgoing, pass};

const PARTNER: &str = "petrov@example.org";

fn player() -> Player {
    Player::new("Иванов Иван", "Иванов", "ivanov@example.org")
}

/// A game against Petrov from 2026-03-01, we are White, with `extra` flags.
fn new_game(me: &Player, extra: &[&str]) -> String {
    common::cup_game(me, "white", PARTNER, extra)
}

/// Our messages in `game` as they went out, raw (from `export --mbox`), with `\n` line ends
/// (they went out, and are kept, with CRLF).
fn raw_sent(me: &Player, game: &str) -> Vec<String> {
    let mbox = me.ok(&["export", game, "--mbox"]).replace("\r\n", "\n");
    mbox.split("\nFrom ")
        .filter_map(|entry| Some(entry.split_once('\n')?.1.to_owned()))
        .filter(|raw| {
            let d = ccmail_mail::mime::decode(raw.as_bytes()).unwrap();
            d.from.is_some_and(|f| f.email == me.email)
        })
        .collect()
}

/// The decoded message: (text part, PGN parts).
fn decoded(raw: &str) -> (String, Vec<String>) {
    let d = ccmail_mail::mime::decode(raw.as_bytes()).unwrap();
    (d.text, d.pgn)
}

/// `ccmail parse --json` of `raw`, without the fields that name the message itself.
fn parsed(me: &Player, raw: &str) -> serde_json::Value {
    let path = me.home.path().join("parse.eml");
    std::fs::write(&path, raw).unwrap();
    let mut v = me.json(&["parse", path.to_str().unwrap()]);
    for key in ["message_id", "subject"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v
}

#[test]
fn a_move_message_carries_the_game_as_pgn_after_the_unchanged_text() {
    let me = player();
    let plain = new_game(&me, &[]);
    let with = new_game(&me, &["--attach-pgn"]);
    for id in [&plain, &with] {
        me.ok(&["--now", "2026-03-02", "move", id, "e4"]);
    }
    let (plain_raw, with_raw) = (&raw_sent(&me, &plain)[0], &raw_sent(&me, &with)[0]);
    // Off by default: one text/plain part.
    assert!(
        plain_raw.contains("Content-Type: text/plain; charset=utf-8\n"),
        "{plain_raw}"
    );
    assert!(!plain_raw.contains("multipart"), "{plain_raw}");
    // On: multipart/mixed, the text part first and the same, then one PGN attachment.
    assert!(
        with_raw.contains("Content-Type: multipart/mixed;"),
        "{with_raw}"
    );
    let text_at = with_raw
        .find("Content-Type: text/plain; charset=utf-8")
        .unwrap();
    let pgn_at = with_raw
        .find(&format!(
            "Content-Type: application/x-chess-pgn; name=\"{with}.pgn\""
        ))
        .expect(with_raw);
    assert!(text_at < pgn_at, "{with_raw}");
    assert_eq!(
        with_raw.matches("Content-Disposition: attachment").count(),
        1
    );
    assert!(
        with_raw.contains(&format!(
            "Content-Disposition: attachment; filename=\"{with}.pgn\""
        )),
        "{with_raw}"
    );
    let (plain_text, plain_pgn) = decoded(plain_raw);
    let (text, pgn) = decoded(with_raw);
    // (The mbox's blank line between messages ends the single-part one's text.)
    assert_eq!(text.trim_end(), plain_text.trim_end());
    assert!(text.contains("Мой ход: 1. 5254\n"), "{text}");
    assert!(plain_pgn.is_empty());
    assert_eq!(pgn.len(), 1, "{pgn:?}");
    assert!(
        pgn[0].starts_with("[Event \"Кубок клуба 2026\"]\n"),
        "{}",
        pgn[0]
    );
    for tag in [
        "[Mode \"EM\"]",
        "[WhiteNA \"ivanov@example.org\"]",
        "[Result \"*\"]",
    ] {
        assert!(pgn[0].contains(tag), "{tag}: {}", pgn[0]);
    }
    assert!(pgn[0].contains("1. e4 "), "{}", pgn[0]);
    // ccmail reads it as the move it is: the text part wins, the same move and record.
    let (p, w) = (parsed(&me, plain_raw), parsed(&me, with_raw));
    assert_eq!(w, p);
    assert!(w.to_string().contains("e4"), "{w}");
    // The preview names the attachment.
    let third = new_game(&me, &["--attach-pgn"]);
    let preview = me.ok(&["--now", "2026-03-02", "move", &third, "e4", "--dry-run"]);
    assert!(
        preview.ends_with(&format!(
            "\nAttached: {third}.pgn (application/x-chess-pgn)\n"
        )),
        "{preview}"
    );
}

#[tokio::test]
async fn the_config_turns_it_on_and_game_set_turns_it_off() {
    let me = player();
    let config = me.config();
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("\n[defaults]\nattach_pgn = true\n");
    std::fs::write(&config, text).unwrap();
    let id = new_game(&me, &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    // The repeat on day 14 is a move message too (51.5.1).
    assert_eq!(pass(&me, "2026-03-16").await.len(), 1);
    let sent = raw_sent(&me, &id);
    assert_eq!(sent.len(), 2);
    for raw in &sent {
        let (_, pgn) = decoded(raw);
        assert_eq!(pgn.len(), 1, "{raw}");
        assert!(pgn[0].contains("1. e4 "), "{}", pgn[0]);
    }
    let out = me.ok(&["game", "set", &id, "--attach-pgn", "off"]);
    assert_eq!(
        out,
        format!("game {id}: move messages carry no PGN from now on\n")
    );
    let reply = format!(
        "From: {PARTNER}\r\nDate: Tue, 17 Mar 2026 10:00:00 +0300\r\nMessage-ID: <p1@example.org>\r\nSubject: move\r\n\r\nХоды: 1. 5254\r\nВаш ход 1. 5254 отправлен: 02.03.2026\r\nПолучен: 03.03.2026\r\nМой ход: 1... 5755\r\nОтправлен: 17.03.2026\r\n"
    );
    me.apply_text("p1.eml", &reply, "2026-03-17");
    me.ok(&["--now", "2026-03-17", "move", &id, "Nf3"]);
    let last = raw_sent(&me, &id).pop().unwrap();
    assert!(decoded(&last).1.is_empty(), "{last}");
    assert!(!last.contains("multipart"), "{last}");
    let (to, _, _) = outgoing(&me, &id).pop().unwrap();
    assert_eq!(to, PARTNER);
    // An unknown game, a wrong value: refused in words.
    let err = me.fails(&["game", "set", "nosuch", "--attach-pgn", "on"]);
    assert!(err.contains("there is no game nosuch"), "{err}");
    let out = me.run(&["game", "set", &id, "--attach-pgn", "yes"]);
    assert!(!out.status.success());
}
