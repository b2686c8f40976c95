//! One player's day with ccmail in each interface language, compared exactly: `game new`, a partner's
//! move applied, `show`, `games`, `inbox` with a held message, `check` with one failing step,
//! a config error, and the `reply` prompt in a pseudo-terminal. The same steps, the same
//! store and the same moments in both languages; only `[player] language` differs (and, for
//! the locale's choice, `LANG`).

use std::process::Command;
use std::time::Duration;

use expectrl::session::OsSession as Pty;
use expectrl::{Eof, Expect};
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_ccmail");

/// A port nothing listens on: the IMAP step's connection is refused.
fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A player's HOME: a config in `language` (none: the locale's), and a database.
struct Home {
    dir: TempDir,
    locale: Option<&'static str>,
    /// The IMAP port nothing listens on.
    port: u16,
}

impl Home {
    fn new(language: Option<&str>, locale: Option<&'static str>) -> Home {
        let home = Home {
            dir: tempfile::tempdir().unwrap(),
            locale,
            port: closed_port(),
        };
        let language = language.map_or(String::new(), |l| format!("language = \"{l}\"\n"));
        home.write_config(&format!(
            "[player]\nname = \"Petrov Petr\"\nsurname = \"Petrov\"\n\
             email = \"petrov@example.org\"\ntimezone = \"Europe/Moscow\"\n{language}\n\
             [imap]\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\n\
             username = \"petrov\"\npassword_env = \"CCMAIL_TEST_PASSWORD\"\n",
            home.port
        ));
        home.ok("2026-03-01", &["init"]);
        home
    }

    fn write_config(&self, text: &str) {
        let config = self.dir.path().join("config/ccmail/config.toml");
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        std::fs::write(&config, text).unwrap();
    }

    /// The binary in this HOME at `now`, with nothing of the caller's environment but the
    /// locale chosen.
    fn command(&self, now: &str) -> Command {
        let root = self.dir.path();
        let mut c = Command::new(BIN);
        c.env_clear()
            .env("HOME", root)
            .env("XDG_CONFIG_HOME", root.join("config"))
            .env("XDG_DATA_HOME", root.join("data"))
            .env("CCMAIL_NOW", now)
            .env("CCMAIL_TEST_PASSWORD", "secret")
            .env("NO_COLOR", "1")
            .env("TERM", "xterm");
        if let Some(locale) = self.locale {
            c.env("LANG", locale);
        }
        c
    }

    /// Standard output and standard error of a command, and its exit code.
    fn run(&self, now: &str, args: &[&str]) -> (String, String, i32) {
        let out = self.command(now).args(args).output().unwrap();
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
            out.status.code().unwrap_or(-1),
        )
    }

    fn ok(&self, now: &str, args: &[&str]) -> String {
        let (out, err, code) = self.run(now, args);
        assert_eq!(code, 0, "ccmail {args:?} failed:\n{err}");
        out
    }

    /// A message from `from` with White's first move, written on 2026-03-02, as a file.
    fn letter(&self, name: &str, from: &str) -> String {
        let raw = format!(
            "Message-ID: <{name}@example.net>\nDate: Mon, 02 Mar 2026 10:00:00 +0300\n\
             From: Sidorov <{from}>\nTo: Petrov <petrov@example.org>\n\
             Subject: Club Cup 2026: Sidorov - Petrov, 1. e4\n\
             Content-Type: text/plain; charset=UTF-8\n\n\
             Event: Club Cup 2026\nStart: 2026-03-01\nWhite: Sidorov\nBlack: Petrov\n\
             My move: 1. e4\nSent: 2026-03-02\nTime for this move: 1\n\
             Total days: White 1, Black 0\n\nSidorov <{from}>\n"
        );
        let file = self.dir.path().join(format!("{name}.eml"));
        std::fs::write(&file, raw).unwrap();
        file.to_str().unwrap().to_owned()
    }

    /// The `reply` prompt's first screen, escape sequences taken out, up to the prompt.
    fn reply_screen(&self, now: &str) -> String {
        let mut command = self.command(now);
        command.arg("reply");
        let mut term = Pty::spawn(command).unwrap();
        term.get_process_mut().set_window_size(80, 24).unwrap();
        term.set_expect_timeout(Some(Duration::from_secs(30)));
        let found = term.expect("> ").expect("the prompt comes");
        let screen = plain(&String::from_utf8_lossy(found.before()));
        term.send("quit\r").unwrap();
        term.expect(Eof).expect("reply ends on quit");
        screen
    }
}

/// `text` without terminal escape sequences and carriage returns, its lines' ends trimmed.
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                // CSI: ESC [ … final byte; other escapes: ESC and one character.
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                } else {
                    chars.next();
                }
            }
            '\r' => {}
            _ => out.push(c),
        }
    }
    out.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the day printed, step by step.
#[derive(Debug, PartialEq)]
struct Day {
    new_game: String,
    applied: String,
    held: String,
    show: String,
    games: String,
    inbox: String,
    check: String,
    config_error: String,
    reply: String,
}

fn day(home: &Home) -> Day {
    let new_game = home.ok(
        "2026-03-01",
        &[
            "game",
            "new",
            "--event",
            "Club Cup 2026",
            "--start",
            "2026-03-01",
            "--white",
            "Sidorov",
            "--black",
            "Petrov",
            "--color",
            "black",
            "--opponent",
            "sidorov@example.net",
            "--arbiter",
            "arbiter@example.com",
            "--lang",
            "en",
        ],
    );
    let partner = home.letter("move", "sidorov@example.net");
    let applied = home.ok(
        "2026-03-02",
        &["apply", &partner, "--received", "2026-03-02"],
    );
    let stranger = home.letter("stranger", "stranger@example.net");
    let held = home.ok(
        "2026-03-02",
        &["apply", &stranger, "--received", "2026-03-02"],
    );
    let show = home.ok("2026-03-04", &["show", new_game.trim()]);
    let games = home.ok("2026-03-04", &["games"]);
    let inbox = home.ok("2026-03-04", &["inbox"]);
    let (out, err, code) = home.run("2026-03-04", &["check"]);
    assert_eq!(code, 1, "one step fails");
    let check = format!("{out}{err}");
    let reply = home.reply_screen("2026-03-04");
    // A misspelt key: the file is named in the error.
    let config = home.dir.path().join("config/ccmail/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    home.write_config(&text.replace("surname =", "surnme ="));
    let (out, err, code) = home.run("2026-03-04", &["games"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    let config_error = err.replace(&config.display().to_string(), "CONFIG");
    // What differs from one HOME to another: the game's id, the folder, the closed port.
    let id = new_game.trim().to_owned();
    let home_dir = home.dir.path().display().to_string();
    let port = home.port.to_string();
    let same = |text: String| {
        text.replace(&id, "GAME")
            .replace(&home_dir, "HOME")
            .replace(&port, "PORT")
    };
    Day {
        new_game: same(new_game),
        applied: same(applied),
        held: same(held),
        show: same(show),
        games: same(games),
        inbox: same(inbox),
        check: same(check),
        config_error: same(config_error),
        reply: same(reply),
    }
}

#[test]
fn the_same_day_in_english_and_in_russian() {
    let en = day(&Home::new(Some("en"), Some("ru_RU.UTF-8")));
    let ru = day(&Home::new(Some("ru"), None));
    if let Some(dir) = std::env::var_os("CCMAIL_PRINT_DAY") {
        for (lang, day) in [("en", &en), ("ru", &ru)] {
            std::fs::write(std::path::Path::new(&dir).join(lang), format!("{day:#?}")).unwrap();
        }
    }
    assert_eq!(en, english(), "the English day");
    assert_eq!(ru, russian(), "the Russian day");
}

#[test]
fn the_locale_chooses_russian_without_the_key() {
    let home = Home::new(None, Some("ru_RU.UTF-8"));
    assert_eq!(home.ok("2026-03-01", &["games"]), russian_no_games());
}

fn russian_no_games() -> &'static str {
    "Партий нет. Как начать новую, см. `ccmail game new --help`.\n"
}

fn english() -> Day {
    Day {
        new_game: String::new(),
        applied: String::new(),
        held: String::new(),
        show: String::new(),
        games: String::new(),
        inbox: String::new(),
        check: String::new(),
        config_error: String::new(),
        reply: String::new(),
    }
}

fn russian() -> Day {
    english()
}
