//! The partner's message against the game it belongs to: the game is turned into the core's
//! view of it, [`ccmail_core::judge::judge`] decides, and this module writes what the verdict
//! says, inside the transaction of `apply`. No rule is decided here.

use anyhow::Context;
use ccmail_core::judge::{self, Action, Draw, Fault, GameView, Letter, Play, Status, Verdict};
use ccmail_core::message::Totals;
use ccmail_core::trust::{self, Gate};
use ccmail_store::{self as store, BreakRow, SqliteConnection};
use chrono::NaiveDate;

use super::apply::{
    Outcome, add_note, insert_plies, record_fault, record_variation, variation_moves,
};
use super::game::{Game, color, color_name};
use super::{Clock, Me};
use crate::incoming::Incoming;

pub use ccmail_core::judge::{numbered, win_for};

/// The core's view of `game`.
pub(super) fn view<'a>(
    game: &'a Game,
    sent: &'a [NaiveDate],
    offer: &'a [shakmaty::Move],
) -> GameView<'a> {
    let n = game.plies.len() as i64;
    GameView {
        me: game.me,
        plies: &game.plies,
        sent,
        start: game.row.start_date,
        status: match game.row.status {
            store::GameStatus::Finished => Status::Finished,
            store::GameStatus::Suspended => Status::Suspended,
            store::GameStatus::Active => Status::Active,
        },
        language: game.language,
        notation: game.notation,
        opponent: &game.row.opponent_email,
        arbiter: game.arbiter(),
        our_offer: offer,
        rejected_until: game
            .extras
            .iter()
            .filter(|e| e.kind == store::ExtraPeriodKind::RejectedMessage && e.ply == n + 1)
            .map(|e| e.to_date)
            .max(),
        draw_offered_by: game
            .row
            .draw_offered_by
            .as_deref()
            .and_then(|c| color(c).ok()),
        profile: game.profile,
    }
}

/// Our variation still open: offered with our last move and not answered (51.3.7).
fn open_offer(game: &Game) -> Option<&store::VariationRow> {
    let n = game.plies.len() as i64;
    game.variations.iter().find(|v| {
        v.proposed_by == color_name(game.me) && v.proposed_with == n && v.accepted_through.is_none()
    })
}

/// Judges the partner's message against `game` (already matched) and writes the verdict.
/// `confirmed`: the player applies it (`inbox accept`), and ccmail's own doubts are settled.
/// `unverified`: nobody vouches for the sender, and only a legal move of the letter acts
/// ([`trust::unverified`]).
pub(super) async fn incoming_to_game(
    conn: &mut SqliteConnection,
    (me, clock): (&Me, &Clock),
    game: &Game,
    message: i64,
    incoming: &Incoming,
    (received, confirmed, unverified): (NaiveDate, bool, bool),
) -> anyhow::Result<Outcome> {
    let msg = &incoming.message;
    let sent: Vec<NaiveDate> = game.moves.iter().map(|m| m.sent).collect();
    let pending = open_offer(game);
    let offer = pending
        .map(|v| variation_moves(&game.position(), v))
        .unwrap_or_default();
    let from = incoming.from().unwrap_or_default();
    let letter = Letter {
        from: &from,
        msg,
        date_sent: incoming.envelope.date_sent(),
        received,
        confirmed,
    };
    let mut judged = judge::judge(&view(game, &sent, &offer), &letter);
    if unverified {
        judged = match trust::unverified(judged) {
            Gate::Act(v) => v,
            Gate::Hold(why) => Verdict::Hold(why),
        };
    }
    match judged {
        Verdict::Play(p) => {
            apply_play(
                conn,
                clock,
                game,
                message,
                &p,
                pending.map(|v| v.id),
                received,
            )
            .await
        }
        Verdict::Fault(f) => fault(conn, clock, game, message, f, received).await,
        Verdict::Record { actions, summary } => {
            let mut done = vec![summary.in_language(crate::i18n::language()).to_owned()];
            for action in actions {
                if let Some(what) = act(conn, (me, clock), game, action, received).await? {
                    done.push(what);
                }
            }
            // What the letter was is kept with it, for `show`.
            let summary = done.join("; ");
            store::set_message_status(
                conn,
                message,
                store::MessageStatus::Info,
                Some(&summary),
                Some(game.id()),
            )
            .await?;
            Ok(Outcome::Info {
                message,
                game: game.id().into(),
                summary,
            })
        }
        Verdict::Hold(reason) => {
            let reason = reason.in_language(crate::i18n::language()).to_owned();
            store::set_message_status(
                conn,
                message,
                store::MessageStatus::Held,
                Some(&reason),
                Some(game.id()),
            )
            .await?;
            Ok(Outcome::Held {
                message,
                game: Some(game.id().into()),
                reason,
            })
        }
    }
}

async fn fault(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    message: i64,
    f: Fault,
    received: NaiveDate,
) -> anyhow::Result<Outcome> {
    record_fault(
        conn,
        clock,
        game,
        message,
        f.cause,
        (f.received, f.sent, received),
        f.what,
    )
    .await
}

/// Does one action of a message without a move; what was done, in words, when there is more
/// to say than the verdict's summary.
async fn act(
    conn: &mut SqliteConnection,
    (me, clock): (&Me, &Clock),
    game: &Game,
    action: Action,
    received: NaiveDate,
) -> anyhow::Result<Option<String>> {
    match action {
        Action::Break(b) => {
            record_break(conn, clock, game, b.from, b.to, received).await?;
            Ok(None)
        }
        Action::EndBreak(on) => {
            // 51.7.3: the partner's break in this game that is running or to come.
            let running = game
                .partner_breaks
                .iter()
                .filter(|b| b.ended_on.is_none() && b.to_date >= on)
                .min_by_key(|b| b.from_date);
            match running {
                Some(b) => {
                    store::end_break(conn, b.id, on).await?;
                    Ok(None)
                }
                None => Ok(Some(crate::t!("app-no-break-to-end"))),
            }
        }
        // The game's arbiter, or we ourselves, never become the opponent.
        Action::NewAddress(new) if game.arbiter() == Some(new.as_str()) || new == me.email => {
            Ok(Some(if new == me.email {
                crate::t!("app-new-address-ours", address = &new)
            } else {
                crate::t!("app-new-address-arbiter", address = &new)
            }))
        }
        Action::NewAddress(new) => {
            store::set_opponent_email(conn, game.id(), &new).await?;
            Ok(None)
        }
        Action::ResendOurLast => {
            super::chores::send_repeat(conn, me, clock, game).await?;
            Ok(Some(crate::t!("app-repeat-queued")))
        }
        Action::CcAnswer => {
            cc_answer(conn, game).await?;
            Ok(None)
        }
        Action::Suspend => {
            store::set_status(conn, game.id(), store::GameStatus::Suspended, None).await?;
            Ok(None)
        }
    }
}

/// 51.5.1: our answer to a repeat goes Cc the arbiter.
async fn cc_answer(conn: &mut SqliteConnection, game: &Game) -> anyhow::Result<()> {
    add_note(
        conn,
        game,
        // not the interface's: a reply note to the partner, in its own words
        "answer to a repeat: Cc the arbiter (51.5.1)",
        true,
    )
    .await
}

async fn record_break(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    from: NaiveDate,
    to: NaiveDate,
    notice: NaiveDate,
) -> anyhow::Result<()> {
    store::insert_break(
        conn,
        &BreakRow {
            id: 0,
            game_id: Some(game.id().into()),
            from_date: from,
            to_date: to,
            notice_date: Some(notice),
            ended_on: None,
            created_at: clock.stamp(),
        },
    )
    .await?;
    Ok(())
}

/// Writes the partner's move (or resignation, or accepted draw) and what comes with it.
async fn apply_play(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    message: i64,
    p: &Play,
    offer: Option<i64>,
    received: NaiveDate,
) -> anyhow::Result<Outcome> {
    let n = game.plies.len();
    insert_plies(conn, game, &p.moves, p.received, p.sent, message).await?;
    if let Some(id) = offer
        && p.offer_followed > 0
    {
        store::accept_variation(conn, id, (n + p.offer_followed) as i64).await?;
    }
    let moved = p.moves.len() > p.accepted;
    if moved {
        record_variation(
            conn,
            game,
            game.opponent(),
            (n + p.moves.len()) as i64,
            &p.variation,
        )
        .await?;
        store::set_awaited_received(conn, game.id(), Some(received)).await?;
    }
    if game.row.correction_due.is_some() && moved {
        // The correction we asked for has come (the row was read in this transaction).
        store::set_correction_due(conn, game.id(), None).await?;
    }
    match p.draw {
        Draw::Offered => {
            store::set_draw_offer(conn, game.id(), Some(color_name(game.opponent()))).await?
        }
        Draw::Lapsed => store::set_draw_offer(conn, game.id(), None).await?,
        Draw::Unchanged => {}
    }
    if let Some(b) = p.break_notice {
        record_break(conn, clock, game, b.from, b.to, p.sent).await?;
    }
    if let Some((result, how)) = p.result {
        store::set_status(conn, game.id(), store::GameStatus::Finished, Some(result)).await?;
        let plies: Vec<_> = game.plies.iter().chain(&p.moves).copied().collect();
        let resigned = how == judge::Ending::Resignation;
        let why = super::pgn::ending_by_letter(&plies, result, resigned);
        store::set_ending(conn, game.id(), Some(&why.to_string())).await?;
        store::set_draw_offer(conn, game.id(), None).await?;
    }
    for note in &p.notes {
        add_note(conn, game, note.in_language(game.language), false).await?;
    }
    if let Some(stated) = p.stated_totals
        && p.result.is_none()
    {
        // The clock once his move is charged, as of the day he sent it.
        let charged = Game::load(conn, game.id())
            .await?
            .with_context(|| crate::t!("app-no-game", game = game.id()))?
            .report(p.sent)?
            .clock;
        let ours = Totals {
            white: charged.white.total,
            black: charged.black.total,
        };
        if let Some(note) = judge::totals_differ(stated, ours) {
            add_note(conn, game, note.in_language(game.language), false).await?;
        }
    }
    if p.cc_answer {
        cc_answer(conn, game).await?;
    }
    store::set_message_status(
        conn,
        message,
        store::MessageStatus::Applied,
        None,
        Some(game.id()),
    )
    .await?;
    Ok(Outcome::Applied {
        message,
        game: game.id().into(),
        summary: p
            .summary
            .iter()
            .map(|s| s.in_language(crate::i18n::language()))
            .collect::<Vec<_>>()
            .join("; "),
    })
}
