//! `ccmail claim GAME`: the time-forfeit claim of 51.6 — to the arbiter, Cc the opponent, with
//! the full time table move by move, in the game's language and notation; the game is
//! suspended until the decision.

use anyhow::{Context, bail};
use ccmail::app::chores::notice_body;
use ccmail::app::compose::{Letter, queue_letter, recipients};
use ccmail::app::game::{Game, color};
use ccmail_core::addressees::Letter as Why;
use ccmail_core::clock::ClockReport;
use ccmail_core::judge::fault_by_eye;
use ccmail_core::message::Language;
use ccmail_core::notation;
use ccmail_core::wording;
use ccmail_store as store;
use shakmaty::Color;
use shakmaty::Position;

use super::moves::flush;
use super::{Ctx, go_ahead};

pub async fn run(ctx: &Ctx, id: &str, dry_run: bool, yes: bool) -> anyhow::Result<()> {
    let mut tx = ctx.store.begin().await?;
    let game = Game::load(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game", id = id))?;
    let (to, cc) = check_claimable(&game, id)?;
    let report = game.report(ctx.clock.today())?;
    let c = report.clock.get(game.opponent());
    let Some(at) = c.overstepped_at else {
        bail!(
            "{}",
            ccmail::t!(
                "cmd-claim-not-overstepped",
                id = id,
                total = c.total,
                limit = c.limit,
                at = c.next_control
            )
        );
    };
    let lines = write_claim(&game, &report, at)?;
    let subject = claim_subject(&game);
    let body = notice_body(&game, &ctx.me, &lines);
    let preview = format!(
        "{}\n{}\n{}\n\n{body}",
        ccmail::t!("cmd-preview-to", to = to.join(", ")),
        ccmail::t!("cmd-preview-cc", cc = cc.join(", ")),
        ccmail::t!("cmd-preview-subject", subject = &subject)
    );
    if !go_ahead(&preview, dry_run, yes, &ccmail::t!("cmd-claim-ask"))? {
        return Ok(());
    }
    let letter = Letter {
        subject: subject.clone(),
        body,
        to,
        cc,
        kind: store::StoredKind::CLAIM,
        ply: game.moves.len(),
    };
    queue_letter(&mut tx, &ctx.me, &ctx.clock, &game, letter).await?;
    // 51.6: the game is suspended until the arbiter decides.
    store::set_status(&mut tx, id, store::GameStatus::Suspended, None).await?;
    tx.commit().await?;
    println!("{}", ccmail::t!("cmd-claim-suspended", id = id));
    flush(ctx, &subject).await
}

/// Checks that a claim can be made in `game`: it has an arbiter and is active. Returns whom
/// the claim goes to, and who gets a copy.
fn check_claimable(game: &Game, id: &str) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    // 51.6: a claim is the arbiter's to decide.
    let Some((to, cc)) = recipients(game, Why::Claim) else {
        bail!("{}", ccmail::t!("cmd-claim-friendly", id = id));
    };
    if !game.is_active() {
        bail!(
            "{}",
            ccmail::t!(
                "cmd-claim-not-active",
                id = id,
                status = game.row.status.to_string()
            )
        );
    }
    Ok((to, cc))
}

/// A side's name in the game's language.
fn side(ru: bool, color: Color) -> &'static str {
    match (ru, color.is_white()) {
        (true, true) => "белые",
        (true, false) => "черные",
        (false, true) => "White",
        (false, false) => "Black",
    }
}

/// Writes the claim's lines: what is claimed, the time table, the penalties and the total
/// against the limit of the control overstepped `at`.
fn write_claim(game: &Game, report: &ClockReport, at: u32) -> anyhow::Result<Vec<String>> {
    let opp = game.opponent();
    let c = report.clock.get(opp);
    // The limit of the control overstepped (51.4.3: cumulative, D days per N moves).
    let limit = game.control.days() * at / game.control.moves();
    let ru = game.language == Language::Ru;
    let mut lines = vec![if ru {
        format!(
            // not the interface's: the claim to the arbiter, in the game's language
            "Заявляю о просрочке времени (51.6): {} превысили контроль на {at}-м ходу.",
            side(ru, opp)
        )
    } else {
        format!(
            // not the interface's: the claim to the arbiter, in the game's language
            "I claim a win on time (51.6): {} overstepped the time control at move {at}.",
            side(ru, opp)
        )
    }];
    write_time_table(game, report, &mut lines);
    write_penalties(game, &mut lines)?;
    let total = wording::days(i64::from(c.total), game.language);
    lines.push(if ru {
        format!(
            // not the interface's: the claim to the arbiter, in the game's language
            "Итого {}: {total} при лимите {limit} к {at}-му ходу.",
            side(ru, opp)
        )
    } else {
        format!(
            // not the interface's: the claim to the arbiter, in the game's language
            "Total for {}: {total} against a limit of {limit} by move {at}.",
            side(ru, opp)
        )
    });
    Ok(lines)
}

/// Writes the time table, move by move: when each was received and sent, its days, and its
/// side's total.
fn write_time_table(game: &Game, report: &ClockReport, lines: &mut Vec<String>) {
    let ru = game.language == Language::Ru;
    lines.push(if ru {
        // not the interface's: the claim to the arbiter, in the game's language
        "Ход | получен | отправлен | дней | итого".into()
    } else {
        // not the interface's: the claim to the arbiter, in the game's language
        "Move | received | sent | days | total".into()
    });
    let lang = game.language;
    let (mut white, mut black) = (0u32, 0u32);
    let mut pos = shakmaty::Chess::default();
    for (i, (m, &mv)) in game.moves.iter().zip(&game.plies).enumerate() {
        let days = report.ply_days.get(i).copied().unwrap_or(0);
        let total = if i % 2 == 0 {
            white += days;
            white
        } else {
            black += days;
            black
        };
        let number = if i % 2 == 0 {
            format!("{}.", i / 2 + 1)
        } else {
            format!("{}...", i / 2 + 1)
        };
        lines.push(format!(
            "{number} {} | {} | {} | {days} | {total}",
            notation::write_move(&pos, mv, game.notation),
            wording::date(m.received, lang),
            wording::date(m.sent, lang)
        ));
        // legal: the game's plies, replayed by uci_move (checked) from the start
        pos.play_unchecked(mv);
    }
}

/// Writes the penalties of the game: whose, how many days, why, at which ply.
fn write_penalties(game: &Game, lines: &mut Vec<String>) -> anyhow::Result<()> {
    let ru = game.language == Language::Ru;
    let lang = game.language;
    for p in &game.penalties {
        let days = wording::days(p.days, lang);
        let who = side(ru, color(&p.player)?);
        let why = fault_by_eye(p.cause.clone()?);
        lines.push(if ru {
            // not the interface's: the claim to the arbiter, in the game's language
            format!("Штраф, {who}: {days}, {}, ход {}", why.ru, p.ply)
        } else {
            // not the interface's: the claim to the arbiter, in the game's language
            format!("Penalty, {who}: {days}, {}, ply {}", why.en, p.ply)
        });
    }
    Ok(())
}

/// The claim's subject: the game, and that it is a time-forfeit claim.
fn claim_subject(game: &Game) -> String {
    if game.language == Language::Ru {
        format!(
            // not the interface's: the claim to the arbiter, in the game's language
            "{}: {} – {}, заявление о просрочке времени",
            game.row.event, game.row.white, game.row.black
        )
    } else {
        format!(
            // not the interface's: the claim to the arbiter, in the game's language
            "{}: {} – {}, time-forfeit claim",
            game.row.event, game.row.white, game.row.black
        )
    }
}
