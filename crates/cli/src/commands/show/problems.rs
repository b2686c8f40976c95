//! What is wrong in a game, for `show`, `games` and the JSON of both: held messages, mail
//! that could not be sent or waits to go after a failed try, a correction owed, a control
//! overstepped, our last move's unknown send date. Each problem has its words (`show`) and
//! its English `code` and `detail` (the JSON of docs/cli.md).

use std::collections::HashMap;

use ccmail::app::game::Game;
use ccmail_core::clock::ClockReport;
use ccmail_store as store;
use chrono::NaiveDate;
use serde_json::{Value, json};
use shakmaty::Color;

use super::super::Ctx;

/// A game's mail that is a problem: its held messages, the mail that could not be sent, and
/// the mail that waits to go after a failed try.
#[derive(Debug, Default)]
pub struct TroubleMail {
    held: Vec<store::MessageRow>,
    failed: Vec<store::OutboxRow>,
    retrying: Vec<store::OutboxRow>,
}

/// Every game's [`TroubleMail`], from two queries for all games.
pub async fn trouble_mail(
    conn: &mut store::SqliteConnection,
) -> anyhow::Result<HashMap<String, TroubleMail>> {
    let mut out: HashMap<String, TroubleMail> = HashMap::new();
    for m in store::held(conn).await? {
        if let Some(game) = m.game_id.clone() {
            out.entry(game).or_default().held.push(m);
        }
    }
    for o in store::unsent(conn).await? {
        let Some(game) = o.game_id.clone() else {
            continue;
        };
        match o.state() {
            store::LetterState::Failed => out.entry(game).or_default().failed.push(o),
            store::LetterState::Retrying => out.entry(game).or_default().retrying.push(o),
            store::LetterState::Queued | store::LetterState::Sent => {}
        }
    }
    Ok(out)
}

/// What is wrong in a game, in words: held messages, mail that could not be sent, a
/// correction owed, a control overstepped.
pub async fn problems_of(ctx: &Ctx, game: &Game) -> anyhow::Result<Vec<Value>> {
    let trouble = trouble_mail(&mut *ctx.store.conn().await?).await?;
    let report = game.report(ctx.clock.today())?;
    Ok(problems(game, &report, trouble.get(game.id())))
}

/// [`problems_of`] from what is loaded already: the game's clock and its trouble mail.
pub fn problems(game: &Game, report: &ClockReport, trouble: Option<&TroubleMail>) -> Vec<Value> {
    problem_list(game, report, trouble)
        .iter()
        .map(Problem::json)
        .collect()
}

/// Something wrong in a game, with what its words need.
pub(super) enum Problem<'a> {
    /// A held message of the game, and why it is held.
    Held { message: i64, reason: &'a str },
    /// Mail of the game that could not be sent, and the error.
    SendFailed { message: i64, error: &'a str },
    /// Mail of the game that waits to go after failed tries: the last error and the next try.
    SendWaiting {
        message: i64,
        attempts: i64,
        error: &'a str,
        next: &'a str,
    },
    /// A correction request owed for the message received that day (51.3.4).
    CorrectionDue(NaiveDate),
    /// A side overstepped the control at a move, and it can still be claimed (51.6).
    Overstepped { side: Color, at: u32 },
    /// Our last move's send date is not known (an import without it): the game's id.
    LastSentUnknown(String),
}

impl Problem<'_> {
    /// The problem as the JSON of cli.md says it: a `code` and its `detail`, in English (scripts
    /// read them).
    fn json(&self) -> Value {
        let (code, detail) = match *self {
            Problem::Held { message, reason } => (
                "held_message",
                // not the interface's: JSON stays English
                format!("message {message} is held: {reason}"),
            ),
            Problem::SendFailed { message, error } => (
                "send_failed",
                // not the interface's: JSON stays English
                format!("message {message} could not be sent: {error}"),
            ),
            Problem::SendWaiting {
                message,
                attempts,
                error,
                next,
            } => (
                "send_waiting",
                // not the interface's: JSON stays English
                format!(
                    // not the interface's: JSON stays English
                    "message {message} waits to go: {attempts} failed tries, the last: {error}; \
                     next try {next}"
                ),
            ),
            Problem::CorrectionDue(due) => (
                "correction_due",
                // not the interface's: JSON stays English
                format!("a correction request is owed for the message received {due} (51.3.4)"),
            ),
            Problem::Overstepped { side, at } => {
                let side = if side.is_white() { "White" } else { "Black" };
                (
                    "control_overstepped",
                    // not the interface's: JSON stays English
                    format!("{side} overstepped the time control at move {at} (51.6)"),
                )
            }
            Problem::LastSentUnknown(ref id) => (
                "last_sent_unknown",
                // not the interface's: JSON stays English
                format!(
                    // not the interface's: JSON stays English
                    "our last move's send date is unknown: ccmail game set {id} --last-sent DATE"
                ),
            ),
        };
        json!({"code": code, "detail": detail})
    }

    /// The problem in words, as `show` prints it.
    pub(super) fn words(&self) -> String {
        match *self {
            Problem::Held { message, reason } => {
                ccmail::t!("show-problem-held", message = message, reason = reason)
            }
            Problem::SendFailed { message, error } => {
                ccmail::t!("show-problem-send-failed", message = message, error = error)
            }
            Problem::SendWaiting {
                message,
                attempts,
                error,
                next,
            } => ccmail::t!(
                "show-problem-send-waiting",
                message = message,
                count = attempts,
                error = error,
                next = super::minute_of(next)
            ),
            Problem::CorrectionDue(due) => ccmail::t!("show-problem-correction-due", date = due),
            Problem::Overstepped { side, at } => {
                ccmail::t!("show-problem-overstepped", side = super::side_name(side), move = at)
            }
            Problem::LastSentUnknown(ref id) => ccmail::t!("show-last-sent-unknown", id = id),
        }
    }
}

/// What is wrong in a game: held messages, mail that could not be sent, a correction owed, a
/// control overstepped.
pub(super) fn problem_list<'a>(
    game: &Game,
    report: &ClockReport,
    trouble: Option<&'a TroubleMail>,
) -> Vec<Problem<'a>> {
    let mut out = Vec::new();
    if let Some(t) = trouble {
        for m in &t.held {
            out.push(Problem::Held {
                message: m.id,
                reason: m.reason.as_deref().unwrap_or_default(),
            });
        }
        for o in &t.failed {
            out.push(Problem::SendFailed {
                message: o.message,
                error: o.last_error.as_deref().unwrap_or_default(),
            });
        }
        for o in &t.retrying {
            out.push(Problem::SendWaiting {
                message: o.message,
                attempts: o.attempts,
                // In a sender's hands again: its error is cleared until the try ends.
                error: o.last_error.as_deref().unwrap_or("—"),
                next: &o.next_attempt_at,
            });
        }
    }
    if let Some(due) = game.row.correction_due {
        out.push(Problem::CorrectionDue(due));
    }
    if game.last_sent_unknown() {
        out.push(Problem::LastSentUnknown(game.id().to_owned()));
    }
    // An overstep is a problem while it can still be claimed: once the other side has
    // answered the control move, or the game is over, it is settled (51.6.1).
    for (side, c) in [
        (Color::White, &report.clock.white),
        (Color::Black, &report.clock.black),
    ] {
        if let Some(at) = c
            .claimable_at
            .filter(|_| game.row.status != store::GameStatus::Finished)
        {
            out.push(Problem::Overstepped { side, at });
        }
    }
    out
}
