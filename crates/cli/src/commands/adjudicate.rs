//! `ccmail adjudicate GAME --claim RESULT --reason TEXT [--move MOVE]`: the package of 51.9.4
//! for the arbiter — the record, the final position (FEN and a diagram), the claim and its
//! reasoning, and the sealed move of the player to move.

use anyhow::{Context, bail};
use ccmail::app::compose::{Letter, queue_letter, read_player_move, recipients};
use ccmail::app::game::Game;
use ccmail::app::pgn::pgn;
use ccmail_core::addressees::Letter as Why;
use ccmail_core::board::{self, Glyphs};
use ccmail_core::message::Language;
use ccmail_core::notation::{self, Notation};
use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode};

use super::moves::flush;
use super::{Ctx, go_ahead};
use crate::cli::AdjudicateArgs;

pub async fn run(ctx: &Ctx, a: &AdjudicateArgs) -> anyhow::Result<()> {
    let (id, claim, reason) = (a.game.as_str(), a.claim.as_str(), a.reason.as_str());
    let (mv, dry_run, yes) = (a.mv.as_deref(), a.dry_run, a.yes);
    if !matches!(claim, "1-0" | "0-1" | "1/2-1/2") {
        bail!(
            "{}",
            ccmail::t!("cmd-adjudicate-claim-invalid", claim = format!("{claim:?}"))
        );
    }
    let mut tx = ctx.store.begin().await?;
    let game = Game::load(&mut tx, id)
        .await?
        .with_context(|| ccmail::t!("cmd-no-game", id = id))?;
    // 51.9.4: adjudication is the arbiter's.
    let Some((to, cc)) = recipients(&game, Why::Adjudication) else {
        bail!("{}", ccmail::t!("cmd-adjudicate-friendly", id = id));
    };
    if game.row.status == ccmail_store::GameStatus::Finished {
        let result = match game.row.result.as_deref() {
            Some(r) => r.to_owned(),
            None => ccmail::t!("cmd-no-result"),
        };
        bail!(
            "{}",
            ccmail::t!("cmd-game-finished-with", id = id, result = result)
        );
    }
    let pos = game.position();
    let sealed = match (game.my_turn(), mv) {
        (true, Some(text)) => Some(read_player_move(&pos, text)?),
        (true, None) => {
            bail!("{}", ccmail::t!("cmd-adjudicate-your-move", id = id))
        }
        (false, Some(_)) => {
            bail!("{}", ccmail::t!("cmd-adjudicate-not-your-move", id = id))
        }
        (false, None) => None,
    };
    let ru = game.language == Language::Ru;
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let diagram = board::render(&pos, Color::White, Glyphs::Ascii, None);
    let record = pgn(&mut tx, &game, ctx.clock.today(), &ctx.me.email).await?;
    let mut body = String::new();
    body.push_str(&if ru {
        // not the interface's: mail to the arbiter, in the game's language
        format!("Заявка на присуждение результата (51.9.4): {claim}\n\nОбоснование:\n{reason}\n\nКонечная позиция (FEN): {fen}\n\n{diagram}\n")
    } else {
        // not the interface's: mail to the arbiter, in the game's language
        format!("Adjudication request (51.9.4): {claim}\n\nReasoning:\n{reason}\n\nFinal position (FEN): {fen}\n\n{diagram}\n")
    });
    if let Some(m) = sealed {
        let text = format!(
            "{} ({})",
            notation::san(&pos, m),
            notation::write_move(&pos, m, Notation::Numeric)
        );
        body.push_str(&if ru {
            // not the interface's: mail to the arbiter, in the game's language
            format!("Записанный ход: {text}\n\n")
        } else {
            // not the interface's: mail to the arbiter, in the game's language
            format!("Sealed move: {text}\n\n")
        });
    }
    body.push_str(&record);
    body.push_str(&format!("{} <{}>\n", ctx.me.name, ctx.me.email));
    let subject = if ru {
        format!(
            // not the interface's: mail to the arbiter, in the game's language
            "{}: {} – {}, на присуждение: {claim}",
            game.row.event, game.row.white, game.row.black
        )
    } else {
        format!(
            // not the interface's: mail to the arbiter, in the game's language
            "{}: {} – {}, for adjudication: {claim}",
            game.row.event, game.row.white, game.row.black
        )
    };
    let preview = format!(
        "{}\n{}\n\n{body}",
        ccmail::t!("cmd-preview-to", to = to.join(", ")),
        ccmail::t!("cmd-preview-subject", subject = &subject)
    );
    if !go_ahead(&preview, dry_run, yes, &ccmail::t!("cmd-adjudicate-ask"))? {
        return Ok(());
    }
    let letter = Letter {
        subject: subject.clone(),
        body,
        to,
        cc,
        kind: ccmail_store::StoredKind::ADJUDICATION,
        ply: game.moves.len(),
    };
    queue_letter(&mut tx, &ctx.me, &ctx.clock, &game, letter).await?;
    tx.commit().await?;
    flush(ctx, &subject).await
}
