//! Variations between two ccmail players (51.3.7–9, 51.4.6): White offers 1...e5 2.Nf3 Nc6
//! 3.Bb5 a6 4.Ba4 with 1.e4; Black accepts it whole, in part, or deviates, each from `move`
//! and from the `reply` prompt (a pseudo-terminal). Each player has a home of their own; a
//! message goes from one to the other as the file the sender queued, applied by the
//! receiver on the day it arrives. Afterwards both stores must agree on every move, its dates
//! and days, and on both clocks.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{Player, cup_game, sans, sent_letters};
use expectrl::session::OsSession as Pty;
use expectrl::{Eof, Expect};
use serde_json::Value;

const OFFER: &str = "e5 Nf3 Nc6 Bb5 a6 Ba4";

struct Pair {
    white: Player,
    black: Player,
    /// Each player's id of the game.
    wg: String,
    bg: String,
}

/// White has played 1.e4 with the offer on 2 March; Black received it on 3 March.
fn offered() -> Pair {
    let white = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let black = Player::new("Петров Пётр", "Петров", "petrov@example.org");
    let wg = cup_game(&white, "white", &black.email, &[]);
    let bg = cup_game(&black, "black", &white.email, &[]);
    white.ok(&[
        "--now",
        "2026-03-02",
        "move",
        &wg,
        "e4",
        "--variation",
        OFFER,
        "--yes",
    ]);
    let pair = Pair {
        white,
        black,
        wg,
        bg,
    };
    deliver(&pair.white, &pair.wg, &pair.black, "2026-03-03");
    pair
}

/// `from`'s last letter in `game`, applied by `to` as received on `day`; what `apply` said.
fn deliver(from: &Player, game: &str, to: &Player, day: &str) -> String {
    let (raw, _) = sent_letters(from, game).pop().expect("a letter");
    let n = sent_letters(from, game).len();
    to.apply_text(&format!("from-{}-{n}.eml", from.surname), &raw, day)
}

/// Each move of a `show --json` object: SAN, received, sent, days.
fn moves(v: &Value) -> Vec<(String, String, String, u64)> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["san"].as_str().unwrap().to_owned(),
                m["received"].as_str().unwrap().to_owned(),
                m["sent"].as_str().unwrap().to_owned(),
                m["days"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// Each side's days, penalty and total.
fn clocks(v: &Value) -> Vec<u64> {
    ["white", "black"]
        .iter()
        .flat_map(|c| ["days", "penalty", "total"].map(|k| v["clock"][c][k].as_u64().unwrap()))
        .collect()
}

/// How Black answers.
enum How<'a> {
    /// `ccmail move` with these arguments after the game's id.
    Move(&'a [&'a str]),
    /// This line at the `reply` prompt.
    Prompt(&'a str),
}

/// Black answers on 5 March; White receives it on 6 March. Both stores must then agree: the
/// moves with their dates and days, and the clocks. Returns White's view, and the text of
/// Black's message.
fn answer(p: &Pair, how: How) -> (Value, String) {
    match how {
        How::Move(args) => {
            let mut all = vec!["--now", "2026-03-05", "move", &p.bg];
            all.extend_from_slice(args);
            all.push("--yes");
            p.black.ok(&all);
        }
        How::Prompt(line) => prompt(&p.black, "2026-03-05", line),
    }
    let said = deliver(&p.black, &p.bg, &p.white, "2026-03-06");
    assert!(said.contains("applied"), "{said}");
    let w = p.white.json(&["--now", "2026-03-06", "show", &p.wg]);
    let b = p.black.json(&["--now", "2026-03-06", "show", &p.bg]);
    assert_eq!(moves(&w), moves(&b), "the two stores' moves");
    assert_eq!(clocks(&w), clocks(&b), "the two stores' clocks");
    assert_eq!(w["fen"], b["fen"]);
    let (_, letter) = sent_letters(&p.black, &p.bg).pop().unwrap();
    (w, letter.text)
}

/// Black's `reply` prompt on `now`: types `line`, sends what it shows, and quits.
fn prompt(black: &Player, now: &str, line: &str) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ccmail"));
    c.arg("reply")
        .env_clear()
        .env("CCMAIL_CONFIG", black.config())
        .env("HOME", black.home.path())
        .env("CCMAIL_NOW", now)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut term = Pty::spawn(c).unwrap();
    term.get_process_mut().set_window_size(80, 24).unwrap();
    term.set_expect_timeout(Some(Duration::from_secs(30)));
    // The offer is shown with the game.
    term.expect("They offer the variation").unwrap();
    term.expect("> ").unwrap();
    term.send(format!("{line}\r")).unwrap();
    term.expect("Send it? y(es), e(dit), c(ancel): ").unwrap();
    term.send("y\r").unwrap();
    term.expect("queued: ").unwrap();
    term.expect(Eof).unwrap();
}

/// The record and move lines of a message in Russian.
fn record(text: &str) -> String {
    text.lines()
        .filter(|l| l.starts_with("Ходы:") || l.starts_with("Мой ход:"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn day(san: &str, received: &str, sent: &str, days: u64) -> (String, String, String, u64) {
    (san.into(), received.into(), sent.into(), days)
}

/// White's 1.e4: received on the start date, sent on 2 March, one day.
fn e4() -> (String, String, String, u64) {
    day("e4", "2026-03-01", "2026-03-02", 1)
}

#[test]
fn the_offer_is_shown_until_answered() {
    let p = offered();
    let b = p.black.json(&["--now", "2026-03-04", "show", &p.bg]);
    assert_eq!(
        b["offered_variation"],
        serde_json::json!(["e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"])
    );
    let text = p.black.ok(&["--now", "2026-03-04", "show", &p.bg]);
    assert!(
        text.contains("They offer the variation 1... e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 (51.3.7)"),
        "{text}"
    );
    // White's own offer is not one White can accept.
    let w = p.white.json(&["--now", "2026-03-04", "show", &p.wg]);
    assert_eq!(w["offered_variation"], serde_json::json!([]));
    // Answered, it is gone, and there is nothing for White to accept.
    answer(&p, How::Move(&["--accept-variation", "Nf6"]));
    let b = p.black.json(&["--now", "2026-03-06", "show", &p.bg]);
    assert_eq!(b["offered_variation"], serde_json::json!([]));
    let err = p.white.fails(&[
        "--now",
        "2026-03-07",
        "move",
        &p.wg,
        "--accept-variation",
        "d4",
    ]);
    assert!(
        err.contains("no variation offered by your partner"),
        "{err}"
    );
}

/// Whole: the record repeats all six moves, then Black's reply 4...Nf6. Black is charged the
/// two days on 3...a6, the last accepted ply of his (51.4.6); the rest cost nothing.
fn whole(how: How) {
    let p = offered();
    let (w, text) = answer(&p, how);
    assert_eq!(
        record(&text),
        "Ходы: 1. 5254 5755 2. 7163 2836 3. 6125 1716 4. 2514\nМой ход: 4... 7866",
        "{text}"
    );
    let (r, s) = ("2026-03-03", "2026-03-05");
    assert_eq!(
        moves(&w),
        [
            e4(),
            day("e5", r, s, 0),
            day("Nf3", r, s, 0),
            day("Nc6", r, s, 0),
            day("Bb5", r, s, 0),
            day("a6", r, s, 2),
            day("Ba4", r, s, 0),
            day("Nf6", r, s, 0),
        ]
    );
    assert_eq!(clocks(&w), [1, 0, 1, 2, 0, 2]);
    // The partner's move named is his own 1.e4, with its dates; the message's days are 2.
    assert!(
        text.contains("Ваш ход 1. 5254 отправлен: 02.03.2026\nПолучен: 03.03.2026\n"),
        "{text}"
    );
    assert!(text.contains("Время на ход: 2\n"), "{text}");
    assert_eq!(w["to_move"], "white");
}

#[test]
fn accepted_whole_from_move() {
    whole(How::Move(&["--accept-variation", "Nf6"]));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_repeat_of_an_acceptance_repeats_the_accepted_moves() {
    let p = offered();
    answer(&p, How::Move(&["--accept-variation", "Nf6"]));
    // No word back for 14 days: Black's message goes again, as it was (51.5.1).
    let done = common::pass(&p.black, "2026-03-19").await;
    assert_eq!(done.len(), 1, "{done:?}");
    let (_, letter) = sent_letters(&p.black, &p.bg).pop().unwrap();
    assert!(
        letter.text.contains(
            "Ходы: 1. 5254 5755 2. 7163 2836 3. 6125 1716 4. 2514\n\
             Ваш ход 1. 5254 отправлен: 02.03.2026\nПолучен: 03.03.2026\n\
             Мой ход: 4... 7866\nПОВТОР хода от 05.03.2026\n"
        ),
        "{}",
        letter.text
    );
    assert!(letter.text.contains("Время на ход: 2\n"), "{}", letter.text);
}

#[test]
fn accepted_whole_from_the_prompt_by_typing_it() {
    whole(How::Prompt("e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"));
}

#[test]
fn accepted_whole_from_the_prompt_by_word() {
    whole(How::Prompt("accept Nf6"));
}

/// An answer in part: the record and move lines of Black's message, and Black's three plies
/// after 1.e4 with the days each is charged (51.4.6: two days on the last accepted ply of
/// Black's own).
fn in_part(how: How, lines: &str, plies: [(&str, u64); 3]) {
    let p = offered();
    let (w, text) = answer(&p, how);
    assert_eq!(record(&text), lines, "{text}");
    let (r, s) = ("2026-03-03", "2026-03-05");
    let mut want = vec![e4()];
    want.extend(plies.map(|(san, days)| day(san, r, s, days)));
    assert_eq!(moves(&w), want);
    assert_eq!(clocks(&w), [1, 0, 1, 2, 0, 2]);
}

/// Up to one of Black's own moves: 1...e5 2.Nf3 Nc6, the third being the reply.
const UP_TO_OURS: (&str, [(&str, u64); 3]) = (
    "Ходы: 1. 5254 5755 2. 7163\nМой ход: 2... 2836",
    [("e5", 0), ("Nf3", 0), ("Nc6", 2)],
);

/// A deviation: 1...e5 2.Nf3 accepted, then 2...d6 instead of 2...Nc6.
const DEVIATED: (&str, [(&str, u64); 3]) = (
    "Ходы: 1. 5254 5755 2. 7163\nМой ход: 2... 4746",
    [("e5", 2), ("Nf3", 0), ("d6", 0)],
);

#[test]
fn accepted_in_part_from_move() {
    in_part(
        How::Move(&["--accept-variation=3"]),
        UP_TO_OURS.0,
        UP_TO_OURS.1,
    );
}

#[test]
fn accepted_in_part_from_the_prompt() {
    in_part(How::Prompt("e5 Nf3 Nc6"), UP_TO_OURS.0, UP_TO_OURS.1);
}

#[test]
fn deviated_from_move() {
    in_part(
        How::Move(&["--accept-variation=2", "d6"]),
        DEVIATED.0,
        DEVIATED.1,
    );
}

#[test]
fn deviated_from_the_prompt() {
    in_part(How::Prompt("e5 Nf3 d6"), DEVIATED.0, DEVIATED.1);
}

#[test]
fn an_acceptance_without_a_reply_is_refused_before_it_goes() {
    let p = offered();
    for (args, want) in [
        (&["--accept-variation=2"][..], "51.3.9"),
        (&["--accept-variation"][..], "51.3.9"),
        (&["--accept-variation=3", "d6"][..], "give no other move"),
        (
            &["--accept-variation=7", "d6"][..],
            "6 half-moves: 7 can't be accepted",
        ),
    ] {
        let mut all = vec!["--now", "2026-03-05", "move", &p.bg];
        all.extend_from_slice(args);
        let err = p.black.fails(&all);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // `--accept-draw` where there is a variation, not a draw, to accept: said so.
    let err = p
        .black
        .fails(&["--now", "2026-03-05", "move", &p.bg, "--accept-draw"]);
    assert!(err.contains("--accept-variation MOVE"), "{err}");
    // Nothing was queued.
    assert_eq!(sent_letters(&p.black, &p.bg).len(), 0);
}

#[test]
fn an_accepted_variation_arriving_without_a_reply_is_illegible() {
    // Black writes by hand: the accepted 1...e5 2.Nf3 and no move of his own (51.3.9).
    let p = offered();
    let raw = "From: Петров Пётр <petrov@example.org>\r\nTo: ivanov@example.org\r\n\
        Date: Thu, 05 Mar 2026 10:00:00 +0300\r\nMessage-ID: <hand.1@example.org>\r\n\
        Subject: =?UTF-8?B?0JrRg9Cx0L7QuiDQutC70YPQsdCwIDIwMjY=?=\r\n\
        Content-Type: text/plain; charset=UTF-8\r\n\r\n\
        Турнир: Кубок клуба 2026\r\nБелые: Иванов\r\nЧерные: Петров\r\n\
        Ходы: 1. 5254 5755 2. 7163\r\nМой ход:\r\nОтправлен: 05.03.2026\r\n";
    let raw = common::signed_by_sender(&p.white, raw);
    let said = p.white.apply_text("hand.eml", &raw, "2026-03-06");
    assert!(!said.contains("applied"), "{said}");
    let w = p.white.json(&["--now", "2026-03-06", "show", &p.wg]);
    assert_eq!(sans(&w), ["e4"]);
    assert_eq!(w["clock"]["black"]["penalty"], 2, "{w}");
    // The correction request says why, citing the clause.
    let (_, letter) = sent_letters(&p.white, &p.wg).pop().unwrap();
    assert!(letter.text.contains("51.3.9"), "{}", letter.text);
}

#[test]
fn a_plan_is_kept_shown_played_on_apply_and_cleared() {
    let p = offered();
    // Black is to move: White's plan is Black's expected reply, then White's.
    let err = p
        .black
        .fails(&["--now", "2026-03-04", "plan", &p.bg, "e5 Nf3"]);
    assert!(err.contains("it is your move"), "{err}");
    let err = p
        .white
        .fails(&["--now", "2026-03-04", "plan", &p.wg, "1... e5 2. Nf3 Nc6"]);
    assert!(err.contains("ends with a move of your partner's"), "{err}");
    let err = p
        .white
        .fails(&["--now", "2026-03-04", "plan", &p.wg, "e5 Ke3"]);
    assert!(err.contains("in the plan"), "{err}");
    let v = p.white.json(&[
        "--now",
        "2026-03-04",
        "plan",
        &p.wg,
        "1... e5 2. Nf3 Nc6 3. Bb5",
    ]);
    assert_eq!(v["plan"], serde_json::json!(["e5", "Nf3", "Nc6", "Bb5"]));
    let text = p.white.ok(&["--now", "2026-03-04", "show", &p.wg]);
    assert!(
        text.contains("Your plan (not sent): if 1... e5 then 2. Nf3; if 2... Nc6 then 3. Bb5.\n"),
        "{text}"
    );
    // Black's 1...e5 (a plain reply, not accepting the offer) applied: the planned 2.Nf3 goes
    // out with it, and the plan moves on.
    p.black
        .ok(&["--now", "2026-03-05", "move", &p.bg, "e5", "--yes"]);
    let said = deliver(&p.black, &p.bg, &p.white, "2026-03-06");
    assert!(
        said.contains("your planned reply 2. Nf3 to 1... e5"),
        "{said}"
    );
    let (_, letter) = sent_letters(&p.white, &p.wg).pop().unwrap();
    assert!(
        letter
            .text
            .contains("Мой ход: 2. 7163\nОтправлен: 06.03.2026\n"),
        "{}",
        letter.text
    );
    let w = p.white.json(&["--now", "2026-03-06", "show", &p.wg]);
    assert_eq!(sans(&w), ["e4", "e5", "Nf3"]);
    assert_eq!(w["plan"], serde_json::json!(["Nc6", "Bb5"]));
    let out = p
        .white
        .ok(&["--now", "2026-03-06", "plan", &p.wg, "--clear"]);
    assert_eq!(out, format!("Game {}: no plan.\n", p.wg));
    let w = p.white.json(&["--now", "2026-03-06", "show", &p.wg]);
    assert_eq!(w["plan"], serde_json::json!([]));
}
