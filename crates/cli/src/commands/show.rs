//! `ccmail show GAME`: the board from your side, the moves with dates and days, both clocks,
//! the deadlines in order, and the problems in words.

use std::sync::OnceLock;

use anyhow::Context;
use ccmail::app::conditional::numbered_line;
use ccmail::app::game::{Game, color_name};
use ccmail::app::numbered;
use ccmail::app::pgn::ending_words;
use ccmail::i18n;
use ccmail::term::shown;
use ccmail_core::board::{self, Glyphs};
use ccmail_core::clock::{self, ClockReport, Warning};
use ccmail_core::message::MessageKind;
use ccmail_core::notation::{self, Notation};
use ccmail_store as store;
use chrono::NaiveDate;
use shakmaty::Color;
use shakmaty::Position;

use super::Ctx;

mod problems;

use problems::{Problem, problem_list};
pub use problems::{problems, problems_of, trouble_mail};

pub async fn run(ctx: &Ctx, id: &str) -> anyhow::Result<()> {
    let game = Game::load(&mut *ctx.store.conn().await?, id)
        .await?
        .with_context(|| ccmail::t!("show-no-game", id = id))?;
    if ctx.json {
        let problems = problems_of(ctx, &game).await?;
        let value = game.to_json(ctx.clock.today(), problems)?;
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        let report = game.report(ctx.clock.today())?;
        let mut conn = ctx.store.conn().await?;
        let trouble = trouble_mail(&mut conn).await?;
        let problems = problem_list(&game, &report, trouble.get(game.id()));
        let seen = Seen {
            ending: ending_words(&mut conn, &game, &report).await?,
            repeats: repeats_sent(&mut conn, &game, false).await?,
            repeats_gone: repeats_sent(&mut conn, &game, true).await?,
            trusted: store::trusted_senders(&mut conn, game.id()).await?,
        };
        drop(conn);
        print!("{}", text(&game, &report, &problems, &seen));
        print!("{}", friendly(ctx, &game).await?);
        print!("{}", letters(ctx, &game).await?);
        let mut conn = ctx.store.conn().await?;
        print!(
            "{}",
            super::game_set::changes_text(&mut conn, game.id()).await?
        );
    }
    Ok(())
}

/// In a friendly game, the chores that would have needed an arbiter, in words: each repeat
/// went to the partner only (51.5.1), the finished game went to no one (51.9.1).
async fn friendly(ctx: &Ctx, game: &Game) -> anyhow::Result<String> {
    let mut s = String::new();
    if game.arbiter().is_some() {
        return Ok(s);
    }
    let mut conn = ctx.store.conn().await?;
    for m in store::game_messages(&mut conn, game.id()).await? {
        if m.direction == store::Direction::Out && m.kind == store::StoredKind::REPEAT {
            let day = day_of(m.date_header.as_deref());
            s.push_str(&if m.status == store::MessageStatus::Sent {
                ccmail::t!("show-friendly-repeat", date = day)
            } else {
                ccmail::t!("show-friendly-repeat-queued", date = day)
            });
            s.push('\n');
        }
    }
    if game.row.status == store::GameStatus::Finished {
        s.push_str(&ccmail::t!("show-friendly-finished"));
        s.push('\n');
    }
    if !s.is_empty() {
        s.insert(0, '\n');
    }
    Ok(s)
}

/// How many of the partner's latest letters that were not moves `show` lists.
const LETTERS: usize = 5;

/// The partner's latest letters that were not moves (notes, break notices, address changes,
/// claims …), with what ccmail made of each: shown, since nothing else shows them.
async fn letters(ctx: &Ctx, game: &Game) -> anyhow::Result<String> {
    let mut conn = ctx.store.conn().await?;
    let info: Vec<_> = store::game_messages(&mut conn, game.id())
        .await?
        .into_iter()
        .filter(|m| m.direction == store::Direction::In && m.status == store::MessageStatus::Info)
        .collect();
    let mut s = String::new();
    if info.is_empty() {
        return Ok(s);
    }
    s.push_str(&format!("\n{}\n", ccmail::t!("show-letters")));
    for m in &info[info.len().saturating_sub(LETTERS)..] {
        let day = day_of(m.received_at.as_deref());
        let what = shown(m.reason.as_deref().unwrap_or(""));
        s.push_str(&format!(
            "  {day}  {} ({}): {what}\n",
            kind_words(&m.kind),
            m.id
        ));
    }
    Ok(s)
}

/// A stored time (RFC 3339, in the player's offset as every stamp is written) to the minute:
/// `2026-03-05 14:07`; the stored text when it is not RFC 3339.
pub fn minute_of(stamp: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(stamp).map_or_else(
        |_| stamp.to_owned(),
        // not the interface's: a date format, the same in both languages
        |t| t.format("%Y-%m-%d %H:%M").to_string(),
    )
}

/// The day of a stored time (`2026-03-05T…`) as the interface writes dates; the stored text
/// when it is not a date, `—` when there is none.
fn day_of(stamp: Option<&str>) -> String {
    let day = stamp.and_then(|d| d.get(..10));
    match day.and_then(|d| d.parse::<NaiveDate>().ok()) {
        Some(date) => i18n::date(date),
        None => day.unwrap_or("—").to_owned(),
    }
}

/// What a letter was, in words (`break notice`); a word ccmail does not know as it is stored.
pub fn kind_words(kind: &store::StoredKind) -> String {
    let store::StoredKind::Is(kind) = kind else {
        return kind.as_str().replace('_', " ");
    };
    match kind {
        MessageKind::Move => ccmail::t!("show-kind-move"),
        MessageKind::Repeat => ccmail::t!("show-kind-repeat"),
        MessageKind::DrawAccept => ccmail::t!("show-kind-draw-accept"),
        MessageKind::Resignation => ccmail::t!("show-kind-resignation"),
        MessageKind::BreakNotice => ccmail::t!("show-kind-break-notice"),
        MessageKind::BreakEnd => ccmail::t!("show-kind-break-end"),
        MessageKind::AddressChange => ccmail::t!("show-kind-address-change"),
        MessageKind::CorrectionRequest => ccmail::t!("show-kind-correction-request"),
        MessageKind::Claim => ccmail::t!("show-kind-claim"),
        MessageKind::Adjudication => ccmail::t!("show-kind-adjudication"),
        MessageKind::Note => ccmail::t!("show-kind-note"),
        MessageKind::Other => ccmail::t!("show-kind-other"),
    }
}

/// The partner's open variation and our plan, a line each, numbered in SAN.
fn conditional_lines(game: &Game) -> String {
    let mut s = String::new();
    if let Some((_, moves)) = game.partner_offer() {
        let line = numbered_line(&game.position(), &moves, notation::san);
        s.push_str(&ccmail::t!("show-offer", line = line, id = game.id()));
        s.push('\n');
    }
    let (plan, start) = game.plan();
    if !plan.is_empty() {
        let mut pos = start;
        let mut pairs = Vec::new();
        for pair in plan.chunks(2) {
            let theirs = numbered(&pos, pair[0]);
            // legal: the plan, replayed by uci_move (checked) from its start
            pos.play_unchecked(pair[0]);
            let ours = pair.get(1).map(|&m| {
                let text = numbered(&pos, m);
                // legal: the plan, replayed by uci_move (checked) from its start
                pos.play_unchecked(m);
                text
            });
            let ours = ours.unwrap_or_default();
            pairs.push(ccmail::t!("show-plan-pair", theirs = theirs, ours = ours));
        }
        s.push_str(&ccmail::t!("show-plan", plan = pairs.join("; ")));
        s.push('\n');
    }
    s
}

/// What `show` says beyond the game's rows: how a finished game ended, the repeats we sent.
pub struct Seen {
    /// How the game ended, in words (`Black resigns`); `None` while it goes on.
    pub ending: Option<String>,
    /// The dates of our repeats (51.5.1), queued or sent, to tell a met repeat from one due.
    pub repeats: Vec<NaiveDate>,
    /// Those of them that are sent: a repeat still in the outbox is not.
    pub repeats_gone: Vec<NaiveDate>,
    /// The addresses trusted without verification in this game (`inbox accept --trust`).
    pub trusted: Vec<String>,
}

/// The dates of our repeats (51.5.1) in `game`: every one queued, or (`gone_only`) those
/// actually sent.
pub async fn repeats_sent(
    conn: &mut store::SqliteConnection,
    game: &Game,
    gone_only: bool,
) -> anyhow::Result<Vec<NaiveDate>> {
    Ok(store::game_messages(conn, game.id())
        .await?
        .into_iter()
        .filter(|m| m.direction == store::Direction::Out && m.kind == store::StoredKind::REPEAT)
        .filter(|m| !gone_only || m.status == store::MessageStatus::Sent)
        .filter_map(|m| m.date_header.as_deref()?.get(..10)?.parse().ok())
        .collect())
}

/// A draw offer still open, in words; `None` when there is none.
pub fn draw_words(game: &Game) -> Option<String> {
    let by = game.row.draw_offered_by.as_deref()?;
    Some(if by == color_name(game.me) {
        ccmail::t!("show-draw-mine")
    } else {
        ccmail::t!("show-draw-theirs", id = game.id())
    })
}

/// `White` or `Black`, in the interface language.
fn side_name(c: Color) -> String {
    if c.is_white() {
        ccmail::t!("white")
    } else {
        ccmail::t!("black")
    }
}

/// A clock warning in words, from our side of the board.
pub fn warning_words(game: &Game, w: Warning) -> String {
    let days = |n: u32| ccmail::t!("days", count = n);
    match w {
        Warning::Overstepped { side, at } if side == game.me => {
            ccmail::t!("show-warning-overstepped-mine", move = at)
        }
        Warning::Overstepped { side, at } => {
            let claim = if game.arbiter().is_some() {
                ccmail::t!("show-claim-win", id = game.id())
            } else {
                ccmail::t!("show-claim-friendly")
            };
            ccmail::t!(
                "show-warning-overstepped",
                side = side_name(side),
                move = at,
                claim = claim
            )
        }
        Warning::WillOverstep { side, at, over } if side == game.me => {
            ccmail::t!("show-warning-will-overstep-mine", days = days(over), move = at)
        }
        Warning::WillOverstep { side, at, over } => ccmail::t!(
            "show-warning-will-overstep",
            side = side_name(side),
            days = days(over),
            move = at
        ),
        Warning::LastDay { side, at } if side == game.me => {
            ccmail::t!("show-warning-last-day-mine", move = at)
        }
        Warning::LastDay { side, at } => {
            ccmail::t!("show-warning-last-day", side = side_name(side), move = at)
        }
    }
}

/// The game as `show` prints it.
fn text(game: &Game, report: &ClockReport, problems: &[Problem<'_>], seen: &Seen) -> String {
    let mut s = String::new();
    write_heading(&mut s, game, seen);
    write_state(&mut s, game, report, seen);
    s.push('\n');
    write_board(&mut s, game);
    s.push('\n');
    write_moves(&mut s, game, report);
    s.push('\n');
    write_clocks(&mut s, report);
    write_deadlines(&mut s, game, report, seen);
    write_problems(&mut s, problems);
    s
}

/// Writes the game's heading: the event, the players, the start, the control, the arbiter, and
/// the addresses trusted without verification.
fn write_heading(s: &mut String, game: &Game, seen: &Seen) {
    let r = &game.row;
    s.push_str(&ccmail::t!(
        "show-heading",
        id = &r.id,
        event = &*shown(&r.event),
        white = &*shown(&r.white),
        black = &*shown(&r.black),
        start = r.start_date,
        rules = game.profile.to_string(),
        moves = game.control.moves(),
        days = game.control.days(),
    ));
    s.push('\n');
    let opponent = shown(&r.opponent_email);
    s.push_str(&match game.arbiter() {
        Some(a) => ccmail::t!(
            "show-you-play-arbiter",
            color = &r.my_color,
            opponent = &*opponent,
            arbiter = &*shown(a),
        ),
        None => ccmail::t!(
            "show-you-play-friendly",
            color = &r.my_color,
            opponent = &*opponent,
        ),
    });
    s.push('\n');
    if !seen.trusted.is_empty() {
        let addresses = seen.trusted.join(", ");
        s.push_str(&ccmail::t!("show-trusted", addresses = &*shown(&addresses)));
        s.push('\n');
    }
}

/// Writes where the game stands: finished, suspended or whose move, the draw offer, the
/// variations, and the clock's warnings.
fn write_state(s: &mut String, game: &Game, report: &ClockReport, seen: &Seen) {
    let r = &game.row;
    let status = match (&r.result, r.status, &seen.ending) {
        (Some(result), _, Some(why)) => ccmail::t!("show-finished-why", result = result, why = why),
        (Some(result), _, None) => ccmail::t!("show-finished", result = result),
        (None, store::GameStatus::Suspended, _) => ccmail::t!("show-suspended"),
        _ if game.my_turn() => ccmail::t!("show-your-move"),
        _ => ccmail::t!("show-waiting"),
    };
    s.push_str(&status);
    s.push('\n');
    if let Some(draw) = draw_words(game).filter(|_| game.is_active()) {
        s.push_str(&draw);
        s.push('\n');
    }
    s.push_str(&conditional_lines(game));
    let warnings = if game.row.status == store::GameStatus::Finished {
        Vec::new()
    } else {
        clock::warnings(&report.clock, report.to_move)
    };
    for w in &warnings {
        s.push_str(&ccmail::t!("show-warning", text = warning_words(game, *w)));
        s.push('\n');
    }
}

/// Writes the board, from our side, the last move marked.
fn write_board(s: &mut String, game: &Game) {
    let glyphs = Glyphs::Unicode;
    let pos = game.position();
    let last = game.plies.last().and_then(|&m| {
        let before = ccmail_core::message::play_all(&game.plies[..game.plies.len() - 1]);
        board::squares(&before, m)
    });
    s.push_str(&board::render(&pos, game.me, glyphs, last));
}

/// Writes every move with its dates and days, and the days used before ccmail kept the game.
fn write_moves(s: &mut String, game: &Game, report: &ClockReport) {
    let r = &game.row;
    let mut p = shakmaty::Chess::default();
    let carried_through = usize::try_from(r.carried_through).unwrap_or(0);
    for (i, (&m, row)) in game.plies.iter().zip(&game.moves).enumerate() {
        let number = if p.turn().is_white() {
            format!("{}.", p.fullmoves())
        } else {
            format!("{}...", p.fullmoves())
        };
        let dates = if i < carried_through {
            ccmail::t!("show-before-ccmail")
        } else {
            ccmail::t!(
                "show-move-dates",
                received = row.received,
                sent = row.sent,
                count = report.ply_days.get(i).copied().unwrap_or(0),
            )
        };
        s.push_str(&format!(
            "{number:>5} {:<8} {:<6} {dates}\n",
            notation::san(&p, m),
            notation::write_move(&p, m, Notation::Numeric),
        ));
        // legal: the game's plies, replayed by uci_move (checked) from the start
        p.play_unchecked(m);
    }
    if carried_through > 0 {
        s.push_str(&ccmail::t!(
            "show-days-used",
            white = r.carried_white,
            black = r.carried_black
        ));
        s.push('\n');
    }
}

/// Writes both clocks, and the days running on the move awaited.
fn write_clocks(s: &mut String, report: &ClockReport) {
    for (side, c) in [
        (Color::White, &report.clock.white),
        (Color::Black, &report.clock.black),
    ] {
        let (side, days) = (side_name(side), ccmail::t!("days", count = c.days));
        s.push_str(&ccmail::t!(
            "show-clock",
            side = side,
            days = days,
            penalty = c.penalty,
            total = c.total,
            limit = c.limit,
            control = c.next_control,
            left = c.left,
            on_break = if c.on_break { "yes" } else { "no" },
        ));
        s.push('\n');
    }
    if report.running_days > 0 {
        s.push_str(&ccmail::t!("show-running", count = report.running_days));
        s.push('\n');
    }
}

/// Writes the deadlines, those met by a repeat marked so: sent, or queued and not sent yet.
fn write_deadlines(s: &mut String, game: &Game, report: &ClockReport, seen: &Seen) {
    let open = clock::open_deadlines(&report.deadlines, &seen.repeats);
    let not_gone = clock::open_deadlines(&report.deadlines, &seen.repeats_gone);
    if !report.deadlines.is_empty() {
        s.push_str(&format!("\n{}\n", ccmail::t!("show-deadlines")));
        for d in &report.deadlines {
            let done = if open.contains(d) {
                String::new()
            } else if not_gone.contains(d) {
                format!(" {}", ccmail::t!("show-deadline-queued"))
            } else {
                format!(" {}", ccmail::t!("show-deadline-sent"))
            };
            let kind = serde_json::to_value(d.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let words = deadline_words(&kind, game.arbiter().is_some());
            s.push_str(&format!("  {}  {words}{done}\n", i18n::date(d.date)));
        }
    }
}

/// Writes the game's problems.
fn write_problems(s: &mut String, problems: &[Problem<'_>]) {
    if !problems.is_empty() {
        s.push_str(&format!("\n{}\n", ccmail::t!("show-problems")));
        for p in problems {
            s.push_str(&format!("  {}\n", shown(&p.words())));
        }
    }
}

/// A deadline in words, in the interface language; in a friendly game (`has_arbiter` false)
/// the ones that would copy or ask an arbiter say there is none.
pub fn deadline_words(kind: &str, has_arbiter: bool) -> &'static str {
    let w = DeadlineWords::get();
    match (kind, has_arbiter) {
        ("repeat", true) => &w.repeat,
        ("repeat", false) => &w.repeat_friendly,
        ("arbiter_cc", true) => &w.arbiter_cc,
        ("arbiter_cc", false) => &w.arbiter_cc_friendly,
        ("silence_40", true) => &w.silence,
        ("silence_40", false) => &w.silence_friendly,
        ("claim", true) => &w.claim,
        ("claim", false) => &w.claim_friendly,
        ("correction", _) => &w.correction,
        _ => &w.other,
    }
}

/// The words of each deadline, looked up once a process (the interface language is chosen
/// once): `games` says them for each of a thousand games.
struct DeadlineWords {
    repeat: String,
    repeat_friendly: String,
    arbiter_cc: String,
    arbiter_cc_friendly: String,
    silence: String,
    silence_friendly: String,
    claim: String,
    claim_friendly: String,
    correction: String,
    other: String,
}

impl DeadlineWords {
    fn get() -> &'static DeadlineWords {
        static WORDS: OnceLock<DeadlineWords> = OnceLock::new();
        WORDS.get_or_init(|| DeadlineWords {
            repeat: ccmail::t!("show-deadline-repeat"),
            repeat_friendly: ccmail::t!("show-deadline-repeat-friendly"),
            arbiter_cc: ccmail::t!("show-deadline-arbiter-cc"),
            arbiter_cc_friendly: ccmail::t!("show-deadline-arbiter-cc-friendly"),
            silence: ccmail::t!("show-deadline-silence"),
            silence_friendly: ccmail::t!("show-deadline-silence-friendly"),
            claim: ccmail::t!("show-deadline-claim"),
            claim_friendly: ccmail::t!("show-deadline-claim-friendly"),
            correction: ccmail::t!("show-deadline-correction"),
            other: ccmail::t!("show-deadline"),
        })
    }
}
