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
        bail!("--claim must be 1-0, 0-1 or 1/2-1/2, not {claim:?}");
    }
    let mut tx = ctx.store.begin().await?;
    let game = Game::load(&mut tx, id)
        .await?
        .with_context(|| format!("there is no game {id}"))?;
    // 51.9.4: adjudication is the arbiter's.
    let Some((to, cc)) = recipients(&game, Why::Adjudication) else {
        bail!(
            "game {id} is a friendly game: there is no arbiter to adjudicate it; agree the \
             result with your partner and record it with `ccmail game decision {id} --result \
             RESULT`"
        );
    };
    if game.row.status == ccmail_store::GameStatus::Finished {
        bail!(
            "game {id} is finished ({})",
            game.row.result.as_deref().unwrap_or("no result")
        );
    }
    let pos = game.position();
    let sealed = match (game.my_turn(), mv) {
        (true, Some(text)) => Some(read_player_move(&pos, text)?),
        (true, None) => {
            bail!("it is your move in game {id}: name your sealed move with --move (51.9.4)")
        }
        (false, Some(_)) => {
            bail!("it is not your move in game {id}: there is no sealed move to give")
        }
        (false, None) => None,
    };
    let ru = game.language == Language::Ru;
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    let diagram = board::render(&pos, Color::White, Glyphs::Ascii, None);
    let record = pgn(&mut tx, &game, ctx.clock.today(), &ctx.me.email).await?;
    let mut body = String::new();
    body.push_str(&if ru {
        format!("Заявка на присуждение результата (51.9.4): {claim}\n\nОбоснование:\n{reason}\n\nКонечная позиция (FEN): {fen}\n\n{diagram}\n")
    } else {
        format!("Adjudication request (51.9.4): {claim}\n\nReasoning:\n{reason}\n\nFinal position (FEN): {fen}\n\n{diagram}\n")
    });
    if let Some(m) = sealed {
        let text = format!(
            "{} ({})",
            notation::san(&pos, m),
            notation::write_move(&pos, m, Notation::Numeric)
        );
        body.push_str(&if ru {
            format!("Записанный ход: {text}\n\n")
        } else {
            format!("Sealed move: {text}\n\n")
        });
    }
    body.push_str(&record);
    body.push_str(&format!("{} <{}>\n", ctx.me.name, ctx.me.email));
    let subject = if ru {
        format!(
            "{}: {} – {}, на присуждение: {claim}",
            game.row.event, game.row.white, game.row.black
        )
    } else {
        format!(
            "{}: {} – {}, for adjudication: {claim}",
            game.row.event, game.row.white, game.row.black
        )
    };
    let preview = format!("To: {}\nSubject: {subject}\n\n{body}", to.join(", "));
    if !go_ahead(&preview, dry_run, yes, "Send this to the arbiter?")? {
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
