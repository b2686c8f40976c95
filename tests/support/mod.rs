//! Shared by the daemon and end-to-end tests: players with their own config, database and
//! mailbox on the real test mail servers (tests/mailserver/mailserver.sh), the real binary,
//! and daemons running in the background whose log lines are watched as they come.
//!
//! The servers are found as the mail crate's tests find them (its `support` module, included
//! below), after starting them with the script if nothing answers and we may. Outside CI a test
//! without servers prints a note and passes; with `CI=true` it fails.
//!
//! Each test has mailboxes of its own: `white+TAG@example.test` is delivered into white's
//! mailbox `TAG`, so tests run in parallel without seeing each other's mail.

#![allow(dead_code)] // each test file uses a part of it

#[path = "../../crates/mail/tests/support/mod.rs"]
pub mod mail;
pub mod proxy;
pub mod token_server;

pub use mail::instance;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

use ccmail_mail::imap::{Fetched, Imap, Security};
#[allow(unused_imports)] // each test file uses a part of it
pub use mail::{Servers, unique};

/// The log level tests read from the daemon: its own debug lines, nothing from sqlx.
pub const DEBUG_LOG: &str = "info,ccmail=debug";

/// The environment variable the players' configs take the IMAP password from.
pub const PASSWORD_VAR: &str = "CCMAIL_TEST_IMAP_PASSWORD";

/// The test servers, started first if nothing answers (as root, with the script there).
pub fn servers() -> Option<Servers> {
    static START: Once = Once::new();
    START.call_once(|| {
        let port = std::env::var("MAILSERVER_IMAP_PORT").unwrap_or_else(|_| "11143".into());
        let answers = std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_ok();
        if !answers {
            instance::script(&[], "start");
        }
    });
    mail::servers()
}

/// Runs an async block on a runtime of its own (the tests themselves are plain functions).
pub fn block_on<F: Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

async fn imap(s: &Servers, login: &str, mailbox: &str) -> Imap {
    let mut cfg = s.imap(login, Security::Plain);
    cfg.mailbox = mailbox.into();
    Imap::connect(&cfg)
        .await
        .unwrap_or_else(|e| panic!("IMAP {login}/{mailbox}: {e}"))
}

/// Creates `mailbox` for each login (an existing one is fine).
pub fn create_mailboxes(s: &Servers, logins: &[&str], mailbox: &str) {
    block_on(async {
        for login in logins {
            let mut imap = imap(s, login, "INBOX").await;
            imap.create_mailbox(mailbox).await.expect("CREATE");
            imap.logout().await;
        }
    });
}

/// Every message of a mailbox, in UID order, once everything Postfix accepted is delivered.
pub fn messages(s: &Servers, login: &str, mailbox: &str) -> Vec<Fetched> {
    wait_delivered();
    block_on(async {
        let mut imap = imap(s, login, mailbox).await;
        let all = imap.fetch_since(0, None).await.expect("FETCH");
        imap.logout().await;
        all
    })
}

/// Waits (up to 20 s) until the test servers' Postfix has delivered everything it accepted:
/// its queue directories are empty. An SMTP `250` means queued, not yet in the recipient's
/// mailbox; a test that looks in the mailbox right after a send waits here first. Where the
/// queue can't be read (not root), it returns at once.
pub fn wait_delivered() {
    let dir = std::env::var("MAILSERVER_DIR").unwrap_or_else(|_| "/tmp/ccmail-mail".into());
    let spool = Path::new(&dir).join("postfix-spool");
    fn files(dir: &Path) -> Option<usize> {
        let mut n = 0;
        for entry in std::fs::read_dir(dir).ok()? {
            let path = entry.ok()?.path();
            n += if path.is_dir() { files(&path)? } else { 1 };
        }
        Some(n)
    }
    let queued = || {
        ["maildrop", "incoming", "active", "deferred"]
            .iter()
            .map(|q| files(&spool.join(q)))
            .sum::<Option<usize>>()
    };
    let until = Instant::now() + Duration::from_secs(20);
    while let Some(n) = queued()
        && n > 0
        && Instant::now() < until
    {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The stored flags of every message of a mailbox (`\Recent` belongs to an IMAP session,
/// not to the message, and is left out).
pub fn flags(s: &Servers, login: &str, mailbox: &str) -> Vec<(u32, Vec<String>)> {
    block_on(async {
        let mut imap = imap(s, login, mailbox).await;
        let all = imap.flags("1:*").await.expect("FETCH FLAGS");
        imap.logout().await;
        all.into_iter()
            .map(|(uid, f)| (uid, f.into_iter().filter(|f| f != "\\Recent").collect()))
            .collect()
    })
}

/// APPENDs a message with these flags and INTERNALDATE (RFC 3339; none: now).
pub fn append(
    s: &Servers,
    login: &str,
    mailbox: &str,
    raw: &[u8],
    flags: &[&str],
    at: Option<&str>,
) {
    let at = at.map(|t| chrono::DateTime::parse_from_rfc3339(t).unwrap());
    block_on(async {
        let mut imap = imap(s, login, mailbox).await;
        imap.append_with(mailbox, raw, flags, at)
            .await
            .expect("APPEND");
        imap.logout().await;
    });
}

/// Sends `raw` as the user `login` does (submission port, STARTTLS, AUTH as `login`, envelope
/// sender `login`), and waits until it is delivered: the servers sign it (DKIM) when its From is
/// `login`.
pub fn submit(s: &Servers, login: &str, to: &str, raw: &[u8]) {
    block_on(mail::submit(s, login, login, to, raw));
    wait_delivered();
}

/// Hands `raw` over on the plain SMTP port without AUTH, envelope sender `from` (any address),
/// and waits until it is delivered: how a partner's server, or a forger, sends. Never signed.
pub fn deliver_plain(s: &Servers, from: &str, to: &str, raw: &[u8]) {
    block_on(mail::deliver(s, from, to, raw));
    wait_delivered();
}

/// A message of over 150 KB from `from` to `to`, Message-ID `<ID@example.org>`, with `extra`
/// header fields: `text`, a photo of 200 KB, and maybe a PGN file after the photo.
pub fn with_photo(
    from: &str,
    to: &str,
    id: &str,
    extra: &str,
    text: &str,
    pgn: Option<&str>,
) -> Vec<u8> {
    let photo = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0a\r\n"
        .repeat(2_600);
    let mut m = format!(
        "From: <{from}>\r\nTo: <{to}>\r\nSubject: {id}\r\n\
         Date: Mon, 02 Mar 2026 09:00:00 +0300\r\nMessage-ID: <{id}@example.org>\r\n{extra}\
         MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n\
         --b\r\nContent-Type: image/jpeg; name=\"photo.jpg\"\r\n\
         Content-Disposition: attachment; filename=\"photo.jpg\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{photo}"
    );
    if let Some(pgn) = pgn {
        m.push_str(&format!(
            "--b\r\nContent-Type: application/octet-stream; name=\"move.pgn\"\r\n\r\n{pgn}\r\n"
        ));
    }
    m.push_str("--b--\r\n");
    m.into_bytes()
}

/// The Message-ID of a raw message, without `<>`.
pub fn message_id(raw: &[u8]) -> String {
    let v = mail::header(raw, "Message-ID").expect("a Message-ID");
    v.trim_matches(|c| c == '<' || c == '>').to_owned()
}

/// A player: a home of their own with config and database, and a mailbox on the servers.
pub struct Player {
    pub home: tempfile::TempDir,
    /// The address they play from: `white+TAG@example.test`.
    pub email: String,
    /// Their login on the servers: `white@example.test`.
    pub login: String,
    /// The mailbox their moves arrive in.
    pub mailbox: String,
    password: String,
}

impl Player {
    /// A player `login` (e.g. `white@example.test`) watching `mailbox`, playing from
    /// `login+mailbox` (or from `login` itself when the mailbox is INBOX). `imap_extra` is
    /// added to the `[imap]` section (`first_sync_since = …`, `sent_mailbox = …`).
    pub fn new(
        s: &Servers,
        name: &str,
        surname: &str,
        login: &str,
        mailbox: &str,
        imap_extra: &str,
    ) -> Player {
        let home = tempfile::tempdir().unwrap();
        let email = if mailbox == "INBOX" {
            login.to_owned()
        } else {
            mail::detail_address(login, mailbox)
        };
        let db = home.path().join("ccmail.db");
        let config = format!(
            "[player]\nname = \"{name}\"\nsurname = \"{surname}\"\nemail = \"{email}\"\n\
             timezone = \"Europe/Moscow\"\n\n\
             [store]\npath = \"{db}\"\n\n\
             [imap]\nhost = \"{host}\"\nport = {imap}\nsecurity = \"starttls\"\n\
             username = \"{login}\"\npassword_env = \"{PASSWORD_VAR}\"\nmailbox = \"{mailbox}\"\n\
             ca_file = \"{ca}\"\n{imap_extra}\n\n\
             [smtp]\nhost = \"{host}\"\nport = {submission}\nsecurity = \"starttls\"\n\
             username = \"{login}\"\npassword_cmd = \"printf %s '{password}'\"\nca_file = \"{ca}\"\n",
            db = db.display(),
            host = s.host,
            imap = s.imap_port,
            submission = s.submission_port,
            ca = s.ca.display(),
            password = s.password,
        );
        std::fs::write(home.path().join("config.toml"), config).unwrap();
        let p = Player {
            home,
            email,
            login: login.to_owned(),
            mailbox: mailbox.to_owned(),
            password: s.password.clone(),
        };
        p.ok(&["init"]);
        p
    }

    pub fn config(&self) -> PathBuf {
        self.home.path().join("config.toml")
    }

    /// A copy of the config without `[smtp]` (same store): commands run with it queue mail
    /// and leave the sending to the daemon.
    pub fn config_without_smtp(&self) -> PathBuf {
        let text = std::fs::read_to_string(self.config()).unwrap();
        let path = self.home.path().join("no-smtp.toml");
        std::fs::write(&path, &text[..text.find("[smtp]").unwrap()]).unwrap();
        path
    }

    /// The config with its passwords replaced by OAuth2: `imap` and `smtp` are lines, or
    /// tables put after their section.
    pub fn use_oauth2(&self, imap: &str, smtp: &str) {
        let text = std::fs::read_to_string(self.config()).unwrap();
        let imap_pw = format!("password_env = \"{PASSWORD_VAR}\"\n");
        let smtp_pw = text
            .lines()
            .rfind(|l| l.starts_with("password_cmd ="))
            .unwrap()
            .to_owned()
            + "\n";
        let text = text.replacen(&imap_pw, "", 1).replacen(&smtp_pw, "", 1);
        let (head, smtp_part) = text.split_at(text.find("[smtp]").unwrap());
        let text = format!("{head}{imap}\n\n{smtp_part}\n{smtp}\n");
        std::fs::write(self.config(), text).unwrap();
    }

    pub fn db(&self) -> PathBuf {
        self.home.path().join("ccmail.db")
    }

    /// `ccmail ARGS…` with this player's config and a clean environment.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_ccmail"));
        c.args(args)
            .env("CCMAIL_CONFIG", self.config())
            .env("HOME", self.home.path())
            .env(PASSWORD_VAR, &self.password)
            .env("NO_COLOR", "1")
            .env_remove("CCMAIL_NOW")
            // English, whatever the machine's locale.
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("RUST_LOG");
        c
    }

    /// Runs to the end, then waits until what it sent is delivered ([`wait_delivered`]):
    /// the partner's next look must find it.
    pub fn run(&self, args: &[&str]) -> Output {
        let out = self.command(args).output().unwrap();
        wait_delivered();
        out
    }

    /// Runs and expects success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "ccmail {args:?} failed ({}): {}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// `ccmail run --once` on day `now` with the daemon's debug log ([`DEBUG_LOG`]):
    /// whether it succeeded, and the log.
    pub fn run_once_logged(&self, now: &str) -> (bool, String) {
        let out = self
            .command(&["--now", now, "run", "--once"])
            .env("RUST_LOG", DEBUG_LOG)
            .output()
            .unwrap();
        let log = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.success(), log)
    }

    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.ok(&all)).unwrap()
    }

    /// Creates a game of the "Daemon Cup 2026"; returns its id.
    pub fn new_game(
        &self,
        now: &str,
        color: &str,
        opponent: &Player,
        arbiter: &str,
        extra: &[&str],
    ) -> String {
        self.new_game_in("Daemon Cup 2026", now, color, opponent, arbiter, extra)
    }

    /// Creates a game of `event` (Белов – Чернов, started 01.03.2026); returns its id.
    pub fn new_game_in(
        &self,
        event: &str,
        now: &str,
        color: &str,
        opponent: &Player,
        arbiter: &str,
        extra: &[&str],
    ) -> String {
        let mut args = vec![
            "--now",
            now,
            "game",
            "new",
            "--event",
            event,
            "--start",
            "2026-03-01",
            "--white",
            "Белов",
            "--black",
            "Чернов",
            "--color",
            color,
            "--opponent",
            &opponent.email,
            "--arbiter",
            arbiter,
        ];
        args.extend_from_slice(extra);
        self.ok(&args).trim().to_owned()
    }

    /// Starts `ccmail ARGS…` (the daemon) in the background with `RUST_LOG` = `log`.
    pub fn spawn(&self, args: &[&str], log: &str) -> Daemon {
        self.spawn_with(args, log, &[])
    }

    /// [`Player::spawn`] with the environment variables `vars` set too.
    pub fn spawn_with(&self, args: &[&str], log: &str, vars: &[(&str, &str)]) -> Daemon {
        let mut child = self
            .command(args)
            .envs(vars.iter().copied())
            .env("RUST_LOG", log)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines: Arc<Mutex<Vec<(Instant, String)>>> = Arc::default();
        let ended = Arc::new(AtomicBool::new(false));
        let stderr = child.stderr.take().unwrap();
        let (sink, end) = (Arc::clone(&lines), Arc::clone(&ended));
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                sink.lock().unwrap().push((Instant::now(), line));
            }
            end.store(true, Ordering::SeqCst);
        });
        Daemon {
            child,
            lines,
            ended,
        }
    }
}

/// A daemon running in the background, its log lines kept with the instant each was read.
pub struct Daemon {
    child: Child,
    lines: Arc<Mutex<Vec<(Instant, String)>>>,
    /// Its standard error was closed: it exited.
    ended: Arc<AtomicBool>,
}

impl Daemon {
    /// How many lines so far: a mark to wait for what comes after.
    pub fn mark(&self) -> usize {
        self.lines.lock().unwrap().len()
    }

    /// Waits for a line after `mark` containing `what`; returns when it was read.
    pub fn wait_after(&self, mark: usize, what: &str, timeout: Duration) -> Instant {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some((at, _)) = self.lines.lock().unwrap()[mark..]
                .iter()
                .find(|(_, l)| l.contains(what))
            {
                return *at;
            }
            if self.ended.load(Ordering::SeqCst) {
                panic!("the daemon exited before {what:?}:\n{}", self.log());
            }
            if Instant::now() > deadline {
                panic!(
                    "no {what:?} within {timeout:?}; the daemon's log:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits for a line containing `what`, from the start.
    pub fn wait_for(&self, what: &str, timeout: Duration) -> Instant {
        self.wait_after(0, what, timeout)
    }

    /// How many lines contain `what`.
    pub fn count(&self, what: &str) -> usize {
        self.lines
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, l)| l.contains(what))
            .count()
    }

    pub fn log(&self) -> String {
        let lines = self.lines.lock().unwrap();
        lines.iter().map(|(_, l)| format!("{l}\n")).collect()
    }

    /// SIGKILL (`kill -9`): no chance to finish anything; waits for the exit.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Its last lines: read until the pipe closes.
        let deadline = Instant::now() + Duration::from_secs(2);
        while !self.ended.load(Ordering::SeqCst) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM, then waits for the exit (10 s at most).
    pub fn stop(&mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "the daemon did not stop within 10 s of SIGTERM:\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}
