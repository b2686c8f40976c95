//! `ccmail address change NEW_EMAIL`: 51.1.2 — every active opponent and arbiter is told of
//! the new address (the notice goes from the address they know).

use anyhow::bail;
use ccmail::app::game::Game;
use ccmail_core::message::Language;

use super::breaks::notice;
use super::moves::flush;
use super::{Ctx, config_path_of};

pub async fn run(ctx: &Ctx, new_email: &str, dry_run: bool) -> anyhow::Result<()> {
    let new_email = new_email.trim().to_lowercase();
    if !new_email.contains('@')
        || new_email.contains(char::is_whitespace)
        || new_email.starts_with('@')
    {
        bail!(
            "{}",
            ccmail::t!("cmd-address-not-email", email = format!("{new_email:?}"))
        );
    }
    if new_email == ctx.me.email {
        bail!("{}", ccmail::t!("cmd-address-same", email = &new_email));
    }
    let mut tx = ctx.store.begin().await?;
    let games = Game::load_all(&mut tx, false).await?;
    let active: Vec<&Game> = games.iter().filter(|g| g.is_active()).collect();
    for g in &active {
        let lines = [match g.language {
            // not the interface's: mail to the partner or the arbiter, in the game's language
            Language::Ru => format!("Мой новый адрес электронной почты: {new_email} (51.1.2)"),
            // not the interface's: mail to the partner or the arbiter, in the game's language
            Language::En => format!("My new e-mail address: {new_email} (51.1.2)"),
        }];
        let subject = format!(
            "{}: {} – {}, {}",
            g.row.event,
            g.row.white,
            g.row.black,
            match g.language {
                // not the interface's: mail to the partner or the arbiter, in the game's language
                Language::Ru => "новый адрес",
                // not the interface's: mail to the partner or the arbiter, in the game's language
                Language::En => "new address",
            }
        );
        notice(
            &mut tx,
            ctx,
            g,
            ccmail_store::StoredKind::ADDRESS,
            subject,
            &lines,
            dry_run,
        )
        .await?;
    }
    if dry_run {
        return Ok(());
    }
    tx.commit().await?;
    println!(
        "{}",
        ccmail::t!(
            "cmd-address-done",
            count = active.len(),
            email = &new_email,
            path = config_path_of(ctx).display().to_string()
        )
    );
    flush(ctx, &ccmail::t!("cmd-address-notices")).await
}
