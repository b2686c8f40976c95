//! `ccmail show GAME`: the board from your side, the moves with dates and days, both clocks,
//! the deadlines in order, and the problems in words.

use std::collections::HashMap;

use anyhow::Context;
use ccmail::app::conditional::numbered_line;
use ccmail::app::game::{Game, color_name};
use ccmail::app::numbered;
use ccmail::app::pgn::ending_words;
use ccmail::term::shown;
use ccmail_core::board::{self, Glyphs};
use ccmail_core::clock::{self, ClockReport, Warning};
use ccmail_core::message::Language;
use ccmail_core::notation::{self, Notation};
use ccmail_core::wording;
use ccmail_store as store;
use chrono::NaiveDate;
use serde_json::{Value, json};
use shakmaty::Color;
use shakmaty::Position;

use super::Ctx;

pub async fn run(ctx: &Ctx, id: &str) -> anyhow::Result<()> {
    let game = Game::load(&mut *ctx.store.conn().await?, id)
        .await?
        .with_context(|| format!("there is no game {id} (see `ccmail games --all`)"))?;
    let problems = problems_of(ctx, &game).await?;
    if ctx.json {
        let value = game.to_json(ctx.clock.today(), problems)?;
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        let report = game.report(ctx.clock.today())?;
        let mut conn = ctx.store.conn().await?;
        let seen = Seen {
            ending: ending_words(&mut conn, &game, &report).await?,
            repeats: repeats_sent(&mut conn, &game).await?,
            trusted: store::trusted_senders(&mut conn, game.id()).await?,
        };
        drop(conn);
        print!("{}", text(&game, &report, &problems, &seen));
        print!("{}", friendly(ctx, &game).await?);
        print!("{}", letters(ctx, &game).await?);
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
            let day = m.date_header.as_deref().and_then(|d| d.get(..10));
            s.push_str(&format!(
                "Friendly game: no arbiter; the repeat of {} went to the partner only (51.5.1)\n",
                day.unwrap_or("—")
            ));
        }
    }
    if game.row.status == store::GameStatus::Finished {
        s.push_str("Friendly game: no arbiter; the finished game went to no arbiter (51.9.1)\n");
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
    s.push_str("\nLetters that were not moves:\n");
    for m in &info[info.len().saturating_sub(LETTERS)..] {
        let day = m
            .received_at
            .as_deref()
            .and_then(|d| d.get(..10))
            .unwrap_or("—");
        let what = shown(m.reason.as_deref().unwrap_or(""));
        s.push_str(&format!(
            "  {day}  {} ({}): {what}\n",
            m.kind.as_str().replace('_', " "),
            m.id
        ));
    }
    Ok(s)
}

/// A game's mail that is a problem: its held messages and the mail that could not be sent.
#[derive(Debug, Default)]
pub struct TroubleMail {
    held: Vec<store::MessageRow>,
    failed: Vec<store::OutboxRow>,
}

/// Every game's [`TroubleMail`], from two queries for all games.
pub async fn trouble_mail(
    conn: &mut store::SqliteConnection,
) -> anyhow::Result<HashMap<String, TroubleMail>> {
    let mut out: HashMap<String, TroubleMail> = HashMap::new();
    for m in store::held(conn).await? {
        if let Some(game) = m.game_id.clone() {
            out.entry(game).or_default().held.push(m);
        }
    }
    for o in store::unsent(conn).await? {
        if o.status == store::OutboxStatus::Failed
            && let Some(game) = o.game_id.clone()
        {
            out.entry(game).or_default().failed.push(o);
        }
    }
    Ok(out)
}

/// What is wrong in a game, in words: held messages, mail that could not be sent, a
/// correction owed, a control overstepped.
pub async fn problems_of(ctx: &Ctx, game: &Game) -> anyhow::Result<Vec<Value>> {
    let trouble = trouble_mail(&mut *ctx.store.conn().await?).await?;
    let report = game.report(ctx.clock.today())?;
    Ok(problems(game, &report, trouble.get(game.id())))
}

/// [`problems_of`] from what is loaded already: the game's clock and its trouble mail.
pub fn problems(game: &Game, report: &ClockReport, trouble: Option<&TroubleMail>) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(t) = trouble {
        for m in &t.held {
            let reason = m.reason.as_deref().unwrap_or_default();
            let detail = format!("message {} is held: {reason}", m.id);
            out.push(json!({"code": "held_message", "detail": detail}));
        }
        for o in &t.failed {
            let error = o.last_error.as_deref().unwrap_or_default();
            let detail = format!("message {} could not be sent: {error}", o.message);
            out.push(json!({"code": "send_failed", "detail": detail}));
        }
    }
    if let Some(due) = game.row.correction_due {
        let detail =
            format!("a correction request is owed for the message received {due} (51.3.4)");
        out.push(json!({"code": "correction_due", "detail": detail}));
    }
    // An overstep is a problem while it can still be claimed: once the other side has
    // answered the control move, or the game is over, it is settled (51.6.1).
    for (side, c) in [
        ("White", &report.clock.white),
        ("Black", &report.clock.black),
    ] {
        if let Some(at) = c
            .claimable_at
            .filter(|_| game.row.status != store::GameStatus::Finished)
        {
            let detail = format!("{side} overstepped the time control at move {at} (51.6)");
            out.push(json!({"code": "control_overstepped", "detail": detail}));
        }
    }
    out
}

/// The partner's open variation and our plan, a line each, numbered in SAN.
fn conditional_lines(game: &Game) -> String {
    let mut s = String::new();
    if let Some((_, moves)) = game.partner_offer() {
        s.push_str(&format!(
            "They offer the variation {} (51.3.7): `ccmail move {} --accept-variation[=N] \
             MOVE` accepts it, all of it or its first N half-moves, then replies MOVE.\n",
            numbered_line(&game.position(), &moves, notation::san),
            game.id()
        ));
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
            pairs.push(format!("if {theirs} then {}", ours.unwrap_or_default()));
        }
        s.push_str(&format!("Your plan (not sent): {}.\n", pairs.join("; ")));
    }
    s
}

/// What `show` says beyond the game's rows: how a finished game ended, the repeats we sent.
pub struct Seen {
    /// How the game ended, in words (`Black resigns`); `None` while it goes on.
    pub ending: Option<String>,
    /// The send dates of our repeats (51.5.1), to tell a met repeat from one due.
    pub repeats: Vec<NaiveDate>,
    /// The addresses trusted without verification in this game (`inbox accept --trust`).
    pub trusted: Vec<String>,
}

/// The send dates of our repeats (51.5.1) in `game`.
pub async fn repeats_sent(
    conn: &mut store::SqliteConnection,
    game: &Game,
) -> anyhow::Result<Vec<NaiveDate>> {
    Ok(store::game_messages(conn, game.id())
        .await?
        .into_iter()
        .filter(|m| m.direction == store::Direction::Out && m.kind == store::StoredKind::REPEAT)
        .filter_map(|m| m.date_header.as_deref()?.get(..10)?.parse().ok())
        .collect())
}

/// A draw offer still open, in words; `None` when there is none.
pub fn draw_words(game: &Game) -> Option<String> {
    let by = game.row.draw_offered_by.as_deref()?;
    Some(if by == color_name(game.me) {
        "You offered a draw; the partner has not answered it yet".to_owned()
    } else {
        format!(
            "The partner offers a draw: `ccmail move {} --accept-draw` accepts it; a move \
             without it declines it",
            game.id()
        )
    })
}

fn side_name(c: Color) -> &'static str {
    if c.is_white() { "White" } else { "Black" }
}

/// A clock warning in words, from our side of the board.
pub fn warning_words(game: &Game, w: Warning) -> String {
    let days = |n: u32| wording::days(i64::from(n), Language::En);
    let claim = if game.arbiter().is_some() {
        format!(
            "you may claim a win on time (`ccmail claim {}`), no later than your reply: \
             answering without it gives up the right to claim (51.6.1)",
            game.id()
        )
    } else {
        "a friendly game has no arbiter to claim to (51.6.1)".to_owned()
    };
    match w {
        Warning::Overstepped { side, at } if side == game.me => format!(
            "You went over the time limit with your move {at}: the partner may claim a win on \
             time with his reply (51.6.1)"
        ),
        Warning::Overstepped { side, at } => format!(
            "{} went over the time limit with move {at}: {claim}",
            side_name(side)
        ),
        Warning::WillOverstep { side, at, over } if side == game.me => format!(
            "You are {} over the limit of your move {at}: you will overstep the control with \
             it (51.4.3)",
            days(over)
        ),
        Warning::WillOverstep { side, at, over } => format!(
            "{} is {} over the limit of move {at}: the control will be overstepped with it \
             (51.4.3)",
            side_name(side),
            days(over)
        ),
        Warning::LastDay { side, at } if side == game.me => format!(
            "No day left before your move {at}: sent today it keeps within the limit, sent \
             later it does not (51.4.3)"
        ),
        Warning::LastDay { side, at } => format!(
            "{} has no day left before move {at} (51.4.3)",
            side_name(side)
        ),
    }
}

/// The game as `show` prints it.
fn text(game: &Game, report: &ClockReport, problems: &[Value], seen: &Seen) -> String {
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
    s.push_str(&format!(
        "{} — {}: {} – {}   (started {}, {}, {} {}/{})\n",
        r.id,
        shown(&r.event),
        shown(&r.white),
        shown(&r.black),
        r.start_date,
        game.profile,
        "control",
        game.control.moves(),
        game.control.days()
    ));
    let arbiter = match game.arbiter() {
        Some(a) => format!("arbiter {}", shown(a)),
        None => "a friendly game: no arbiter".into(),
    };
    s.push_str(&format!(
        "You play {} against {}; {arbiter}.\n",
        r.my_color,
        shown(&r.opponent_email)
    ));
    if !seen.trusted.is_empty() {
        s.push_str(&format!(
            "Trusted without verification: {}.\n",
            shown(&seen.trusted.join(", "))
        ));
    }
}

/// Writes where the game stands: finished, suspended or whose move, the draw offer, the
/// variations, and the clock's warnings.
fn write_state(s: &mut String, game: &Game, report: &ClockReport, seen: &Seen) {
    let r = &game.row;
    let status = match (&r.result, r.status, &seen.ending) {
        (Some(result), _, Some(why)) => format!("Finished: {result} ({why})"),
        (Some(result), _, None) => format!("Finished: {result}"),
        (None, store::GameStatus::Suspended, _) => {
            "Suspended: a time-forfeit claim awaits the arbiter".into()
        }
        _ if game.my_turn() => "Your move".into(),
        _ => "Waiting for the partner's move".into(),
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
        s.push_str(&format!("Warning: {}\n", warning_words(game, *w)));
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
            "before ccmail kept the game".to_owned()
        } else {
            format!(
                "received {}  sent {}  {} day(s)",
                row.received,
                row.sent,
                report.ply_days.get(i).copied().unwrap_or(0)
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
        s.push_str(&format!(
            "Days used by then: White {}, Black {}\n",
            r.carried_white, r.carried_black
        ));
    }
}

/// Writes both clocks, and the days running on the move awaited.
fn write_clocks(s: &mut String, report: &ClockReport) {
    for (side, c) in [
        ("White", &report.clock.white),
        ("Black", &report.clock.black),
    ] {
        s.push_str(&format!(
            "{side}: {} + {} penalty = {} of {} by move {}; {} left{}\n",
            wording::days(i64::from(c.days), Language::En),
            c.penalty,
            c.total,
            c.limit,
            c.next_control,
            c.left,
            if c.on_break { " (on a break)" } else { "" }
        ));
    }
    if report.running_days > 0 {
        s.push_str(&format!(
            "Running on the move awaited: {} day(s)\n",
            report.running_days
        ));
    }
}

/// Writes the deadlines, those met by a repeat already sent marked so.
fn write_deadlines(s: &mut String, game: &Game, report: &ClockReport, seen: &Seen) {
    let open = clock::open_deadlines(&report.deadlines, &seen.repeats);
    if !report.deadlines.is_empty() {
        s.push_str("\nDeadlines:\n");
        for d in &report.deadlines {
            let done = if open.contains(d) { "" } else { " — sent" };
            let kind = serde_json::to_value(d.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let words = deadline_words(&kind, game.arbiter().is_some());
            s.push_str(&format!("  {}  {words}{done}\n", d.date));
        }
    }
}

/// Writes the game's problems.
fn write_problems(s: &mut String, problems: &[Value]) {
    if !problems.is_empty() {
        s.push_str("\nProblems:\n");
        for p in problems {
            let detail = p["detail"].as_str().unwrap_or_default();
            s.push_str(&format!("  {}\n", shown(detail)));
        }
    }
}

/// A deadline in words; in a friendly game (`has_arbiter` false) the ones that would copy or
/// ask an arbiter say there is none.
pub fn deadline_words(kind: &str, has_arbiter: bool) -> &'static str {
    match (kind, has_arbiter) {
        ("repeat", true) => "repeat our move, Cc the arbiter (51.5.1)",
        ("repeat", false) => "repeat our move to the partner only: no arbiter (51.5.1)",
        ("arbiter_cc", true) => "5 days or fewer left: mail goes Cc the arbiter (51.4.10)",
        ("arbiter_cc", false) => "5 days or fewer left: no arbiter to copy (51.4.10)",
        ("silence_40", true) => "40 days without a move (51.5.3)",
        ("silence_40", false) => "40 days without a move: no arbiter to tell (51.5.3)",
        ("claim", true) => "last day to claim a time forfeit (51.6.1)",
        ("claim", false) => "time control overstepped: no arbiter to claim to (51.6.1)",
        ("correction", _) => "ask for a correction (51.3.4)",
        _ => "deadline",
    }
}
