//! What matters shown first, through the real binary: `games` and `show` with a draw offer
//! open and a move running, a repeat already sent, a control overstepped (a warning, and a
//! word in `move --dry-run` that answering gives up the claim), and a finished game's result
//! with the reason, in `show`, `games --all` and the PGN.

mod common;

use common::{Player, pass};

const EVENT: &str = "Кубок клуба 2026";

/// Ivanov (White, us) against Petrov from 01.03.2026 (written as Russian players write it),
/// with `extra` flags; its id.
fn new_game(extra: &[&str]) -> (Player, String) {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let mut args = vec![
        "game",
        "new",
        "--event",
        EVENT,
        "--start",
        "01.03.2026",
        "--white",
        "Иванов",
        "--black",
        "Петров",
        "--color",
        "white",
        "--opponent",
        "petrov@example.org",
        "--arbiter",
        "arbiter@example.org",
    ];
    args.extend(extra);
    let id = me.ok(&args).trim().to_owned();
    (me, id)
}

/// Black's 1... e5 in the Russian standard form: our 1. e4 of 02.03 received on
/// `received`, his move sent on `sent` (DD.MM.2026), with `extra` lines.
fn black_e5(received: &str, sent: &str, extra: &str) -> String {
    format!(
        "From: Петров Пётр <petrov@example.org>\r\nTo: ivanov@example.org\r\n\
         Date: {day} Mar 2026 21:00:00 +0300\r\nMessage-ID: <petrov.1@example.org>\r\n\
         Subject: {EVENT}\r\nContent-Type: text/plain; charset=UTF-8\r\n\r\n\
         Турнир: {EVENT}\r\nСтарт: 01.03.2026\r\nБелые: Иванов\r\nЧерные: Петров\r\n\
         Ходы: 1. e4\r\nВаш ход 1. e4 отправлен: 02.03.2026\r\nПолучен: {received}\r\n\
         Мой ход: 1... e5\r\n{extra}Отправлен: {sent}\r\n",
        day = &sent[..2],
    )
}

#[test]
fn games_shows_the_days_left_with_the_running_move_and_an_open_draw_offer() {
    let (me, id) = new_game(&[]);
    me.ok(&["--now", "02.03.2026", "move", &id, "e4"]);
    let offer = black_e5("03.03.2026", "04.03.2026", "Предлагаю ничью\r\n");
    me.apply_text("m1.eml", &offer, "2026-03-05");
    // Three days run on our move (received 05.03): White 60 − 1 − 3 = 56, Black 60 − 1.
    let games = me.ok(&["--now", "2026-03-08", "games"]);
    assert_eq!(
        games,
        format!(
            "{id:<8} {EVENT:<24} {:<26} white move   2  YOUR MOVE   left W 56 B 59  \
             2026-04-13 40 days without a move (51.5.3)\n         The partner offers a \
             draw: `ccmail move {id} --accept-draw` accepts it; a move without it declines it\n",
            "petrov@example.org"
        )
    );
    let show = me.ok(&["--now", "2026-03-08", "show", &id]);
    assert!(
        show.contains(&format!(
            "Your move\nThe partner offers a draw: `ccmail move {id} --accept-draw` accepts it"
        )),
        "{show}"
    );
    // Accepted without a move: the game ends in a draw the players agreed.
    let out = me.ok(&["--now", "2026-03-08", "move", &id, "--accept-draw"]);
    assert!(out.contains("The game is over: 1/2-1/2."), "{out}");
    let show = me.ok(&["--now", "2026-03-08", "show", &id]);
    assert!(show.contains("Finished: 1/2-1/2 (Draw agreed)\n"), "{show}");
    assert!(!show.contains("offers a draw"), "{show}");
    let all = me.ok(&["--now", "2026-03-08", "games", "--all"]);
    assert!(
        all.contains("finished 1/2-1/2") && all.trim_end().ends_with("Draw agreed"),
        "{all}"
    );
    let pgn = me.ok(&["--now", "2026-03-08", "export", &id]);
    assert!(pgn.trim_end().ends_with("{Draw agreed} 1/2-1/2"), "{pgn}");
}

#[test]
fn our_own_draw_offer_is_shown_as_waiting_for_an_answer() {
    let (me, id) = new_game(&[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4", "--offer-draw"]);
    let games = me.ok(&["--now", "2026-03-03", "games"]);
    assert!(
        games.ends_with("\n         You offered a draw; the partner has not answered it yet\n"),
        "{games}"
    );
    // A move without an offer to accept is refused; no move and no draw is a usage error.
    let err = me.fails(&["--now", "2026-03-03", "move", &id, "--accept-draw"]);
    assert!(err.contains("no draw offer from the opponent"), "{err}");
    assert_eq!(me.run(&["move", &id]).status.code(), Some(2));
}

#[tokio::test]
async fn a_repeat_already_sent_is_not_the_next_deadline() {
    let (me, id) = new_game(&[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let before = me.ok(&["--now", "2026-03-16", "games"]);
    assert!(
        before.contains("  2026-03-16 repeat our move, Cc the arbiter (51.5.1)\n"),
        "{before}"
    );
    let done = pass(&me, "2026-03-16").await;
    assert_eq!(done.len(), 1, "{done:?}");
    // The repeat of 16.03 is queued (no [smtp] here: it waits in the outbox, and `show` does
    // not call it sent): the next one, on 30.03, is what is open.
    let after = me.ok(&["--now", "2026-03-17", "games"]);
    assert!(
        after.contains("left W 59 B 45  2026-03-30 repeat our move, Cc the arbiter (51.5.1)\n"),
        "{after}"
    );
    let show = me.ok(&["--now", "2026-03-17", "show", &id]);
    assert!(
        show.contains(
            "  2026-03-16  repeat our move, Cc the arbiter (51.5.1) — queued, not sent yet\n"
        ) && show.contains("  2026-03-30  repeat our move, Cc the arbiter (51.5.1)\n"),
        "{show}"
    );
}

#[test]
fn an_overstepped_control_is_warned_of_claimed_and_shown_as_a_loss_on_time() {
    // One move in two days: Black's five days on 1... e5 overstep the control at move 1.
    let (me, id) = new_game(&["--control", "1/2"]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    me.apply_text(
        "m1.eml",
        &black_e5("03.03.2026", "08.03.2026", ""),
        "2026-03-09",
    );
    let show = me.ok(&["--now", "2026-03-09", "show", &id]);
    assert!(
        show.contains(&format!(
            "Warning: Black went over the time limit with move 1: you may claim a win on time \
             (`ccmail claim {id}`), no later than your reply: answering without it gives up \
             the right to claim (51.6.1)\n"
        )),
        "{show}"
    );
    assert!(
        show.contains("Black overstepped the time control at move 1 (51.6)"),
        "{show}"
    );
    // Answering is possible, but the preview says what it costs.
    let dry = me.ok(&["--now", "2026-03-09", "move", &id, "Nf3", "--dry-run"]);
    assert!(
        dry.starts_with(
            "Sending this gives up the right to claim a win on time: Black went over the time \
             limit with move 1, and the claim goes no later than your reply (51.6.1)"
        ),
        "{dry}"
    );
    // Four days later our own clock is over the limit of our move 2 (4 days): 1 + 4 = 5.
    let late = me.ok(&["--now", "2026-03-13", "show", &id]);
    assert!(
        late.contains(
            "Warning: You are 1 day over the limit of your move 2: you will overstep the \
             control with it (51.4.3)\n"
        ),
        "{late}"
    );
    // Claimed and decided: a loss on time, said so everywhere.
    me.ok(&["--now", "2026-03-09", "claim", &id, "--yes"]);
    me.ok(&[
        "--now",
        "2026-03-20",
        "game",
        "decision",
        &id,
        "--result",
        "1-0",
    ]);
    let show = me.ok(&["--now", "2026-03-20", "show", &id]);
    assert!(
        show.contains("Finished: 1-0 (Black lost on time)\n"),
        "{show}"
    );
    assert!(!show.contains("Warning:"), "{show}");
    assert!(!show.contains("Problems:"), "a settled overstep: {show}");
    let all = me.ok(&["--now", "2026-03-20", "games", "--all"]);
    assert!(
        all.contains("finished 1-0") && all.trim_end().ends_with("Black lost on time"),
        "{all}"
    );
    let pgn = me.ok(&["--now", "2026-03-20", "export", &id]);
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(
        pgn.trim_end().ends_with("{Black lost on time} 1-0"),
        "{pgn}"
    );
}

#[test]
fn an_overstep_answered_without_a_claim_leaves_the_problems() {
    let (me, id) = new_game(&["--control", "1/2"]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    me.apply_text(
        "m1.eml",
        &black_e5("03.03.2026", "08.03.2026", ""),
        "2026-03-09",
    );
    me.ok(&["--now", "2026-03-09", "move", &id, "Nf3"]);
    let show = me.ok(&["--now", "2026-03-09", "show", &id]);
    assert!(
        !show.contains("overstepped the time control at move 1"),
        "{show}"
    );
    assert!(!show.contains("Problems:"), "{show}");
    // Black, still 5 days in against 4 by his move 2, will overstep again with it.
    assert!(
        show.contains(
            "Warning: Black is 1 day over the limit of move 2: the control will be overstepped \
             with it (51.4.3)\n"
        ),
        "{show}"
    );
    let v = me.json(&["--now", "2026-03-09", "show", &id]);
    assert_eq!(v["problems"], serde_json::json!([]), "{v}");
    // The clock still knows when it happened.
    assert_eq!(v["clock"]["black"]["overstepped_at"], 1, "{v}");
}

#[test]
fn a_partners_resignation_and_our_checkmate_are_shown_with_the_reason() {
    let (me, id) = new_game(&[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let resign =
        black_e5("03.03.2026", "04.03.2026", "").replace("Мой ход: 1... e5\r\n", "Сдаюсь\r\n");
    let resign = common::signed_by_sender(&me, &resign);
    me.apply_text("m1.eml", &resign, "2026-03-05");
    let show = me.ok(&["--now", "2026-03-05", "show", &id]);
    assert!(show.contains("Finished: 1-0 (Black resigns)\n"), "{show}");
    let all = me.ok(&["--now", "2026-03-05", "games", "--all"]);
    assert!(all.trim_end().ends_with("Black resigns"), "{all}");
    let pgn = me.ok(&["--now", "2026-03-05", "export", &id]);
    assert!(pgn.trim_end().ends_with("{Black resigns} 1-0"), "{pgn}");

    let (me, id) = new_game(&[]);
    common::scholars_mate(&me, &id, "petrov@example.org");
    me.ok(&["--now", "2026-03-09", "move", &id, "Qxf7"]);
    let show = me.ok(&["--now", "2026-03-09", "show", &id]);
    assert!(show.contains("Finished: 1-0 (Checkmate)\n"), "{show}");
}
