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
        out.push(ccmail::t!("prompt-news-draw-offer"));
    }
    if let Some(v) = proposed_variation(game) {
        out.push(ccmail::t!("prompt-news-variation", variation = v));
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
        // The dates in brackets after "Their note", "Their message", with the blank before.
        let when = match (date(&m.date_header), date(&m.received_at)) {
            (Some(s), Some(r)) => format!(
                " {}",
                ccmail::t!("prompt-news-sent-received", sent = s, received = r)
            ),
            (None, Some(r)) => format!(" {}", ccmail::t!("prompt-news-received", received = r)),
            _ => String::new(),
        };
        for note in &msg.notes {
            out.push(ccmail::t!(
                "prompt-news-their-note",
                when = &when,
                note = note
            ));
        }
        if msg.repeat {
            out.push(if game.arbiter().is_some() {
                ccmail::t!("prompt-news-repeat-arbiter", when = &when)
            } else {
                ccmail::t!("prompt-news-repeat-friendly", when = &when)
            });
        }
        if let Some(t) = msg.total_days {
            let (w, b) = (report.clock.white.total, report.clock.black.total);
            if (t.white, t.black) != (w, b) {
                out.push(ccmail::t!(
                    "prompt-news-totals-differ",
                    their_white = t.white,
                    their_black = t.black,
                    white = w,
                    black = b
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
        // not the interface's: the note play.rs writes, found by its words
        if note.starts_with("answer to a repeat") {
            continue;
        }
        out.push(ccmail::t!("prompt-news-reply-will-say", note = note));
    }
    if game.row.answer_cc_arbiter {
        out.push(ccmail::t!("prompt-news-reply-cc-arbiter"));
    }
    out.extend(partner_breaks(game, ctx.clock.today()));
    for m in messages
        .iter()
        .filter(|m| m.status == store::MessageStatus::Held)
    {
        let reason = m
            .reason
            .clone()
            .unwrap_or_else(|| ccmail::t!("prompt-held-no-reason"));
        out.push(ccmail::t!(
            "prompt-news-held",
            id = m.id.to_string(),
            reason = reason
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
                ccmail::t!("prompt-news-on-break", to = span.to())
            } else {
                ccmail::t!(
                    "prompt-news-break-ahead",
                    from = span.from(),
                    to = span.to()
                )
            }
        })
        .collect()
}
