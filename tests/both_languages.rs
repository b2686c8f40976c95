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
        new_game: "GAME\n".to_owned(),
        applied: "game GAME: applied 1. e4 by White\n".to_owned(),
        held: "held as message 2 (see `ccmail inbox`): it looks like game GAME but comes from stranger@example.net, not the address on file sidorov@example.net (51.1.2: accept it with `ccmail inbox accept 2 --game GAME`)\n".to_owned(),
        show: concat!(
            "GAME — Club Cup 2026: Sidorov – Petrov   (started 2026-03-01, article51, control 10/60)\n",
            "You play black against sidorov@example.net; arbiter arbiter@example.com.\n",
            "Your move\n",
            "\n",
            "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖\n",
            "2  ♙  ♙  ♙ [·] ♙  ♙  ♙  ♙\n",
            "3  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "4  ·  ·  · [♙] ·  ·  ·  ·\n",
            "5  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "6  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟\n",
            "8  ♜  ♞  ♝  ♚  ♛  ♝  ♞  ♜\n",
            "   h  g  f  e  d  c  b  a\n",
            "\n",
            "   1. e4       5254   received 2026-03-01  sent 2026-03-02  1 day(s)\n",
            "\n",
            "White: 1 day + 0 penalty = 1 of 60 by move 10; 59 left\n",
            "Black: 0 days + 0 penalty = 0 of 60 by move 10; 58 left\n",
            "Running on the move awaited: 2 day(s)\n",
            "\n",
            "Deadlines:\n",
            "  2026-04-11  40 days without a move (51.5.3)\n",
            "  2026-04-26  5 days or fewer left: mail goes Cc the arbiter (51.4.10)\n",
            "\n",
            "Problems:\n",
            "  message 2 is held: it looks like game GAME but comes from stranger@example.net, not the address on file sidorov@example.net (51.1.2: accept it with `ccmail inbox accept 2 --game GAME`)\n",
        )
        .to_owned(),
        games: concat!(
            "GAME    Club Cup 2026            sidorov@example.net        black move   1  YOUR MOVE   left W 59 B 58  2026-04-11 40 days without a move (51.5.3)\n",
            "         1 held message(s) of this game wait for you: `ccmail inbox`\n",
        )
        .to_owned(),
        inbox: concat!(
            "    2  2026-03-02  stranger@example.net\n",
            "       Club Cup 2026: Sidorov - Petrov, 1. e4\n",
            "       held: it looks like game GAME but comes from stranger@example.net, not the address on file sidorov@example.net (51.1.2: accept it with `ccmail inbox accept 2 --game GAME`)\n",
        )
        .to_owned(),
        check: concat!(
            "ok    config: read from HOME/config/ccmail/config.toml (player Petrov Petr <petrov@example.org>, time zone Europe/Moscow)\n",
            "ok    database: opened HOME/data/ccmail/ccmail.db: 1 game(s), 1 active\n",
            "FAIL  imap: cannot connect: cannot connect to IMAP server 127.0.0.1:PORT: Connection refused (os error 111)\n",
            "hint  imap: nothing listens on 127.0.0.1:PORT: check host and port, and that the server runs\n",
            "-     smtp: not configured: HOME/config/ccmail/config.toml has no [smtp] (messages stay in the outbox)\n",
            "ccmail: 1 check failed\n",
        )
        .to_owned(),
        config_error: "ccmail: unknown key \"player.surnme\" in CONFIG (did you mean \"player.surname\"?)\n".to_owned(),
        reply: concat!(
            "1 message is held, not applied to any game (`ccmail inbox`):\n",
            "     2  stranger@example.net: it looks like game GAME but comes from stranger@…\n",
            "\n",
            "2026-03-04: 1 game to answer.\n",
            "Type your move at the prompt; `help` lists the commands.\n",
            "\n",
            "── 1/1  GAME  Club Cup 2026: Sidorov – Petrov ─────────────────────────────────\n",
            "Your move: 1... as Black, against sidorov@example.net\n",
            "\n",
            "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖    Move                received    sent        days\n",
            "2  ♙  ♙  ♙ [·] ♙  ♙  ♙  ♙        1. e4 5254      2026-03-01  2026-03-02     1\n",
            "3  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "4  ·  ·  · [♙] ·  ·  ·  ·\n",
            "5  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "6  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟\n",
            "8  ♜  ♞  ♝  ♚  ♛  ♝  ♞  ♜\n",
            "   h  g  f  e  d  c  b  a\n",
            "\n",
            "White Sidorov: 1 of 60 days by move 10: 59 left\n",
            "Black (you): 0 of 60 days by move 10: 58 left, 2 running on this move\n",
            "Deadline 2026-04-11: 40 days without a move (51.5.3)\n",
            "Deadline 2026-04-26: 5 days or fewer left: mail goes Cc the arbiter (51.4.10)\n",
            "Held for this game: message 2 (it looks like game GAME but comes from\n",
            "  stranger@example.net, not the address on file sidorov@example.net (51.1.2:\n",
            "  accept it with `ccmail inbox accept 2 --game GAME`)): `ccmail inbox`.\n",
            "GAME 1...",
        )
        .to_owned(),
    }
}

fn russian() -> Day {
    Day {
        new_game: "GAME\n".to_owned(),
        applied: "партия GAME: применён ход белых 1. e4\n".to_owned(),
        held: "задержано как сообщение 2 (см. `ccmail inbox`): похоже на партию GAME, но пришло с stranger@example.net, а не с записанного адреса sidorov@example.net (51.1.2: чтобы принять, введите `ccmail inbox accept 2 --game GAME`)\n".to_owned(),
        show: concat!(
            "GAME — Club Cup 2026: Sidorov – Petrov   (начата 01.03.2026, article51, контроль 10/60)\n",
            "Вы играете чёрными против sidorov@example.net; арбитр arbiter@example.com.\n",
            "Ваш ход\n",
            "\n",
            "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖\n",
            "2  ♙  ♙  ♙ [·] ♙  ♙  ♙  ♙\n",
            "3  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "4  ·  ·  · [♙] ·  ·  ·  ·\n",
            "5  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "6  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟\n",
            "8  ♜  ♞  ♝  ♚  ♛  ♝  ♞  ♜\n",
            "   h  g  f  e  d  c  b  a\n",
            "\n",
            "   1. e4       5254   получен 01.03.2026  отправлен 02.03.2026  1 день\n",
            "\n",
            "Белые: 1 день + 0 штрафных = 1 из 60 к ходу 10; осталось 59\n",
            "Чёрные: 0 дней + 0 штрафных = 0 из 60 к ходу 10; осталось 58\n",
            "Идёт время на ожидаемый ход: 2 дня\n",
            "\n",
            "Сроки:\n",
            "  11.04.2026  40 дней без хода (51.5.3)\n",
            "  26.04.2026  осталось 5 дней или меньше: переписка идёт с копией арбитру (51.4.10)\n",
            "\n",
            "Проблемы:\n",
            "  письмо 2 задержано: похоже на партию GAME, но пришло с stranger@example.net, а не с записанного адреса sidorov@example.net (51.1.2: чтобы принять, введите `ccmail inbox accept 2 --game GAME`)\n",
        )
        .to_owned(),
        games: concat!(
            "GAME    Club Cup 2026            sidorov@example.net        чёрные ход   1  ВАШ ХОД     осталось Б 59 Ч 58  11.04.2026 40 дней без хода (51.5.3)\n",
            "         1 задержанное письмо этой партии ждёт вас: `ccmail inbox`\n",
        )
        .to_owned(),
        inbox: concat!(
            "    2  02.03.2026  stranger@example.net\n",
            "       Club Cup 2026: Sidorov - Petrov, 1. e4\n",
            "       задержано: похоже на партию GAME, но пришло с stranger@example.net, а не с записанного адреса sidorov@example.net (51.1.2: чтобы принять, введите `ccmail inbox accept 2 --game GAME`)\n",
        )
        .to_owned(),
        check: concat!(
            "ок    настройки: прочитаны из HOME/config/ccmail/config.toml (игрок Petrov Petr <petrov@example.org>, часовой пояс Europe/Moscow)\n",
            "ок    база: открыта HOME/data/ccmail/ccmail.db: 1 партия, активных: 1\n",
            "СБОЙ  imap: не удаётся подключиться: не удаётся подключиться к IMAP-серверу 127.0.0.1:PORT: Connection refused (os error 111)\n",
            "совет imap: на 127.0.0.1:PORT никто не слушает: проверьте адрес и порт и что сервер запущен\n",
            "-     smtp: не настроен: в HOME/config/ccmail/config.toml нет [smtp] (письма остаются в очереди на отправку)\n",
            "ccmail: не пройдена 1 проверка\n",
        )
        .to_owned(),
        config_error: "ccmail: неизвестный ключ \"player.surnme\" в CONFIG (может быть, вы имели в виду \"player.surname\"?)\n".to_owned(),
        reply: concat!(
            "1 сообщение отложено и не применено ни к одной партии (`ccmail inbox`):\n",
            "     2  stranger@example.net: похоже на партию GAME, но пришло с stranger@exam…\n",
            "\n",
            "04.03.2026: ваш ход в 1 партии.\n",
            "Введите ход в строке приглашения; `help` перечисляет команды.\n",
            "\n",
            "── 1/1  GAME  Club Cup 2026: Sidorov – Petrov ─────────────────────────────────\n",
            "Ваш ход: 1... за чёрных, соперник sidorov@example.net\n",
            "\n",
            "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖    Ход                 получен     отправлен   дни\n",
            "2  ♙  ♙  ♙ [·] ♙  ♙  ♙  ♙        1. e4 5254      01.03.2026  02.03.2026     1\n",
            "3  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "4  ·  ·  · [♙] ·  ·  ·  ·\n",
            "5  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "6  ·  ·  ·  ·  ·  ·  ·  ·\n",
            "7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟\n",
            "8  ♜  ♞  ♝  ♚  ♛  ♝  ♞  ♜\n",
            "   h  g  f  e  d  c  b  a\n",
            "\n",
            "Белые Sidorov: 1 из 60 дней до 10-го хода: осталось 59\n",
            "Чёрные (вы): 0 из 60 дней до 10-го хода: осталось 58, на этот ход уже 2 дня\n",
            "Срок 11.04.2026: 40 дней без хода (51.5.3)\n",
            "Срок 26.04.2026: осталось 5 дней или меньше: переписка идёт с копией арбитру (5…\n",
            "Отложено для этой партии: сообщение 2 (похоже на партию GAME, но пришло с\n",
            "  stranger@example.net, а не с записанного адреса sidorov@example.net (51.1.2:\n",
            "  чтобы принять, введите `ccmail inbox accept 2 --game GAME`)): `ccmail inbox`.\n",
            "GAME 1...",
        )
        .to_owned(),
    }
}

#[test]
fn a_mistake_on_the_command_line_is_said_in_either_language() {
    let home = Home::new(Some("en"), None);
    let (out, err, code) = home.run("2026-03-01", &["completions", "tcsh"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert_eq!(
        err,
        "error: invalid value 'tcsh' for '<SHELL>'\n  [possible values: bash, zsh, fish]\n\n  \
         tip: a similar value exists: 'zsh'\n\nFor more information, try '--help'.\n"
    );
    let home = Home::new(None, Some("ru_RU.UTF-8"));
    let (out, err, code) = home.run("2026-03-01", &["gmes"]);
    assert_eq!((out.as_str(), code), ("", 2));
    assert_eq!(
        err,
        "ошибка: нет такой подкоманды: 'gmes'\n\n  совет: есть похожие подкоманды: 'game', \
         'games'\n\nИспользование: ccmail [OPTIONS] <COMMAND>\n\nПодробнее: '--help'.\n"
    );
    let help = home.ok("2026-03-01", &["completions", "--help"]);
    assert!(
        help.contains("Оболочка [допустимые значения: bash, zsh, fish]")
            && help.contains("[переменная окружения: CCMAIL_CONFIG]")
            && !help.contains("[env:")
            && !help.contains("possible values"),
        "{help}"
    );
    let help = home.ok("2026-03-01", &["--help"]);
    assert!(
        help.contains(
            "\n  help         Показать эту справку или справку по указанной подкоманде\n"
        ),
        "{help}"
    );
}
