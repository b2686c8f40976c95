//! `ccmail game set GAME [--opponent …] [--arbiter EMAIL|none] [--lang …] [--notation …]
//! [--control …] [--rules …] [--event …] [--start DATE] [--last-sent DATE]
//! [--attach-pgn on|off]`: changes what a game was created or imported with.
//!
//! A game brought in from a letter or a PGN may have taken a setting the player did not mean:
//! no copy to the arbiter made it friendly, the config's notation replaced the partner's, a
//! file without dates left our last move's date unknown. Each change is a row of the game's
//! record (`show` lists them) written in the same transaction as the change, and a change
//! that moves a clock (control, rules, start, last-sent) says how: both clocks before and
//! after, in figures.

use anyhow::{Context, bail};
use ccmail::app::game::Game;
use ccmail::term::shown;
use ccmail_core::clock::{ClockReport, Control, Profile};
use ccmail_core::message::{Language, one_line};
use ccmail_core::notation::Notation;
use ccmail_store::{self as store, GameChange, GameRow};
use chrono::NaiveDate;

use super::Ctx;
use crate::cli::SetArgs;

/// One setting changed: its name as the flag says it, and its value before and after.
struct Change {
    field: &'static str,
    old: String,
    new: String,
}

pub async fn run(ctx: &Ctx, a: SetArgs) -> anyhow::Result<()> {
    let id = a.game.as_str();
    let mut tx = ctx.store.begin().await?;
    let before = Game::load(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game-see-all", id = id))?;
    let today = ctx.clock.today();
    let mut row = before.row.clone();
    let mut changes = Vec::new();
    let last_sent = apply_flags(&a, &before, &mut row, &mut changes)?;
    if changes.is_empty() {
        if given(&a) == 0 {
            bail!("{}", ccmail::t!("cmd-set-give", id = id));
        }
        match a.attach_pgn.as_deref() {
            Some(on) => println!("{}", pgn_words(id, on == "on")),
            None => println!("{}", ccmail::t!("cmd-set-nothing", id = id)),
        }
        return Ok(());
    }
    ccmail_core::setup::check(&ccmail_core::setup::Setup {
        event: &row.event,
        white: &row.white,
        black: &row.black,
        opponent: &row.opponent_email,
        arbiter: &row.arbiter_email,
        me: &ctx.me.email,
    })?;
    store::update_settings(&mut tx, &row).await?;
    if row.start_date != before.row.start_date {
        store::move_start(&mut tx, id, before.row.start_date, row.start_date).await?;
    }
    if let Some((ply, date)) = last_sent {
        store::set_move_sent(&mut tx, id, ply, date).await?;
    }
    let moves_clock = changes
        .iter()
        .any(|c| matches!(c.field, "control" | "rules" | "start" | "last-sent"));
    let clock = if moves_clock {
        let after = Game::load(&mut tx, id)
            .await?
            .with_context(|| ccmail::t!("cmd-no-game-see-all", id = id))?;
        clock_change(&before.report(today)?, &after.report(today)?)
    } else {
        String::new()
    };
    let at = ctx.clock.stamp();
    for (i, c) in changes.iter().enumerate() {
        let last = i + 1 == changes.len();
        store::insert_change(
            &mut tx,
            &GameChange {
                game_id: id.to_owned(),
                at: at.clone(),
                field: c.field.to_owned(),
                old: c.old.clone(),
                new: c.new.clone(),
                clock: if last { clock.clone() } else { String::new() },
            },
        )
        .await?;
    }
    tx.commit().await?;
    for c in &changes {
        if c.field == "attach-pgn" {
            println!("{}", pgn_words(id, c.new == "on"));
        } else {
            println!("{}", changed_line(id, c.field, &c.old, &c.new));
        }
    }
    if !clock.is_empty() {
        println!("{}", shown(&clock));
    }
    Ok(())
}

/// How many settings the flags give.
fn given(a: &SetArgs) -> usize {
    [
        &a.opponent,
        &a.arbiter,
        &a.lang,
        &a.notation,
        &a.control,
        &a.rules,
        &a.event,
        &a.start,
        &a.last_sent,
        &a.attach_pgn,
    ]
    .iter()
    .filter(|f| f.is_some())
    .count()
}

/// Sets `row` from the flags, noting each setting that changes; the ply and date of a
/// `--last-sent`.
fn apply_flags(
    a: &SetArgs,
    game: &Game,
    row: &mut GameRow,
    changes: &mut Vec<Change>,
) -> anyhow::Result<Option<(i64, NaiveDate)>> {
    let mut note = |field: &'static str, old: String, new: String| {
        if old != new {
            changes.push(Change { field, old, new });
        }
    };
    if let Some(o) = &a.opponent {
        let o = o.trim().to_lowercase();
        super::email_arg("--opponent", &o)?;
        note("opponent", row.opponent_email.clone(), o.clone());
        row.opponent_email = o;
    }
    if let Some(x) = &a.arbiter {
        let x = x.trim().to_lowercase();
        let x = if x == "none" { String::new() } else { x };
        if !x.is_empty() {
            super::email_arg("--arbiter", &x)?;
        }
        note("arbiter", row.arbiter_email.clone(), x.clone());
        row.arbiter_email = x;
    }
    if let Some(l) = &a.lang {
        let l = l.parse::<Language>()?.to_string();
        note("lang", row.language.clone(), l.clone());
        row.language = l;
    }
    if let Some(n) = &a.notation {
        let parsed: Notation = n.parse()?;
        if !matches!(parsed, Notation::Numeric | Notation::San | Notation::SanRu) {
            bail!("{}", ccmail::t!("cmd-new-notation"));
        }
        note("notation", row.notation.clone(), parsed.to_string());
        row.notation = parsed.to_string();
    }
    if let Some(c) = &a.control {
        let c: Control = c.parse()?;
        let old = format!("{}/{}", row.control_moves, row.control_days);
        note("control", old, format!("{}/{}", c.moves(), c.days()));
        row.control_moves = i64::from(c.moves());
        row.control_days = i64::from(c.days());
    }
    if let Some(r) = &a.rules {
        let r = r.parse::<Profile>()?.to_string();
        note("rules", row.rules.clone(), r.clone());
        row.rules = r;
    }
    if let Some(e) = &a.event {
        let e = one_line(e);
        note("event", row.event.clone(), e.clone());
        row.event = e;
    }
    if let Some(s) = &a.start {
        let s = super::date_arg("--start", s)?;
        note("start", row.start_date.to_string(), s.to_string());
        row.start_date = s;
    }
    if let Some(on) = &a.attach_pgn {
        let on = on == "on";
        let word = |b: bool| if b { "on" } else { "off" }.to_owned();
        note("attach-pgn", word(row.attach_pgn), word(on));
        row.attach_pgn = on;
    }
    let Some(d) = &a.last_sent else {
        return Ok(None);
    };
    let date = super::date_arg("--last-sent", d)?;
    let ply = game.moves.len();
    let ours = ply > 0 && game.to_move() != game.me;
    let Some(last) = game.moves.last().filter(|_| ours) else {
        bail!(
            "{}",
            ccmail::t!("cmd-set-last-sent-not-ours", id = game.id())
        );
    };
    if date < row.start_date {
        bail!(
            "{}",
            ccmail::t!(
                "cmd-set-last-sent-early",
                start = row.start_date.to_string()
            )
        );
    }
    let old = if row.unknown_sent_ply == last.ply {
        String::new()
    } else {
        last.sent.to_string()
    };
    note("last-sent", old, date.to_string());
    row.unknown_sent_ply = 0;
    Ok(Some((last.ply, date)))
}

/// What `--attach-pgn` now does, in words.
fn pgn_words(id: &str, on: bool) -> String {
    if on {
        ccmail::t!("cmd-set-pgn-on", id = id)
    } else {
        ccmail::t!("cmd-set-pgn-off", id = id)
    }
}

/// `game X: arbiter (none) → a@b`, as `game set` and `show` say it.
pub fn changed_line(id: &str, field: &str, old: &str, new: &str) -> String {
    let or_none = |v: &str| {
        if v.is_empty() {
            ccmail::t!("cmd-set-none")
        } else {
            shown(v).into_owned()
        }
    };
    ccmail::t!(
        "cmd-set-changed",
        id = id,
        field = field,
        old = or_none(old),
        new = or_none(new)
    )
}

/// Both clocks before and after a change, in figures: each side's total, limit at its next
/// control and days left.
fn clock_change(before: &ClockReport, after: &ClockReport) -> String {
    let side = |r: &ClockReport, white: bool| {
        let c = if white {
            &r.clock.white
        } else {
            &r.clock.black
        };
        ccmail::t!(
            "cmd-set-clock-side",
            total = c.total,
            limit = c.limit,
            at = c.next_control,
            left = c.left
        )
    };
    let both = |r: &ClockReport| {
        ccmail::t!(
            "cmd-set-clock-both",
            white = side(r, true),
            black = side(r, false)
        )
    };
    if before.clock == after.clock && before.deadlines == after.deadlines {
        return ccmail::t!("cmd-set-clock-same", now = both(after));
    }
    ccmail::t!("cmd-set-clock", before = both(before), after = both(after))
}

/// The changes recorded in a game, a line each, oldest first (`show`): '' when there are none.
pub async fn changes_text(conn: &mut store::SqliteConnection, id: &str) -> anyhow::Result<String> {
    let changes = store::game_changes(conn, id).await?;
    if changes.is_empty() {
        return Ok(String::new());
    }
    let mut s = format!("\n{}\n", ccmail::t!("show-changes"));
    for c in &changes {
        let day = super::show::minute_of(&c.at);
        let line = changed_line(id, &c.field, &c.old, &c.new);
        s.push_str(&format!("  {day}  {line}\n"));
        if !c.clock.is_empty() {
            s.push_str(&format!("    {}\n", shown(&c.clock)));
        }
    }
    Ok(s)
}
