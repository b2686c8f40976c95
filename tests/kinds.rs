//! Two ccmail homes send each other every kind of letter ccmail writes — move, variation, draw
//! offer and acceptance, repeat, break notice and its end, address change, claim, resignation,
//! adjudication package — through files, in Russian and in English. Each is read as its kind
//! on the other side and handled as its clause says, with no fine and no correction request
//! (RULES.md, "What a message is, and when ccmail acts on its own").

mod common;

use ccmail::app::{Clock, Me, chores};
use ccmail_store::Store;
use common::Player;
use serde_json::Value;

struct Side {
    player: Player,
    game: String,
    /// How many of this side's outgoing letters were posted already.
    posted: usize,
}

/// `player`'s game Иванов – Петров of the club cup, as `color` against `opponent`.
fn new_game(player: &Player, color: &str, opponent: &str, extra: &[&str]) -> String {
    common::cup_game(player, color, opponent, extra)
}

/// White (Иванов) and Black (Петров) set up the same game in their own homes.
fn two_homes(lang: &str, control: &str) -> (Side, Side) {
    let make = |name: &str, surname: &str, email: &str, color: &str, opponent: &str| {
        let player = Player::new(name, surname, email);
        // Each names its own server, whose DKIM verdict vouches for the other's letters.
        common::name_our_server(&player);
        let game = new_game(
            &player,
            color,
            opponent,
            &["--lang", lang, "--control", control],
        );
        Side {
            player,
            game,
            posted: 0,
        }
    };
    (
        make(
            "Иванов Иван",
            "Иванов",
            "ivanov@example.org",
            "white",
            "petrov@example.org",
        ),
        make(
            "Петров Пётр",
            "Петров",
            "petrov@example.org",
            "black",
            "ivanov@example.org",
        ),
    )
}

/// The raw letters `side` sent in its game, oldest first.
fn sent(side: &Side) -> Vec<String> {
    common::sent_letters(&side.player, &side.game)
        .into_iter()
        .map(|(raw, _)| raw)
        .collect()
}

/// Each letter `from` sent since the last post: its kind as `parse` reads it, and what the
/// other side's `apply` did with it on `day`.
fn post(from: &mut Side, to: &Side, day: &str) -> Vec<(String, String)> {
    let letters = sent(from);
    let new = letters[from.posted..].to_vec();
    from.posted = letters.len();
    // Only what is addressed to the partner reaches them (the arbiter's PGN does not).
    let to_partner = |raw: &String| {
        let d = ccmail_mail::mime::decode(raw.as_bytes()).unwrap();
        d.to.iter().chain(&d.cc).any(|a| a.email == to.player.email)
    };
    new.iter()
        .filter(|raw| to_partner(raw))
        .enumerate()
        .map(|(i, raw)| {
            // As the receiving server delivers it: the sender's signature verified.
            let raw = &common::signed_by_sender(&to.player, raw);
            let name = format!("in-{day}-{i}.eml");
            let path = to.player.home.path().join(&name);
            std::fs::write(&path, raw).unwrap();
            let parsed: Value =
                serde_json::from_str(&to.player.ok(&["--json", "parse", path.to_str().unwrap()]))
                    .unwrap();
            let out = to.player.apply_text(&name, raw, day);
            (parsed["kind"].as_str().unwrap().to_owned(), out)
        })
        .collect()
}

fn kinds(done: &[(String, String)]) -> Vec<&str> {
    done.iter().map(|(k, _)| k.as_str()).collect()
}

fn show(side: &Side, day: &str) -> Value {
    side.player.json(&["--now", day, "show", &side.game])
}

/// No fine on either side, and no correction request or held message.
fn no_fine(a: &Side, b: &Side, day: &str) {
    for side in [a, b] {
        let v = show(side, day);
        for color in ["white", "black"] {
            assert_eq!(v["clock"][color]["penalty"], 0, "{v}");
        }
        let problems = v["problems"].as_array().unwrap();
        assert!(
            problems.iter().all(|p| p["code"] == "control_overstepped"),
            "{v}"
        );
        assert!(
            sent(side)
                .iter()
                .all(|raw| !raw.contains("51.3.4") && !raw.contains("51.4.7")),
            "a correction request went out"
        );
    }
}

/// The daemon's pass of chores, for one player on `day`.
async fn chores_pass(p: &Player, name: &str, surname: &str, day: &str) {
    let store = Store::open(&p.home.path().join("ccmail.db")).await.unwrap();
    let clock = Clock::new(Some(day), "Europe/Moscow".parse().unwrap()).unwrap();
    let me = Me {
        name: name.into(),
        surname: surname.into(),
        email: p.email.clone(),
        ..Default::default()
    };
    chores::run_due(&store, &me, &clock).await.unwrap();
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
fn play_every_kind(lang: &str) {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (mut w, mut b) = two_homes(lang, "10/60");

    // A move with a variation offered (51.3.7).
    w.player.ok(&[
        "--now",
        "2026-03-02",
        "move",
        &w.game,
        "e4",
        "--variation",
        "e5 Nf3",
    ]);
    let done = post(&mut w, &b, "2026-03-03");
    assert_eq!(kinds(&done), ["move"], "{done:?}");
    assert!(done[0].1.contains("applied 1. e4 by White"), "{done:?}");

    // A move, then White's reply with a draw offer.
    b.player.ok(&["--now", "2026-03-04", "move", &b.game, "c5"]);
    assert_eq!(kinds(&post(&mut b, &w, "2026-03-05")), ["move"]);
    w.player.ok(&[
        "--now",
        "2026-03-06",
        "move",
        &w.game,
        "Nf3",
        "--offer-draw",
    ]);
    let done = post(&mut w, &b, "2026-03-07");
    assert_eq!(kinds(&done), ["move"]);
    assert!(done[0].1.contains("offers a draw"), "{done:?}");
    assert_eq!(show(&b, "2026-03-07")["draw_offered_by"], "white");

    // A break, and its early end (51.7.2–3): recorded, nothing fined.
    b.player.ok(&[
        "--now",
        "2026-03-08",
        "break",
        "announce",
        "--from",
        "2026-03-10",
        "--to",
        "2026-03-20",
    ]);
    let done = post(&mut b, &w, "2026-03-08");
    assert_eq!(kinds(&done), ["break_notice"], "{done:?}");
    assert!(
        done[0]
            .1
            .contains("takes a break from 2026-03-10 to 2026-03-20"),
        "{done:?}"
    );
    b.player
        .ok(&["--now", "2026-03-12", "break", "end", "--on", "2026-03-13"]);
    let done = post(&mut b, &w, "2026-03-12");
    assert_eq!(kinds(&done), ["break_end"], "{done:?}");
    assert!(
        done[0].1.contains("playing again from 2026-03-13"),
        "{done:?}"
    );
    // `show` lists the letters that were not moves, with what ccmail made of them.
    let text = w.player.ok(&["--now", "2026-03-12", "show", &w.game]);
    assert!(text.contains("Letters that were not moves:"), "{text}");
    assert!(
        text.contains("break end (") && text.contains("ends their break early"),
        "{text}"
    );

    // Black does not answer for weeks: White's repeat on day 14, which Black has (51.5.1).
    rt.block_on(chores_pass(
        &w.player,
        "Иванов Иван",
        "Иванов",
        "2026-03-30",
    ));
    let done = post(&mut w, &b, "2026-03-30");
    assert_eq!(kinds(&done), ["repeat"], "{done:?}");
    assert!(
        done[0]
            .1
            .contains("a repeat of their move 3, which we have"),
        "{done:?}"
    );

    // Black answers the repeat (Cc the arbiter) and accepts the draw.
    b.player.ok(&[
        "--now",
        "2026-03-31",
        "move",
        &b.game,
        "Nc6",
        "--accept-draw",
    ]);
    let done = post(&mut b, &w, "2026-03-31");
    assert_eq!(kinds(&done), ["move"], "{done:?}");
    assert!(done[0].1.contains("the draw is agreed"), "{done:?}");
    assert_eq!(show(&w, "2026-03-31")["result"], "1/2-1/2");
    // Both PGNs say it was agreed, though the letter that agreed carried a move.
    for side in [&w, &b] {
        let pgn = side.player.ok(&["export", &side.game]);
        assert!(pgn.trim_end().ends_with("{Draw agreed} 1/2-1/2"), "{pgn}");
    }
    no_fine(&w, &b, "2026-03-31");

    // A second game: a claim and an adjudication package.
    let (mut w, mut b) = two_homes(lang, "1/5");
    w.player.ok(&["--now", "2026-03-02", "move", &w.game, "d4"]);
    post(&mut w, &b, "2026-03-02");
    // Black takes nine days over move 1, past the control of 5 (51.6).
    b.player.ok(&["--now", "2026-03-11", "move", &b.game, "d5"]);
    post(&mut b, &w, "2026-03-11");
    // The adjudication package goes to the arbiter; the partner's copy reads as its kind.
    w.player.ok(&[
        "--now",
        "2026-03-14",
        "adjudicate",
        &w.game,
        "--claim",
        "1-0",
        "--reason",
        "Black overstepped",
        "--move",
        "c4",
        "--yes",
    ]);
    let letters = sent(&w);
    let package = letters.last().unwrap();
    let path = b.player.home.path().join("package.eml");
    std::fs::write(&path, package).unwrap();
    let parsed = b.player.json(&["parse", path.to_str().unwrap()]);
    assert_eq!(parsed["kind"], "adjudication", "{parsed}");
    w.posted = letters.len();

    w.player
        .ok(&["--now", "2026-03-12", "claim", &w.game, "--yes"]);
    let done = post(&mut w, &b, "2026-03-12");
    assert_eq!(kinds(&done), ["claim"], "{done:?}");
    assert!(done[0].1.contains("time-forfeit claim"), "{done:?}");
    assert_eq!(show(&b, "2026-03-12")["status"], "suspended");

    let (mut w, mut b) = two_homes(lang, "10/60");
    w.player.ok(&["--now", "2026-03-02", "move", &w.game, "e4"]);
    post(&mut w, &b, "2026-03-02");
    b.player
        .ok(&["--now", "2026-03-03", "resign", &b.game, "--yes"]);
    let done = post(&mut b, &w, "2026-03-03");
    assert_eq!(kinds(&done), ["resignation"], "{done:?}");
    assert_eq!(show(&w, "2026-03-03")["result"], "1-0");
    no_fine(&w, &b, "2026-03-03");

    // An address change (51.1.2) from the address on file: the new address is recorded.
    let (mut w, mut b) = two_homes(lang, "10/60");
    w.player.ok(&["--now", "2026-03-02", "move", &w.game, "e4"]);
    post(&mut w, &b, "2026-03-02");
    b.player.ok(&[
        "--now",
        "2026-03-03",
        "address",
        "change",
        "petrov@new.example.org",
    ]);
    let done = post(&mut b, &w, "2026-03-03");
    assert_eq!(kinds(&done), ["address_change"], "{done:?}");
    assert_eq!(show(&w, "2026-03-03")["opponent"], "petrov@new.example.org");
    no_fine(&w, &b, "2026-03-03");
}

#[test]
fn every_kind_ccmail_writes_is_read_as_its_kind_in_russian() {
    play_every_kind("ru");
}

#[test]
fn every_kind_ccmail_writes_is_read_as_its_kind_in_english() {
    play_every_kind("en");
}

/// The arbiter's letter naming a game is held for the player as the arbiter's, and accepting
/// it never makes the arbiter the opponent (RULES.md, "What a message is").
#[test]
fn the_arbiters_letter_is_held_and_never_becomes_the_opponent() {
    let (mut w, b) = two_homes("en", "10/60");
    w.player.ok(&["--now", "2026-03-02", "move", &w.game, "e4"]);
    post(&mut w, &b, "2026-03-02");
    let letter = "From: Arbiter <arbiter@example.org>\r\nTo: petrov@example.org\r\n\
                  Date: Tue, 03 Mar 2026 10:00:00 +0300\r\nMessage-ID: <a1@example.org>\r\n\
                  Subject: Кубок клуба 2026: Иванов – Петров\r\n\r\n\
                  Event: Кубок клуба 2026\r\nWhite: Иванов\r\nBlack: Петров\r\n\
                  Please note my new e-mail address: td@new.example.org\r\nArbiter\r\n";
    let letter = common::signed_by_sender(&b.player, letter);
    let out = b.player.apply_text("arbiter.eml", &letter, "2026-03-03");
    assert!(out.contains("a letter from the arbiter"), "{out}");
    let n = out
        .split_once("held as message ")
        .unwrap()
        .1
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    b.player.ok(&[
        "--now",
        "2026-03-03",
        "inbox",
        "accept",
        &n,
        "--game",
        &b.game,
    ]);
    let v = show(&b, "2026-03-03");
    assert_eq!(v["opponent"], "ivanov@example.org", "{v}");
    assert_eq!(v["clock"]["white"]["penalty"], 0, "{v}");
}

/// Hand-written and program-made letters of every kind that is not a move, in both languages
/// and every client's style, arriving in a game with their sender while it is the sender's
/// move: none is fined, and no correction request goes out.
#[test]
fn no_letter_of_another_kind_is_fined() {
    let dir = common::fixtures().parent().unwrap().join("kinds");
    let mut checked = 0;
    for eml in common::emls(&dir) {
        let expect: Value = serde_json::from_str(
            &std::fs::read_to_string(eml.with_extension("expect.json")).unwrap(),
        )
        .unwrap();
        if matches!(expect["kind"].as_str(), Some("move" | "repeat")) {
            continue;
        }
        let raw = std::fs::read(&eml).unwrap();
        let Some(from) = ccmail_mail::mime::decode(&raw)
            .ok()
            .and_then(|d| d.from)
            .map(|a| a.normalized_email())
        else {
            continue;
        };
        // A letter ccmail wrote as Иванов reaches someone else: our opponent is never us.
        let own = if from == "ivanov@example.org" {
            "sidorov@example.org"
        } else {
            "ivanov@example.org"
        };
        let me = Player::new("Иванов Иван", "Иванов", own);
        let game = new_game(&me, "white", &from, &[]);
        me.ok(&["--now", "2026-03-02", "move", &game, "e4"]);
        let name = eml.file_name().unwrap().to_str().unwrap();
        let out = me.ok(&[
            "--now",
            "2026-03-05",
            "apply",
            eml.to_str().unwrap(),
            "--received",
            "2026-03-05",
        ]);
        let v = me.json(&["--now", "2026-03-05", "show", &game]);
        assert_eq!(v["clock"]["black"]["penalty"], 0, "{name}: {out}");
        assert!(!out.contains("correction requested"), "{name}: {out}");
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} letters checked");
}
