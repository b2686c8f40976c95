//! Secrets: the mailbox password never shows in the logs (every crate at `RUST_LOG=trace`,
//! logins over IMAP and SMTP included), in errors, in `ccmail check`'s output, or in the
//! database files; `ccmail init` creates the config and the database 0600. That no setting
//! turns encryption or the certificate check off except `plain` for a server on this machine
//! is in tests/config.rs (`plain_is_refused_for_a_server_that_is_not_on_this_machine`).
//!
//! The servers here are an instance of the test's own whose password is unlike any word a
//! log would hold, so that finding it (or its base64 in an AUTH exchange) means a leak.
//!
//! `RUST_LOG` may name the protocol crates' own modules (`async_imap::imap_stream=trace` is
//! every line on the wire): no directive turns their wire traces on, for a password or for
//! OAuth2 tokens, refresh tokens and client secrets.
//!
//! A `*_cmd` that prints a secret written in it (`echo hunter2`) in a config others can read
//! is warned about by `ccmail check` and the daemon; and the daemon's memory can't be read by
//! another process of its user (it is not dumpable).

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use support::instance::Instance;
use support::token_server::TokenServer;
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
    assert_none(what, text, &forms(login, password));
}

fn assert_none(what: &str, text: &[u8], secrets: &[String]) {
    let text = String::from_utf8_lossy(text);
    for form in secrets {
        assert!(
            !text.contains(form.as_str()),
            "{what} holds a secret (as {form:?}):\n{text}"
        );
    }
}

/// The narrowest `RUST_LOG` directives that name the wire (each alone), the widest, and all
/// of them at once with ccmail's own trace.
const DIRECTIVES: &[&str] = &[
    "async_imap::imap_stream=trace",
    "async_imap=trace",
    "imap_proto=trace",
    "lettre=trace",
    "lettre::transport::smtp=trace",
    "lettre::transport::smtp::client=trace",
    "rustls=trace",
    "tokio_rustls=trace",
    "ureq=trace",
    "ureq_proto=trace",
    "trace",
    "off,async_imap::imap_stream=trace,imap_proto=trace,lettre::transport::smtp=trace,\
     rustls=trace,ureq=trace,ccmail=trace,ccmail_mail=trace",
];

/// `ccmail ARGS` with `RUST_LOG=directive`: its standard output and error together.
fn logged(p: &Player, args: &[&str], directive: &str) -> Vec<u8> {
    let out = p.command(args).env("RUST_LOG", directive).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?} with RUST_LOG={directive}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    [out.stdout, out.stderr].concat()
}

#[test]
fn no_log_directive_shows_the_wire_of_a_password_login() {
    let Some(_shared) = servers() else { return };
    let Some(inst) = Instance::start_with("secrets-wire", PASSWORD) else {
        return;
    };
    let white = Player::new(
        &inst.servers,
        "Белов Борис",
        "Белов",
        "white@example.test",
        "INBOX",
        "",
    );
    // `check` logs in to IMAP and SMTP (AUTH PLAIN), `run --once` to IMAP.
    for directive in DIRECTIVES {
        for args in [&["check"][..], &["--now", "2026-03-03", "run", "--once"]] {
            let text = logged(&white, args, directive);
            let what = format!("{args:?} with RUST_LOG={directive}");
            assert_clean(&what, &text, "white@example.test", PASSWORD);
            if *directive == "trace" {
                // The level was the most talkative: the other crates' lines are there.
                assert!(String::from_utf8_lossy(&text).contains("DEBUG"), "{what}");
            }
        }
    }
}

/// What an OAuth2 login would show: the token, and the SASL initial responses that carry it
/// (OAUTHBEARER over IMAP, XOAUTH2 over SMTP), in base64.
fn token_forms(login: &str, token: &str) -> Vec<String> {
    vec![
        token.to_owned(),
        base64(format!("n,a={login},\x01auth=Bearer {token}\x01\x01").as_bytes()),
        base64(format!("user={login}\x01auth=Bearer {token}\x01\x01").as_bytes()),
    ]
}

#[test]
fn no_log_directive_shows_an_oauth2_token_or_what_gets_one() {
    let Some(_shared) = servers() else { return };
    let ts = TokenServer::start(Duration::from_secs(3600));
    let url = ("MAILSERVER_OAUTH2_URL", ts.url("introspect"));
    let Some(inst) = Instance::start_env("secrets-oauth2", "secret", &[url]) else {
        return;
    };
    let login = "white@example.test";
    let white = Player::new(&inst.servers, "Белов Борис", "Белов", login, "INBOX", "");
    // IMAP refreshes its own token over HTTP (the refresh token and the client secret in
    // the form), SMTP gets one from a command.
    let file = |name: &str, text: &str| {
        let path = white.home.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let refresh = ts.refresh_token(login);
    let client_secret = "Cs-5v8Kq-client-secret-unlikely";
    let smtp_token = ts.access_token(login);
    let imap = format!(
        "[imap.oauth2]\ntoken_url = \"{}\"\nclient_id = \"ccmail-test-client\"\n\
         refresh_token_cmd = \"cat '{}'\"\nclient_secret_cmd = \"cat '{}'\"\n",
        ts.url("token"),
        file("refresh", &refresh),
        file("client-secret", client_secret),
    );
    let smtp = format!(
        "oauth2_token_cmd = \"cat '{}'\"",
        file("smtp-token", &smtp_token)
    );
    white.use_oauth2(&imap, &smtp);
    let mut seen = Vec::new();
    for directive in DIRECTIVES {
        for args in [&["check"][..], &["--now", "2026-03-03", "run", "--once"]] {
            let text = logged(&white, args, directive);
            seen.push((format!("{args:?} with RUST_LOG={directive}"), text));
        }
    }
    let st = ts.state.lock().unwrap();
    assert!(
        st.grants.iter().any(|(g, _)| g == "refresh_token"),
        "IMAP refreshed"
    );
    assert!(st.looked_at.iter().all(|(_, active)| *active));
    let mut secrets = vec![
        refresh.clone(),
        refresh.replace('@', "%40"),
        client_secret.to_owned(),
    ];
    for token in st.access.keys() {
        secrets.extend(token_forms(login, token));
    }
    drop(st);
    for (what, text) in &seen {
        assert_none(what, text, &secrets);
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
    // `check` fails until the player's own server is named (its id is in Black's mail by now).
    let mut config = std::fs::read_to_string(black.config()).unwrap();
    config.push_str(&format!(
        "\n[security]\nauthserv_id = \"{}\"\n",
        s.authserv_id
    ));
    std::fs::write(black.config(), config).unwrap();
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

/// A config (with `mode`) whose `[imap] password_cmd` and `[smtp.oauth2] client_secret_cmd`
/// print secrets written in them (`refresh_token_cmd` asks a password manager), with servers
/// that don't answer; in a home of its own.
fn literal_config(mode: u32) -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let config = home.path().join("config.toml");
    let text = format!(
        "[player]\nname = \"Белов Борис\"\nsurname = \"Белов\"\nemail = \"white@example.test\"\n\
         timezone = \"Europe/Moscow\"\n\n[store]\npath = \"{db}\"\n\n\
         [imap]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"plain\"\nusername = \"w\"\n\
         password_cmd = \"echo {PASSWORD}\"\n\n\
         [smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"plain\"\nusername = \"w\"\n\n\
         [smtp.oauth2]\ntoken_url = \"http://127.0.0.1:{port}/token\"\nclient_id = \"c\"\n\
         client_secret_cmd = \"printf %s '{WRONG}'\"\n\
         refresh_token_cmd = \"pass show mail/refresh\"\n",
        db = home.path().join("ccmail.db").display(),
    );
    std::fs::write(&config, text).unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(mode)).unwrap();
    (home, config)
}

/// What `ccmail check`, `ccmail run --once` and `ccmail run` (up to its first attempt to
/// connect) print with [`literal_config`]`(mode)`; and the config file.
fn startups(mode: u32) -> (Vec<(&'static str, String)>, String) {
    let (home, config) = literal_config(mode);
    let ccmail = |args: &[&str]| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"));
        c.args(args)
            .env("CCMAIL_CONFIG", &config)
            .env("HOME", home.path())
            .env("NO_COLOR", "1")
            .env_remove("RUST_LOG")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .stdin(std::process::Stdio::null());
        c
    };
    let mut seen = Vec::new();
    for (what, args) in [
        ("check", &["check"][..]),
        ("run --once", &["run", "--once"]),
    ] {
        let out = ccmail(args).output().unwrap();
        assert!(!out.status.success(), "{what}: the servers don't answer");
        let text = String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned();
        seen.push((what, text));
    }
    let mut daemon = ccmail(&["run"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = daemon.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line);
        }
    });
    let mut log = String::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(20)) {
        log.push_str(&line);
        log.push('\n');
        if line.contains("IMAP") {
            break;
        }
    }
    let _ = daemon.kill();
    let _ = daemon.wait();
    seen.push(("run", log));
    (seen, config.display().to_string())
}

#[test]
fn a_secret_written_in_a_command_of_a_config_others_can_read_is_warned_about() {
    let (seen, config) = startups(0o644);
    for (what, text) in seen {
        for key in ["imap.password_cmd", "smtp.oauth2.client_secret_cmd"] {
            let warning = format!(
                "{key} prints a secret written in {config} itself, and others can read that \
                 file (mode 0644): run chmod 600 {config}, or keep the secret in a password \
                 manager (such as password_cmd = \"pass show mail\")"
            );
            assert!(
                text.contains(&warning),
                "{what}: no {warning:?} in:\n{text}"
            );
        }
        assert!(
            !text.contains("refresh_token_cmd prints"),
            "{what}:\n{text}"
        );
        assert_clean(what, text.as_bytes(), "w", PASSWORD);
        assert_clean(what, text.as_bytes(), "w", WRONG);
    }
    let (seen, _) = startups(0o600);
    for (what, text) in seen {
        assert!(!text.contains("prints a secret"), "{what}:\n{text}");
        assert!(text.contains("IMAP"), "{what} ran:\n{text}");
    }
}

/// `program ARGS` as `user` (through `setpriv` when that is another user than ours).
fn as_user(user: Option<u32>, program: &str, args: &[&str]) -> std::process::Command {
    let mut c = match user {
        Some(uid) => {
            let id = uid.to_string();
            let mut c = std::process::Command::new("setpriv");
            c.args(["--reuid", &id, "--regid", &id, "--clear-groups", program]);
            c
        }
        None => std::process::Command::new(program),
    };
    c.args(args);
    c
}

/// The owner of a process's `/proc/PID/status`: its user, or root when it is not dumpable
/// (proc(5)).
fn proc_owner(pid: u32) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(format!("/proc/{pid}/status"))
        .ok()
        .map(|m| m.uid())
}

/// The daemon holds the passwords for days: it is not dumpable, so that no core dump holds
/// them and no other process of the same user — a debugger, a look at /proc/PID/environ or
/// /proc/PID/mem — reads its memory. Seen from outside: its /proc/PID files belong to root,
/// and its own user can't read its environment, where the password variable is. As root
/// (whom nothing stops) the daemon runs as `nobody`; a `sleep` of the same user shows that
/// it could otherwise.
#[test]
fn the_daemons_memory_is_not_readable_by_its_own_user() {
    use std::os::unix::fs::MetadataExt;
    let me = std::fs::metadata("/proc/self").unwrap().uid();
    let user = (me == 0).then_some(65534);
    if user.is_some()
        && std::process::Command::new("setpriv")
            .arg("--version")
            .output()
            .is_err()
    {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but setpriv (util-linux) is missing"
        );
        eprintln!("note: setpriv is missing; this test is skipped");
        return;
    }
    let uid = user.unwrap_or(me);
    let home = tempfile::tempdir().unwrap();
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let config = home.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[player]\nname = \"Белов Борис\"\nsurname = \"Белов\"\n\
             email = \"white@example.test\"\ntimezone = \"Europe/Moscow\"\n\n\
             [store]\npath = \"{}\"\n\n[imap]\nhost = \"127.0.0.1\"\nport = {port}\n\
             security = \"plain\"\nusername = \"w\"\npassword_env = \"{}\"\n",
            home.path().join("ccmail.db").display(),
            support::PASSWORD_VAR
        ),
    )
    .unwrap();
    std::fs::set_permissions(&config, std::fs::Permissions::from_mode(0o600)).unwrap();
    for path in [home.path(), &config] {
        std::os::unix::fs::chown(path, Some(uid), Some(uid)).unwrap();
    }
    let spawn = |program: &str, args: &[&str]| {
        as_user(user, program, args)
            .env("CCMAIL_CONFIG", &config)
            .env("HOME", home.path())
            .env(support::PASSWORD_VAR, PASSWORD)
            .env("RUST_LOG", "info")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    // What the user can read of a process's environment.
    let environ = |pid: u32| {
        let out = as_user(user, "cat", &[&format!("/proc/{pid}/environ")])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };

    let mut sleep = spawn("sleep", &["60"]);
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while proc_owner(sleep.id()) != Some(uid) && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    let (sleep_owner, sleep_environ) = (proc_owner(sleep.id()), environ(sleep.id()));
    let _ = sleep.kill();
    let _ = sleep.wait();
    assert_eq!(sleep_owner, Some(uid), "a process of the user is its own");
    assert!(
        sleep_environ.contains(PASSWORD),
        "and the user reads its memory"
    );

    let mut daemon = spawn(env!("CARGO_BIN_EXE_ccmail"), &["run"]);
    let stderr = daemon.stderr.take().unwrap();
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
    let mut log = String::new();
    // Past its start: the first attempt to connect.
    for line in lines.by_ref() {
        let line = line.unwrap();
        log.push_str(&line);
        log.push('\n');
        if line.contains("IMAP") {
            break;
        }
    }
    let (owner, read) = (proc_owner(daemon.id()), environ(daemon.id()));
    let _ = daemon.kill();
    let _ = daemon.wait();
    assert!(log.contains("ccmail daemon starting"), "{log}");
    assert_eq!(
        owner,
        Some(0),
        "the daemon's /proc files belong to root\n{log}"
    );
    assert!(
        !read.contains(PASSWORD),
        "its user read its environment:\n{read}"
    );
}
