//! `ccmail outbox [--all]`: the letters waiting to go and those that failed (with `--all` the
//! sent ones too), each with its state, its tries and its last error. `move` and the daemon
//! say a letter "is retried"; this is where the player sees that it is, why, and until when.

use std::io::Write;

use ccmail::term::shown;
use ccmail_mail::mime;
use ccmail_store::{self as store, LetterState, OutboxLetter};
use chrono::DateTime;
use chrono_tz::Tz;
use serde_json::{Value, json};

use super::Ctx;

pub async fn run(ctx: &Ctx, all: bool) -> anyhow::Result<()> {
    let letters = store::letters(&mut *ctx.store.conn().await?, all).await?;
    if ctx.json {
        let list: Vec<Value> = letters.iter().map(to_json).collect();
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    let tz = ctx.clock.tz;
    super::write_out(|w| {
        if letters.is_empty() {
            let empty = if all {
                ccmail::t!("outbox-empty-all")
            } else {
                ccmail::t!("outbox-empty")
            };
            return writeln!(w, "{empty}");
        }
        writeln!(
            w,
            "{:>5}  {:<8}  {:<12}  {:<12}  {:<16}  {}",
            ccmail::t!("outbox-column-id"),
            ccmail::t!("outbox-column-game"),
            ccmail::t!("outbox-column-kind"),
            ccmail::t!("outbox-column-state"),
            ccmail::t!("outbox-column-queued"),
            ccmail::t!("outbox-column-to"),
        )?;
        for letter in &letters {
            write_letter(w, letter, tz)?;
        }
        Ok(())
    })
}

/// A letter's row, and under it its subject and what became of it.
fn write_letter(w: &mut dyn Write, l: &OutboxLetter, tz: Tz) -> std::io::Result<()> {
    let (to, cc) = addressees(l);
    let mut whom = to.join(", ");
    if !cc.is_empty() {
        whom.push(' ');
        whom.push_str(&ccmail::t!("outbox-cc", addresses = cc.join(", ")));
    }
    writeln!(
        w,
        "{:>5}  {:<8}  {:<12}  {:<12}  {:<16}  {}",
        l.message,
        shown(l.game_id.as_deref().unwrap_or("—")),
        super::show::kind_words(&l.kind),
        state_words(l.state()),
        local(&l.queued_at, tz),
        shown(&whom),
    )?;
    let indent = " ".repeat(7);
    writeln!(w, "{indent}{}", shown(l.subject.as_deref().unwrap_or("—")))?;
    let error = shown(l.last_error.as_deref().unwrap_or("—")).into_owned();
    let detail = match l.state() {
        LetterState::Queued => {
            ccmail::t!("outbox-detail-queued", next = local(&l.next_attempt_at, tz))
        }
        LetterState::Retrying => ccmail::t!(
            "outbox-detail-retrying",
            count = l.attempts,
            next = local(&l.next_attempt_at, tz),
            error = error
        ),
        LetterState::Failed => ccmail::t!("outbox-detail-failed", error = error),
        LetterState::Sent => ccmail::t!(
            "outbox-detail-sent",
            at = local(l.sent_at.as_deref().unwrap_or("—"), tz)
        ),
    };
    writeln!(w, "{indent}{detail}")
}

/// A letter's state in the interface language.
pub fn state_words(state: LetterState) -> String {
    match state {
        LetterState::Queued => ccmail::t!("outbox-state-queued"),
        LetterState::Retrying => ccmail::t!("outbox-state-retrying"),
        LetterState::Failed => ccmail::t!("outbox-state-failed"),
        LetterState::Sent => ccmail::t!("outbox-state-sent"),
    }
}

/// A stored instant as the player reads it: `2026-03-05 14:07` in their zone; the stored
/// text if it is not RFC 3339.
pub fn local(stamp: &str, tz: Tz) -> String {
    match DateTime::parse_from_rfc3339(stamp) {
        // not the interface's: a date format, the same in both languages
        Ok(at) => at.with_timezone(&tz).format("%Y-%m-%d %H:%M").to_string(),
        Err(_) => stamp.to_owned(),
    }
}

/// The letter's To and Cc, read from its bytes; all its recipients as To when they can't be
/// read (it is our own message: they can).
fn addressees(l: &OutboxLetter) -> (Vec<String>, Vec<String>) {
    let emails = |list: &[mime::Address]| list.iter().map(|a| a.email.clone()).collect();
    match mime::decode(&l.raw) {
        Ok(d) if !d.to.is_empty() || !d.cc.is_empty() => (emails(&d.to), emails(&d.cc)),
        _ => (
            l.recipients
                .split(',')
                .filter(|r| !r.is_empty())
                .map(str::to_owned)
                .collect(),
            Vec::new(),
        ),
    }
}

/// A letter as `outbox --json` gives it (docs/cli.md): every field present, `null` when
/// unknown; times RFC 3339.
fn to_json(l: &OutboxLetter) -> Value {
    let (to, cc) = addressees(l);
    let state = l.state();
    let waiting = matches!(state, LetterState::Queued | LetterState::Retrying);
    json!({
        "id": l.message,
        "game": l.game_id,
        "kind": l.kind.as_str(),
        "to": to,
        "cc": cc,
        "subject": l.subject,
        "state": state.as_str(),
        "queued_at": rfc3339(Some(&l.queued_at)),
        "sent_at": rfc3339(l.sent_at.as_deref()),
        "attempts": l.attempts,
        "last_error": l.last_error,
        "next_try": rfc3339(Some(l.next_attempt_at.as_str()).filter(|_| waiting)),
    })
}

/// A stored instant as RFC 3339 (as stored, when it already is; `null` when there is none).
fn rfc3339(stamp: Option<&str>) -> Value {
    match stamp {
        Some(s) => match DateTime::parse_from_rfc3339(s) {
            Ok(at) => Value::String(at.to_rfc3339()),
            Err(_) => Value::String(s.to_owned()),
        },
        None => Value::Null,
    }
}
