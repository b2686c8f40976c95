//! `ccmail check` and `ccmail move` against setup mistakes, on the real Dovecot and Postfix:
//! `[imap]` or `[smtp]` on the other service's port, on a port whose TLS is not the one
//! configured, or on a dead host (a closed port, and a socket that takes the connection and
//! never answers). For each, `check` says "ok" for no step that did not happen, ends within
//! 35 s, and gives a hint from what the server sent; `move` with SMTP that never answers
//! leaves the letter queued within its time limit and says why. And `check` fails on the
//! starter config's placeholders.
//!
//! Without servers the tests print a note and pass, except under `CI=true`, where they fail
//! (see tests/support).

mod support;

use std::net::TcpListener;
use std::process::Command;
use std::time::{Duration, Instant};

use support::{Player, Servers, create_mailboxes, messages, servers, unique};

const WHITE: &str = "white@example.test";
const BLACK: &str = "black@example.test";
const ARBITER: &str = "arbiter@example.test";

/// The longest `check` may take, whatever the mistake.
const CHECK_LIMIT: Duration = Duration::from_secs(35);

fn player(s: &Servers, tag: &str) -> Player {
    create_mailboxes(s, &[WHITE, BLACK, ARBITER], tag);
    Player::new(s, "Белов Борис", "Белов", WHITE, tag, "")
}

/// The player's config with `section`'s port and security changed.
fn point(p: &Player, section: &str, port: u16, security: &str) {
    let text = std::fs::read_to_string(p.config()).unwrap();
    let at = text.find(&format!("[{section}]")).unwrap();
    let (head, tail) = text.split_at(at);
    let mut lines: Vec<String> = tail.lines().map(str::to_owned).collect();
    let mut done = (false, false);
    for line in lines.iter_mut() {
        if line.starts_with("port =") && !done.0 {
            *line = format!("port = {port}");
            done.0 = true;
        } else if line.starts_with("security =") && !done.1 {
            *line = format!("security = \"{security}\"");
            done.1 = true;
        }
    }
    assert_eq!(done, (true, true), "{tail}");
    std::fs::write(p.config(), format!("{head}{}\n", lines.join("\n"))).unwrap();
}

/// Runs `check`: its exit code, its output (stdout then stderr), how long it took.
fn check(p: &Player) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let out = p.command(&["check"]).output().unwrap();
    let took = started.elapsed();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text, took)
}

/// `check` with `section` broken: exit 1 within the limit, no "ok" for `section`, a FAIL
/// that says the connection was not made, and the `hint` line.
fn fails_with_hint(p: &Player, section: &str, hint: &str) -> String {
    let (code, text, took) = check(p);
    assert_eq!(code, Some(1), "{text}");
    assert!(took < CHECK_LIMIT, "took {took:?}:\n{text}");
    eprintln!(
        "check with {section} broken took {:.1} s",
        took.as_secs_f64()
    );
    let ok = format!("ok    {section}:");
    assert!(
        !text.lines().any(|l| l.starts_with(&ok)),
        "an \"ok\" for {section}:\n{text}"
    );
    let fail = format!("FAIL  {section}: cannot connect: ");
    assert!(text.contains(&fail), "no {fail:?} in:\n{text}");
    let line = format!("hint  {section}: {hint}\n");
    assert!(text.contains(&line), "no {line:?} in:\n{text}");
    text
}

/// A port where nothing listens any more.
fn closed_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// The hint for `port`, a port of the other service: `section`'s own ports are named.
fn other_service(port: u16, section: &str) -> String {
    let (is, want, ports) = match section {
        "imap" => (
            "SMTP",
            "IMAP",
            "993 with security = \"tls\", 143 with \"starttls\"",
        ),
        _ => (
            "IMAP",
            "SMTP",
            "465 with security = \"tls\", 587 with \"starttls\"",
        ),
    };
    format!("{port} is an {is} port, not {want}: [{section}] needs the {want} port ({ports})")
}

/// The hint for a server that never greeted on `port`.
fn said_nothing(port: u16) -> String {
    format!(
        "the server said nothing in 10 s: if {port} is implicit TLS (IMAP 993, SMTP 465), \
         security = \"tls\"; if not, check host and port"
    )
}

/// The hint for `security = "tls"` on a port that greets in plain text.
fn greets_in_plain_text(port: u16) -> String {
    format!(
        "{port} greets in plain text, not TLS: security = \"starttls\" (or the \
         implicit-TLS port: IMAP 993, SMTP 465)"
    )
}

/// A new player with `section` pointed at `port` and `security`; `check` then fails as
/// [`fails_with_hint`] says. Returns `check`'s output.
fn pointed_wrong(
    s: &Servers,
    tag: &str,
    section: &str,
    (port, security): (u16, &str),
    hint: &str,
) -> (Player, String) {
    let p = player(s, &unique(tag));
    point(&p, section, port, security);
    let text = fails_with_hint(&p, section, hint);
    (p, text)
}

/// A new player with both services on `port`: `check` fails for IMAP with `imap_hint`,
/// and for SMTP with `smtp_hint` and no "ok".
fn both_on(s: &Servers, tag: &str, port: u16, imap_hint: &str, smtp_hint: &str) {
    let p = player(s, &unique(tag));
    point(&p, "imap", port, "starttls");
    point(&p, "smtp", port, "tls");
    let text = fails_with_hint(&p, "imap", imap_hint);
    let line = format!("hint  smtp: {smtp_hint}\n");
    assert!(text.contains(&line), "{text}");
    assert!(!text.contains("ok    smtp:"), "{text}");
}

/// Runs `white`'s `move` of e4 in `game` with `--yes`: it succeeds within 35 s (`what`
/// names it in the time printed). Returns its stdout.
fn timed_move(white: &Player, game: &str, what: &str) -> String {
    let started = Instant::now();
    let out = white
        .command(&["--now", "2026-03-02", "move", game, "e4", "--yes"])
        .output()
        .unwrap();
    let took = started.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{out:?}");
    assert!(took < Duration::from_secs(35), "took {took:?}: {stdout}");
    eprintln!("{what} took {:.1} s", took.as_secs_f64());
    stdout
}

/// White and Black in mailboxes tagged `tag`, and `n` new games of White's against Black.
fn white_and_games(s: &Servers, tag: &str, n: usize) -> (Player, Vec<String>) {
    let white = player(s, tag);
    let black = Player::new(s, "Чернов Чеслав", "Чернов", BLACK, tag, "");
    let games = (0..n)
        .map(|_| white.new_game("2026-03-01", "white", &black, ARBITER, &[]))
        .collect();
    (white, games)
}

#[test]
fn imap_on_the_smtp_port() {
    let Some(s) = servers() else { return };
    let hint = other_service(s.smtp_port, "imap");
    let port = (s.smtp_port, "starttls");
    let (p, _) = pointed_wrong(&s, "check-imap-smtp", "imap", port, &hint);
    // With --json the hint is the failed step's.
    let out = p.command(&["--json", "check"]).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let imap: Vec<&serde_json::Value> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["step"] == "imap")
        .collect();
    assert_eq!(imap.len(), 1, "{v}");
    assert_eq!(imap[0]["status"], "fail", "{v}");
    assert_eq!(imap[0]["hint"], hint.as_str(), "{v}");
}

#[test]
fn imap_with_starttls_on_the_imaps_port() {
    let Some(s) = servers() else { return };
    let port = s.imaps_port;
    let hint = said_nothing(port);
    let tag = "check-imaps-starttls";
    let (_, text) = pointed_wrong(&s, tag, "imap", (port, "starttls"), &hint);
    let step = format!("reading the greeting of 127.0.0.1:{port}: no answer within 10 s");
    assert!(text.contains(&step), "{text}");
    // SMTP, configured right, is checked as before.
    assert!(
        text.contains("ok    smtp: logged in as white@example.test"),
        "{text}"
    );
}

#[test]
fn imap_with_tls_on_the_starttls_port() {
    let Some(s) = servers() else { return };
    let hint = greets_in_plain_text(s.imap_port);
    pointed_wrong(&s, "check-imap-tls", "imap", (s.imap_port, "tls"), &hint);
}

#[test]
fn imap_with_tls_on_the_smtps_port() {
    let Some(s) = servers() else { return };
    let hint = other_service(s.smtps_port, "imap");
    pointed_wrong(&s, "check-imap-smtps", "imap", (s.smtps_port, "tls"), &hint);
}

#[test]
fn smtp_with_starttls_on_the_smtps_port() {
    let Some(s) = servers() else { return };
    let hint = said_nothing(s.smtps_port);
    let tag = "check-smtps-starttls";
    let (_, text) = pointed_wrong(&s, tag, "smtp", (s.smtps_port, "starttls"), &hint);
    let step = "no answer within 10 s (connecting: the greeting and EHLO)";
    assert!(text.contains(step), "{text}");
    assert!(
        text.contains("ok    imap: logged in as white@example.test"),
        "{text}"
    );
}

#[test]
fn smtp_on_the_imap_port() {
    let Some(s) = servers() else { return };
    let hint = other_service(s.imap_port, "smtp");
    pointed_wrong(
        &s,
        "check-smtp-imap",
        "smtp",
        (s.imap_port, "starttls"),
        &hint,
    );
}

#[test]
fn smtp_with_tls_on_the_submission_port() {
    let Some(s) = servers() else { return };
    let port = s.submission_port;
    let hint = greets_in_plain_text(port);
    pointed_wrong(&s, "check-smtp-tls", "smtp", (port, "tls"), &hint);
}

#[test]
fn a_closed_port() {
    let Some(s) = servers() else { return };
    let port = closed_port();
    let hint = format!(
        "nothing listens on 127.0.0.1:{port}: check host and port, and that the server runs"
    );
    both_on(&s, "check-closed", port, &hint, &hint);
}

#[test]
fn a_socket_that_never_answers() {
    let Some(s) = servers() else { return };
    // The kernel takes the connections; nobody ever reads or writes.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let smtp = format!(
        "127.0.0.1:{port} took the connection but did not answer TLS in 4 s: check host and port"
    );
    both_on(&s, "check-silent", port, &said_nothing(port), &smtp);
    drop(silent);
}

/// `move` with SMTP on the implicit-TLS port and `security = "starttls"`: the server waits
/// for TLS, ccmail for a greeting. The move returns within its time limit, the letter stays
/// queued, and the output says so and why; nothing reaches the partner.
#[test]
fn move_with_a_silent_smtp_server_leaves_the_letter_queued() {
    let Some(s) = servers() else { return };
    let tag = unique("check-move");
    let (white, games) = white_and_games(&s, &tag, 1);
    point(&white, "smtp", s.smtps_port, "starttls");
    let stdout = timed_move(&white, &games[0], "move");
    let port = s.smtps_port;
    let queued = format!(
        "(not sent: SMTP connection to 127.0.0.1:{port}: no answer within 12 s (connecting: \
         the greeting and EHLO); the daemon sends it: see `ccmail outbox`)"
    );
    assert!(stdout.contains("queued: "), "{stdout}");
    assert!(stdout.contains(&queued), "{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with("sent: ")), "{stdout}");
    support::wait_delivered();
    assert!(messages(&s, BLACK, &tag).is_empty(), "delivered?");
}

/// Three letters waiting for a server that never greets: the first two fail at their
/// greeting's time limit, the third is cut off when `move`'s 30 s run out. `move` says so and
/// returns; the letters are the daemon's, which sends each of them once when the server
/// answers again (the config put right).
#[test]
fn move_gives_up_after_30_s_and_the_daemon_sends_the_letters_once() {
    let Some(s) = servers() else { return };
    let tag = unique("check-move-limit");
    let (white, games) = white_and_games(&s, &tag, 3);
    let queue = white.config_without_smtp();
    let queue = queue.to_str().unwrap();
    for game in &games[..2] {
        let args = [
            "--config",
            queue,
            "--now",
            "2026-03-02",
            "move",
            game,
            "e4",
            "--yes",
        ];
        white.ok(&args);
    }
    point(&white, "smtp", s.smtps_port, "starttls");
    let stdout = timed_move(&white, &games[2], "move with three letters waiting");
    let cut =
        "(not sent: the time limit of 30 s ran out; the daemon sends it: see `ccmail outbox`)";
    assert!(stdout.contains(cut), "{stdout}");
    point(&white, "smtp", s.submission_port, "starttls");
    white.ok(&["--now", "2026-03-02", "run", "--once"]);
    let got = messages(&s, BLACK, &tag);
    assert_eq!(got.len(), 3, "each letter sent once");
}

/// The starter config `init` writes: it loads, but its address is the example's, which
/// reaches no one. `check` says so and fails.
#[test]
fn check_fails_on_the_starter_configs_placeholders() {
    let home = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ccmail"))
            .args(args)
            .env("HOME", home.path())
            .env_remove("CCMAIL_CONFIG")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap()
    };
    let out = run(&["init"]);
    assert!(out.status.success(), "{out:?}");
    let out = run(&["check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let config = home.path().join(".config/ccmail/config.toml");
    let line = format!(
        "FAIL  config: email = \"ivanov@example.org\" is the starter config's example, which \
         reaches no one: put your own in {}\n",
        config.display()
    );
    assert!(text.contains(&line), "no {line:?} in:\n{text}");
}
