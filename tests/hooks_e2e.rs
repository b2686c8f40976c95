//! The config's `[hooks]`, fired by a running daemon on the real Dovecot and Postfix: each hook
//! once per event with the right `CCMAIL_*` variables — a partner's move applied, a message
//! held, a message of ours sent, a deadline near, an error — and a hook that hangs is stopped
//! at its time limit while the daemon goes on. Each hook appends a line to a file. Without
//! servers the test prints a note and passes, except under `CI=true`, where it fails (see
//! tests/support).

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use support::{Player, append, create_mailboxes, servers, unique};

const WHITE: &str = "white@example.test";
const BLACK: &str = "black@example.test";
const ARBITER: &str = "arbiter@example.test";
const LOG: &str = "info,ccmail=debug";

/// A hook that appends `KIND|GAME|EVENT|OPPONENT|MOVE|DEADLINE|DEADLINE_KIND|MESSAGE|TEXT` to
/// `file`, then runs `then` (a shell command: `true`, or `sleep 30` for one that hangs).
fn hook(file: &Path, then: &str) -> String {
    let script = format!(
        "printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\\n' \"$CCMAIL_EVENT_KIND\" \"$CCMAIL_GAME\" \
         \"$CCMAIL_EVENT\" \"$CCMAIL_OPPONENT\" \"$CCMAIL_MOVE\" \"$CCMAIL_DEADLINE\" \
         \"$CCMAIL_DEADLINE_KIND\" \"$CCMAIL_MESSAGE\" \"$CCMAIL_TEXT\" >> '{}'; {then}",
        file.display()
    );
    let quoted = script.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[\"sh\", \"-c\", \"{quoted}\"]")
}

/// The lines the hooks wrote, each split at `|`.
fn lines(file: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('|').map(str::to_owned).collect())
        .collect()
}

/// Waits (up to 30 s) until the hooks wrote `n` lines.
fn wait_lines(file: &Path, n: usize) -> Vec<Vec<String>> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let got = lines(file);
        if got.len() >= n || Instant::now() > deadline {
            return got;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn each_hook_fires_once_per_event_and_a_hanging_one_is_stopped() {
    let Some(s) = servers() else { return };
    let tag = unique("hooks");
    create_mailboxes(&s, &[WHITE, BLACK, ARBITER], &tag);
    let white = Player::new(&s, "Белов Борис", "Белов", WHITE, &tag, "");
    let black = Player::new(&s, "Чернов Чеслав", "Чернов", BLACK, &tag, "");
    let out = black.home.path().join("hooks.txt");
    let config = std::fs::read_to_string(black.config()).unwrap();
    let hooks = format!(
        "\n[hooks]\non_move = {}\non_held = {}\non_sent = {}\non_deadline = {}\n\
         on_error = {}\ndeadline_days = 2\ntimeout_secs = 2\n",
        hook(&out, "true"),
        hook(&out, "true"),
        // The sent hook hangs: it is stopped after 2 s.
        hook(&out, "sleep 30"),
        hook(&out, "true"),
        hook(&out, "true"),
    );
    std::fs::write(black.config(), config + &hooks).unwrap();
    let arbiter = support::mail::detail_address(ARBITER, &tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter, &[]);
    let no_smtp = black.config_without_smtp();
    let no_smtp = no_smtp.to_str().unwrap();

    let mut daemon = black.spawn(&["--now", "2026-03-02", "run"], LOG);
    daemon.wait_for("waiting for new mail idle=true", Duration::from_secs(20));

    // A move arrives: on_move, with the move.
    let out1 = white.ok(&["--now", "2026-03-01", "move", &wg, "e4", "--yes"]);
    assert!(out1.starts_with("sent:"), "{out1}");
    let got = wait_lines(&out, 1);
    assert_eq!(got.len(), 1, "{got:?}\n{}", daemon.log());
    let m = &got[0];
    assert_eq!(
        m[..7],
        ["move", &bg, "Daemon Cup 2026", &white.email, "e4", "", ""]
    );
    assert!(m[7].parse::<i64>().is_ok(), "{m:?}");
    assert!(m[8].contains("applied 1. e4"), "{m:?}");

    // A stranger writes about the game: held, on_held.
    let stranger = format!(
        "From: Someone <someone@example.test>\r\nTo: {}\r\nDate: Mon, 02 Mar 2026 10:00:00 +0300\r\n\
         Message-ID: <stranger.{tag}@example.test>\r\nSubject: Daemon Cup 2026\r\n\
         Content-Type: text/plain; charset=UTF-8\r\n\r\nТурнир: Daemon Cup 2026\r\n\
         Белые: Белов\r\nЧерные: Чернов\r\nХоды: 1. 5254\r\nМой ход: 1... 5755\r\n",
        black.email
    );
    append(&s, BLACK, &tag, stranger.as_bytes(), &[], None);
    let got = wait_lines(&out, 2);
    assert_eq!(got.len(), 2, "{got:?}\n{}", daemon.log());
    assert_eq!(got[1][0], "held", "{got:?}");
    assert!(got[1][8].contains("held as message"), "{got:?}");

    // Our move, queued by a command without [smtp], sent by the daemon: on_sent, which hangs
    // and is stopped; the daemon goes on.
    let mark = daemon.mark();
    let queued = black.ok(&[
        "--config",
        no_smtp,
        "--now",
        "2026-03-02",
        "move",
        &bg,
        "e5",
        "--yes",
    ]);
    assert!(queued.starts_with("queued:"), "{queued}");
    daemon.wait_after(mark, " sent item=", Duration::from_secs(30));
    let got = wait_lines(&out, 3);
    assert_eq!(got.len(), 3, "{got:?}\n{}", daemon.log());
    assert_eq!(
        got[2][..5],
        ["sent", &bg, "Daemon Cup 2026", &white.email, "e5"]
    );
    daemon.wait_after(
        mark,
        "hook on_sent (sh) still ran after 2 s: stopped",
        Duration::from_secs(20),
    );

    // An error: a move to an address Postfix refuses for good.
    let nobody = black.ok(&[
        "--now",
        "2026-03-02",
        "game",
        "new",
        "--event",
        "Nobody Cup",
        "--start",
        "2026-03-01",
        "--white",
        "Никто",
        "--black",
        "Чернов",
        "--color",
        "black",
        "--opponent",
        "nobody@example.test",
        "--arbiter",
        &arbiter,
    ]);
    let nobody = nobody.trim().to_owned();
    // White's first move in that game, applied by hand so that Black can answer it.
    let mark = daemon.mark();
    let first = format!(
        "From: nobody@example.test\r\nDate: Mon, 02 Mar 2026 09:00:00 +0300\r\n\
         Message-ID: <nobody.{tag}@example.test>\r\nSubject: Nobody Cup\r\n\r\n\
         Турнир: Nobody Cup\r\nБелые: Никто\r\nЧерные: Чернов\r\nМой ход: 1. 5254\r\n\
         Отправлен: 02.03.2026\r\n"
    );
    let file = black.home.path().join("nobody.eml");
    std::fs::write(&file, first).unwrap();
    black.ok(&[
        "--config",
        no_smtp,
        "--now",
        "2026-03-02",
        "apply",
        file.to_str().unwrap(),
    ]);
    black.ok(&[
        "--config",
        no_smtp,
        "--now",
        "2026-03-02",
        "move",
        &nobody,
        "c5",
        "--yes",
    ]);
    daemon.wait_after(mark, "send failed for good", Duration::from_secs(30));
    let got = wait_lines(&out, 5);
    let error = got
        .iter()
        .find(|l| l[0] == "error")
        .unwrap_or_else(|| panic!("{got:?}\n{}", daemon.log()));
    assert!(error[8].contains("send failed for good"), "{error:?}");
    assert!(daemon.stop().success(), "{}", daemon.log());

    // A deadline two days ahead: Black's e5 went on 2 March; his repeat falls due on 16 March.
    // Told on 14 March, once, however many passes.
    let before = lines(&out).len();
    for _ in 0..2 {
        black.ok(&["--now", "2026-03-14", "run", "--once"]);
    }
    let got = lines(&out);
    let deadlines: Vec<&Vec<String>> = got[before..]
        .iter()
        .filter(|l| l[0] == "deadline" && l[1] == bg)
        .collect();
    assert_eq!(deadlines.len(), 1, "{got:?}");
    assert_eq!(deadlines[0][5..7], ["2026-03-16", "repeat"]);
    assert_eq!(deadlines[0][2], "Daemon Cup 2026");
    assert!(
        deadlines[0][8].contains("repeat deadline in 2 days"),
        "{:?}",
        deadlines[0]
    );
    // A move sent by `ccmail move` itself (with [smtp]) fires `on_sent` too, before the
    // command ends (the hanging hook stopped after its 2 s).
    white.ok(&["--now", "2026-03-14", "run", "--once"]);
    let out2 = white.ok(&["--now", "2026-03-14", "move", &wg, "Nf3", "--yes"]);
    assert!(out2.starts_with("sent:"), "{out2}");
    black.ok(&["--now", "2026-03-15", "run", "--once"]);
    let before = lines(&out).len();
    let started = Instant::now();
    let sent = black.ok(&["--now", "2026-03-15", "move", &bg, "Nc6", "--yes"]);
    assert!(sent.starts_with("sent:"), "{sent}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the hook was stopped"
    );
    let got = lines(&out);
    let new: Vec<&Vec<String>> = got[before..].iter().filter(|l| l[0] == "sent").collect();
    assert_eq!(new.len(), 1, "{got:?}");
    assert_eq!(new[0][4], "Nc6");

    // No hook fired twice for one event (the move applied by `ccmail apply` fires none: the
    // daemon's hooks are for what the daemon does, and what a command sends).
    let count = |kind: &str| got.iter().filter(|l| l[0] == kind).count();
    assert_eq!(
        [count("move"), count("held"), count("sent"), count("error")],
        [2, 1, 2, 1],
        "{got:?}"
    );
}
