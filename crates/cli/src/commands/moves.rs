//! `ccmail move` and `ccmail resign`: compose, show, confirm, queue, send.

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::{Context, bail};
use ccmail::app::chores;
use ccmail::app::compose::{self, Accept, Draft, Request};
use ccmail::app::daemon::hooks::{Runner, fire_sent};
use ccmail::app::game::Game;
use ccmail::app::outbox;
use ccmail::term::shown;
use ccmail_core::clock::DeadlineKind;
use ccmail_mail::smtp::Smtp;
use ccmail_store as store;

use super::{Ctx, go_ahead};
use crate::cli::MoveArgs;

pub async fn run_move(ctx: &Ctx, a: MoveArgs) -> anyhow::Result<()> {
    let req = Request {
        mv: a.mv,
        variation: a.variation,
        offer_draw: a.offer_draw,
        accept_draw: a.accept_draw,
        note: a.note,
        accept: a.accept_variation.map_or(Accept::No, Accept::Part),
        ..Request::default()
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
        .with_context(|| ccmail::t!("cmd-no-game-see-games", id = id))?;
    let thread = store::thread_ids(&mut conn, id).await?;
    drop(conn);
    let draft = compose::draft(&game, &ctx.me, &ctx.clock, req, &thread)?;
    // Asked, the player has seen the message: what is sent is checked against it.
    let ask = !yes && std::io::stdin().is_terminal();
    let preview = format!("{}{}", claim_given_up(ctx, &game)?, draft.preview());
    if !go_ahead(&preview, dry_run, yes, &ccmail::t!("cmd-move-ask"))? {
        return Ok(());
    }
    queue_and_send(ctx, id, req, ask.then_some(&draft)).await?;
    Ok(())
}

/// While the partner's control move over the limit can be claimed (51.6.1), a word that
/// sending our answer gives that up; else nothing.
fn claim_given_up(ctx: &Ctx, game: &Game) -> anyhow::Result<String> {
    let report = game.report(ctx.clock.today())?;
    let claimable = report
        .deadlines
        .iter()
        .any(|d| d.kind == DeadlineKind::Claim);
    let Some(at) = report.clock.get(game.opponent()).claimable_at else {
        return Ok(String::new());
    };
    if !claimable || game.arbiter().is_none() {
        return Ok(String::new());
    }
    let side = if game.opponent().is_white() {
        "white"
    } else {
        "black"
    };
    Ok(format!(
        "{}\n\n",
        ccmail::t!(
            "cmd-move-claim-given-up",
            side = side,
            at = at,
            id = game.id()
        )
    ))
}

/// Queues the message for `req` and sends the outbox at once: shared by `move`, `resign` and
/// the `reply` prompt.
///
/// The message is composed again inside the transaction (the daemon may have changed the game
/// since it was read). When the user saw a preview (`shown`), the message must still be that
/// one, To, Cc, Subject and body: otherwise nothing is stored and the error says so.
///
/// Sending: when the config has `[smtp]`, the outbox is sent right away, whether the daemon
/// runs or not (an item sent here is marked sent, so the daemon never sends it again);
/// without `[smtp]` the message stays queued.
pub(crate) async fn queue_and_send(
    ctx: &Ctx,
    id: &str,
    req: &Request,
    shown: Option<&Draft>,
) -> anyhow::Result<Draft> {
    let mut tx = ctx.store.begin().await?;
    let game = Game::load(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-game-vanished"))?;
    let thread = store::thread_ids(&mut tx, id).await?;
    let draft = compose::draft(&game, &ctx.me, &ctx.clock, req, &thread)?;
    if shown.is_some_and(|s| s.preview() != draft.preview()) {
        bail!("{}", ccmail::t!("cmd-move-changed", id = id));
    }
    compose::queue(&mut tx, &ctx.clock, &draft).await?;
    tx.commit().await?;
    // What the rules require after it (the PGN of a finished game) goes with it.
    chores::run_for(&ctx.store, &ctx.me, &ctx.clock, id).await?;
    flush(ctx, &draft.mail.subject).await?;
    if let Some(result) = draft.result {
        println!("{}", ccmail::t!("cmd-move-game-over", result = result));
    }
    Ok(draft)
}

/// How long `move` waits for the server at each step of a send.
const SEND_STEP: Duration = Duration::from_secs(12);

/// How long `move` waits for the outbox to go, at most: then the letter is left to the daemon.
const SEND_LIMIT: Duration = Duration::from_secs(30);

/// Sends the outbox now when the config has `[smtp]`, within [`SEND_LIMIT`]; says what
/// happened to `what` (a subject: the event and names in it may come from a partner's
/// header): sent, or queued for the daemon and why.
///
/// The letter is in the outbox before this is called, so a server that does not answer costs
/// only the wait: a send cut off at the limit leaves its letter to the next sender (the
/// daemon), which sends it again at once with the same Message-ID.
pub(crate) async fn flush(ctx: &Ctx, what: &str) -> anyhow::Result<()> {
    let what = shown(what);
    let Some(cfg) = &ctx.cfg.smtp else {
        println!("{}", ccmail::t!("cmd-flush-no-smtp", what = what.as_ref()));
        return Ok(());
    };
    let mut c = outbox::smtp_config(cfg)?;
    c.timeout = c.timeout.min(SEND_STEP);
    let smtp = Smtp::new(&c)?;
    let sending = outbox::send_due(&ctx.store, &smtp, &ctx.clock);
    let done = match tokio::time::timeout(SEND_LIMIT, sending).await {
        Ok(done) => done?,
        Err(_) => {
            let seconds = SEND_LIMIT.as_secs();
            // The letter cut off keeps its place in the outbox (the next sender takes it).
            let reason = ccmail::t!("cmd-flush-time-limit", seconds = seconds);
            let said = ccmail::t!("cmd-flush-queued", what = what.as_ref(), reason = reason);
            println!("{said}");
            return Ok(());
        }
    };
    // `on_sent` for what this command sent itself; it finishes before the command.
    let hooks = Runner::new(ctx.cfg.hooks.clone());
    for &message in &done.messages {
        fire_sent(&ctx.store, &hooks, message).await;
    }
    hooks.finish().await;
    // A running daemon may have sent it first (each item has one sender); whoever sent it,
    // it is out when nothing is left unsent.
    let left = store::unsent(&mut *ctx.store.conn().await?).await?;
    if done.sent > 0 || (done.retrying == 0 && done.failed == 0 && left.is_empty()) {
        println!("{}", ccmail::t!("cmd-flush-sent", what = what.as_ref()));
        return Ok(());
    }
    // The error of the letter that failed last: the server's or the network's words.
    let reason = left
        .iter()
        .rev()
        .find_map(|row| row.last_error.clone())
        .unwrap_or_default();
    let said = ccmail::t!("cmd-flush-queued", what = what.as_ref(), reason = reason);
    println!("{said}");
    Ok(())
}
