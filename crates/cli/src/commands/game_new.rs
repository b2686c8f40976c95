//! `ccmail game new`: creates a game and prints its id; `ccmail game decision`: records the
//! arbiter's decision on a suspended game.

use anyhow::{Context, bail};
use ccmail_core::clock::{Control, Profile};
use ccmail_core::message::Language;
use ccmail_core::notation::Notation;
use ccmail_core::pgn::EndReason;
use ccmail_core::setup::Setup;
use ccmail_store::{self as store, GameRow};
use chrono::NaiveDate;
use sha2::Digest;

use super::Ctx;
use crate::cli::NewGameArgs;

pub async fn run(ctx: &Ctx, a: NewGameArgs) -> anyhow::Result<()> {
    let d = &ctx.cfg.defaults;
    let start: NaiveDate = super::date_arg("--start", &a.start)?;
    let color = a.color.to_lowercase();
    if color != "white" && color != "black" {
        bail!(
            "{}",
            ccmail::t!("cmd-color-white-or-black", value = format!("{:?}", a.color))
        );
    }
    let notation = a.notation.unwrap_or_else(|| d.notation.clone());
    let notation: Notation = notation.parse()?;
    if !matches!(
        notation,
        Notation::Numeric | Notation::San | Notation::SanRu
    ) {
        bail!("{}", ccmail::t!("cmd-new-notation"));
    }
    let language: Language = a.lang.unwrap_or_else(|| d.language.clone()).parse()?;
    let control: Control = a.control.unwrap_or_else(|| d.control.clone()).parse()?;
    let rules: Profile = a.rules.unwrap_or_else(|| d.rules.clone()).parse()?;
    let arbiter = a.arbiter.as_deref().unwrap_or("");
    let mut addresses = vec![("--opponent", a.opponent.as_str())];
    // No --arbiter: a friendly game, stored with an empty arbiter address.
    if a.arbiter.is_some() {
        addresses.push(("--arbiter", arbiter));
    }
    for (flag, email) in addresses {
        super::email_arg(flag, email)?;
    }
    let one_line = ccmail_core::message::one_line;
    ccmail_core::setup::check(&Setup {
        event: &one_line(&a.event),
        white: &one_line(&a.white),
        black: &one_line(&a.black),
        opponent: &a.opponent,
        arbiter,
        me: &ctx.me.email,
    })?;
    let mut row = GameRow {
        event: one_line(&a.event),
        white: one_line(&a.white),
        black: one_line(&a.black),
        my_color: color,
        opponent_email: a.opponent.trim().to_lowercase(),
        arbiter_email: arbiter.trim().to_lowercase(),
        rules: rules.to_string(),
        control_moves: i64::from(control.moves()),
        control_days: i64::from(control.days()),
        notation: notation.to_string(),
        language: language.to_string(),
        attach_pgn: a.attach_pgn || d.attach_pgn,
        ..GameRow::new("", start, &ctx.clock.stamp())
    };
    let mut tx = ctx.store.begin().await?;
    row.id = fresh_id(&mut tx, &row).await?;
    store::insert_game(&mut tx, &row).await?;
    tx.commit().await?;
    if ctx.json {
        println!("{}", serde_json::json!({ "id": row.id }));
    } else {
        println!("{}", row.id);
    }
    Ok(())
}

/// A short id for a new game: a hash of the game and the moment, lengthened on the rare clash.
pub(super) async fn fresh_id(
    conn: &mut store::SqliteConnection,
    row: &GameRow,
) -> anyhow::Result<String> {
    let seed = format!(
        "{}|{}|{}|{}|{}",
        row.event,
        row.white,
        row.black,
        row.opponent_email,
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    let digest = sha2::Sha256::digest(seed.as_bytes());
    let alphabet = b"abcdefghijkmnpqrstuvwxyz23456789";
    let full: String = digest
        .iter()
        .map(|b| alphabet[(*b as usize) % alphabet.len()] as char)
        .collect();
    for len in 5..=full.len() {
        let id = &full[..len];
        if store::game(conn, id).await?.is_none() {
            return Ok(id.to_owned());
        }
    }
    anyhow::bail!("{}", ccmail::t!("cmd-new-no-free-id"))
}

pub async fn decision(
    ctx: &Ctx,
    id: &str,
    result: Option<&str>,
    resume: bool,
) -> anyhow::Result<()> {
    let mut tx = ctx.store.begin().await?;
    let game = store::game(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game", id = id))?;
    if game.status == store::GameStatus::Finished {
        let result = match game.result.as_deref() {
            Some(r) => r.to_owned(),
            None => ccmail::t!("cmd-no-result"),
        };
        bail!(
            "{}",
            ccmail::t!("cmd-game-finished-already", id = id, result = result)
        );
    }
    match (result, resume) {
        (Some(r), false) => {
            if !matches!(r, "1-0" | "0-1" | "1/2-1/2") {
                bail!(
                    "{}",
                    ccmail::t!("cmd-decision-result-invalid", result = format!("{r:?}"))
                );
            }
            store::set_status(&mut tx, id, store::GameStatus::Finished, Some(r)).await?;
            // What the arbiter was asked last: a claim (51.6) or an adjudication (51.9.4).
            let asked = store::game_messages(&mut tx, id)
                .await?
                .into_iter()
                .rfind(|m| {
                    matches!(
                        m.kind,
                        store::StoredKind::CLAIM | store::StoredKind::ADJUDICATION
                    )
                });
            let after_claim = asked.is_some_and(|m| m.kind == store::StoredKind::CLAIM);
            let friendly = game.arbiter_email.is_empty();
            let why = EndReason::of_decision(r, after_claim, friendly).map(|e| e.to_string());
            store::set_ending(&mut tx, id, why.as_deref()).await?;
            tx.commit().await?;
            // 51.9.1: the finished game goes to the arbiter as PGN.
            ccmail::app::chores::run_for(&ctx.store, &ctx.me, &ctx.clock, id).await?;
            if game.arbiter_email.is_empty() {
                // A friendly game: the result the players agreed, no arbiter, no protest.
                println!(
                    "{}",
                    ccmail::t!("cmd-decision-friendly", id = id, result = r)
                );
                return Ok(());
            }
            println!(
                "{}",
                ccmail::t!(
                    "cmd-decision-done",
                    id = id,
                    result = r,
                    by = ctx.clock.today() + chrono::Days::new(14)
                )
            );
            super::moves::flush(ctx, &ccmail::t!("cmd-decision-pgn")).await
        }
        (None, true) => {
            if game.status != store::GameStatus::Suspended {
                bail!("{}", ccmail::t!("cmd-decision-not-suspended", id = id));
            }
            store::set_status(&mut tx, id, store::GameStatus::Active, None).await?;
            tx.commit().await?;
            println!("{}", ccmail::t!("cmd-decision-resumed", id = id));
            Ok(())
        }
        _ => bail!("{}", ccmail::t!("cmd-decision-give")),
    }
}
