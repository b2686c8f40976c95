//! `ccmail break announce|end|list`: the player's breaks (51.7; section 10.4 in postal104
//! games). The yearly allowance is checked before anything is sent; the notices go to every
//! opponent with an active game, Cc the arbiter, with the phrase of 10.4.3.

use anyhow::{Context, bail};
use ccmail::app::chores::{notice_preview, queue_notice};
use ccmail::app::game::{Game, break_span};
use ccmail::term::shown_lines;
use ccmail_core::clock::{self, DateSpan, Profile};
use ccmail_core::message::{Language, break_phrase};
use ccmail_store::{self as store, BreakRow, SqliteConnection, StoredKind};
use chrono::{Datelike, NaiveDate};

use super::Ctx;
use super::moves::flush;
use crate::cli::BreakCommand;

fn date(flag: &str, text: &str) -> anyhow::Result<NaiveDate> {
    super::date_arg(flag, text)
}

pub async fn run(ctx: &Ctx, cmd: BreakCommand) -> anyhow::Result<()> {
    match cmd {
        BreakCommand::Announce { from, to, dry_run } => {
            announce(ctx, date("--from", &from)?, date("--to", &to)?, dry_run).await
        }
        BreakCommand::End { on, dry_run } => {
            let on = on
                .as_deref()
                .map(|d| date("--on", d))
                .transpose()?
                .unwrap_or(ctx.clock.today());
            end(ctx, on, dry_run).await
        }
        BreakCommand::List => list(ctx).await,
    }
}

/// The profiles of the active games: a break must satisfy each (10.4 is the stricter).
fn profiles(games: &[Game]) -> Vec<Profile> {
    let mut p = vec![Profile::Article51];
    if games.iter().any(|g| g.profile == Profile::Postal104) {
        p.push(Profile::Postal104);
    }
    p
}

async fn announce(ctx: &Ctx, from: NaiveDate, to: NaiveDate, dry_run: bool) -> anyhow::Result<()> {
    let span = DateSpan::new(from, to).map_err(|e| anyhow::anyhow!("{e}"))?;
    if from < ctx.clock.today() {
        bail!(
            "{}",
            ccmail::t!(
                "cmd-break-in-advance",
                from = from,
                today = ctx.clock.today()
            )
        );
    }
    let mut tx = ctx.store.begin().await?;
    let taken: Vec<DateSpan> = store::my_breaks(&mut tx)
        .await?
        .iter()
        .filter_map(break_span)
        .collect();
    let games = Game::load_all(&mut tx, false).await?;
    for profile in profiles(&games) {
        clock::check_break(profile, &taken, span).map_err(|e| {
            anyhow::anyhow!("{}", ccmail::t!("cmd-break-cannot", why = super::words(&e)))
        })?;
    }
    let active: Vec<&Game> = games.iter().filter(|g| g.is_active()).collect();
    for g in &active {
        let lines = [break_phrase(g.language, from, to)];
        let subject = subject(g, &lines[0]);
        notice(&mut tx, ctx, g, StoredKind::BREAK, subject, &lines, dry_run).await?;
    }
    if dry_run {
        return Ok(());
    }
    store::insert_break(
        &mut tx,
        &BreakRow {
            id: 0,
            game_id: None,
            from_date: from,
            to_date: to,
            notice_date: None,
            ended_on: None,
            created_at: ctx.clock.stamp(),
        },
    )
    .await?;
    tx.commit().await?;
    println!(
        "{}",
        ccmail::t!(
            "cmd-break-recorded",
            from = from,
            to = to,
            days = span.days(),
            count = active.len()
        )
    );
    flush(ctx, &ccmail::t!("cmd-break-notices")).await
}

fn subject(g: &Game, phrase: &str) -> String {
    format!(
        "{}: {} – {}, {}",
        g.row.event,
        g.row.white,
        g.row.black,
        phrase.to_lowercase()
    )
}

async fn end(ctx: &Ctx, on: NaiveDate, dry_run: bool) -> anyhow::Result<()> {
    let mut tx = ctx.store.begin().await?;
    let mine = store::my_breaks(&mut tx).await?;
    let Some(b) = mine
        .iter()
        .find(|b| b.ended_on.is_none() && b.to_date >= on)
    else {
        bail!("{}", ccmail::t!("cmd-break-none-to-end", on = on));
    };
    let span = break_span(b).with_context(|| ccmail::t!("cmd-break-reversed"))?;
    let ended = clock::end_early(span, on).map_err(anyhow::Error::new)?;
    let games = Game::load_all(&mut tx, false).await?;
    for g in games.iter().filter(|g| g.is_active()) {
        let line = match g.language {
            // not the interface's: mail to the partner, in the game's language
            Language::Ru => format!("Заканчиваю перерыв: играю с {}", on.format("%d.%m.%Y")),
            // not the interface's: mail to the partner, in the game's language
            Language::En => format!("Ending my break: playing again from {on}"),
        };
        let lines = [line];
        let subject = subject(g, &lines[0]);
        notice(&mut tx, ctx, g, StoredKind::BREAK, subject, &lines, dry_run).await?;
    }
    if dry_run {
        return Ok(());
    }
    store::end_break(&mut tx, b.id, on).await?;
    tx.commit().await?;
    println!(
        "{}",
        ccmail::t!(
            "cmd-break-ended",
            from = b.from_date,
            to = b.to_date,
            on = on,
            count = ended.returned
        )
    );
    flush(ctx, &ccmail::t!("cmd-notices")).await
}

async fn list(ctx: &Ctx) -> anyhow::Result<()> {
    let mut conn = ctx.store.conn().await?;
    let mine = store::my_breaks(&mut conn).await?;
    let games = Game::load_all(&mut conn, false).await?;
    let taken: Vec<DateSpan> = mine.iter().filter_map(break_span).collect();
    let year = ctx.clock.today().year();
    if ctx.json {
        let items: Vec<_> = mine
            .iter()
            .map(|b| serde_json::json!({"from": b.from_date.to_string(), "to": b.to_date.to_string(), "ended_on": b.ended_on.map(|d| d.to_string())}))
            .collect();
        let left: serde_json::Map<String, serde_json::Value> = profiles(&games)
            .into_iter()
            .map(|p| (p.to_string(), clock::days_left(p, &taken, year).into()))
            .collect();
        println!(
            "{}",
            serde_json::json!({"breaks": items, "year": year, "days_used": clock::days_used(&taken, year), "days_left": left})
        );
        return Ok(());
    }
    if mine.is_empty() {
        println!("{}", ccmail::t!("cmd-break-none"));
    }
    for b in &mine {
        let line = match b.ended_on {
            Some(back) => ccmail::t!(
                "cmd-break-span-ended",
                from = b.from_date,
                to = b.to_date,
                back = back
            ),
            None => ccmail::t!("cmd-break-span", from = b.from_date, to = b.to_date),
        };
        println!("{line}");
    }
    println!(
        "{}",
        ccmail::t!(
            "cmd-break-used",
            year = year.to_string(),
            used = clock::days_used(&taken, year)
        )
    );
    for p in profiles(&games) {
        println!(
            "  {}",
            ccmail::t!(
                "cmd-break-left",
                profile = p.to_string(),
                count = clock::days_left(p, &taken, year)
            )
        );
    }
    Ok(())
}

/// A notice to the partner (Cc the arbiter) in `game`: shown with `--dry-run`, else queued.
pub(super) async fn notice(
    conn: &mut SqliteConnection,
    ctx: &Ctx,
    game: &Game,
    kind: StoredKind,
    subject: String,
    lines: &[String],
    dry_run: bool,
) -> anyhow::Result<()> {
    if dry_run {
        println!(
            "{}",
            shown_lines(&notice_preview(game, &ctx.me, &subject, lines))
        );
        return Ok(());
    }
    queue_notice(conn, &ctx.me, &ctx.clock, game, kind, subject, lines).await?;
    Ok(())
}
