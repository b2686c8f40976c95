//! Text from mail never drives the terminal: a partner's Subject (an RFC 2047 encoded-word),
//! From name and address, move text and notes carrying ESC sequences (OSC: the window
//! title; CSI: clear the screen, hide the text), a C1 CSI (U+009B) and a bidi override
//! (U+202E) are shown in a visible form by `inbox`, `show`, `games`, `apply`, `parse` and the
//! `reply` screen (through a pseudo-terminal), and kept exact by their `--json` forms.

mod common;

use std::process::Command;
use std::time::Duration;

use base64::Engine;
use common::Player;
use expectrl::session::OsSession as Pty;
use expectrl::{Eof, Expect, Regex};

/// What the hostile text does on a terminal: sets the window title, clears the screen,
/// hides what follows.
const PAYLOAD: &str = "\x1b]0;pwned\x07\x1b[2J\x1b[8mhidden";
/// The same, as ccmail shows it.
const PAYLOAD_SHOWN: &str = "^[]0;pwned^G^[[2J^[[8mhidden";

/// The Subject of both messages, as decoded.
fn subject() -> String {
    format!("Club Cup 2026 {PAYLOAD} \u{202e}evil \u{9b}2J")
}

/// The From display name of every message.
const NAME: &str = "Ivanov \x1b]0;name\x07\u{202e}\u{9b}";
/// The unknown sender's address: quoted, so that it may hold anything.
const STRANGER: &str = "\"stranger\x1b]0;from\x07\u{202e}\u{9b}\"@example.com";
/// The hostile move text of the unknown sender's message.
const MOVE: &str = "e4\x1b]0;move\x07\u{202e}\u{9b}";
/// The partner's note.
const NOTE: &str = "good \x1b]0;note\x07\x1b[2J luck \u{202e}evil \u{9b}8m end";
/// The event in game B's header, as the partner wrote it.
const EVENT: &str = "\u{202e}Cup\u{2066} \x1b]0;ev\x07 2026";

fn encoded(text: &str) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(text);
    format!("=?UTF-8?B?{b64}?=")
}

/// A move message of White's 1. e4 (`mv`), sent 2026-03-02, with a hostile Subject and From
/// name, and `note` in its notes.
fn message(id: &str, from: &str, event: &str, mv: &str, note: &str) -> String {
    format!(
        "Message-ID: <{id}@example.net>\nDate: Mon, 02 Mar 2026 10:00:00 +0300\n\
         From: {} <{from}>\nTo: Petrov <petrov@example.org>\nSubject: {}\n\
         Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n\n\
         Event: {event}\nStart: 2026-03-01\nWhite: Ivanov\nBlack: Petrov\n\
         ----------------------------------------\nMoves:\nMy move: 1. {mv}\n\
         Notes:\n- {note}\n\
         Sent: 2026-03-02\nTime for this move: 1\nTotal days: White 1, Black 0\n\
         ----------------------------------------\nIvanov <ivanov@example.net>\n",
        encoded(NAME),
        encoded(&subject()),
    )
}

/// Petrov, Black in two games where it is his move on 2026-03-06: A, against Ivanov, whose
/// hostile 1. e4 was applied (and an unknown sender's hostile copy of it held for A); B,
/// imported from Sidorov's message with a hostile event. What `apply` said of the held copy.
struct Hostile {
    me: Player,
    a: String,
    b: String,
    held: String,
}

fn hostile() -> Hostile {
    let me = Player::new("Petrov Petr", "Petrov", "petrov@example.org");
    me.ok(&["init"]);
    let a = me.ok(&[
        "game",
        "new",
        "--event",
        "Кубок клуба 2026",
        "--start",
        "2026-03-01",
        "--white",
        "Ivanov",
        "--black",
        "Petrov",
        "--color",
        "black",
        "--opponent",
        "ivanov@example.net",
        "--lang",
        "en",
    ]);
    let a = a.trim().to_owned();
    let from_partner = message("a1", "ivanov@example.net", "Кубок клуба 2026", "e4", NOTE);
    let out = me.apply_text("a1.eml", &from_partner, "2026-03-02");
    assert!(out.contains("applied 1. e4"), "{out}");
    let from_stranger = message("s1", STRANGER, "Кубок клуба 2026", MOVE, NOTE);
    let held = me.apply_text("s1.eml", &from_stranger, "2026-03-03");
    assert!(held.contains("held as message"), "{held}");
    let path = me.home.path().join("b1.eml");
    let from_b = message("b1", "sidorov@example.net", EVENT, "e4", "hello");
    std::fs::write(&path, from_b).unwrap();
    let b = me.ok(&[
        "--now",
        "2026-03-03",
        "game",
        "import",
        path.to_str().unwrap(),
        "--color",
        "black",
    ]);
    Hostile {
        a,
        b: b.trim().to_owned(),
        held,
        me,
    }
}

/// A character no human-readable output may carry from mail: a control character other
/// than a line break, DEL, a C1 control, a bidi or other invisible format character.
fn driving(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{61c}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// `out` of `what` has no character that drives a terminal.
fn harmless(what: &str, out: &str) {
    if let Some(c) = out.chars().find(|&c| driving(c)) {
        panic!("{what}: {c:?} reaches the terminal:\n{out:?}");
    }
}

#[test]
fn inbox_shows_the_held_message_harmlessly_and_its_json_exactly() {
    let h = hostile();
    harmless("apply", &h.held);
    assert!(
        h.held.contains("stranger^[]0;from^G<U+202E><U+009B>"),
        "{}",
        h.held
    );

    let out = h.me.ok(&["inbox"]);
    harmless("inbox", &out);
    for shown in [
        PAYLOAD_SHOWN,
        "<U+202E>evil <U+009B>2J",
        "stranger^[]0;from^G<U+202E><U+009B>",
    ] {
        assert!(out.contains(shown), "{shown:?} is not in:\n{out}");
    }

    let json = h.me.json(&["inbox"]);
    let held = &json[0];
    assert_eq!(held["subject"], subject());
    assert_eq!(held["from"], STRANGER);
    assert!(
        held["reason"].as_str().unwrap().contains(STRANGER),
        "{held}"
    );
}

#[test]
fn show_and_games_show_the_partners_text_harmlessly_and_their_json_exactly() {
    let h = hostile();
    let show_a = h.me.ok(&["--now", "2026-03-06", "show", &h.a]);
    harmless("show A", &show_a);
    assert!(
        show_a.contains("stranger^[]0;from^G<U+202E><U+009B>"),
        "the held message's reason, in the problems:\n{show_a}"
    );
    let show_b = h.me.ok(&["--now", "2026-03-06", "show", &h.b]);
    harmless("show B", &show_b);
    assert!(show_b.contains("<U+202E>Cup<U+2066>"), "{show_b}");
    let games = h.me.ok(&["--now", "2026-03-06", "games"]);
    harmless("games", &games);
    assert!(games.contains("<U+202E>Cup<U+2066>"), "{games}");

    let a = h.me.json(&["--now", "2026-03-06", "show", &h.a]);
    let detail = a["problems"][0]["detail"].as_str().unwrap();
    assert!(detail.contains(STRANGER), "{detail:?}");
    let b = h.me.json(&["--now", "2026-03-06", "show", &h.b]);
    let event = b["event"].as_str().unwrap();
    assert!(event.starts_with("\u{202e}Cup\u{2066}"), "{event:?}");
    let games = h.me.json(&["--now", "2026-03-06", "games"]);
    let listed = games.as_array().unwrap().iter().find(|g| g["id"] == h.b);
    assert_eq!(listed.unwrap()["event"], event);
}

#[test]
fn apply_json_and_parse_json_keep_the_text_exact_and_parse_shows_it_harmlessly() {
    let h = hostile();
    let again = message("s2", STRANGER, "Кубок клуба 2026", MOVE, NOTE);
    let path = h.me.home.path().join("s2.eml");
    std::fs::write(&path, &again).unwrap();
    let file = path.to_str().unwrap();
    // Held for game A: its `show` object, the held messages among the problems.
    let a = h.me.json(&[
        "--now",
        "2026-03-04",
        "apply",
        file,
        "--received",
        "2026-03-04",
    ]);
    let problems = a["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 2, "{a}");
    for p in problems {
        let detail = p["detail"].as_str().unwrap();
        assert!(detail.contains(STRANGER), "{detail:?}");
    }

    let out = h.me.ok(&["parse", file]);
    harmless("parse", &out);
    for shown in [
        PAYLOAD_SHOWN,
        "e4^[]0;move^G<U+202E><U+009B> (not read)",
        "good ^[]0;note^G^[[2J luck <U+202E>evil <U+009B>8m end",
        "stranger^[]0;from^G<U+202E><U+009B>",
    ] {
        assert!(out.contains(shown), "{shown:?} is not in:\n{out}");
    }
    let read = h.me.json(&["parse", file]);
    assert_eq!(read["subject"], subject());
    assert_eq!(read["from"], STRANGER);
    let problem = read["problems"][0]["detail"].as_str().unwrap();
    assert!(problem.contains(MOVE), "{problem:?}");
}

/// `ccmail reply` in an 80×24 pseudo-terminal, as `me` at `now`.
fn reply(me: &Player, now: &str) -> Pty {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ccmail"));
    command
        .arg("reply")
        .env_clear()
        .env("HOME", me.home.path())
        .env("CCMAIL_CONFIG", me.config())
        .env("CCMAIL_NOW", now)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut term = Pty::spawn(command).unwrap();
    term.get_process_mut().set_window_size(80, 24).unwrap();
    term.set_expect_timeout(Some(Duration::from_secs(30)));
    term
}

/// Everything up to `text`, as received.
fn until(s: &mut Pty, text: &str) -> String {
    match s.expect(text) {
        Ok(found) => String::from_utf8_lossy(found.as_bytes()).into_owned(),
        Err(e) => panic!("waiting for {text:?}: {e}"),
    }
}

#[test]
fn the_reply_screen_and_its_preview_show_mail_harmlessly() {
    let h = hostile();
    let mut s = reply(&h.me, "2026-03-06");
    let mut seen = until(&mut s, "2 games to answer");
    // The games in the prompt's order, whichever it is; B's move is previewed, then
    // cancelled.
    for _ in 0..2 {
        let found = s.expect(Regex(r"([a-z0-9]+) 1\.\.\.> ")).unwrap();
        seen.push_str(&String::from_utf8_lossy(found.as_bytes()));
        let id = String::from_utf8_lossy(found.get(1).unwrap()).into_owned();
        if id == h.b {
            s.send("e5\r").unwrap();
            seen.push_str(&until(&mut s, "Send it? "));
            s.send("c\r").unwrap();
            seen.push_str(&until(&mut s, &format!("{id} 1...> ")));
        }
        s.send("skip\r").unwrap();
    }
    let rest = s.expect(Eof).unwrap();
    seen.push_str(&String::from_utf8_lossy(rest.as_bytes()));
    assert!(seen.contains("Done: 0 answered, 2 skipped."), "{seen}");

    // The prompt draws with escape sequences of its own; none of the mail's gets through.
    for raw in [
        "\x1b]", "\x07", "\x1b[2J", "\x1b[8m", "\u{202e}", "\u{2066}", "\u{9b}",
    ] {
        assert!(
            !seen.contains(raw),
            "{raw:?} reaches the terminal:\n{seen:?}"
        );
    }
    let joined = seen.replace("\r\n  ", " ");
    for shown in [
        // The held message, announced first.
        "stranger^[]0;from^G<U+202E><U+009B>",
        // A's screen: the partner's note.
        "good ^[]0;note^G^[[2J luck <U+202E>evil <U+009B>8m end",
        // B's screen: the event.
        "<U+202E>Cup<U+2066>",
    ] {
        assert!(joined.contains(shown), "{shown:?} is not in:\n{joined}");
    }
    // The preview of the reply to B: its Subject names the event.
    let subject = joined.lines().find(|l| l.starts_with("Subject: "));
    assert!(
        subject.is_some_and(|l| l.contains("<U+202E>Cup<U+2066>")),
        "{joined}"
    );
}
