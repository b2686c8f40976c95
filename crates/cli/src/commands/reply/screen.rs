//! The screen of one game at the `reply` prompt, made to fit an 80×24 terminal: every line at
//! most 80 columns; board, last moves, clocks, deadlines and the partner's news in about 20
//! rows, leaving the prompt and an answer room below.
//!
//! ```text
//! ── 1/3  cdppi  Club Cup 2026: Ivanov – Petrov ─────────────────────────────────
//! Your move: 1... as Black, against ivanov@example.net
//!
//! 1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖     Move           received    sent        days
//! 2  ♙  ♙  ♙ [·] ♙  ♙  ♙  ♙         1. e4      2026-03-01  2026-03-02     1
//! …
//! ```
//!
//! Colour only when [`Style::detect`] says so (a terminal, no `NO_COLOR`, `TERM` not `dumb`);
//! without it the board is `board::render`'s, the last move's squares in brackets. Whatever
//! may come from mail (the event, the names, the address, the partner's notes, reasons) goes
//! through [`fit`] or [`wrap`], which show it as [`shown`] makes it: the escape sequences on
//! the screen are ccmail's own colours only.

use std::io::IsTerminal;

use ccmail::app::game::Game;
use ccmail::term::shown;
use ccmail_core::board::{self, Glyphs};
use ccmail_core::clock::{ClockReport, SideClock};
use ccmail_core::notation::{self, Notation};
use chrono::NaiveDate;
use shakmaty::{Chess, Color, File, Move, Position, Rank, Square};

/// The width everything is made to fit.
pub const WIDTH: usize = 80;
/// Plies shown beside the board.
const LAST_PLIES: usize = 8;
/// Where the panel beside the board starts.
const PANEL: usize = 29;

/// Whether to colour: ANSI only on a terminal, without `NO_COLOR`, with a `TERM` that is
/// not `dumb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub colour: bool,
}

impl Style {
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
        Style {
            colour: std::io::stdout().is_terminal() && !no_color && !dumb,
        }
    }

    fn paint(&self, code: &str, s: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }

    pub fn bold(&self, s: &str) -> String {
        self.paint("1", s)
    }

    pub fn dim(&self, s: &str) -> String {
        self.paint("2", s)
    }

    /// Errors.
    pub fn red(&self, s: &str) -> String {
        self.paint("31", s)
    }

    /// What needs the player's attention: a draw offer, a deadline due.
    pub fn yellow(&self, s: &str) -> String {
        self.paint("33", s)
    }

    pub fn green(&self, s: &str) -> String {
        self.paint("32", s)
    }
}

/// Everything one game's screen shows.
#[derive(Debug)]
pub struct View<'a> {
    pub game: &'a Game,
    pub report: &'a ClockReport,
    pub today: NaiveDate,
    /// This game's place in the queue, from 1, and the queue's length.
    pub index: usize,
    pub total: usize,
    /// Deadlines, earliest first, with their words.
    pub deadlines: Vec<(NaiveDate, String)>,
    /// What the partner's last message said beyond the move, and what ccmail will say in
    /// the reply: one item each, in words.
    pub news: Vec<String>,
}

/// The whole screen, each line ending in `\n`.
pub fn render(v: &View, style: Style) -> String {
    let g = v.game;
    let r = &g.row;
    let mut out: Vec<String> = Vec::new();
    let title = format!(
        "── {}/{}  {}  {}: {} – {} ",
        v.index, v.total, r.id, r.event, r.white, r.black
    );
    let title = fit(&title, WIDTH - 2);
    let rule = "─".repeat(WIDTH - width(&title));
    out.push(style.bold(&format!("{title}{rule}")));
    out.push(fit(
        &ccmail::t!(
            "prompt-your-move",
            number = move_number(&g.position()),
            side = if g.me.is_white() { "white" } else { "black" },
            opponent = &r.opponent_email
        ),
        WIDTH,
    ));
    out.push(String::new());
    let board = board_lines(g, style);
    let panel = panel_lines(g, v.report);
    for (i, line) in board.iter().enumerate() {
        let pad = PANEL.saturating_sub(width(line));
        let right = panel.get(i).map(String::as_str).unwrap_or("");
        let right = if i == 0 {
            style.dim(right)
        } else {
            right.to_owned()
        };
        out.push(
            format!("{line}{}{right}", " ".repeat(pad))
                .trim_end()
                .to_owned(),
        );
    }
    out.push(String::new());
    for c in [Color::White, Color::Black] {
        out.push(fit(&clock_line(g, v.report, c), WIDTH));
    }
    for (date, words) in v.deadlines.iter().take(3) {
        let line = fit(
            &ccmail::t!("prompt-deadline", date = *date, words = words),
            WIDTH,
        );
        out.push(if *date <= v.today {
            style.yellow(&line)
        } else {
            line
        });
    }
    for item in &v.news {
        for line in wrap(item, WIDTH, "  ") {
            out.push(line);
        }
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// The board from the player's side, the last move marked: 9 lines of 26 columns.
fn board_lines(g: &Game, style: Style) -> Vec<String> {
    let pos = g.position();
    let last = g.plies.last().and_then(|&m| {
        let before = ccmail_core::message::play_all(&g.plies[..g.plies.len() - 1]);
        board::squares(&before, m)
    });
    if !style.colour {
        return board::render(&pos, g.me, Glyphs::Unicode, last)
            .lines()
            .map(str::to_owned)
            .collect();
    }
    coloured_board(&pos, g.me, last)
}

/// The board in colour: light and dark squares, the last move's two squares highlighted.
/// Same layout as `board::render` (rank labels, three columns a square, file labels).
fn coloured_board(pos: &Chess, side: Color, last: Option<(Square, Square)>) -> Vec<String> {
    let ranks: Vec<Rank> = match side {
        Color::White => Rank::ALL.iter().rev().copied().collect(),
        Color::Black => Rank::ALL.to_vec(),
    };
    let files: Vec<File> = match side {
        Color::White => File::ALL.to_vec(),
        Color::Black => File::ALL.iter().rev().copied().collect(),
    };
    let mut out = Vec::with_capacity(9);
    for &rank in &ranks {
        let mut line = format!("{} ", rank.char());
        for &file in &files {
            let sq = Square::from_coords(file, rank);
            let light = (file.to_u32() + rank.to_u32()) % 2 == 1;
            let marked = last.is_some_and(|(a, b)| a == sq || b == sq);
            let bg = match (marked, light) {
                (true, true) => "48;5;186",
                (true, false) => "48;5;143",
                (false, true) => "48;5;223",
                (false, false) => "48;5;137",
            };
            let (fg, glyph) = match pos.board().piece_at(sq) {
                Some(p) => (
                    if p.color.is_white() {
                        "1;38;5;231"
                    } else {
                        "38;5;16"
                    },
                    solid(p.role.char()),
                ),
                None => ("39", ' '),
            };
            // not the interface's: terminal colour codes
            line.push_str(&format!("\x1b[{bg};{fg}m {glyph} \x1b[0m"));
        }
        out.push(line);
    }
    let mut labels = String::from("  ");
    for &file in &files {
        labels.push_str(&format!(" {} ", file.char()));
    }
    out.push(labels.trim_end().to_owned());
    out
}

/// The filled glyph of a piece: on coloured squares the foreground colour tells the sides.
fn solid(role: char) -> char {
    let i = "kqrbnp".find(role).unwrap_or(5);
    "♚♛♜♝♞♟".chars().nth(i).unwrap_or('?')
}

/// Beside the board: a heading and the last plies with their dates and days.
fn panel_lines(g: &Game, report: &ClockReport) -> Vec<String> {
    let mut out = vec![format!(
        "{:<20}{:<12}{:<12}{}",
        ccmail::t!("prompt-column-move"),
        ccmail::t!("prompt-column-received"),
        ccmail::t!("prompt-column-sent"),
        ccmail::t!("prompt-column-days")
    )];
    if g.plies.is_empty() {
        out.push(ccmail::t!(
            "prompt-no-moves-start",
            start = g.row.start_date
        ));
        return out;
    }
    let first = g.plies.len().saturating_sub(LAST_PLIES);
    let mut pos = ccmail_core::message::play_all(&g.plies[..first]);
    for (i, (&m, row)) in g.plies.iter().zip(&g.moves).enumerate().skip(first) {
        let text = format!("{:>6} {}", move_number(&pos), written(g, &pos, m));
        out.push(format!(
            "{:<20}{:<12}{:<12}{:>4}",
            fit(&text, 19),
            ccmail::i18n::date(row.received),
            ccmail::i18n::date(row.sent),
            report.ply_days.get(i).copied().unwrap_or(0)
        ));
        // legal: the game's plies, replayed by uci_move (checked) from the start
        pos.play_unchecked(m);
    }
    out
}

/// A move as the game writes it: SAN, Russian SAN, or numeric with the SAN first.
pub fn written(g: &Game, pos: &Chess, m: Move) -> String {
    match g.notation {
        Notation::Numeric => format!(
            "{} {}",
            notation::san(pos, m),
            notation::write_move(pos, m, Notation::Numeric)
        ),
        Notation::SanRu => notation::write_move(pos, m, Notation::SanRu),
        _ => notation::write_move(pos, m, Notation::San),
    }
}

/// A move in running text: as [`written`], the numeric form in brackets (`Nf3 (7163)`).
pub fn written_inline(g: &Game, pos: &Chess, m: Move) -> String {
    match g.notation {
        Notation::Numeric => format!(
            "{} ({})",
            notation::san(pos, m),
            notation::write_move(pos, m, Notation::Numeric)
        ),
        _ => written(g, pos, m),
    }
}

/// `White Ivanov: 14 of 60 days by move 20 (2 penalty): 46 left, 3 running`.
fn clock_line(g: &Game, report: &ClockReport, c: Color) -> String {
    let clock: &SideClock = report.clock.get(c);
    let who = if c == g.me {
        ccmail::t!("prompt-clock-you", side = side_name(c))
    } else {
        let name = if c.is_white() {
            &g.row.white
        } else {
            &g.row.black
        };
        format!("{} {}", side_name(c), name)
    };
    let mut s = format!(
        "{}: {}",
        fit(&who, 24),
        ccmail::t!(
            "prompt-clock-used",
            total = clock.total,
            limit = clock.limit,
            control = clock.next_control
        )
    );
    if clock.penalty > 0 {
        s.push_str(&format!(
            " {}",
            ccmail::t!("prompt-clock-penalty", penalty = clock.penalty)
        ));
    }
    s.push_str(&format!(
        ": {}",
        ccmail::t!("prompt-clock-left", left = clock.left)
    ));
    if g.to_move() == c && report.running_days > 0 {
        s.push_str(&format!(
            ", {}",
            ccmail::t!("prompt-clock-running", days = report.running_days)
        ));
    }
    if clock.on_break {
        s.push_str(&format!(", {}", ccmail::t!("prompt-clock-on-break")));
    }
    s
}

/// `12.` when White is to move, `12...` when Black is.
pub fn move_number(pos: &Chess) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots}", pos.fullmoves())
}

pub fn side_name(c: Color) -> String {
    if c.is_white() {
        ccmail::t!("white")
    } else {
        ccmail::t!("black")
    }
}

/// Display width: characters outside ANSI escape sequences. (The board's pieces, `·` and
/// the dashes are one column each.)
pub fn width(s: &str) -> usize {
    let mut n = 0;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

/// `s` as [`shown`] makes it, cut to `max` columns, with `…` when cut. Plain text only:
/// what could drive the terminal (a partner's text may carry escape sequences) is shown in a
/// visible form, so nothing from a message can.
pub fn fit(s: &str, max: usize) -> String {
    let s = shown(s);
    if s.chars().count() <= max {
        return s.into_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Words wrapped at `max` columns, each as [`shown`] makes it; continuation lines start with
/// `indent`. A word longer than a line is cut.
pub fn wrap(text: &str, max: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let word = shown(word);
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > max {
            lines.push(std::mem::take(&mut line));
        }
        if line.is_empty() {
            if !lines.is_empty() {
                line.push_str(indent);
            }
        } else {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.into_iter().map(|l| fit(&l, max)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccmail_store::Attached;
    use ccmail_store::{GameRow, MoveRow};

    fn game(moves: &str, me: &str, event: &str) -> Game {
        let mut pos = Chess::default();
        let mut rows = Vec::new();
        let day = |n: u64| NaiveDate::from_ymd_opt(2026, 3, 1).unwrap() + chrono::Days::new(n);
        for (i, text) in moves.split_whitespace().enumerate() {
            let m = notation::read_move(&pos, text).unwrap();
            rows.push(MoveRow {
                game_id: "g1".into(),
                ply: i as i64 + 1,
                uci: m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
                san: notation::san(&pos, m),
                received: day(i as u64 * 2),
                sent: day(i as u64 * 2 + 1),
                message: None,
            });
            pos.play_unchecked(m);
        }
        let row = GameRow {
            event: event.into(),
            white: "Иванов-Задунайский".into(),
            black: "Петров".into(),
            my_color: me.into(),
            opponent_email: "a.very.long.address.of.the.opponent@mail.example.org".into(),
            arbiter_email: "arbiter@example.org".into(),
            ..GameRow::new("g1", day(0), "2026-03-01T12:00:00+03:00")
        };
        Game::from_parts(row, rows, Attached::default()).unwrap()
    }

    /// 36 plies of a Sicilian.
    const LONG: &str = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O \
                        O-O-O Nbd7 g4 b5 g5 b4 Ne2 Ne8 f4 a5 f5 a4 Nbd4 exd4 Nxd4 b3 Kb1 bxc2";

    #[test]
    fn the_screen_fits_80_by_24_with_room_for_the_prompt() {
        let g = game(
            LONG,
            "white",
            "Кубок клуба по переписке имени очень длинного названия 2026",
        );
        let today = NaiveDate::from_ymd_opt(2026, 5, 1).unwrap();
        let report = g.report(today).unwrap();
        let news = vec![
            "They offer a draw: `accept` accepts it; a move declines it.".to_owned(),
            "Your reply will say: the move was stated as sent 2026-03-09 but was sent \
             2026-03-10 (51.2.3)"
                .to_owned(),
            "They note: Спасибо за партию, и пусть победит сильнейший!".to_owned(),
        ];
        let v = View {
            game: &g,
            report: &report,
            today,
            index: 3,
            total: 12,
            deadlines: vec![
                (
                    today,
                    "5 days or fewer left: mail goes Cc the arbiter (51.4.10)".to_owned(),
                ),
                (today, "40 days without a move (51.5.3)".to_owned()),
                (
                    today,
                    "last day to claim a time forfeit (51.6.1)".to_owned(),
                ),
                (today, "not shown: three at most".to_owned()),
            ],
            news,
        };
        for style in [Style { colour: false }, Style { colour: true }] {
            let text = render(&v, style);
            for line in text.lines() {
                assert!(width(line) <= WIDTH, "{} columns: {line}", width(line));
            }
            // The prompt and a line of answer below it make 24.
            assert!(
                text.lines().count() <= 22,
                "{} rows:\n{text}",
                text.lines().count()
            );
        }
        let plain = render(&v, Style { colour: false });
        assert!(!plain.contains('\x1b'));
        assert!(
            plain.contains(" [·] ") && plain.contains("[♟]"),
            "the last move is marked:\n{plain}"
        );
        assert!(
            plain.contains("18... bxc2 2332    2026-05-10  2026-05-11"),
            "{plain}"
        );
        assert!(!plain.contains(" 14. "), "8 plies only:\n{plain}");
        assert!(!plain.contains("not shown"), "{plain}");
    }

    #[test]
    fn the_board_is_from_the_players_side_beside_the_last_moves() {
        let g = game("e4", "black", "Club Cup 2026");
        let today = NaiveDate::from_ymd_opt(2026, 3, 4).unwrap();
        let report = g.report(today).unwrap();
        let v = View {
            game: &g,
            report: &report,
            today,
            index: 1,
            total: 1,
            deadlines: Vec::new(),
            news: Vec::new(),
        };
        let text = render(&v, Style { colour: false });
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[3],
            "1  ♖  ♘  ♗  ♔  ♕  ♗  ♘  ♖    Move                received    sent        days"
        );
        assert_eq!(
            lines[4],
            "2  ♙  ♙  ♙ [·] ♙  ♙  ♙  ♙        1. e4 5254      2026-03-01  2026-03-02     1"
        );
        assert_eq!(
            lines[1],
            "Your move: 1... as Black, against a.very.long.address.of.the.opponent@mail.exam…"
        );
    }

    #[test]
    fn wrap_and_fit() {
        assert_eq!(wrap("a bb ccc", 5, "  "), vec!["a bb", "  ccc"]);
        assert_eq!(fit("abcdef", 4), "abc…");
        assert_eq!(
            wrap("a\x1b[2Jb \u{202e}c\u{9b}", 80, ""),
            vec!["a^[[2Jb <U+202E>c<U+009B>"],
            "no escapes get through"
        );
        assert_eq!(fit("a\x1b]0;t\x07", 80), "a^[]0;t^G");
        assert_eq!(fit("\x1b[2Jabc", 5), "^[[2…", "shown, then cut");
        assert_eq!(width("\x1b[1mab\x1b[0m"), 2);
    }
}
