//! Which game a message answers, by its In-Reply-To and References: only the last 100
//! References count (the newest are at the end), so a message naming thousands costs a
//! hundred lookups, in one query, however many it names.

mod common;

use common::{Player, cup_game, sent_letters};

/// A message from someone who plays no game with us, without a game header: only its thread
/// can tie it to a game.
fn stranger(n: usize, references: &[String]) -> String {
    format!(
        "From: Сидоров <sidorov@other.example>\r\nTo: ivanov@example.org\r\n\
         Date: Tue, 03 Mar 2026 10:00:00 +0300\r\nMessage-ID: <stranger.{n}@other.example>\r\n\
         References: {}\r\nSubject: привет\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         Как дела?\r\n",
        references.join("\r\n ")
    )
}

#[test]
fn only_the_last_hundred_references_tie_a_message_to_a_game() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = cup_game(&me, "white", "petrov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let ours = sent_letters(&me, &id)[0].1.message_id.clone().unwrap();
    let junk: Vec<String> = (0..5_000)
        .map(|n| format!("<old.{n}@elsewhere.example>"))
        .collect();

    // Ours is the oldest of 5,001: not among the last 100, so the message is no game's.
    let refs: Vec<String> = std::iter::once(format!("<{ours}>"))
        .chain(junk.iter().cloned())
        .collect();
    let out = me.apply_text("old.eml", &stranger(1, &refs), "2026-03-03");
    assert!(
        out.contains("no game with sidorov@other.example matches it"),
        "{out}"
    );

    // Ours is the newest: the message answers the game (from an address not on file).
    let refs: Vec<String> = junk
        .iter()
        .cloned()
        .chain(std::iter::once(format!("<{ours}>")))
        .collect();
    let out = me.apply_text("new.eml", &stranger(2, &refs), "2026-03-03");
    assert!(out.contains(&format!("it looks like game {id}")), "{out}");

    // The 100th from the end still counts.
    let mut refs = junk.clone();
    refs.insert(junk.len() - 99, format!("<{ours}>"));
    let out = me.apply_text("edge.eml", &stranger(3, &refs), "2026-03-03");
    assert!(out.contains(&format!("it looks like game {id}")), "{out}");
}
