//! What the partner's last message said beyond the move, and what ccmail will say back: a
//! draw offer, a proposed variation, their notes, totals that differ from ours, a repeat, a
//! break; the statements ccmail puts in our reply (dates it substituted or corrected,
//! penalties: 51.2.3, 51.4.7); messages of this game that were held.
//!
//! The last applied incoming message is read again from its raw bytes (the store keeps them,
//! 51.1.3), through the same reader as `apply`.

use ccmail::app::conditional::numbered_line;
use ccmail::app::game::{Game, break_span, color_name};
use ccmail::incoming;
use ccmail_core::clock::ClockReport;
use ccmail_store as store;
use chrono::{DateTime, NaiveDate};

use super::super::Ctx;
use super::screen::written_inline;

/// One item per thing to tell, in words (the screen wraps them).
pub async fn news(ctx: &Ctx, game: &Game, report: &ClockReport) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    let opponent = color_name(game.opponent());
    if game.row.draw_offered_by.as_deref() == Some(opponent) {
        out.push("They offer a draw: `accept` accepts it; a move declines it.".to_owned());
    }
    if let Some(v) = proposed_variation(game) {
        out.push(format!(
            "They offer the variation {v} (51.3.7): to accept it, type its moves and then your \
             reply, or `accept MOVE` (all of it, then MOVE), or `accept N MOVE` (its first N \
             half-moves)."
        ));
    }
    let mut conn = ctx.store.conn().await?;
    let messages = store::game_messages(&mut conn, game.id()).await?;
    let last_in = messages
        .iter()
        .rev()
        .find(|m| m.direction == store::Direction::In && m.status == store::MessageStatus::Applied);
    if let Some(m) = last_in {
        let raw = store::raw(&mut conn, m.id).await?.unwrap_or_default();
        let msg = incoming::read(&raw).message;
        let date = |s: &Option<String>| {
            s.as_deref()
                .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
                .map(|at| ctx.clock.local_date(at))
        };
        let when = match (date(&m.date_header), date(&m.received_at)) {
            (Some(s), Some(r)) => format!(" (sent {s}, received {r})"),
            (None, Some(r)) => format!(" (received {r})"),
            _ => String::new(),
        };
        for note in &msg.notes {
            out.push(format!("Their note{when}: {note}"));
        }
        if msg.repeat {
            let cc = if game.arbiter().is_some() {
                "your answer goes Cc the arbiter"
            } else {
                "a friendly game: your answer goes to the partner only"
            };
            out.push(format!("Their message{when} was a repeat (51.5.1): {cc}."));
        }
        if let Some(t) = msg.total_days {
            let (w, b) = (report.clock.white.total, report.clock.black.total);
            if (t.white, t.black) != (w, b) {
                out.push(format!(
                    "They count the totals as White {}, Black {}; ccmail counts White {w}, \
                     Black {b} (your reply states ccmail's).",
                    t.white, t.black
                ));
            }
        }
    }
    for note in game
        .row
        .reply_notes
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        if note.starts_with("answer to a repeat") {
            continue;
        }
        out.push(format!("Your reply will say: {note}"));
    }
    if game.row.answer_cc_arbiter {
        out.push("Your reply goes Cc the arbiter (an answer to a repeat, 51.5.1).".to_owned());
    }
    out.extend(partner_breaks(game, ctx.clock.today()));
    for m in messages
        .iter()
        .filter(|m| m.status == store::MessageStatus::Held)
    {
        out.push(format!(
            "Held for this game: message {} ({}): `ccmail inbox`.",
            m.id,
            m.reason.as_deref().unwrap_or("held")
        ));
    }
    Ok(out)
}

/// The continuation the partner offered with their last move (51.3.7), numbered, in the
/// game's notation.
fn proposed_variation(game: &Game) -> Option<String> {
    let (_, moves) = game.partner_offer()?;
    Some(numbered_line(&game.position(), &moves, |pos, m| {
        written_inline(game, pos, m)
    }))
}

/// The partner's breaks that are on now or still to come.
fn partner_breaks(game: &Game, today: NaiveDate) -> Vec<String> {
    game.partner_breaks
        .iter()
        .filter_map(break_span)
        .filter(|span| span.to() >= today)
        .map(|span| {
            if span.contains(today) {
                format!(
                    "They are on a break until {}: those days are not charged to them.",
                    span.to()
                )
            } else {
                format!(
                    "They will take a break from {} to {}.",
                    span.from(),
                    span.to()
                )
            }
        })
        .collect()
}
