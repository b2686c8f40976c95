//! `ccmail parse FILE|-`: what ccmail reads from one message (docs/cli.md).

use std::io::{IsTerminal, Write};
use std::path::Path;

use ccmail::i18n::date;
use ccmail::term::shown;
use ccmail_core::board::{self, Glyphs};
use ccmail_core::message::{Envelope, MoveMessage};
use ccmail_core::notation::san;
use ccmail_mail::mime::MimeNote;
use serde_json::{Value, json};
use shakmaty::{Chess, Move, Position};

pub fn run(file: &Path, json: bool) -> anyhow::Result<()> {
    let raw = super::read_input(file, &ccmail::t!("cmd-what-message-file"))?;
    let (envelope, msg, mime_notes) = ccmail::incoming::read_raw(&raw);
    let mut out = std::io::stdout().lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &to_json(&envelope, &msg))?;
        writeln!(out)?;
    } else {
        let glyphs = if std::io::stdout().is_terminal() {
            Glyphs::Unicode
        } else {
            Glyphs::Ascii
        };
        out.write_all(human(&envelope, &msg, &mime_notes, glyphs).as_bytes())?;
    }
    Ok(())
}

/// The moves in SAN (English letters, no check sign), replayed from `pos`.
fn sans(pos: Chess, moves: &[Move]) -> Vec<String> {
    ccmail_core::notation::sans(&pos, moves)
}

/// The object of docs/cli.md, "`ccmail parse`".
pub fn to_json(envelope: &Envelope, msg: &MoveMessage) -> Value {
    let before = msg.position_before();
    let date = |d: Option<chrono::NaiveDate>| d.map(|d| d.to_string());
    json!({
        "kind": msg.kind,
        "from": envelope.from,
        "subject": envelope.subject,
        "date_header": date(envelope.date_sent()),
        "header": {
            "event": msg.header.event,
            "start": date(msg.header.start),
            "white": msg.header.white,
            "black": msg.header.black,
        },
        "moves": sans(Chess::default(), &msg.moves),
        "new_move": msg.new_move.map(|m| san(&before, m)),
        "variation": sans(msg.position_after(), &msg.variation),
        "partner_move_sent": date(msg.partner_move_sent),
        "received": date(msg.received),
        "sent": date(msg.sent),
        "move_days": msg.move_days,
        "total_days": msg.total_days,
        "signature": msg.signature,
        "draw_offer": msg.draw_offer,
        "draw_accept": msg.draw_accept,
        "resign": msg.resign,
        "break": msg.break_notice,
        "repeat": msg.repeat,
        "problems": msg.problems,
    })
}

/// The human form: what was read, the board after the new move, the problems in words. What
/// the message says is shown as [`shown`] makes it: the JSON form has it exact.
fn human(
    envelope: &Envelope,
    msg: &MoveMessage,
    mime_notes: &[MimeNote],
    glyphs: Glyphs,
) -> String {
    let mut s = String::new();
    if msg.has(ccmail_core::message::ProblemCode::Unreadable) {
        return problems(s, msg, mime_notes);
    }
    let mut line = |label: String, value: Option<String>| {
        s.push_str(&format!(
            "{label:<16} {}\n",
            shown(value.as_deref().unwrap_or("—"))
        ));
    };
    let h = &msg.header;
    // The kind is the code the JSON form gives too.
    line(ccmail::t!("parse-kind"), Some(msg.kind.as_str().to_owned()));
    line(ccmail::t!("parse-from"), envelope.from.clone());
    line(ccmail::t!("parse-subject"), envelope.subject.clone());
    line(ccmail::t!("parse-date"), envelope.date_sent().map(date));
    line(ccmail::t!("parse-event"), h.event.clone());
    line(ccmail::t!("parse-start"), h.start.map(date));
    line(ccmail::t!("parse-white"), h.white.clone());
    line(ccmail::t!("parse-black"), h.black.clone());
    line(
        ccmail::t!("parse-moves"),
        Some(numbered(Chess::default(), &msg.moves)).filter(|m| !m.is_empty()),
    );
    let before = msg.position_before();
    line(
        ccmail::t!("parse-new-move"),
        msg.new_move.map(|m| numbered(before.clone(), &[m])).or(msg
            .new_move_text
            .as_ref()
            .map(|text| ccmail::t!("parse-not-read", text = text))),
    );
    if !msg.variation.is_empty() {
        line(
            ccmail::t!("parse-variation"),
            Some(numbered(msg.position_after(), &msg.variation)),
        );
    }
    line(
        ccmail::t!("parse-your-move-sent"),
        msg.partner_move_sent.map(date),
    );
    line(ccmail::t!("parse-received"), msg.received.map(date));
    line(ccmail::t!("parse-sent"), msg.sent.map(date));
    line(
        ccmail::t!("parse-move-days"),
        msg.move_days.map(|d| d.to_string()),
    );
    line(
        ccmail::t!("parse-totals"),
        msg.total_days
            .map(|days| ccmail::t!("parse-totals-days", white = days.white, black = days.black)),
    );
    line(
        ccmail::t!("parse-signature"),
        msg.signature.as_ref().map(|sig| match &sig.email {
            Some(e) => format!("{} <{e}>", sig.name),
            None => sig.name.clone(),
        }),
    );
    let mut flags = Vec::new();
    for (on, what) in [
        (msg.draw_offer, ccmail::t!("parse-offers-draw")),
        (msg.draw_accept, ccmail::t!("parse-accepts-draw")),
        (msg.resign, ccmail::t!("parse-resigns")),
        (msg.repeat, ccmail::t!("parse-repeats")),
    ] {
        if on {
            flags.push(what);
        }
    }
    if let Some(b) = msg.break_notice {
        flags.push(ccmail::t!("parse-takes-break", from = b.from, to = b.to));
    }
    if !flags.is_empty() {
        line(ccmail::t!("parse-also"), Some(flags.join("; ")));
    }
    for note in &msg.notes {
        // The core's notes, in its words.
        line(ccmail::t!("parse-note"), Some(note.clone()));
    }
    let after = msg.position_after();
    let last = msg.new_move.and_then(|m| board::squares(&before, m));
    s.push('\n');
    s.push_str(&board::render(&after, shakmaty::Color::White, glyphs, last));
    s.push('\n');
    problems(s, msg, mime_notes)
}

fn problems(mut s: String, msg: &MoveMessage, mime_notes: &[MimeNote]) -> String {
    if msg.problems.is_empty() {
        s.push_str(&format!("{}\n", ccmail::t!("parse-no-problems")));
    }
    for p in &msg.problems {
        let code = serde_json::to_value(p.code).ok();
        let code = code.as_ref().and_then(Value::as_str).unwrap_or("problem");
        // The code is the JSON form's, the detail the core's words in the interface's language.
        let detail = shown(p.detail_in(ccmail::i18n::language())).into_owned();
        s.push_str(&format!(
            "{}\n",
            ccmail::t!("parse-problem", code = code, detail = detail)
        ));
    }
    for note in mime_notes {
        let note = shown(&ccmail::app::errors::mime_note(note)).into_owned();
        s.push_str(&format!("{}\n", ccmail::t!("parse-mail-note", note = note)));
    }
    s
}

/// `1. e4 e5 2. Nf3` from `pos` on, in SAN with check signs.
fn numbered(mut pos: Chess, moves: &[Move]) -> String {
    let mut out = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let n = pos.fullmoves();
        let text = ccmail_core::notation::write_move(&pos, m, ccmail_core::notation::Notation::San);
        if pos.turn().is_white() {
            out.push(format!("{n}. {text}"));
        } else if i == 0 {
            out.push(format!("{n}... {text}"));
        } else {
            out.push(text);
        }
        // legal: the reader's moves, each found by notation::read_move in turn from `pos`
        pos.play_unchecked(m);
    }
    out.join(" ")
}
