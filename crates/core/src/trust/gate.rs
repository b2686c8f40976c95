//! What a letter may do while nobody vouches for its sender: the player has not named their
//! own server (`[security] authserv_id`), so the `From:` and the envelope are all there is,
//! and anyone can write those from any server. Nor does answering one of our Message-IDs
//! vouch: everyone who got our mail has seen them (the partner, the arbiter's copies, any
//! mailbox on the way).
//!
//! A legal move from the partner's address is still applied: refusing it would stop every game
//! of a player who has not set the id, and a forged move can be answered (the partner's next
//! letter will not fit it). What it offers (a draw, a continuation) is shown, as it does
//! nothing until the player answers. Nothing else such a letter carries acts. What would end the game,
//! change where our mail goes, stop the partner's clock, fine the partner or send mail in their
//! name is held for the player, who can accept it: those are what a forger would send.

use crate::judge::{Action, Draw, Ending, Play, Said, Verdict as Judged};

/// What to do with an unverified letter, given what the judgment would do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// Do this (the judgment, with what an unverified letter may not do taken out).
    Act(Judged),
    /// Hold it: what it would have done, in words.
    Hold(Said),
}

/// The judgment `judged` of a letter whose sender is not verified, limited as the module doc
/// says.
pub fn unverified(judged: Judged) -> Gate {
    match judged {
        Judged::Play(p) if p.moves.len() > p.accepted => Gate::Act(Judged::Play(move_only(p))),
        Judged::Play(p) => Gate::Hold(would(&join(&p.summary))),
        Judged::Fault(f) => {
            let days = f.cause.rule_days().unwrap_or(0);
            Gate::Hold(would(&Said::new(
                format!(
                    "{}; it would cost the partner {days} penalty days and send a correction \
                     request (51.4.7)",
                    f.what.en
                ),
                format!(
                    "{}; за это партнёру начислили бы штрафных дней: {days}, и ему ушла бы \
                     просьба исправить ход (51.4.7)",
                    f.what.ru
                ),
            )))
        }
        Judged::Record { actions, summary } if actions.iter().all(harmless) => {
            Gate::Act(Judged::Record { actions, summary })
        }
        Judged::Record { summary, .. } => Gate::Hold(would(&summary)),
        Judged::Hold(why) => Gate::Hold(why),
    }
}

/// An action that only shapes our next reply.
fn harmless(a: &Action) -> bool {
    matches!(a, Action::CcAnswer)
}

/// The move (and the moves of our variation it accepts), and nothing else the letter does: no
/// resignation or draw acceptance, no break. What it only offers (a draw, a continuation) is
/// kept: it does nothing until the player answers it. The summary keeps what was applied and
/// offered, and says what was not acted on.
fn move_only(mut p: Play) -> Play {
    let mut left = Vec::new();
    // The summary's order (judge::play): the move, our variation accepted, the draw offer,
    // then the break and the ending.
    let kept = 1 + usize::from(p.accepted > 0) + usize::from(p.draw == Draw::Offered);
    let mut summary: Vec<Said> = p.summary.iter().take(kept).cloned().collect();
    if p.break_notice.take().is_some() {
        left.push(Said::new("the break notice", "извещение о перерыве"));
    }
    match p.result {
        Some((_, Ending::Resignation)) => {
            p.result = None;
            left.push(Said::new("the resignation", "сдача партии"));
        }
        Some((_, Ending::Agreement)) => {
            p.result = None;
            left.push(Said::new("the draw acceptance", "согласие на ничью"));
        }
        // Mate or a drawn position: the board's, by the move itself (the last two lines).
        Some(_) => summary.extend(p.summary.iter().rev().take(2).rev().cloned()),
        None => {}
    }
    if !left.is_empty() {
        let left = join_with(&left, ", ");
        summary.push(Said::new(
            format!(
                "not acted on, unverified (set [security] authserv_id): {}",
                left.en
            ),
            format!(
                "без последствий, отправитель не подтверждён (задайте [security] \
                 authserv_id): {}",
                left.ru
            ),
        ));
    }
    p.summary = summary;
    p
}

/// "held, unverified": what the letter would do, and the way out.
fn would(what: &Said) -> Said {
    Said::new(
        format!(
            "{}; unverified: set [security] authserv_id (`ccmail check` proposes it) to act on \
             such letters",
            what.en
        ),
        format!(
            "{}; отправитель не подтверждён: задайте [security] authserv_id (его предложит \
             `ccmail check`), чтобы такие письма действовали",
            what.ru
        ),
    )
}

fn join(said: &[Said]) -> Said {
    join_with(said, "; ")
}

fn join_with(said: &[Said], sep: &str) -> Said {
    Said::new(
        said.iter()
            .map(|s| s.en.as_str())
            .collect::<Vec<_>>()
            .join(sep),
        said.iter()
            .map(|s| s.ru.as_str())
            .collect::<Vec<_>>()
            .join(sep),
    )
}

#[cfg(test)]
mod tests;
