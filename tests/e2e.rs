//! End to end: two players, each with their own config, database and mailbox on the real
//! Dovecot and Postfix, play ten moves each through real mail — `ccmail move` to send,
//! `ccmail run --once` to receive — on a calendar set with `--now`. At the end both databases
//! hold the same moves with the same dates and the same clocks; every message is threaded in
//! the game; the arbiter's mailbox holds exactly the messages Article 51 copies to the arbiter
//! (51.4.10: five days or fewer left for either side), and White's Sent folder a copy of each
//! of White's messages.

mod support;

use chrono::{Days, NaiveDate};
use serde_json::Value;
use support::{Player, create_mailboxes, message_id, messages, servers, unique};

const ARBITER: &str = "arbiter@example.test";

/// The game: a Ruy Lopez, ten moves each. White writes numeric notation in Russian, Black
/// English algebraic; each reads the other's.
const MOVES: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

/// The plies copied to the arbiter (51.4.10), by hand: White thinks one day on each move
/// but the first, so after White's move k White has used k − 1 of the 12 days for ten moves.
/// White's 8th move (ply 15) leaves 5 days: from it on every message goes Cc the arbiter, until
/// White's 10th move (ply 19) passes the control and the next one (move 20, 24 days) is far.
const CC_PLIES: [usize; 5] = [15, 16, 17, 18, 19];

fn day(d: NaiveDate) -> String {
    d.to_string()
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn two_players_play_ten_moves_through_real_mail() {
    let Some(s) = servers() else { return };
    let tag = unique("e2e");
    let sent_box = format!("{tag}-sent");
    create_mailboxes(
        &s,
        &["white@example.test", "black@example.test", ARBITER],
        &tag,
    );
    let white = Player::new(
        &s,
        "Белов Борис",
        "Белов",
        "white@example.test",
        &tag,
        &format!("sent_mailbox = \"{sent_box}\""),
    );
    let black = Player::new(
        &s,
        "Chernov Chess",
        "Chernov",
        "black@example.test",
        &tag,
        "",
    );
    let arbiter = support::mail::detail_address(ARBITER, &tag);
    // 10 moves in 12 days for each side: White, who thinks a day on every move, comes within
    // five days of the limit before move 10, and from then on the arbiter gets a copy.
    let control = ["--control", "10/12"];
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &control);
    let bg = black.new_game(
        "2026-03-01",
        "black",
        &white,
        &arbiter,
        &[&control[..], &["--notation", "san", "--lang", "en"]].concat(),
    );

    // The calendar: a move is received the day after it is sent (but the last); White answers
    // a day later, Black the same day.
    let mut today: NaiveDate = "2026-03-01".parse().unwrap();
    let mut cc_expected = Vec::new();
    for (ply, mv) in MOVES.iter().enumerate() {
        let (mover, game, receiver) = if ply % 2 == 0 {
            (&white, &wg, &black)
        } else {
            (&black, &bg, &white)
        };
        if ply % 2 == 0 && ply > 0 {
            today = today + Days::new(1); // White thinks a day
        }
        let now = day(today);
        // Whether the rules copy this message to the arbiter (51.4.10), from the clocks as
        // they stand before the move is charged and with it made: White's control move 10
        // (ply 19) goes Cc, though it starts the next control.
        let low = |shown: &Value| {
            let left = |c: &str| shown["clock"][c]["left"].as_i64().unwrap();
            left("white").min(left("black")) <= 5
        };
        let before = low(&mover.json(&["--now", &now, "show", game]));
        let out = mover.ok(&["--now", &now, "move", game, mv, "--yes"]);
        assert!(out.starts_with("sent:"), "ply {}: {out}", ply + 1);
        cc_expected.push(before || low(&mover.json(&["--now", &now, "show", game])));
        // The last move arrives the day it is sent: then both sides know the same about the
        // clock that now runs (the receiver's), and the clocks must agree to the day.
        if ply < MOVES.len() - 1 {
            today = today + Days::new(1);
        }
        let out = receiver.run(&["--now", &day(today), "run", "--once"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // The same game on both sides: moves with their dates and days, and both clocks.
    let now = day(today);
    let w = white.json(&["--now", &now, "show", &wg]);
    let b = black.json(&["--now", &now, "show", &bg]);
    assert_eq!(w["moves"].as_array().unwrap().len(), 20, "{w}");
    assert_eq!(w["moves"], b["moves"]);
    assert_eq!(w["clock"], b["clock"]);
    let sans: Vec<&str> = w["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, MOVES);
    assert_eq!(w["fen"], b["fen"]);
    assert_eq!(w["problems"], Value::Array(vec![]), "{w}");
    assert_eq!(b["problems"], Value::Array(vec![]), "{b}");
    for p in [&white, &black] {
        assert_eq!(p.json(&["inbox"]), Value::Array(vec![]), "nothing held");
    }

    // Every message arrived once, in order, threaded on the one before it.
    let to_black = messages(&s, "black@example.test", &tag);
    let to_white = messages(&s, "white@example.test", &tag);
    assert_eq!((to_black.len(), to_white.len()), (10, 10));
    let plies: Vec<&[u8]> = (0..20)
        .map(|i| {
            if i % 2 == 0 {
                &to_black[i / 2].raw[..]
            } else {
                &to_white[i / 2].raw[..]
            }
        })
        .collect();
    let ids: Vec<String> = plies.iter().map(|raw| message_id(raw)).collect();
    for (i, id) in ids.iter().enumerate() {
        assert!(
            id.starts_with("ccmail."),
            "ply {}: our own Message-ID, not {id}",
            i + 1
        );
        assert_eq!(ids.iter().filter(|x| *x == id).count(), 1, "{id}");
    }
    for (i, raw) in plies.iter().enumerate().skip(1) {
        let in_reply_to = support::mail::header(raw, "In-Reply-To").unwrap_or_default();
        assert_eq!(in_reply_to, format!("<{}>", ids[i - 1]), "ply {}", i + 1);
        let references = support::mail::header(raw, "References").unwrap_or_default();
        assert!(references.contains(&ids[0]), "ply {}: {references}", i + 1);
    }

    // The arbiter has exactly the messages the rules copy to them, each once.
    let cc_plies: Vec<usize> = (1..=20).filter(|p| cc_expected[p - 1]).collect();
    assert_eq!(cc_plies, CC_PLIES, "the clocks as shown after each move");
    let expected: Vec<&String> = ids
        .iter()
        .zip(&cc_expected)
        .filter(|(_, cc)| **cc)
        .map(|(id, _)| id)
        .collect();
    let at_arbiter: Vec<String> = messages(&s, ARBITER, &tag)
        .iter()
        .map(|m| message_id(&m.raw))
        .collect();
    assert_eq!(at_arbiter.iter().collect::<Vec<_>>(), expected);
    for (raw, cc) in plies.iter().zip(&cc_expected) {
        let header = support::mail::header(raw, "Cc");
        assert_eq!(header.is_some_and(|h| h.contains(&arbiter)), *cc);
    }

    // White keeps a copy of each of White's messages in the Sent folder.
    let sent: Vec<String> = messages(&s, "white@example.test", &sent_box)
        .iter()
        .map(|m| message_id(&m.raw))
        .collect();
    let whites: Vec<String> = ids.iter().step_by(2).cloned().collect();
    assert_eq!(sent, whites);
}
