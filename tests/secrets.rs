//! Secrets: the mailbox password never shows in the logs (every crate at `RUST_LOG=trace`,
//! logins over IMAP and SMTP included), in errors, in `ccmail check`'s output, or in the
//! database files; `ccmail init` creates the config and the database 0600. That no setting
//! turns encryption or the certificate check off except `plain` for a server on this machine
//! is in tests/config.rs (`plain_is_refused_for_a_server_that_is_not_on_this_machine`).
//!
//! The servers here are an instance of the test's own whose password is unlike any word a
//! log would hold, so that finding it (or its base64 in an AUTH exchange) means a leak.

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use support::instance::Instance;
use support::{Player, servers};

const PASSWORD: &str = "Pw-7q3Zx-unlikely-9kQ";
const WRONG: &str = "Wrong-4vT8-password";

/// Base64 (standard alphabet, padded): how AUTH PLAIN and AUTH LOGIN carry a password.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Every form in which `password` of `login` could leak.
fn forms(login: &str, password: &str) -> Vec<String> {
    vec![
        password.to_owned(),
        base64(password.as_bytes()),
        base64(format!("\0{login}\0{password}").as_bytes()),
        base64(format!("{login}\0{login}\0{password}").as_bytes()),
    ]
}

fn assert_clean(what: &str, text: &[u8], login: &str, password: &str) {
    let text = String::from_utf8_lossy(text);
    for form in forms(login, password) {
        assert!(
            !text.contains(&form),
            "{what} holds the password (as {form:?}):\n{text}"
        );
    }
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn init_creates_the_config_and_the_database_private() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("conf/ccmail/config.toml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"))
        .arg("init")
        .env("CCMAIL_CONFIG", &config)
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env_remove("XDG_CONFIG_HOME")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(mode(&config), 0o600, "the config");
    let db = home.path().join("data/ccmail/ccmail.db");
    assert_eq!(mode(&db), 0o600, "the database {}", db.display());
    for extra in ["-wal", "-shm"] {
        let p = db.with_file_name(format!("ccmail.db{extra}"));
        if p.exists() {
            assert_eq!(mode(&p), 0o600, "{}", p.display());
        }
    }
}

#[test]
fn the_password_is_never_logged_printed_or_stored() {
    let Some(_shared) = servers() else { return };
    let Some(inst) = Instance::start_with("secrets", PASSWORD) else {
        return;
    };
    let s = &inst.servers;
    let white = Player::new(s, "Белов Борис", "Белов", "white@example.test", "INBOX", "");
    let black = Player::new(
        s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        "INBOX",
        "sent_mailbox = \"Sent\"",
    );
    let wg = white.new_game("2026-03-01", "white", &black, "arbiter@example.test", &[]);
    let bg = black.new_game("2026-03-01", "black", &white, "arbiter@example.test", &[]);
    let trace = |p: &Player, args: &[&str]| {
        let out = p.command(args).env("RUST_LOG", "trace").output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        [out.stdout, out.stderr].concat()
    };
    // Every login there is, at the most talkative log level: SMTP (move), IMAP (run), the copy
    // in Sent, and check.
    let mut seen: Vec<(String, Vec<u8>)> = Vec::new();
    seen.push((
        "move".into(),
        trace(&white, &["--now", "2026-03-01", "move", &wg, "e4", "--yes"]),
    ));
    let mut d = black.spawn(&["--now", "2026-03-02", "run"], "trace");
    d.wait_for("applied 1. e4 by White", Duration::from_secs(30));
    let out = black.ok(&["--now", "2026-03-02", "move", &bg, "e5", "--yes"]);
    assert!(out.starts_with("sent:"), "{out}");
    d.wait_for("copy kept in Sent", Duration::from_secs(30));
    assert!(d.stop().success());
    seen.push(("the daemon".into(), d.log().into_bytes()));
    seen.push((
        "run --once".into(),
        trace(&white, &["--now", "2026-03-03", "run", "--once"]),
    ));
    seen.push(("check".into(), trace(&black, &["check"])));
    for (what, text) in &seen {
        assert_clean(what, text, "black@example.test", PASSWORD);
        assert_clean(what, text, "white@example.test", PASSWORD);
    }
    // It was the trace level: the logins are in there, their secrets are not.
    let daemon = String::from_utf8_lossy(&seen[1].1);
    assert!(daemon.contains("TRACE"), "{daemon}");

    // A wrong password: the errors say so, without it.
    for args in [&["check"][..], &["--now", "2026-03-03", "run", "--once"]] {
        let out = black
            .command(args)
            .env(support::PASSWORD_VAR, WRONG)
            .env("RUST_LOG", "trace")
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let text = [out.stdout, out.stderr].concat();
        assert!(
            String::from_utf8_lossy(&text).contains("login refused"),
            "{}",
            String::from_utf8_lossy(&text)
        );
        assert_clean("an error", &text, "black@example.test", WRONG);
    }

    // The database files, byte for byte.
    for p in [&white, &black] {
        for name in ["ccmail.db", "ccmail.db-wal", "ccmail.db-shm"] {
            let path = p.home.path().join(name);
            if let Ok(bytes) = std::fs::read(&path) {
                assert_clean(&path.display().to_string(), &bytes, "x", PASSWORD);
                assert_eq!(mode(&path), 0o600, "{}", path.display());
            }
        }
    }
}
