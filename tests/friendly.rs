//! A friendly game: one made without `--arbiter`. The partner gets all he would get, no letter
//! of any chore is addressed to an arbiter, and what would have needed one is said instead
//! (cli.md, `game new`). The tournament game beside it shows the arbiter copied.

mod common;

use common::{Player, outgoing, pass, scholars_mate};

const PARTNER: &str = "petrov@example.org";

/// A game against Petrov from 2026-03-01, we are White; `extra` adds flags (an arbiter, a
/// control).
fn new_game(me: &Player, extra: &[&str]) -> String {
    let mut args = vec![
        "game",
        "new",
        "--event",
        "Товарищеская",
        "--start",
        "2026-03-01",
        "--white",
        "Иванов",
        "--black",
        "Петров",
        "--color",
        "white",
        "--opponent",
        PARTNER,
    ];
    args.extend(extra);
    me.ok(&args).trim().to_owned()
}

fn player() -> Player {
    Player::new("Иванов Иван", "Иванов", "ivanov@example.org")
}

/// Every recipient of every message we sent in `game`.
fn recipients(me: &Player, game: &str) -> Vec<String> {
    outgoing(me, game)
        .into_iter()
        .map(|(to, _, _)| to)
        .collect()
}

#[test]
fn a_friendly_game_shows_no_arbiter() {
    let me = player();
    let id = new_game(&me, &[]);
    let v = me.json(&["--now", "2026-03-01", "show", &id]);
    assert_eq!(v["arbiter"], serde_json::Value::Null, "{v}");
    let text = me.ok(&["--now", "2026-03-01", "show", &id]);
    assert!(
        text.contains(&format!(
            "You play white against {PARTNER}; a friendly game: no arbiter.\n"
        )),
        "{text}"
    );
    let games = me.ok(&["--now", "2026-03-01", "games"]);
    assert!(games.contains(&id), "{games}");
    let list = me.json(&["--now", "2026-03-01", "games"]);
    assert_eq!(list[0]["arbiter"], serde_json::Value::Null, "{list}");
    // A tournament game names its arbiter.
    let cup = new_game(&me, &["--arbiter", "Arbiter@Example.org"]);
    let v = me.json(&["--now", "2026-03-01", "show", &cup]);
    assert_eq!(v["arbiter"], "arbiter@example.org");
}

/// 51.5.1: the repeat on day 14 goes to the partner only; `show` says so.
#[tokio::test]
async fn the_day_14_repeat_goes_to_the_partner_only() {
    let me = player();
    let id = new_game(&me, &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let show = me.ok(&["--now", "2026-03-10", "show", &id]);
    assert!(
        show.contains("2026-03-16  repeat our move to the partner only: no arbiter (51.5.1)"),
        "{show}"
    );
    assert_eq!(
        pass(&me, "2026-03-16").await,
        [format!(
            "game {id}: our move repeated, to the partner only: a friendly game has no \
             arbiter (51.5.1)"
        )]
    );
    let out = outgoing(&me, &id);
    assert_eq!(out.len(), 2, "{out:?}");
    let (to, subject, text) = &out[1];
    assert_eq!(to, PARTNER);
    assert!(subject.starts_with("ПОВТОР: "), "{subject}");
    assert!(text.contains("ПОВТОР хода от 02.03.2026\n"), "{text}");
    let show = me.ok(&["--now", "2026-03-17", "show", &id]);
    assert!(
        show.contains(
            "Friendly game: no arbiter; the repeat of 2026-03-16 waits to go, to the partner \
             only (51.5.1)"
        ),
        "{show}"
    );
}

/// 51.4.10: with 5 days or fewer left the tournament game's move goes Cc the arbiter; the
/// friendly game's to the partner only, and `show` says there is no arbiter to copy.
#[test]
fn a_nearly_out_clock_copies_no_arbiter() {
    let me = player();
    let friendly = new_game(&me, &["--control", "10/5"]);
    let cup = new_game(
        &me,
        &["--control", "10/5", "--arbiter", "arbiter@example.org"],
    );
    for id in [&friendly, &cup] {
        me.ok(&["--now", "2026-03-02", "move", id, "e4"]);
    }
    assert_eq!(recipients(&me, &friendly), [PARTNER]);
    assert_eq!(
        recipients(&me, &cup),
        [format!("{PARTNER},arbiter@example.org")]
    );
    let show = me.ok(&["--now", "2026-03-02", "show", &friendly]);
    assert!(
        show.contains("5 days or fewer left: no arbiter to copy (51.4.10)"),
        "{show}"
    );
    let show = me.ok(&["--now", "2026-03-02", "show", &cup]);
    assert!(
        show.contains("5 days or fewer left: mail goes Cc the arbiter (51.4.10)"),
        "{show}"
    );
}

/// 51.9.1: the finished game's PGN goes to no one in a friendly game, not even later.
#[tokio::test]
async fn a_finished_friendly_game_sends_no_pgn() {
    let me = player();
    let id = new_game(&me, &[]);
    scholars_mate(&me, &id, PARTNER);
    let out = me.ok(&["--now", "2026-03-09", "move", &id, "Qxf7"]);
    assert!(out.contains("The game is over: 1-0."), "{out}");
    assert!(pass(&me, "2026-03-10").await.is_empty());
    let out = outgoing(&me, &id);
    assert_eq!(out.len(), 4, "our four moves, no PGN: {out:?}");
    assert!(out.iter().all(|(to, _, _)| to == PARTNER), "{out:?}");
    let show = me.ok(&["--now", "2026-03-10", "show", &id]);
    assert!(
        show.contains("Friendly game: no arbiter; the finished game went to no arbiter (51.9.1)"),
        "{show}"
    );
}

/// 10.4.3 and 51.1.2: a break notice and an address change go to the partner only.
#[test]
fn notices_go_to_the_partner_only() {
    let me = player();
    let id = new_game(&me, &[]);
    let announce = [
        "--now",
        "2026-06-01",
        "break",
        "announce",
        "--from",
        "2026-06-10",
        "--to",
        "2026-06-19",
    ];
    let preview = me.ok(&[&announce[..], &["--dry-run"]].concat());
    assert!(
        preview.starts_with(&format!("To: {PARTNER}\nSubject: ")),
        "{preview}"
    );
    me.ok(&announce);
    me.ok(&[
        "--now",
        "2026-06-01",
        "address",
        "change",
        "ivanov@new.example",
    ]);
    let out = outgoing(&me, &id);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(out.iter().all(|(to, _, _)| to == PARTNER), "{out:?}");
    assert!(
        out[0]
            .2
            .contains("Беру перерыв с 10.06.2026 по 19.06.2026\n"),
        "{}",
        out[0].2
    );
    assert!(
        out[1]
            .2
            .contains("Мой новый адрес электронной почты: ivanov@new.example"),
        "{}",
        out[1].2
    );
}

/// 51.6 and 51.9.4 are the arbiter's: a friendly game has none to ask, and says so.
#[test]
fn claim_and_adjudication_are_refused_in_words() {
    let me = player();
    let id = new_game(&me, &["--control", "1/5"]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let late = format!(
        "From: {PARTNER}\r\nDate: Tue, 10 Mar 2026 10:00:00 +0300\r\nMessage-ID: <q1@example.org>\r\nSubject: move\r\n\r\nMoves: 1. e4\r\nYour move 1. e4 sent: 2026-03-02\r\nReceived: 2026-03-03\r\nMy move: 1... e5\r\nSent: 2026-03-10\r\n"
    );
    me.apply_text("late.eml", &late, "2026-03-10");
    let err = me.fails(&["--now", "2026-03-10", "claim", &id, "--yes"]);
    assert!(
        err.contains(&format!(
            "game {id} is a friendly game: there is no arbiter to claim to"
        )),
        "{err}"
    );
    let err = me.fails(&[
        "--now",
        "2026-03-10",
        "adjudicate",
        &id,
        "--claim",
        "1-0",
        "--reason",
        "Won.",
        "--move",
        "d4",
        "--yes",
    ]);
    assert!(
        err.contains(&format!(
            "game {id} is a friendly game: there is no arbiter to adjudicate it"
        )),
        "{err}"
    );
    assert_eq!(
        me.json(&["--now", "2026-03-10", "show", &id])["status"],
        "active"
    );
    assert_eq!(recipients(&me, &id), [PARTNER], "only our move went out");
    // The result the players agree is recorded as the refusal says.
    let out = me.ok(&[
        "--now",
        "2026-03-11",
        "game",
        "decision",
        &id,
        "--result",
        "1-0",
    ]);
    assert_eq!(
        out,
        format!("game {id} finished 1-0 (a friendly game: no arbiter, no PGN sent)\n")
    );
    assert_eq!(recipients(&me, &id), [PARTNER]);
}
