//! `ccmail inbox`: held messages with the reason; `accept` and `dismiss`.

use anyhow::{Context, bail};
use ccmail::app::apply;
use ccmail::term::{shown, shown_lines};
use ccmail_core::clock::PenaltyCause;
use ccmail_store as store;

use super::Ctx;
use super::apply::answer;
use crate::cli::InboxCommand;

pub async fn run(ctx: &Ctx, action: Option<InboxCommand>) -> anyhow::Result<()> {
    match action {
        None => list(ctx).await,
        Some(InboxCommand::Accept {
            message,
            game,
            by_eye,
            trust,
            yes,
        }) => {
            if let Some(said) = apply::address_match(&ctx.store, &ctx.me, message, &game).await? {
                if ctx.json {
                    eprintln!("{}", shown_lines(&said));
                } else if !super::confirm(&said, yes, "Accept it?")? {
                    println!("Not accepted; nothing changed.");
                    return Ok(());
                } else if yes || !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                    println!("{}", shown_lines(&said));
                }
            }
            let how = apply::Accepting {
                by_eye: by_eye.as_deref(),
                trust,
            };
            let outcome =
                apply::accept(&ctx.store, &ctx.me, &ctx.clock, message, &game, &how).await?;
            if trust
                && !ctx.json
                && let Some(from) = outcome_sender(ctx, message).await?
            {
                println!(
                    "{} is trusted without verification in game {game} from now on.",
                    shown(&from)
                );
            }
            answer(ctx, &outcome).await
        }
        Some(InboxCommand::Fine {
            message,
            cause,
            game,
        }) => {
            let cause = cause
                .replace('-', "_")
                .parse::<PenaltyCause>()
                .map_err(|_| {
                    anyhow::anyhow!(
                        "--cause {cause:?} is not a fault: illegible, ambiguous, impossible, \
                     no-move or wrong-repetition"
                    )
                })?;
            let outcome =
                apply::fine(&ctx.store, &ctx.clock, message, game.as_deref(), cause).await?;
            answer(ctx, &outcome).await
        }
        Some(InboxCommand::Dismiss { message }) => {
            let mut conn = ctx.store.conn().await?;
            let row = store::message(&mut conn, message)
                .await?
                .with_context(|| format!("there is no message {message}"))?;
            if row.status != store::MessageStatus::Held {
                bail!("message {message} is not held (it is {})", row.status);
            }
            store::set_message_status(
                &mut conn,
                message,
                store::MessageStatus::Dismissed,
                row.reason.as_deref(),
                None,
            )
            .await?;
            println!("message {message} dismissed (it stays stored)");
            Ok(())
        }
    }
}

/// The stored sender of message `id`.
async fn outcome_sender(ctx: &Ctx, id: i64) -> anyhow::Result<Option<String>> {
    let row = store::message(&mut *ctx.store.conn().await?, id).await?;
    Ok(row.and_then(|r| r.from_addr))
}

async fn list(ctx: &Ctx) -> anyhow::Result<()> {
    let held = store::held(&mut *ctx.store.conn().await?).await?;
    if ctx.json {
        let items: Vec<_> = held
            .iter()
            .map(|m| {
                serde_json::json!({
                    "id": m.id, "from": m.from_addr, "subject": m.subject, "date": m.date_header,
                    "received": m.received_at, "game": m.game_id, "reason": m.reason,
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&items)?);
        return Ok(());
    }
    if held.is_empty() {
        println!("No held messages.");
    }
    for m in held {
        println!(
            "{:>5}  {}  {}\n       {}\n       held: {}",
            m.id,
            m.received_at
                .as_deref()
                .and_then(|s| s.get(..10))
                .unwrap_or("—"),
            shown(m.from_addr.as_deref().unwrap_or("(no sender)")),
            shown(m.subject.as_deref().unwrap_or("(no subject)")),
            shown(m.reason.as_deref().unwrap_or("—")),
        );
    }
    Ok(())
}
