//! `ccmail plan GAME "LINE"` and `ccmail plan GAME --clear`: the player's private conditional
//! replies, kept with the game and played by the daemon's chores
//! ([`ccmail::app::conditional::plan_chore`]).

use anyhow::Context;
use ccmail::app::conditional::{self, numbered_line};
use ccmail::app::game::Game;
use ccmail_core::notation;
use serde_json::json;

use super::Ctx;

/// Sets the plan (`line`) or clears it (`None`), and says what it now is.
pub async fn run(ctx: &Ctx, id: &str, line: Option<&str>) -> anyhow::Result<()> {
    let mut tx = ctx.store.begin().await?;
    let game = Game::load(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game-see-games", id = id))?;
    let plan = conditional::set_plan(&mut tx, &game, line).await?;
    tx.commit().await?;
    if ctx.json {
        println!("{}", json!({ "id": id, "plan": plan }));
        return Ok(());
    }
    if line.is_none() {
        println!("{}", ccmail::t!("cmd-plan-none", id = id));
        return Ok(());
    }
    let game = Game::load(&mut *ctx.store.conn().await?, id)
        .await?
        .with_context(|| ccmail::t!("cmd-game-vanished"))?;
    let (moves, start) = game.plan();
    println!(
        "{}",
        ccmail::t!(
            "cmd-plan-set",
            id = id,
            line = numbered_line(&start, &moves, notation::san)
        )
    );
    Ok(())
}
