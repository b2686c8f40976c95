//! 51.4.10: when a player has five days or fewer left before the control move, the mail goes
//! Cc the arbiter — judged before the move is charged, so the message that carries the control
//! move itself goes Cc when its sender had five days or fewer left, though the move starts
//! the next control. The game: control 10 moves / 30 days, we are White, the partner answers
//! each move in no time; what we spend on our first nine moves decides.

mod common;

use chrono::{Days, NaiveDate};
use common::{Player, cup_game, outgoing};

const PARTNER: &str = "petrov@example.org";
const ARBITER: &str = "arbiter@example.org";
const OURS: [&str; 10] = [
    "Nf3", "Nc3", "e3", "d3", "Be2", "Rg1", "Rh1", "Rg1", "Rh1", "Rg1",
];
const THEIRS: [&str; 9] = ["Nf6", "Nc6", "e6", "d6", "Be7", "Rg8", "Rh8", "Rg8", "Rh8"];

fn date(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// Plays our ten moves, the k-th after thinking `days[k]` days, the partner's replies
/// arriving two days after each of ours; the recipients of each of our messages.
fn ten_moves(days: [u64; 10]) -> Vec<String> {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = cup_game(&me, "white", PARTNER, &["--control", "10/30"]);
    let mut received = NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    let mut record: Vec<&str> = Vec::new();
    for (k, mine) in OURS.iter().enumerate() {
        let sent = received + Days::new(days[k]);
        me.ok(&["--now", &date(sent), "move", &id, mine, "--yes"]);
        record.push(mine);
        let Some(theirs) = THEIRS.get(k) else { break };
        let (their_day, arrives) = (sent + Days::new(1), sent + Days::new(2));
        let msg = format!(
            "From: {PARTNER}\r\nDate: {} 10:00:00 +0300\r\nMessage-ID: <m{k}@example.org>\r\n\
             Subject: m\r\n\r\nMoves: {}\r\nReceived: {}\r\nMy move: {theirs}\r\nSent: {}\r\n",
            their_day.format("%a, %d %b %Y"),
            record.join(" "),
            date(their_day),
            date(their_day),
        );
        let said = me.apply_text(&format!("m{k}.eml"), &msg, &date(arrives));
        assert!(said.contains("applied"), "{said}");
        record.push(theirs);
        received = arrives;
    }
    let shown = me.json(&["--now", &date(received), "show", &id]);
    assert_eq!(shown["moves"].as_array().unwrap().len(), 19, "{shown}");
    outgoing(&me, &id)
        .into_iter()
        .map(|(to, _, _)| to)
        .collect()
}

#[test]
fn the_control_move_goes_cc_when_its_sender_had_three_days_left() {
    // 27 days on the first nine moves: 3 left before move 10, sent the day it is received.
    let to = ten_moves([3, 3, 3, 3, 3, 3, 3, 3, 3, 0]);
    assert_eq!(to[9], format!("{PARTNER},{ARBITER}"), "move 10");
    // Move 9 already went Cc: 3 days left counting its own running days.
    assert_eq!(to[8], format!("{PARTNER},{ARBITER}"), "move 9");
    assert_eq!(to[7], PARTNER, "move 8: 6 left");
}

#[test]
fn the_control_move_goes_to_the_partner_alone_with_six_days_left() {
    // 24 days on the first nine moves: 6 left before move 10.
    let to = ten_moves([3, 3, 3, 3, 3, 3, 3, 3, 0, 0]);
    assert!(to.iter().all(|t| t == PARTNER), "{to:?}");
}
