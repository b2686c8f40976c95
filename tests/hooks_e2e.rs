//! The config's `[hooks]`, fired by a running daemon on the real Dovecot and Postfix: each hook
//! once per event with the right `CCMAIL_*` variables — a partner's move applied, a message
//! held, a message of ours sent, a deadline near, an error — and a hook that hangs is stopped
//! at its time limit while the daemon goes on. Each hook appends a line to a file. Without
//! servers the test prints a note and passes, except under `CI=true`, where it fails (see
//! tests/support). Two more need no mail server: a hook's environment is a clean one (no
//! `password_env` variable), and a fatal error at start (a failing `password_cmd`) is logged
//! and runs `on_error` before the daemon exits.

mod common;
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

/// `ccmail ARGS…` for `player` with `secret` in the environment (as a service manager or a
/// shell would have it for `password_env`), English, with the daemon's log.
fn ccmail_with_secret(
    player: &common::Player,
    args: &[&str],
    secret: &str,
) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"))
        .args(args)
        .env("CCMAIL_CONFIG", player.config())
        .env("HOME", player.home.path())
        .env("CCMAIL_HOOK_TEST_SECRET", secret)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .env_remove("CCMAIL_NOW")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .output()
        .unwrap()
}

/// Appends `text` to `player`'s config.
fn add_to_config(player: &common::Player, text: &str) {
    let config = std::fs::read_to_string(player.config()).unwrap();
    std::fs::write(player.config(), config + text).unwrap();
}

/// A hook that writes its whole environment to `file`, one `NAME=value` a line.
fn env_hook(file: &Path) -> String {
    format!("[\"sh\", \"-c\", \"env > '{}'\"]", file.display())
}

/// A port on 127.0.0.1 that nothing listens on (bound, then closed).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

#[test]
fn a_hook_sees_the_ccmail_variables_and_the_basics_but_no_password_env_variable() {
    // The SMTP password comes from an environment variable; a deadline hook fires in the
    // same process that holds it. No mail server: SMTP is a closed port.
    let me = common::Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = common::cup_game(&me, "white", "petrov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let out = me.home.path().join("env.txt");
    add_to_config(
        &me,
        &format!(
            "\n[smtp]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\n\
             username = \"ivanov\"\npassword_env = \"CCMAIL_HOOK_TEST_SECRET\"\n\n\
             [hooks]\non_deadline = {}\ndeadline_days = 3\n",
            closed_port(),
            env_hook(&out)
        ),
    );
    let run = ccmail_with_secret(&me, &["--now", "2026-03-14", "run", "--once"], "hunter2");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let env = std::fs::read_to_string(&out).unwrap_or_else(|e| {
        panic!(
            "no hook ran ({e}): {}",
            String::from_utf8_lossy(&run.stderr)
        )
    });
    let names: Vec<&str> = env.lines().filter_map(|l| l.split('=').next()).collect();
    assert!(
        names.contains(&"CCMAIL_EVENT_KIND") && names.contains(&"PATH"),
        "{env}"
    );
    assert!(env.contains(&format!("CCMAIL_GAME={id}\n")), "{env}");
    assert!(
        !env.contains("CCMAIL_HOOK_TEST_SECRET") && !env.contains("hunter2"),
        "the password's variable reached the hook:\n{env}"
    );
    // Nor the daemon's own settings: only the event's CCMAIL_* variables.
    assert!(
        !names.contains(&"CCMAIL_CONFIG") && !names.contains(&"RUST_LOG"),
        "{env}"
    );
}

#[test]
fn a_failing_password_cmd_is_logged_and_fires_on_error_before_the_daemon_exits() {
    let me = common::Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let out = me.home.path().join("error.txt");
    add_to_config(
        &me,
        &format!(
            "\n[imap]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\n\
             username = \"ivanov\"\npassword_cmd = \"exit 3\"\n\n[hooks]\non_error = {}\n",
            closed_port(),
            env_hook(&out)
        ),
    );
    let run = ccmail_with_secret(&me, &["run"], "unused");
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    // The log's line, at error level, then the command's own last word.
    let logged = stderr
        .lines()
        .find(|l| l.contains(" ERROR ") && l.contains("the daemon stops: "))
        .unwrap_or_else(|| panic!("no log line:\n{stderr}"));
    assert!(logged.contains("password_cmd"), "{logged}");
    let env = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("on_error did not run ({e}):\n{stderr}"));
    assert!(env.contains("CCMAIL_EVENT_KIND=error\n"), "{env}");
    let text = env
        .lines()
        .find_map(|l| l.strip_prefix("CCMAIL_TEXT="))
        .unwrap_or_else(|| panic!("{env}"));
    assert!(
        text.starts_with("the daemon stops: ") && text.contains("password_cmd"),
        "{text}"
    );
}

/// From the moment it is started, forwards every connection to 127.0.0.1:`port` to the
/// server on 127.0.0.1:`target`: a server that comes back at `port`.
fn forward(port: u16, target: u16) {
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { break };
            let Ok(server) = std::net::TcpStream::connect(("127.0.0.1", target)) else {
                continue;
            };
            let pump = |mut from: std::net::TcpStream, mut to: std::net::TcpStream| {
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from, &mut to);
                    let _ = to.shutdown(std::net::Shutdown::Both);
                });
            };
            pump(client.try_clone().unwrap(), server.try_clone().unwrap());
            pump(server, client);
        }
    });
}

#[test]
fn an_imap_server_down_for_longer_than_the_limit_is_an_error_once_then_its_recovery_is_logged() {
    let Some(s) = servers() else { return };
    let tag = unique("outage");
    create_mailboxes(&s, &[BLACK], &tag);
    let black = Player::new(&s, "Чернов Чеслав", "Чернов", BLACK, &tag, "");
    // The IMAP server is at a port where nothing listens yet.
    let port = closed_port();
    let out = black.home.path().join("errors.txt");
    let config = std::fs::read_to_string(black.config()).unwrap();
    let config = config.replacen(
        &format!("port = {}\n", s.imap_port),
        &format!("port = {port}\n"),
        1,
    );
    std::fs::write(
        black.config(),
        format!("{config}\n[hooks]\non_error = {}\n", hook(&out, "true")),
    )
    .unwrap();
    // The fifteen minutes shortened to two seconds, by the tests' own variable.
    let mut daemon = black.spawn_with(
        &["run"],
        "info",
        &[("CCMAIL_TEST_ESCALATE_AFTER_SECS", "2")],
    );
    // Tries at 0, 1, 3 (more than 2 s: the error), 7 s …
    daemon.wait_for(
        "the mail server (IMAP) has failed for ",
        Duration::from_secs(20),
    );
    let told = wait_lines(&out, 1);
    assert_eq!(told.len(), 1, "{told:?}\n{}", daemon.log());
    assert_eq!(told[0][0], "error");
    assert!(
        told[0][8].starts_with("the mail server (IMAP) has failed for 1 min: "),
        "{told:?}"
    );
    // The server comes back: the next try connects, and the recovery is logged.
    forward(port, s.imap_port);
    daemon.wait_for(
        "the mail server (IMAP) works again, after ",
        Duration::from_secs(30),
    );
    assert!(daemon.stop().success(), "{}", daemon.log());
    let log = daemon.log();
    assert_eq!(log.matches(" ERROR ").count(), 1, "{log}");
    assert!(log.matches(" WARN ").count() >= 2, "{log}");
    assert_eq!(lines(&out).len(), 1, "on_error once: {:?}", lines(&out));
}
