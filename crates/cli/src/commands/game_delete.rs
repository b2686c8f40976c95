//! `ccmail game delete GAME [--yes]` and `ccmail game archive GAME`: a game the player no
//! longer wants in front of him.
//!
//! Archiving keeps everything and only puts the game away: out of `games`, out of the
//! daemon's chores (no repeat, no correction request is sent for it on its own), listed by
//! `games --all`; a letter for it is still matched to it and kept. Deleting removes the game
//! for good with its moves and its mail — the raw letters in and out and any letter still
//! waiting in the outbox — so that nothing of it is sent afterwards; `export --mbox` first
//! keeps the mail. It asks first on a terminal, and wants `--yes` where it cannot ask.

use std::io::IsTerminal;

use anyhow::{Context, bail};
use ccmail::term::shown;
use ccmail_store as store;

use super::Ctx;

pub async fn delete(ctx: &Ctx, id: &str, yes: bool) -> anyhow::Result<()> {
    let mut tx = ctx.store.begin().await?;
    let game = store::game_with_record(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game-see-all", id = id))?;
    let moves = game.moves(true)?.len();
    let messages = store::game_messages(&mut tx, id).await?.len();
    if !yes && !std::io::stdin().is_terminal() {
        bail!("{}", ccmail::t!("cmd-delete-give-yes", id = id));
    }
    let g = &game.game;
    let question = ccmail::t!(
        "cmd-delete-confirm",
        id = id,
        event = shown(&g.event).into_owned(),
        white = shown(&g.white).into_owned(),
        black = shown(&g.black).into_owned(),
        moves = moves,
        messages = messages
    );
    if !super::confirm("", yes, &question)? {
        println!("{}", ccmail::t!("cmd-delete-kept", id = id));
        return Ok(());
    }
    store::delete_game(&mut tx, id).await?;
    tx.commit().await?;
    println!(
        "{}",
        ccmail::t!("cmd-delete-done", id = id, messages = messages)
    );
    Ok(())
}

pub async fn archive(ctx: &Ctx, id: &str) -> anyhow::Result<()> {
    let mut conn = ctx.store.conn().await?;
    let game = store::game(&mut conn, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game-see-all", id = id))?;
    if game.archived {
        println!("{}", ccmail::t!("cmd-archive-already", id = id));
        return Ok(());
    }
    store::set_archived(&mut conn, id, true).await?;
    println!("{}", ccmail::t!("cmd-archive-done", id = id));
    Ok(())
}
