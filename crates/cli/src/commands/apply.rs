//! `ccmail apply FILE|-`: one saved message, processed exactly as the daemon would.

use std::path::Path;

use anyhow::Context;
use ccmail::app::apply::{self, Arrival, Outcome};
use ccmail::app::chores;
use ccmail::app::game::Game;
use ccmail::term::shown;
use chrono::{DateTime, FixedOffset, NaiveDate, NaiveTime, TimeZone};

use super::Ctx;
use super::show::problems_of;

pub async fn run(ctx: &Ctx, file: &Path, received: Option<&str>) -> anyhow::Result<()> {
    let raw = super::read_input(file, &ccmail::t!("cmd-what-message-file"))?;
    let at = arrival_time(ctx, &raw, received)?;
    let arrival = Arrival {
        raw: &raw,
        at,
        mailbox: None,
        uid_validity: None,
        uid: None,
    };
    let outcome = apply::apply(&ctx.store, &ctx.me, &ctx.clock, &arrival).await?;
    answer(ctx, &outcome).await
}

/// What the rules require in answer to a message (a correction request, the PGN of a
/// finished game) is queued, exactly as the daemon would; then the outcome is printed.
pub async fn answer(ctx: &Ctx, outcome: &Outcome) -> anyhow::Result<()> {
    if let Some(game) = outcome.game() {
        for done in chores::run_for(&ctx.store, &ctx.me, &ctx.clock, game).await? {
            if !ctx.json {
                println!(
                    "{}",
                    ccmail::t!("cmd-chore-queued", done = done.to_string())
                );
            }
        }
    }
    print_outcome(ctx, outcome).await
}

/// `--received DATE` (noon local time), else the topmost `Received:` header, else now.
fn arrival_time(
    ctx: &Ctx,
    raw: &[u8],
    received: Option<&str>,
) -> anyhow::Result<DateTime<FixedOffset>> {
    if let Some(text) = received {
        if let Ok(at) = DateTime::parse_from_rfc3339(text) {
            return Ok(at);
        }
        let date: NaiveDate = super::date_arg("--received", text)?;
        let noon = date.and_time(NaiveTime::from_hms_opt(12, 0, 0).expect("noon"));
        let at = ctx
            .clock
            .tz
            .from_local_datetime(&noon)
            .earliest()
            .with_context(|| ccmail::t!("cmd-no-such-local-time"))?;
        return Ok(at.fixed_offset());
    }
    let topmost = ccmail_mail::mime::decode(raw)
        .ok()
        .and_then(|d| d.received_date);
    Ok(topmost.unwrap_or_else(|| ctx.clock.now.fixed_offset()))
}

pub async fn print_outcome(ctx: &Ctx, outcome: &Outcome) -> anyhow::Result<()> {
    if !ctx.json {
        println!("{}", shown(&outcome.describe()));
        return Ok(());
    }
    let game = match outcome.game() {
        Some(id) => Game::load(&mut *ctx.store.conn().await?, id).await?,
        None => None,
    };
    let value = match game {
        Some(g) => {
            let problems = problems_of(ctx, &g).await?;
            g.to_json(ctx.clock.today(), problems)?
        }
        None => {
            let message = match outcome {
                Outcome::Duplicate { message } | Outcome::Held { message, .. } => *message,
                Outcome::Applied { message, .. } | Outcome::Info { message, .. } => *message,
            };
            serde_json::json!({
                "message": message,
                "outcome": outcome.describe_in(ccmail::i18n::english()),
            })
        }
    };
    println!("{}", serde_json::to_string_pretty(&value)?);
    Ok(())
}
