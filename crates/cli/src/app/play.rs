//! The partner's message against the game it belongs to: the checks of 51.3 and the dates of
//! 51.2.3, then the changes they call for. Called inside the transaction of `apply`.

use ccmail_core::clock::PenaltyCause;
use ccmail_core::message::MoveMessage;
use ccmail_core::notation::{self, MoveErrorKind};
use ccmail_store::{self as store, BreakRow, SqliteConnection};
use chrono::NaiveDate;
use shakmaty::{Color, Move, Position};

use super::Clock;
use super::apply::{
    Outcome, Said, add_note, fault_of, insert_plies, record_fault, record_variation, same_moves,
    variation_moves,
};
use super::game::{Game, color_name, to_uci};
use crate::incoming::Incoming;

/// `16. O-O`, `15... Rfb8`: a move with its number, in SAN, from `pos`.
pub fn numbered(pos: &shakmaty::Chess, m: Move) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots} {}", pos.fullmoves(), notation::san(pos, m))
}

/// A move with its number in the game's notation, as the messages write it: `1. 5254`.
fn in_notation(game: &Game, pos: &shakmaty::Chess, m: Move) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    let text = notation::write_move(pos, m, game.notation);
    format!("{}{dots} {text}", pos.fullmoves())
}

fn side(c: Color) -> &'static str {
    if c.is_white() { "White" } else { "Black" }
}

/// The result when `winner` wins.
pub fn win_for(winner: Color) -> &'static str {
    if winner.is_white() { "1-0" } else { "0-1" }
}

async fn info(
    conn: &mut SqliteConnection,
    message: i64,
    game: &Game,
    summary: String,
) -> anyhow::Result<Outcome> {
    store::set_message_status(conn, message, "info", None, Some(game.id())).await?;
    Ok(Outcome::Info {
        message,
        game: game.id().into(),
        summary,
    })
}

async fn record_break(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    msg: &MoveMessage,
    notice: NaiveDate,
) -> anyhow::Result<Option<String>> {
    let Some(b) = msg.break_notice else {
        return Ok(None);
    };
    store::insert_break(
        conn,
        &BreakRow {
            id: 0,
            game_id: Some(game.id().into()),
            from_date: b.from,
            to_date: b.to,
            notice_date: Some(notice),
            ended_on: None,
            created_at: clock.stamp(),
        },
    )
    .await?;
    Ok(Some(format!(
        "{} takes a break from {} to {}",
        side(game.opponent()),
        b.from,
        b.to
    )))
}

/// Applies the partner's message to `game` (already matched, not finished).
pub(super) async fn incoming_to_game(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    message: i64,
    msg: &MoveMessage,
    incoming: &Incoming,
    received: NaiveDate,
) -> anyhow::Result<Outcome> {
    let n = game.plies.len();
    let pos = game.position();
    // 51.2.3: the actual send date (the Date: header, sender's offset) counts.
    let actual_sent = incoming.envelope.date_sent();
    let notice_date = actual_sent.or(msg.sent).unwrap_or(received);

    if game.to_move() == game.me {
        return not_their_turn(conn, clock, game, message, msg, notice_date).await;
    }
    if msg.new_move_text.is_none()
        && !msg.resign
        && !msg.draw_accept
        && let Some(what) = record_break(conn, clock, game, msg, notice_date).await?
    {
        return info(conn, message, game, what).await;
    }

    // The dates of their move (51.2.3).
    let mut notes: Vec<String> = Vec::new();
    let our_last_sent = game.moves.last().map(|m| m.sent);
    let our_last = game
        .plies
        .last()
        .map(|&m| {
            in_notation(
                game,
                &ccmail_core::message::play_all(&game.plies[..n - 1]),
                m,
            )
        })
        .unwrap_or_default();
    let their_received = match (msg.received, our_last_sent) {
        (_, None) => game.row.start_date,
        (Some(r), Some(_)) => r,
        (None, Some(sent)) => {
            notes.push(say(
                game,
                format!("the receipt date of our move {our_last} was not given; taken as its send date {sent} (51.2.3)"),
                format!("не указана дата получения нашего хода {our_last}; принята дата его отправки {} (51.2.3)", ru(sent)),
            ));
            sent
        }
    };
    let mut their_sent = actual_sent.or(msg.sent).unwrap_or(received);
    if let (Some(stated), Some(actual)) = (msg.sent, actual_sent)
        && stated != actual
    {
        notes.push(say(
            game,
            format!("the move was stated as sent {stated} but was sent {actual} (51.2.3)"),
            format!(
                "ход указан отправленным {}, но отправлен {} (51.2.3)",
                ru(stated),
                ru(actual)
            ),
        ));
    }
    if let (Some(confirmed), Some(ours)) = (msg.partner_move_sent, our_last_sent)
        && confirmed != ours
    {
        notes.push(say(
            game,
            format!("our move {our_last} was sent {ours}, not {confirmed}"),
            format!(
                "наш ход {our_last} отправлен {}, а не {}",
                ru(ours),
                ru(confirmed)
            ),
        ));
    }
    if let Some(ours) = our_last_sent
        && (their_received - ours).num_days() > 1
    {
        notes.push(say(
            game,
            format!("our move {our_last} of {ours} took until {their_received} to arrive: more than the one day of 51.2.5"),
            format!("наш ход {our_last} от {} получен только {}: дольше одних суток (51.2.5)", ru(ours), ru(their_received)),
        ));
    }
    // A corrected move after a rejected one (51.3.4): the rejected message's days are charged
    // already, so the corrected ply counts from that message's send date at the earliest.
    let ply = n as i64 + 1;
    let rejected_until = game
        .extras
        .iter()
        .filter(|e| e.kind == "rejected_message" && e.ply == ply)
        .map(|e| e.to_date)
        .max();
    let their_received = rejected_until.map_or(their_received, |d| their_received.max(d));
    if their_sent < their_received {
        notes.push(say(
            game,
            format!("the send date {their_sent} is before the receipt date {their_received}; taken as {their_received}"),
            format!("дата отправки {} раньше даты получения {}; принята {}", ru(their_sent), ru(their_received), ru(their_received)),
        ));
        their_sent = their_received;
    }

    // 51.3.3: the record must repeat the moves, our last one above all.
    let rec = &msg.moves;
    let mut accepted: Vec<Move> = Vec::new();
    let pending = game.variations.iter().find(|v| {
        v.proposed_by == color_name(game.me)
            && v.proposed_with == n as i64
            && v.accepted_through.is_none()
    });
    if rec.len() > n && same_moves(&rec[..n], &game.plies) {
        let extra = &rec[n..];
        let offered = pending
            .map(|v| variation_moves(&pos, v))
            .unwrap_or_default();
        if extra.len().is_multiple_of(2)
            && offered.len() >= extra.len()
            && same_moves(&offered[..extra.len()], extra)
        {
            accepted = extra.to_vec();
        } else {
            let what = Said {
                en: format!(
                    "the record has moves after our move {our_last} that we did not play or \
                     offer (51.3.3)"
                ),
                ru: format!(
                    "в записи после нашего хода {our_last} есть ходы, которых мы не делали и не \
                     предлагали (51.3.3)"
                ),
            };
            return fault(
                conn,
                clock,
                game,
                message,
                PenaltyCause::WrongRepetition,
                their_received,
                their_sent,
                received,
                what,
            )
            .await;
        }
    }
    if n > 0 && !last_repeated(game, msg) {
        let before = ccmail_core::message::play_all(&game.plies[..n - 1]);
        let ours = numbered(&before, game.plies[n - 1]);
        // Their repetition: the record's move (SAN for the player, the game's notation for
        // the partner), else the text they wrote.
        let theirs = rec.get(n - 1).map(|&m| {
            let before = ccmail_core::message::play_all(&rec[..n - 1]);
            (numbered(&before, m), in_notation(game, &before, m))
        });
        let written = msg.partner_move_text.clone();
        let what = match theirs.or(written.map(|t| (t.clone(), t))) {
            Some((t, t_ru)) => Said {
                en: format!("our move {ours} was repeated as {t} (51.3.3)"),
                ru: format!("наш ход {our_last} повторён неправильно: {t_ru} (51.3.3)"),
            },
            None => Said {
                en: format!("our move {ours} was not repeated (51.3.3)"),
                ru: format!("наш ход {our_last} не повторён (51.3.3)"),
            },
        };
        return fault(
            conn,
            clock,
            game,
            message,
            PenaltyCause::WrongRepetition,
            their_received,
            their_sent,
            received,
            what,
        )
        .await;
    }
    let k = (n.saturating_sub(1)).min(rec.len());
    if let Some(i) = (0..k).find(|&i| to_uci(rec[i]) != to_uci(game.plies[i])) {
        let before = ccmail_core::message::play_all(&game.plies[..i]);
        let at = in_notation(game, &before, game.plies[i]);
        let (at, ours) = at.split_once(' ').unwrap_or_default();
        notes.push(say(
            game,
            format!("your record differs from ours at {at}: ours is {ours} (51.3.3)"),
            format!("ваша запись расходится с нашей на ходу {at}: у нас {ours} (51.3.3)"),
        ));
    }

    // The new move, read against our position (after any accepted variation moves).
    let mut after = pos.clone();
    for &m in &accepted {
        after.play_unchecked(m);
    }
    let new_move = match &msg.new_move_text {
        Some(text) => match notation::read_move(&after, text) {
            Ok(m) => Some(m),
            Err(e) => {
                let number = move_number(&after);
                let ru = match e.kind {
                    MoveErrorKind::Illegible => "неразборчив",
                    MoveErrorKind::Ambiguous => "неоднозначен",
                    MoveErrorKind::Impossible => "невозможен",
                };
                let what = Said {
                    en: format!("the move {number} {text}: {}", e.reason()),
                    ru: format!("ход {number} {text} {ru} (51.3.4): {}", e.why.russian()),
                };
                return fault(
                    conn,
                    clock,
                    game,
                    message,
                    fault_of(e.kind),
                    their_received,
                    their_sent,
                    received,
                    what,
                )
                .await;
            }
        },
        None if msg.resign || msg.draw_accept => None,
        None => {
            let what = Said {
                en: "the message has no move of its own (51.3.5)".to_owned(),
                ru: "сообщение отправлено без ответного хода (51.3.5)".to_owned(),
            };
            return fault(
                conn,
                clock,
                game,
                message,
                PenaltyCause::NoMove,
                their_received,
                their_sent,
                received,
                what,
            )
            .await;
        }
    };

    // Apply.
    let mut made = accepted.clone();
    made.extend(new_move);
    insert_plies(conn, game, &made, their_received, their_sent, message).await?;
    if let Some(v) = pending {
        let offered = variation_moves(&pos, v);
        let through = if offered.len() > accepted.len()
            && new_move.is_some_and(|m| to_uci(m) == to_uci(offered[accepted.len()]))
        {
            accepted.len() + 1
        } else {
            accepted.len()
        };
        if through > 0 {
            store::accept_variation(conn, v.id, n as i64 + through as i64).await?;
        }
    }
    let mut summary = Vec::new();
    if let Some(m) = new_move {
        summary.push(format!(
            "applied {} by {}",
            numbered(&after, m),
            side(game.opponent())
        ));
        after.play_unchecked(m);
        record_variation(
            conn,
            game,
            game.opponent(),
            (n + made.len()) as i64,
            &msg.variation,
        )
        .await?;
        store::set_awaited_received(conn, game.id(), Some(received)).await?;
    }
    if !accepted.is_empty() {
        summary.push(format!(
            "{} moves of our variation accepted",
            accepted.len()
        ));
    }
    if game.row.correction_due.is_some() {
        // The correction we asked for has come (the row was read in this transaction).
        store::set_correction_due(conn, game.id(), None).await?;
    }
    let draw_by_me = game.row.draw_offered_by.as_deref() == Some(color_name(game.me));
    if msg.draw_offer {
        store::set_draw_offer(conn, game.id(), Some(color_name(game.opponent()))).await?;
        summary.push("offers a draw".into());
    } else if draw_by_me && !msg.draw_accept {
        store::set_draw_offer(conn, game.id(), None).await?;
    }
    if let Some(what) = record_break(conn, clock, game, msg, notice_date).await? {
        summary.push(what);
    }
    let result = if msg.resign {
        summary.push(format!("{} resigns", side(game.opponent())));
        Some(win_for(game.me))
    } else if msg.draw_accept && draw_by_me {
        summary.push("the draw is agreed".into());
        Some("1/2-1/2")
    } else if after.is_checkmate() {
        summary.push("checkmate".into());
        Some(win_for(game.opponent()))
    } else if after.is_stalemate() || after.is_insufficient_material() {
        summary.push("drawn position".into());
        Some("1/2-1/2")
    } else {
        None
    };
    if let Some(result) = result {
        store::set_status(conn, game.id(), "finished", Some(result)).await?;
        store::set_draw_offer(conn, game.id(), None).await?;
        summary.push(format!("result {result}"));
    }
    let cc = msg.repeat;
    for note in &notes {
        add_note(conn, game, note, false).await?;
    }
    if cc {
        add_note(
            conn,
            game,
            "answer to a repeat: Cc the arbiter (51.5.1)",
            true,
        )
        .await?;
    }
    store::set_message_status(conn, message, "applied", None, Some(game.id())).await?;
    Ok(Outcome::Applied {
        message,
        game: game.id().into(),
        summary: summary.join("; "),
    })
}

#[allow(clippy::too_many_arguments)]
async fn fault(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    message: i64,
    cause: PenaltyCause,
    their_received: NaiveDate,
    their_sent: NaiveDate,
    received: NaiveDate,
    what: Said,
) -> anyhow::Result<Outcome> {
    record_fault(
        conn,
        clock,
        game,
        message,
        cause,
        their_received,
        their_sent,
        received,
        what,
    )
    .await
}

/// `13...` for the side to move in `pos`.
fn move_number(pos: &shakmaty::Chess) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots}", pos.fullmoves())
}

/// 51.3.3: whether the message repeats our last move right — in its record, or on its
/// "your move … sent" line when the record stops short.
fn last_repeated(game: &Game, msg: &MoveMessage) -> bool {
    let n = game.plies.len();
    let ours = game.plies[n - 1];
    if msg.moves.len() >= n {
        return same_moves(&msg.moves[..n], &game.plies);
    }
    let before = ccmail_core::message::play_all(&game.plies[..n - 1]);
    let prefix_ok = same_moves(&msg.moves, &game.plies[..msg.moves.len()]);
    prefix_ok
        && msg
            .partner_move_text
            .as_deref()
            .and_then(|t| notation::read_move(&before, t).ok())
            .is_some_and(|m| to_uci(m) == to_uci(ours))
}

/// A message while it is our move: a repeat of the partner's move we have (51.5.1), a break
/// notice, or something that does not fit.
async fn not_their_turn(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    message: i64,
    msg: &MoveMessage,
    notice: NaiveDate,
) -> anyhow::Result<Outcome> {
    let n = game.plies.len();
    let repeat_of_theirs = n > 0 && {
        let before = ccmail_core::message::play_all(&game.plies[..n - 1]);
        msg.new_move_text
            .as_deref()
            .and_then(|t| notation::read_move(&before, t).ok())
            .is_some_and(|m| to_uci(m) == to_uci(game.plies[n - 1]))
    };
    let brk = record_break(conn, clock, game, msg, notice).await?;
    if repeat_of_theirs {
        if msg.repeat {
            add_note(
                conn,
                game,
                "answer to a repeat: Cc the arbiter (51.5.1)",
                true,
            )
            .await?;
        }
        let mut what = format!("a repeat of their move {n}, which we have");
        if let Some(b) = brk {
            what = format!("{what}; {b}");
        }
        return info(conn, message, game, what).await;
    }
    if let Some(b) = brk {
        return info(conn, message, game, b).await;
    }
    let reason = format!(
        "it is our move in game {}, and the message does not repeat their last move",
        game.id()
    );
    store::set_message_status(conn, message, "held", Some(&reason), Some(game.id())).await?;
    Ok(Outcome::Held {
        message,
        game: Some(game.id().into()),
        reason,
    })
}

/// A statement for the reply's notes (51.2.3) in the game's language.
fn say(game: &Game, en: String, ru: String) -> String {
    Said { en, ru }.in_language_of(game)
}

/// A date as the Russian form writes it: 09.03.2026.
fn ru(date: NaiveDate) -> String {
    date.format("%d.%m.%Y").to_string()
}
