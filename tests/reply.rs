//! `ccmail reply` driven through a pseudo-terminal (80×24, `NO_COLOR=1`, `CCMAIL_NOW`), as a
//! player uses it: the games are built through the binary in a temporary HOME (`init`,
//! `game new`, partners' move messages through `apply --received`), the prompt is driven
//! with expectrl, and what became of each game is read back through `show --json` and
//! `export --mbox`. No mail server: without `[smtp]`, confirmed messages stay queued.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use chrono::NaiveDate;
use expectrl::process::unix::WaitStatus;
use expectrl::session::OsSession as Pty;
use expectrl::{Eof, Expect};
use serde_json::Value;
use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_ccmail");

const CONFIG: &str = r#"[player]
name = "Petrov Petr"
surname = "Petrov"
email = "petrov@example.org"
timezone = "Europe/Moscow"
"#;

/// A player's HOME with a config and a database.
struct Home {
    dir: TempDir,
}

impl Home {
    fn new() -> Home {
        let home = Home {
            dir: tempfile::tempdir().unwrap(),
        };
        let config = home.dir.path().join("config/ccmail/config.toml");
        std::fs::create_dir_all(config.parent().unwrap()).unwrap();
        std::fs::write(&config, CONFIG).unwrap();
        home.ok("2026-03-01", &["init"]);
        home
    }

    /// The binary in this HOME, at `now`, with nothing of the caller's environment.
    fn command(&self, now: &str) -> Command {
        let root = self.dir.path();
        let mut c = Command::new(BIN);
        c.env_clear()
            .env("HOME", root)
            .env("XDG_CONFIG_HOME", root.join("config"))
            .env("XDG_DATA_HOME", root.join("data"))
            .env("CCMAIL_NOW", now)
            .env("NO_COLOR", "1")
            .env("TERM", "xterm");
        c
    }

    /// Runs a command that must succeed; its standard output.
    fn ok(&self, now: &str, args: &[&str]) -> String {
        let out = self.command(now).args(args).output().unwrap();
        assert!(
            out.status.success(),
            "ccmail {args:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// A new game started 2026-03-01 against `opponent`; its id.
    fn game(
        &self,
        color: &str,
        opponent: &str,
        white: &str,
        black: &str,
        extra: &[&str],
    ) -> String {
        let email = format!("{}@example.net", opponent.to_lowercase());
        let mut args = vec![
            "game",
            "new",
            "--event",
            "Club Cup 2026",
            "--start",
            "2026-03-01",
            "--white",
            white,
            "--black",
            black,
            "--color",
            color,
            "--opponent",
            &email,
            "--arbiter",
            "arbiter@example.com",
        ];
        args.extend_from_slice(extra);
        self.ok("2026-03-01", &args).trim().to_owned()
    }

    /// The partner (White) opens with `mv`, sent and received on `date`; `extra` lines go
    /// after the move (a draw offer, notes).
    fn partner_opens(&self, opponent: &str, black: &str, mv: &str, date: &str, extra: &[&str]) {
        let email = format!("{}@example.net", opponent.to_lowercase());
        let out = self.partner_writes(opponent, &email, black, mv, date, extra);
        assert!(out.contains("applied"), "{out}");
    }

    /// As [`Home::partner_opens`], from `email`; what `apply` said.
    fn partner_writes(
        &self,
        opponent: &str,
        email: &str,
        black: &str,
        mv: &str,
        date: &str,
        extra: &[&str],
    ) -> String {
        let day: NaiveDate = date.parse().unwrap();
        let mut body = format!(
            "Event: Club Cup 2026\nStart: 2026-03-01\nWhite: {opponent}\nBlack: {black}\n\
             ----------------------------------------\nMoves:\nMy move: 1. {mv}\n"
        );
        for line in extra {
            body.push_str(line);
            body.push('\n');
        }
        let days = (day - NaiveDate::from_ymd_opt(2026, 3, 1).unwrap()).num_days();
        body.push_str(&format!(
            "Sent: {date}\nTime for this move: {days}\nTotal days: White {days}, Black 0\n\
             ----------------------------------------\n{opponent} <{email}>\n"
        ));
        let raw = format!(
            "Message-ID: <{email}.{date}>\nDate: {} 10:00:00 +0300\n\
             From: {opponent} <{email}>\nTo: Petrov <petrov@example.org>\n\
             Subject: Club Cup 2026: {opponent} - {black}, 1. {mv}\n\
             Content-Type: text/plain; charset=UTF-8\n\n{body}",
            day.format("%a, %d %b %Y")
        );
        let file = self.dir.path().join(format!("{email}.eml"));
        std::fs::write(&file, raw).unwrap();
        self.ok(date, &["apply", file.to_str().unwrap(), "--received", date])
    }

    fn show(&self, now: &str, id: &str) -> Value {
        serde_json::from_str(&self.ok(now, &["--json", "show", id])).unwrap()
    }

    /// The game's moves in SAN.
    fn moves(&self, id: &str) -> Vec<String> {
        self.show("2026-03-06", id)["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["san"].as_str().unwrap().to_owned())
            .collect()
    }

    /// Every message of the game, in and out, as an mbox, with `\n` line ends (the messages
    /// are kept with the CRLF they were sent with).
    fn mbox(&self, id: &str) -> String {
        self.ok("2026-03-06", &["export", id, "--mbox"])
            .replace("\r\n", "\n")
    }

    /// `ccmail reply` in an 80×24 pseudo-terminal.
    fn reply(&self, now: &str) -> Pty {
        self.reply_with(now, |_| {})
    }

    /// [`Home::reply`], with the environment changed by `env`.
    fn reply_with(&self, now: &str, env: impl FnOnce(&mut Command)) -> Pty {
        let mut command = self.command(now);
        command.arg("reply");
        env(&mut command);
        let mut term = Pty::spawn(command).unwrap();
        term.get_process_mut().set_window_size(80, 24).unwrap();
        term.set_expect_timeout(Some(Duration::from_secs(30)));
        term
    }

    fn history(&self) -> PathBuf {
        self.dir.path().join("data/ccmail/reply-history.txt")
    }
}

/// Waits for `text`; what came before it, escape sequences and all.
fn expect(s: &mut Pty, text: &str) -> String {
    match s.expect(text) {
        Ok(found) => String::from_utf8_lossy(found.before()).into_owned(),
        Err(e) => panic!("waiting for {text:?}: {e}"),
    }
}

/// Types a line and presses Enter.
fn line(s: &mut Pty, text: &str) {
    s.send(format!("{text}\r")).unwrap();
}

/// Waits for the end; the rest of the output and the exit code.
fn finish(mut s: Pty) -> (String, i32) {
    let rest = expect_eof(&mut s);
    match s.get_process().wait().unwrap() {
        WaitStatus::Exited(_, code) => (rest, code),
        other => panic!("ccmail reply ended with {other:?}:\n{rest}"),
    }
}

fn expect_eof(s: &mut Pty) -> String {
    match s.expect(Eof) {
        Ok(found) => String::from_utf8_lossy(found.as_bytes()).into_owned(),
        Err(e) => panic!("waiting for the end: {e}"),
    }
}

/// Three games to answer and one waiting: B (White, nothing played: 5 days running), A
/// (Black after 1. e4 received 03-02: 4 days), C (Black after 1. d4 received 03-03: 3 days).
struct Four {
    home: Home,
    a: String,
    b: String,
    c: String,
    d: String,
}

fn four_games() -> Four {
    let home = Home::new();
    let lang = ["--lang", "en", "--notation", "san"];
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &lang);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let b = home.game("white", "Sidorov", "Petrov", "Sidorov", &["--lang", "ru"]);
    let c = home.game("black", "Kuznetsov", "Kuznetsov", "Petrov", &lang);
    home.partner_opens("Kuznetsov", "Petrov", "d4", "2026-03-03", &[]);
    let d = home.game("white", "Petrova", "Petrov", "Petrova", &lang);
    home.ok("2026-03-02", &["move", &d, "e4", "--yes"]);
    Four { home, a, b, c, d }
}

#[test]
fn answers_two_games_skips_one_and_recovers_from_a_typo() {
    let Four { home, a, b, c, d } = four_games();
    let mut s = home.reply("2026-03-06");
    expect(
        &mut s,
        "2026-03-06: 3 games to answer, most urgent first; 1 more awaits a reply.",
    );

    // Most urgent first: B has 55 days left, A 56, C 57.
    expect(
        &mut s,
        &format!("1/3  {b}  Club Cup 2026: Petrov – Sidorov"),
    );
    let screen = expect(&mut s, &format!("{b} 1.> "));
    assert!(screen.contains("Your move: 1. as White, against sidorov@example.net"));
    assert!(screen.contains("White (you): 0 of 60 days by move 10: 55 left"));
    // A typo (e2–e5) in numeric notation, answered in numeric notation.
    line(&mut s, "5255");
    let error = unwrapped(&expect(&mut s, &format!("{b} 1.> ")));
    assert!(
        error.contains(
            "5255 is not playable: the pawn on e2 can't go to e5. \
             The pawn on e2 can go: 5253 (e3), 5254 (e4)."
        ),
        "{error}"
    );
    line(&mut s, "5254");
    expect(&mut s, "To: sidorov@example.net");
    expect(&mut s, "Мой ход: 1. 5254");
    expect(&mut s, "Send it? y(es), e(dit), c(ancel): ");
    line(&mut s, "y");
    expect(&mut s, "queued: Club Cup 2026: Petrov – Sidorov, 1. 5254");

    expect(&mut s, &format!("2/3  {a}  Club Cup 2026: Ivanov – Petrov"));
    let screen = expect(&mut s, &format!("{a} 1...> "));
    assert!(
        screen.contains("1. e4"),
        "the last move is listed:\n{screen}"
    );
    assert!(
        screen.contains("2026-03-01  2026-03-02"),
        "with its dates:\n{screen}"
    );
    line(&mut s, "e5");
    expect(&mut s, "My move: 1... e5");
    expect(&mut s, "Send it? ");
    line(&mut s, "y");
    expect(&mut s, "queued: Club Cup 2026: Ivanov – Petrov, 1... e5");

    expect(&mut s, &format!("3/3  {c}"));
    expect(&mut s, &format!("{c} 1...> "));
    line(&mut s, "skip");
    let (rest, code) = finish(s);
    assert!(rest.contains("Done: 2 answered, 1 skipped."), "{rest}");
    assert_eq!(code, 0);

    assert_eq!(home.moves(&b), ["e4"]);
    assert_eq!(home.moves(&a), ["e4", "e5"]);
    assert_eq!(home.moves(&c), ["d4"], "the skipped game is untouched");
    assert_eq!(home.moves(&d), ["e4"]);
    // The message queued is the one that was shown.
    let mbox = home.mbox(&a);
    assert!(mbox.contains("From petrov@example.org "), "{mbox}");
    assert!(mbox.contains("My move: 1... e5\n"), "{mbox}");
    // The lines typed are kept for the next time the prompt runs.
    let history = std::fs::read_to_string(home.history()).unwrap();
    assert!(
        history.contains("5254") && history.contains("skip"),
        "{history}"
    );
}

#[test]
fn cancel_at_the_preview_queues_nothing() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let before = home.mbox(&a);
    let mut s = home.reply("2026-03-06");
    expect(&mut s, &format!("{a} 1...> "));
    line(&mut s, "e5 Nf3 Nc6 draw note Good luck!");
    let preview = expect(&mut s, "Send it? y(es), e(dit), c(ancel): ");
    for part in [
        "To: ivanov@example.net\r\n",
        "Subject: Club Cup 2026: Ivanov – Petrov, 1... 5755\r\n",
        "My move: 1... 5755\r\n",
        "Variation: 2. 7163 2836\r\n",
        "I offer a draw\r\n",
        "- Good luck!\r\n",
        "Petrov Petr <petrov@example.org>\r\n",
    ] {
        assert!(
            preview.contains(part),
            "{part:?} is not in the preview:\n{preview}"
        );
    }
    line(&mut s, "c");
    expect(&mut s, "Cancelled: nothing was queued.");
    expect(&mut s, &format!("{a} 1...> "));
    line(&mut s, "quit");
    let (rest, code) = finish(s);
    assert!(
        rest.contains("stopped with 1 game still to answer"),
        "{rest}"
    );
    assert_eq!(code, 0);

    assert_eq!(home.moves(&a), ["e4"]);
    let game = home.show("2026-03-06", &a);
    assert_eq!(game["draw_offered_by"], Value::Null);
    assert_eq!(game["to_move"], "black");
    assert_eq!(home.mbox(&a), before, "no message was stored");
    assert!(!home.mbox(&a).contains("From petrov@example.org "));
}

/// `ccmail move` on a terminal shows the message and asks: a no sends and changes nothing,
/// a yes queues the move.
#[test]
fn move_on_a_terminal_asks_first() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let before = home.mbox(&a);
    let asked = |answer: &str| {
        let mut command = home.command("2026-03-06");
        command.args(["move", &a, "e5"]);
        let mut s = Pty::spawn(command).unwrap();
        s.set_expect_timeout(Some(Duration::from_secs(30)));
        let preview = expect(&mut s, "Send this message? [y/N] ");
        assert!(preview.contains("My move: 1... 5755\r\n"), "{preview}");
        line(&mut s, answer);
        finish(s)
    };

    let (rest, code) = asked("n");
    assert_eq!(code, 0);
    assert!(rest.contains("Not sent; nothing changed."), "{rest}");
    assert_eq!(home.moves(&a), ["e4"]);
    assert_eq!(home.mbox(&a), before, "no message was stored");

    let (_, code) = asked("y");
    assert_eq!(code, 0);
    assert_eq!(home.moves(&a), ["e4", "e5"]);
    assert!(home.mbox(&a).contains("My move: 1... 5755"));
}

#[test]
fn edit_at_the_preview_changes_the_move() {
    let home = Home::new();
    let a = home.game(
        "black",
        "Ivanov",
        "Ivanov",
        "Petrov",
        &["--lang", "en", "--notation", "san"],
    );
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let mut s = home.reply("2026-03-06");
    expect(&mut s, &format!("{a} 1...> "));
    line(&mut s, "e5");
    expect(&mut s, "My move: 1... e5");
    expect(&mut s, "Send it? ");
    line(&mut s, "e");
    // The line comes back to be edited: Ctrl-U clears it.
    expect(&mut s, &format!("{a} 1...> "));
    s.send("\x15").unwrap();
    line(&mut s, "c5 note Sicilian");
    expect(&mut s, "My move: 1... c5");
    expect(&mut s, "- Sicilian");
    expect(&mut s, "Send it? ");
    line(&mut s, "y");
    expect(&mut s, "queued: ");
    let (_, code) = finish(s);
    assert_eq!(code, 0);
    assert_eq!(home.moves(&a), ["e4", "c5"]);
}

#[test]
fn the_partners_draw_offer_and_notes_are_shown_and_can_be_accepted() {
    let home = Home::new();
    let a = home.game(
        "black",
        "Ivanov",
        "Ivanov",
        "Petrov",
        &["--lang", "en", "--notation", "san"],
    );
    home.partner_opens(
        "Ivanov",
        "Petrov",
        "e4",
        "2026-03-02",
        &["I offer a draw", "Notes:", "- Back from holiday"],
    );
    let mut s = home.reply("2026-03-06");
    let screen = expect(&mut s, &format!("{a} 1...> "));
    assert!(
        screen.contains("They offer a draw: `accept` accepts it; a move declines it."),
        "{screen}"
    );
    assert!(
        screen.contains("Their note (sent 2026-03-02, received 2026-03-02): Back from holiday"),
        "{screen}"
    );
    line(&mut s, "accept note Thank you");
    let preview = expect(&mut s, "Send it? ");
    assert!(preview.contains("Draw accepted\r\n"), "{preview}");
    assert!(!preview.contains("My move"), "{preview}");
    line(&mut s, "y");
    expect(&mut s, "The game is over: 1/2-1/2.");
    let (_, code) = finish(s);
    assert_eq!(code, 0);
    let game = home.show("2026-03-06", &a);
    assert_eq!(game["status"], "finished");
    assert_eq!(game["result"], "1/2-1/2");
}

#[test]
fn resigning_asks_for_a_full_yes() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let mut s = home.reply("2026-03-06");
    expect(&mut s, &format!("{a} 1...> "));
    line(&mut s, "resign");
    expect(&mut s, "I resign");
    expect(
        &mut s,
        "Resign this game? Type yes to send it, e to edit, c to cancel: ",
    );
    line(&mut s, "y");
    expect(&mut s, "Type yes to resign, e to edit, c to cancel.");
    line(&mut s, "yes");
    expect(&mut s, "The game is over: 1-0.");
    let (_, code) = finish(s);
    assert_eq!(code, 0);
    assert_eq!(home.show("2026-03-06", &a)["result"], "1-0");
}

#[test]
fn help_and_a_mistyped_command() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let mut s = home.reply("2026-03-06");
    expect(&mut s, &format!("{a} 1...> "));
    line(&mut s, "help");
    let help = expect(&mut s, &format!("{a} 1...> "));
    for word in ["draw", "note TEXT", "accept", "resign", "skip", "quit"] {
        assert!(help.contains(word), "{word} is not in the help:\n{help}");
    }
    for l in help.lines() {
        assert!(l.trim_end().chars().count() <= 80, "too wide: {l}");
    }
    line(&mut s, "skp");
    expect(
        &mut s,
        "`skp` is not a move or a command; did you mean `skip`?",
    );
    expect(&mut s, &format!("{a} 1...> "));
    // Ctrl-D leaves, like quit.
    s.send("\x04").unwrap();
    let (rest, code) = finish(s);
    assert!(
        rest.contains("Done: 0 answered, 0 skipped; stopped with 1 game"),
        "{rest}"
    );
    assert_eq!(code, 0);
    assert_eq!(home.moves(&a), ["e4"]);
}

#[test]
fn the_game_screen_fits_80_columns_and_24_rows() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens(
        "Ivanov",
        "Petrov",
        "e4",
        "2026-03-02",
        &[
            "I offer a draw",
            "Notes:",
            "- A note long enough to need a second line on an \
          80-column terminal, to see it wrapped",
        ],
    );
    let mut s = home.reply("2026-03-06");
    expect(&mut s, "2026-03-06: 1 game to answer.");
    let screen = expect(&mut s, &format!("{a} 1...> "));
    let lines: Vec<&str> = screen
        .split("\r\n")
        .skip_while(|l| !l.starts_with("── 1/1"))
        .collect();
    assert!(lines.len() > 12, "{screen}");
    // The screen, the prompt and a line for an answer fit 24 rows.
    assert!(lines.len() + 2 <= 24, "{} rows:\n{screen}", lines.len());
    for l in &lines {
        let visible: String = strip_escapes(l);
        assert!(
            visible.chars().count() <= 80,
            "{} columns: {visible}",
            visible.chars().count()
        );
    }
    assert!(
        !screen.contains("\x1b[3"),
        "NO_COLOR: no colours:\n{screen}"
    );
    line(&mut s, "quit");
    finish(s);
}

#[test]
fn held_messages_are_announced_first_and_shown_with_their_game() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    // The same partner from a new address: held, never applied (51.1.2).
    let out = home.partner_writes(
        "Ivanov",
        "ivanov.new@example.net",
        "Petrov",
        "e4",
        "2026-03-03",
        &[],
    );
    assert!(out.contains("held as message"), "{out}");
    let mut s = home.reply("2026-03-06");
    let intro = unwrapped(&expect(&mut s, "2026-03-06: 1 game to answer."));
    assert!(
        intro.contains("1 message is held, not applied to any game (`ccmail inbox`):"),
        "{intro}"
    );
    assert!(
        intro.contains("ivanov.new@example.net: it looks like game"),
        "{intro}"
    );
    let screen = unwrapped(&expect(&mut s, &format!("{a} 1...> ")));
    assert!(screen.contains("Held for this game: message"), "{screen}");
    line(&mut s, "quit");
    finish(s);
}

#[test]
fn colour_only_without_no_color_and_on_a_terminal_that_is_not_dumb() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    let mut s = home.reply_with("2026-03-06", |c| {
        c.env_remove("NO_COLOR");
    });
    let screen = expect(&mut s, &format!("{a} 1...> "));
    // Light and dark squares, the last move's two (e2, e4: both light) highlighted; no
    // brackets.
    assert!(screen.contains("\x1b[48;5;223;") && screen.contains("\x1b[48;5;137;"));
    assert_eq!(screen.matches("\x1b[48;5;186;").count(), 2, "{screen}");
    assert!(!screen.contains("[·]"), "{screen}");
    line(&mut s, "quit");
    finish(s);

    let mut s = home.reply_with("2026-03-06", |c| {
        c.env_remove("NO_COLOR").env("TERM", "dumb");
    });
    let screen = expect(&mut s, &format!("{a} 1...> "));
    assert!(!screen.contains('\x1b'), "{screen}");
    assert!(screen.contains("[♙]"), "{screen}");
    line(&mut s, "quit");
    let (_, code) = finish(s);
    assert_eq!(code, 0);
}

#[test]
fn with_nothing_to_answer_it_says_so_and_ends() {
    let home = Home::new();
    let d = home.game("white", "Petrova", "Petrov", "Petrova", &["--lang", "en"]);
    home.ok("2026-03-02", &["move", &d, "e4", "--yes"]);
    let s = home.reply("2026-03-06");
    let (out, code) = finish(s);
    assert!(
        out.contains("2026-03-06: nothing to answer; 1 game awaits a reply."),
        "{out}"
    );
    assert_eq!(code, 0);
}

#[test]
fn without_a_terminal_it_refuses_clearly() {
    let home = Home::new();
    let a = home.game("black", "Ivanov", "Ivanov", "Petrov", &["--lang", "en"]);
    home.partner_opens("Ivanov", "Petrov", "e4", "2026-03-02", &[]);
    for stdin in [Stdio::null(), Stdio::piped()] {
        let out = home
            .command("2026-03-06")
            .arg("reply")
            .stdin(stdin)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty(), "nothing is drawn");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err,
            "ccmail: `ccmail reply` is interactive and needs a terminal, but neither standard \
             input nor standard output is a terminal (a pipe or a file?). From a script, list \
             the games with `ccmail games` and play with `ccmail move GAME MOVE --yes`\n"
        );
    }
    assert_eq!(home.moves(&a), ["e4"]);
}

/// Output with the prompt's wrapped lines joined again (continuation lines start with two
/// spaces).
fn unwrapped(s: &str) -> String {
    s.replace("\r\n  ", " ")
}

/// `s` without ANSI escape sequences and carriage returns.
fn strip_escapes(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => {
                if chars.peek() == Some(&'[') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c.is_ascii_alphabetic() || c == '~' {
                            break;
                        }
                    }
                }
            }
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}
