//! `ccmail move` and `ccmail resign`: compose, show, confirm, queue, send.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Context;
use ccmail::app::chores;
use ccmail::app::compose::{self, Request};
use ccmail::app::game::Game;
use ccmail::app::outbox;
use ccmail_mail::smtp::Smtp;
use ccmail_store as store;

use super::Ctx;
use crate::cli::MoveArgs;

pub async fn run_move(ctx: &Ctx, a: MoveArgs) -> anyhow::Result<()> {
    let req = Request {
        mv: Some(a.mv),
        variation: a.variation,
        offer_draw: a.offer_draw,
        accept_draw: a.accept_draw,
        resign: false,
        note: a.note,
    };
    send(ctx, &a.game, &req, a.dry_run, a.yes).await
}

pub async fn run_resign(ctx: &Ctx, game: &str, dry_run: bool, yes: bool) -> anyhow::Result<()> {
    let req = Request {
        resign: true,
        ..Request::default()
    };
    send(ctx, game, &req, dry_run, yes).await
}

async fn send(ctx: &Ctx, id: &str, req: &Request, dry_run: bool, yes: bool) -> anyhow::Result<()> {
    let mut conn = ctx.store.conn().await?;
    let game = Game::load(&mut conn, id)
        .await?
        .with_context(|| format!("there is no game {id} (see `ccmail games`)"))?;
    let thread = store::thread_ids(&mut conn, id).await?;
    drop(conn);
    let draft = compose::draft(&game, &ctx.me, &ctx.clock, req, &thread)?;
    if dry_run {
        print!("{}", draft.preview());
        return Ok(());
    }
    if !yes && std::io::stdin().is_terminal() {
        print!("{}\nSend this message? [y/N] ", draft.preview());
        std::io::stdout().flush()?;
        let mut answer = String::new();
        std::io::stdin().lock().read_line(&mut answer)?;
        if !matches!(answer.trim(), "y" | "Y" | "yes" | "да" | "д") {
            println!("Not sent; nothing changed.");
            return Ok(());
        }
    }
    let mut tx = ctx.store.begin().await?;
    // The game may have changed since it was read (the daemon): compose again inside.
    let game = Game::load(&mut tx, id)
        .await?
        .context("the game vanished")?;
    let thread = store::thread_ids(&mut tx, id).await?;
    let draft = compose::draft(&game, &ctx.me, &ctx.clock, req, &thread)?;
    compose::queue(&mut tx, &ctx.clock, &draft).await?;
    tx.commit().await?;
    chores::run_for(&ctx.store, &ctx.me, &ctx.clock, id).await?;
    let what = draft.mail.subject.clone();
    flush(ctx, &what).await?;
    if let Some(result) = draft.result {
        println!("The game is over: {result}.");
    }
    Ok(())
}

/// Sends the outbox now when the config has `[smtp]`; says what happened to `what`.
pub async fn flush(ctx: &Ctx, what: &str) -> anyhow::Result<()> {
    match &ctx.cfg.smtp {
        None => println!("queued: {what} (no [smtp] in the config: it stays in the outbox)"),
        Some(cfg) => {
            let smtp = Smtp::new(&outbox::smtp_config(cfg)?)?;
            let done = outbox::send_due(&ctx.store, &smtp, &ctx.clock).await?;
            if done.sent > 0 {
                println!("sent: {what}");
            } else {
                println!("queued: {what} (sending failed; the daemon retries: see `ccmail games`)");
            }
        }
    }
    Ok(())
}
