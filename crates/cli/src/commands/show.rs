//! `ccmail show GAME`: the board from your side, the moves with dates and days, both clocks,
//! the deadlines in order, and the problems in words.

use anyhow::Context;
use ccmail::app::conditional::numbered_line;
use ccmail::app::game::Game;
use ccmail::app::numbered;
use ccmail_core::board::{self, Glyphs};
use ccmail_core::clock::ClockReport;
use ccmail_core::notation::{self, Notation};
use ccmail_store as store;
use serde_json::{Value, json};
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
        print!("{}", text(&game, &report, &problems));
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
        if m.direction == "out" && m.kind == "repeat" {
            let day = m.date_header.as_deref().and_then(|d| d.get(..10));
            s.push_str(&format!(
                "Friendly game: no arbiter; the repeat of {} went to the partner only (51.5.1)\n",
                day.unwrap_or("—")
            ));
        }
    }
    if game.row.status == "finished" {
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
        .filter(|m| m.direction == "in" && m.status == "info")
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
        let what = m.reason.as_deref().unwrap_or("");
        s.push_str(&format!(
            "  {day}  {} ({}): {what}\n",
            m.kind.replace('_', " "),
            m.id
        ));
    }
    Ok(s)
}

/// What is wrong in a game, in words: held messages, mail that could not be sent, a
/// correction owed, a control overstepped.
pub async fn problems_of(ctx: &Ctx, game: &Game) -> anyhow::Result<Vec<Value>> {
    let mut conn = ctx.store.conn().await?;
    let mut out = Vec::new();
    for m in store::game_messages(&mut conn, game.id()).await? {
        if m.status == "held" {
            let detail = format!("message {} is held: {}", m.id, m.reason.unwrap_or_default());
            out.push(json!({"code": "held_message", "detail": detail}));
        }
    }
    for o in store::unsent(&mut conn).await? {
        if o.game_id.as_deref() == Some(game.id()) && o.status == "failed" {
            let detail = format!(
                "message {} could not be sent: {}",
                o.message,
                o.last_error.unwrap_or_default()
            );
            out.push(json!({"code": "send_failed", "detail": detail}));
        }
    }
    if let Some(due) = game.row.correction_due {
        let detail =
            format!("a correction request is owed for the message received {due} (51.3.4)");
        out.push(json!({"code": "correction_due", "detail": detail}));
    }
    let report = game.report(ctx.clock.today())?;
    for (side, c) in [
        ("White", &report.clock.white),
        ("Black", &report.clock.black),
    ] {
        if let Some(at) = c.overstepped_at {
            let detail = format!("{side} overstepped the time control at move {at} (51.6)");
            out.push(json!({"code": "control_overstepped", "detail": detail}));
        }
    }
    Ok(out)
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
            pos.play_unchecked(pair[0]);
            let ours = pair.get(1).map(|&m| {
                let text = numbered(&pos, m);
                pos.play_unchecked(m);
                text
            });
            pairs.push(format!("if {theirs} then {}", ours.unwrap_or_default()));
        }
        s.push_str(&format!("Your plan (not sent): {}.\n", pairs.join("; ")));
    }
    s
}

fn text(game: &Game, report: &ClockReport, problems: &[Value]) -> String {
    let r = &game.row;
    let mut s = format!(
        "{} — {}: {} – {}   (started {}, {}, {} {}/{})\n",
        r.id,
        r.event,
        r.white,
        r.black,
        r.start_date,
        game.profile,
        "control",
        game.control.moves(),
        game.control.days()
    );
    let arbiter = match game.arbiter() {
        Some(a) => format!("arbiter {a}"),
        None => "a friendly game: no arbiter".into(),
    };
    s.push_str(&format!(
        "You play {} against {}; {arbiter}.\n",
        r.my_color, r.opponent_email
    ));
    let status = match (&r.result, r.status.as_str()) {
        (Some(result), _) => format!("Finished: {result}"),
        (None, "suspended") => "Suspended: a time-forfeit claim awaits the arbiter".into(),
        _ if game.my_turn() => "Your move".into(),
        _ => "Waiting for the partner's move".into(),
    };
    s.push_str(&status);
    s.push('\n');
    s.push_str(&conditional_lines(game));
    s.push('\n');
    let glyphs = Glyphs::Unicode;
    let pos = game.position();
    let last = game.plies.last().and_then(|&m| {
        let before = ccmail_core::message::play_all(&game.plies[..game.plies.len() - 1]);
        board::squares(&before, m)
    });
    s.push_str(&board::render(&pos, game.me, glyphs, last));
    s.push('\n');
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
        p.play_unchecked(m);
    }
    if carried_through > 0 {
        s.push_str(&format!(
            "Days used by then: White {}, Black {}\n",
            r.carried_white, r.carried_black
        ));
    }
    s.push('\n');
    for (side, c) in [
        ("White", &report.clock.white),
        ("Black", &report.clock.black),
    ] {
        s.push_str(&format!(
            "{side}: {} days + {} penalty = {} of {} by move {}; {} left{}\n",
            c.days,
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
    if !report.deadlines.is_empty() {
        s.push_str("\nDeadlines:\n");
        for d in &report.deadlines {
            let kind = serde_json::to_value(d.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            let words = deadline_words(&kind, game.arbiter().is_some());
            s.push_str(&format!("  {}  {words}\n", d.date));
        }
    }
    if !problems.is_empty() {
        s.push_str("\nProblems:\n");
        for p in problems {
            s.push_str(&format!("  {}\n", p["detail"].as_str().unwrap_or_default()));
        }
    }
    s
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
