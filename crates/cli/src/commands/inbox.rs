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
                } else if !super::confirm(&said, yes, &ccmail::t!("inbox-accept-question"))? {
                    println!("{}", ccmail::t!("inbox-not-accepted"));
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
                    "{}",
                    ccmail::t!(
                        "inbox-trusted",
                        sender = shown(&from).into_owned(),
                        game = &game
                    )
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
                    anyhow::anyhow!(ccmail::t!(
                        "inbox-not-a-fault",
                        cause = format!("{cause:?}")
                    ))
                })?;
            let outcome =
                apply::fine(&ctx.store, &ctx.clock, message, game.as_deref(), cause).await?;
            answer(ctx, &outcome).await
        }
        Some(InboxCommand::Dismiss { message }) => {
            let mut conn = ctx.store.conn().await?;
            let row = store::message(&mut conn, message)
                .await?
                .with_context(|| ccmail::t!("inbox-no-message", id = message))?;
            if row.status != store::MessageStatus::Held {
                bail!(
                    "{}",
                    ccmail::t!(
                        "inbox-not-held",
                        id = message,
                        status = status_words(row.status)
                    )
                );
            }
            store::set_message_status(
                &mut conn,
                message,
                store::MessageStatus::Dismissed,
                row.reason.as_deref(),
                None,
            )
            .await?;
            println!("{}", ccmail::t!("inbox-dismissed", id = message));
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
        println!("{}", ccmail::t!("inbox-none-held"));
    }
    for m in held {
        let received = m.received_at.as_deref().and_then(|s| s.get(..10));
        let no_sender = ccmail::t!("inbox-no-sender");
        let no_subject = ccmail::t!("inbox-no-subject");
        println!(
            "{:>5}  {}  {}\n       {}\n       {}",
            m.id,
            received.map_or_else(|| "—".to_owned(), day),
            shown(m.from_addr.as_deref().unwrap_or(&no_sender)),
            shown(m.subject.as_deref().unwrap_or(&no_subject)),
            // The reason is the store's, in the words it was written in.
            ccmail::t!(
                "inbox-held-because",
                reason = shown(m.reason.as_deref().unwrap_or("—")).into_owned()
            ),
        );
    }
    Ok(())
}

/// A stored day (`2026-12-01`) as the interface writes dates; anything else as it is.
fn day(stored: &str) -> String {
    chrono::NaiveDate::parse_from_str(stored, "%Y-%m-%d")
        .map_or_else(|_| stored.to_owned(), ccmail::i18n::date)
}

/// A message's status in words.
fn status_words(status: store::MessageStatus) -> String {
    use store::MessageStatus as S;
    match status {
        S::Applied => ccmail::t!("inbox-status-applied"),
        S::Held => ccmail::t!("inbox-status-held"),
        S::Dismissed => ccmail::t!("inbox-status-dismissed"),
        S::Info => ccmail::t!("inbox-status-info"),
        S::Queued => ccmail::t!("inbox-status-queued"),
        S::Sent => ccmail::t!("inbox-status-sent"),
    }
}
