//! Shared by the top-level tests: where things are, and the rule for tests that need
//! something outside the repository (CI must not skip them).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/samples` beside the repository, if it is there. With `CI=true` it must be:
/// a CI run that silently skipped the samples would prove nothing.
pub fn shared_samples() -> Option<PathBuf> {
    let dir = root().join("../shared/samples");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but {} is missing", dir.display());
    }
    eprintln!(
        "note: {} is missing; its samples are not run",
        dir.display()
    );
    None
}

/// Whether a tool outside the repository (`what`) is there. With `CI=true` it must be: a
/// missing one fails the test; elsewhere the test says why it is skipped.
pub fn required_tool(what: &str, present: bool) -> bool {
    if present {
        return true;
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but {what} is missing");
    }
    eprintln!("note: {what} is missing; this test is skipped");
    false
}

/// The project's own message fixtures.
pub fn fixtures() -> PathBuf {
    root().join("tests/fixtures/messages")
}

/// The `.eml` files of a folder, sorted.
pub fn emls(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    files
}

/// A player with a home of their own: config, database, the real binary.
pub struct Player {
    pub home: tempfile::TempDir,
    pub name: String,
    pub surname: String,
    pub email: String,
}

impl Player {
    /// A player (`name` surname first) with a config in a temporary home. Time zone
    /// Europe/Moscow; no mail servers.
    pub fn new(name: &str, surname: &str, email: &str) -> Player {
        let home = tempfile::tempdir().unwrap();
        let config = format!(
            "[player]\nname = \"{name}\"\nsurname = \"{surname}\"\nemail = \"{email}\"\n\
             timezone = \"Europe/Moscow\"\n\n[store]\npath = \"{}\"\n",
            home.path().join("ccmail.db").display()
        );
        std::fs::write(home.path().join("config.toml"), config).unwrap();
        Player {
            home,
            name: name.into(),
            surname: surname.into(),
            email: email.into(),
        }
    }

    pub fn config(&self) -> PathBuf {
        self.home.path().join("config.toml")
    }

    /// Runs `ccmail ARGS…` with this player's config and a clean environment.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(env!("CARGO_BIN_EXE_ccmail"))
            .args(args)
            .env("CCMAIL_CONFIG", self.config())
            .env("HOME", self.home.path())
            .env_remove("CCMAIL_NOW")
            // English, whatever the machine's locale.
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_DATA_HOME")
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    }

    /// Runs and expects success; returns stdout.
    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "ccmail {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs and expects failure (exit 1); returns stderr.
    pub fn fails(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "ccmail {args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stderr).unwrap()
    }

    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.ok(&all)).unwrap()
    }

    /// Writes a message file in this player's home and applies it on the day it is
    /// `received` (what the rules require in answer is dated that day too).
    pub fn apply_text(&self, name: &str, raw: &str, received: &str) -> String {
        let path = self.home.path().join(name);
        std::fs::write(&path, raw).unwrap();
        self.ok(&[
            "--now",
            received,
            "apply",
            path.to_str().unwrap(),
            "--received",
            received,
        ])
    }
}

/// The raw letters `player` sent in `game`, oldest first, each with its decoded form (from
/// `export --mbox`, which holds the outbox too).
pub fn sent_letters(player: &Player, game: &str) -> Vec<(String, ccmail_mail::mime::Decoded)> {
    let mbox = player.ok(&["export", game, "--mbox"]);
    mbox.split("\nFrom ")
        .filter_map(|entry| {
            let raw = entry.split_once('\n')?.1;
            let d = ccmail_mail::mime::decode(raw.as_bytes()).ok()?;
            (d.from.as_ref()?.email == player.email).then(|| (raw.to_owned(), d))
        })
        .collect()
}

/// Each outgoing message of a game: (To+Cc recipients, decoded subject, decoded text).
pub fn outgoing(me: &Player, game: &str) -> Vec<(String, String, String)> {
    sent_letters(me, game)
        .into_iter()
        .map(|(_, d)| {
            let to: Vec<String> = d.to.iter().chain(&d.cc).map(|a| a.email.clone()).collect();
            (to.join(","), d.subject.unwrap_or_default(), d.text)
        })
        .collect()
}

/// The rules' chores on `day`, done as the daemon does them: what was done (none failed).
pub async fn pass(me: &Player, day: &str) -> Vec<String> {
    let pass = full_pass(me, day).await;
    assert!(pass.failed.is_empty(), "{:?}", pass.failed);
    pass.done
}

/// A pass of the chores on `day`: what was done and the games whose chores failed.
pub async fn full_pass(me: &Player, day: &str) -> ccmail::app::chores::Pass {
    let store = ccmail_store::Store::open(&me.home.path().join("ccmail.db"))
        .await
        .unwrap();
    let clock = ccmail::app::Clock::new(Some(day), "Europe/Moscow".parse().unwrap()).unwrap();
    let who = ccmail::app::Me {
        name: me.name.clone(),
        surname: me.surname.clone(),
        email: me.email.clone(),
        ..Default::default()
    };
    let pass = ccmail::app::chores::run_due(&store, &who, &clock)
        .await
        .unwrap();
    store.close().await;
    pass
}

/// We (White) play 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 with `partner`'s moves applied from dated
/// messages, ours sent on 2, 4 and 6 March 2026: 4. Qxf7# is ours to play on 2026-03-09.
pub fn scholars_mate(me: &Player, id: &str, partner: &str) {
    let mut day = 2;
    for (mine, theirs) in [("e4", "e5"), ("Bc4", "Nc6"), ("Qh5", "Nf6")] {
        me.ok(&["--now", &format!("2026-03-{day:02}"), "move", id, mine]);
        let v = me.json(&["show", id]);
        let record: Vec<&str> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["san"].as_str().unwrap())
            .collect();
        let msg = format!(
            "From: {partner}\r\nDate: {} Mar 2026 10:00:00 +0300\r\nMessage-ID: <m{day}@example.org>\r\nSubject: m\r\n\r\nMoves: {}\r\nReceived: 2026-03-{:02}\r\nMy move: {theirs}\r\nSent: 2026-03-{:02}\r\n",
            day + 1,
            record.join(" "),
            day + 1,
            day + 1
        );
        me.apply_text(
            &format!("m{day}.eml"),
            &msg,
            &format!("2026-03-{:02}", day + 1),
        );
        day += 2;
    }
}

/// The SAN of every move of a `show --json` object.
pub fn sans(v: &serde_json::Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_owned())
        .collect()
}

/// `player`'s game Иванов – Петров of the club cup from 2026-03-01, arbiter
/// arbiter@example.org, as `color` against `opponent`, with `extra` flags; its id.
pub fn cup_game(player: &Player, color: &str, opponent: &str, extra: &[&str]) -> String {
    let arbiter = ["--arbiter", "arbiter@example.org"];
    let event = "Кубок клуба 2026";
    new_game(
        player,
        event,
        color,
        opponent,
        &[&arbiter[..], extra].concat(),
    )
}

/// `player`'s friendly game Иванов – Петров from 2026-03-01, no arbiter, as `color`
/// against `opponent`; its id.
pub fn friendly_game(player: &Player, color: &str, opponent: &str) -> String {
    new_game(player, "Дружеская", color, opponent, &[])
}

/// `player`'s game Иванов – Петров of `event` from 2026-03-01, as `color` against
/// `opponent`, with `extra` flags; its id.
fn new_game(player: &Player, event: &str, color: &str, opponent: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "game",
        "new",
        "--event",
        event,
        "--start",
        "2026-03-01",
        "--white",
        "Иванов",
        "--black",
        "Петров",
        "--color",
        color,
        "--opponent",
        opponent,
    ];
    args.extend(extra);
    player.ok(&args).trim().to_owned()
}

/// The authserv-id of the test players' own mail server, when a test names it.
pub const OUR_SERVER: &str = "mx.ccmail.test";

/// Names [`OUR_SERVER`] as `me`'s own mail server (`[security] authserv_id`), once: from now
/// on its `Authentication-Results` vouch for a sender, and a letter without them is held.
pub fn name_our_server(me: &Player) {
    let mut config = std::fs::read_to_string(me.config()).unwrap();
    if !config.contains("authserv_id") {
        config.push_str(&format!("\n[security]\nauthserv_id = \"{OUR_SERVER}\"\n"));
        std::fs::write(me.config(), config).unwrap();
    }
}

/// `raw`, a letter to `me` (the partner's, or the arbiter's), as `me`'s own server delivers
/// it when its sender's DKIM signature verified: that server's `Authentication-Results` on
/// top, a pass for the domain of the `From:`, and the server named in `me`'s config
/// ([`name_our_server`]), so that the letter acts in full, as in a real setup. (Without the id
/// nobody vouches for a letter, and only its legal move acts.)
pub fn signed_by_sender(me: &Player, raw: &str) -> String {
    name_our_server(me);
    let from = raw
        .lines()
        .take_while(|l| !l.is_empty())
        .find(|l| l.to_ascii_lowercase().starts_with("from:"))
        .expect("a From: line");
    let domain = from
        .rsplit_once('@')
        .expect("an address in From:")
        .1
        .trim_end_matches(['>', ' ', '\t']);
    let eol = if raw.contains("\r\n") { "\r\n" } else { "\n" };
    format!(
        "Authentication-Results: {OUR_SERVER};{eol}\tdkim=pass (2048-bit key) \
         header.d={domain} header.i=@{domain}{eol}{raw}"
    )
}
