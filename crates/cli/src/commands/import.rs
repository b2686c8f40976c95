//! `ccmail game import FILE|-`: games already under way, from a PGN file (one game or many), a
//! partner's last message, or an mbox of a game's mail.
//!
//! The core says what the file tells of each game (`ccmail_core::import`); this command fills
//! the rest from the flags and the config, refuses what is still missing by its name, and
//! writes the game, its moves and (for mail) its messages in one transaction per game. A game
//! already in the store (same event, players and opponent) is left as it is: importing twice
//! changes nothing. Nothing is sent.

use anyhow::{Context, bail};
use ccmail::app::game::{color_name, to_uci};
use ccmail::incoming::{self, Incoming};
use ccmail::term::shown;
use ccmail_core::clock::{Control, Profile};
use ccmail_core::import::charset::{self, Charset};
use ccmail_core::import::{self, Imported, Letter};
use ccmail_core::message::{Language, one_line};
use ccmail_core::notation::Notation;
use ccmail_mail::mbox;
use ccmail_store::{self as store, GameRow, MoveRow, NewMessage};
use chrono::{NaiveDate, TimeZone};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};

use super::Ctx;
use super::game_new::fresh_id;
use crate::cli::ImportArgs;

/// One message of the file, read, with the day it arrived.
struct Mail {
    raw: Vec<u8>,
    incoming: Incoming,
    arrived: Option<NaiveDate>,
    arrived_at: Option<String>,
}

pub async fn run(ctx: &Ctx, a: ImportArgs) -> anyhow::Result<()> {
    let raw = super::read_input(&a.file, &ccmail::t!("cmd-what-file"))?;
    let name = a.file.display().to_string();
    let (games, mails) = if mbox::is_mbox(&raw) {
        let mails: Vec<Mail> = mbox::split(&raw)
            .into_iter()
            .map(|e| {
                let delivered = e.delivered.and_then(|d| {
                    ctx.clock
                        .tz
                        .from_local_datetime(&d)
                        .earliest()
                        .map(|d| d.fixed_offset())
                });
                mail(ctx, e.raw, delivered)
            })
            .collect();
        (vec![from_mail(ctx, &mails, &name)?], mails)
    } else if looks_like_pgn(&raw) {
        let told = a
            .encoding
            .as_deref()
            .map(str::parse::<Charset>)
            .transpose()?;
        let (text, _) = charset::decode(&raw, told);
        let games = import::from_pgn(&text).with_context(|| name.clone())?;
        if games.is_empty() {
            bail!("{}", ccmail::t!("cmd-import-no-game", name = &name));
        }
        (games, Vec::new())
    } else {
        let mails = vec![mail(ctx, raw, None)];
        (vec![from_mail(ctx, &mails, &name)?], mails)
    };
    let mut ids = Vec::new();
    for (n, game) in games.iter().enumerate() {
        let label = if games.len() > 1 {
            ccmail::t!("cmd-import-label", name = &name, n = n + 1)
        } else {
            name.clone()
        };
        let (id, notes) = bring_in(ctx, &a, game, &mails)
            .await
            .with_context(|| ccmail::t!("cmd-import-failed", label = &label))?;
        if !ctx.json {
            println!("{id}");
            for note in notes {
                eprintln!(
                    "{}",
                    ccmail::t!(
                        "cmd-import-note",
                        id = &id,
                        note = shown(&note).into_owned()
                    )
                );
            }
        }
        ids.push(serde_json::json!({ "id": id }));
    }
    if ctx.json {
        println!("{}", serde_json::Value::Array(ids));
    }
    Ok(())
}

/// A PGN file starts (after a byte-order mark, blank lines and `%` escape lines) with a tag or
/// a move number; a message starts with a header.
fn looks_like_pgn(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    let first = text
        .trim_start_matches('\u{feff}')
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%'));
    first.is_some_and(|l| l.starts_with('[') || l.starts_with("1.") || l.starts_with('{'))
}

/// Reads one message; it arrived on the date of its topmost `Received:` header, else of its
/// mbox `From ` line, else of its `Date:`.
fn mail(ctx: &Ctx, raw: Vec<u8>, delivered: Option<chrono::DateTime<chrono::FixedOffset>>) -> Mail {
    let incoming = incoming::read(&raw);
    let at = incoming
        .decoded
        .as_ref()
        .and_then(|d| d.received_date)
        .or(delivered)
        .or(incoming.envelope.date);
    Mail {
        raw,
        arrived: at.map(|t| ctx.clock.local_date(t)),
        arrived_at: at.map(|t| t.to_rfc3339()),
        incoming,
    }
}

fn from_mail(ctx: &Ctx, mails: &[Mail], name: &str) -> anyhow::Result<Imported> {
    let mut order: Vec<&Mail> = mails.iter().collect();
    order.sort_by_key(|m| m.incoming.envelope.date);
    let letters: Vec<Letter<'_>> = order
        .iter()
        .map(|m| Letter {
            envelope: &m.incoming.envelope,
            message: &m.incoming.message,
            arrived: m.arrived,
            cc: m
                .incoming
                .decoded
                .as_ref()
                .map(|d| d.cc.iter().map(|a| a.normalized_email()).collect())
                .unwrap_or_default(),
            text: m.incoming.decoded.as_ref().map_or("", |d| d.text.as_str()),
        })
        .collect();
    import::from_letters(&letters, &ctx.me.email).with_context(|| name.to_owned())
}

/// Writes one game unless it is in the store already; its id, and what was assumed.
async fn bring_in(
    ctx: &Ctx,
    a: &ImportArgs,
    game: &Imported,
    mails: &[Mail],
) -> anyhow::Result<(String, Vec<String>)> {
    let row = game_row(ctx, a, game)?;
    let mut tx = ctx.store.begin().await?;
    for old in store::games_with(&mut tx, &row.opponent_email).await? {
        let g = &old.game;
        if g.event == row.event && g.white == row.white && g.black == row.black {
            let already = ccmail::t!("cmd-import-already", id = &g.id);
            return Ok((g.id.clone(), vec![already]));
        }
    }
    let history = game.history(row.start_date);
    let mut row = row;
    if let Some(c) = history.carried {
        row.carried_through = i64::from(c.through);
        row.carried_white = i64::from(c.white);
        row.carried_black = i64::from(c.black);
    }
    let me = ccmail::app::game::color(&row.my_color)?;
    if row.status == store::GameStatus::Active
        && Color::from_white(game.moves.len().is_multiple_of(2)) == me
    {
        row.awaited_received = game.last_received;
    }
    let mut plies = history.plies.clone();
    let mut notes = history.notes.clone();
    let unknown = last_sent(a, game, me, &row, &mut plies)?;
    row.id = fresh_id(&mut tx, &row).await?;
    if row.arbiter_email.is_empty() && row.status == store::GameStatus::Active {
        notes.push(ccmail::t!("cmd-import-friendly", id = &row.id));
    }
    if let Some(label) = unknown {
        row.unknown_sent_ply = i64::try_from(plies.len()).unwrap_or(i64::MAX);
        notes.push(ccmail::t!(
            "cmd-import-last-sent-unknown",
            move = label,
            id = &row.id
        ));
    }
    store::insert_game(&mut tx, &row).await?;
    let mut pos = Chess::default();
    for (i, (&m, dates)) in game.moves.iter().zip(&plies).enumerate() {
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        pos = pos
            .play(m)
            .with_context(|| ccmail::t!("cmd-import-illegal", n = i + 1))?;
        store::insert_move(
            &mut tx,
            &MoveRow {
                game_id: row.id.clone(),
                ply: i as i64 + 1,
                uci: to_uci(m),
                san,
                received: dates.received,
                sent: dates.sent,
                message: None,
            },
        )
        .await?;
    }
    keep_marks(ctx, &mut tx, &row.id, game).await?;
    for m in mails {
        keep_message(ctx, &mut tx, &row.id, m).await?;
    }
    tx.commit().await?;
    Ok((row.id, notes))
}

/// Our last move's send date where the file does not give it: `--last-sent`, else asked for
/// on a terminal. Set in `plies`; the move (`20. Nxc6+`) when it is still not known.
fn last_sent(
    a: &ImportArgs,
    game: &Imported,
    me: Color,
    row: &GameRow,
    plies: &mut [ccmail_core::clock::Ply],
) -> anyhow::Result<Option<String>> {
    let ours = row.status == store::GameStatus::Active && game.last_mover() == Some(me);
    let Some(last) = plies.last_mut().filter(|_| ours) else {
        return Ok(None);
    };
    let given = match &a.last_sent {
        Some(d) => Some(super::date_arg("--last-sent", d)?),
        None if game.dates.last().is_some_and(|d| d.sent.is_some()) => return Ok(None),
        None => None,
    };
    let n = game.moves.len();
    let before = ccmail_core::message::play_all(&game.moves[..n - 1]);
    let san = SanPlus::from_move(before, game.moves[n - 1]).to_string();
    let label = if n % 2 == 1 {
        format!("{}. {san}", n.div_ceil(2))
    } else {
        format!("{}... {san}", n / 2)
    };
    let Some(date) = given.map_or_else(|| ask_last_sent(&label), |d| Ok(Some(d)))? else {
        return Ok(Some(label));
    };
    last.sent = date;
    last.received = last.received.min(date);
    Ok(None)
}

/// Asks on a terminal when our last move was sent; `None` when there is no terminal or the
/// answer is empty.
fn ask_last_sent(label: &str) -> anyhow::Result<Option<NaiveDate>> {
    use std::io::{BufRead, IsTerminal, Write};
    if !std::io::stdin().is_terminal() {
        return Ok(None);
    }
    loop {
        print!("{} ", ccmail::t!("cmd-import-last-sent-ask", move = label));
        std::io::stdout().flush()?;
        let mut answer = String::new();
        if std::io::stdin().lock().read_line(&mut answer)? == 0 || answer.trim().is_empty() {
            return Ok(None);
        }
        match super::date_arg("--last-sent", answer.trim()) {
            Ok(d) => return Ok(Some(d)),
            Err(e) => eprintln!("{e}"),
        }
    }
}

/// The game's row: the file's header, then the flags, then the config's defaults.
fn game_row(ctx: &Ctx, a: &ImportArgs, game: &Imported) -> anyhow::Result<GameRow> {
    let d = &ctx.cfg.defaults;
    let color = match &a.color {
        Some(c) => ccmail::app::game::color(&c.to_lowercase())
            .with_context(|| ccmail::t!("cmd-color-white-or-black", value = format!("{c:?}")))?,
        None => game
            .color_of(&ctx.me.email, &ctx.me.name)
            .with_context(|| ccmail::t!("cmd-import-colour"))?,
    };
    let (opponent, arbiter) = addresses(ctx, a, game, color)?;
    let event = a
        .event
        .clone()
        .or_else(|| game.event.clone())
        .with_context(|| ccmail::t!("cmd-import-event"))?;
    let start = match &a.start {
        Some(s) => super::date_arg("--start", s)?,
        None => game.start.with_context(|| ccmail::t!("cmd-import-start"))?,
    };
    let white = game
        .white
        .clone()
        .with_context(|| ccmail::t!("cmd-import-white"))?;
    let black = game
        .black
        .clone()
        .with_context(|| ccmail::t!("cmd-import-black"))?;
    let control: Control = match (&a.control, game.control) {
        (Some(c), _) => c.parse()?,
        (None, Some(c)) => c,
        (None, None) => d.control.parse()?,
    };
    // The letters' own language and notation before the config's: the partner is answered
    // as he writes.
    let notation: Notation = match (&a.notation, game.notation) {
        (Some(n), _) => n.parse()?,
        (None, Some(n)) => n,
        (None, None) => d.notation.parse()?,
    };
    let language: Language = match (&a.lang, game.language) {
        (Some(l), _) => l.parse()?,
        (None, Some(l)) => l,
        (None, None) => d.language.parse()?,
    };
    let rules: Profile = a.rules.clone().unwrap_or_else(|| d.rules.clone()).parse()?;
    let finished = game.result.is_some();
    ccmail_core::setup::check(&ccmail_core::setup::Setup {
        event: &one_line(&event),
        white: &one_line(&white),
        black: &one_line(&black),
        opponent: &opponent,
        arbiter: &arbiter,
        me: &ctx.me.email,
    })?;
    Ok(GameRow {
        event: one_line(&event),
        white: one_line(&white),
        black: one_line(&black),
        my_color: color_name(color).to_owned(),
        opponent_email: opponent,
        arbiter_email: arbiter,
        rules: rules.to_string(),
        control_moves: i64::from(control.moves()),
        control_days: i64::from(control.days()),
        notation: notation.to_string(),
        language: language.to_string(),
        status: if finished {
            store::GameStatus::Finished
        } else {
            store::GameStatus::Active
        },
        result: game.result.clone(),
        pgn_due: !finished,
        attach_pgn: d.attach_pgn,
        round: game.round.as_deref().map(one_line).unwrap_or_default(),
        ..GameRow::new("", start, &ctx.clock.stamp())
    })
}

/// The opponent's and the arbiter's addresses: the flags', else the file's (the other side's
/// address, a copy's), checked.
fn addresses(
    ctx: &Ctx,
    a: &ImportArgs,
    game: &Imported,
    color: shakmaty::Color,
) -> anyhow::Result<(String, String)> {
    let opponent = match &a.opponent {
        Some(o) => o.trim().to_lowercase(),
        None => game
            .email_of(!color)
            .map(str::to_owned)
            .filter(|o| !o.eq_ignore_ascii_case(&ctx.me.email))
            .with_context(|| ccmail::t!("cmd-import-opponent"))?,
    };
    let arbiter = match (&a.arbiter, &game.arbiter) {
        (Some(x), _) => x.trim().to_lowercase(),
        (None, Some(x)) => x.clone(),
        (None, None) => game
            .cc
            .iter()
            .find(|c| **c != opponent && **c != ctx.me.email)
            .cloned()
            .unwrap_or_default(),
    };
    for (flag, email) in [("--opponent", &opponent), ("--arbiter", &arbiter)] {
        if !email.is_empty() {
            super::email_arg(flag, email)?;
        }
    }
    Ok((opponent, arbiter))
}

/// What ccmail's own export said its clock counts beside the dates: penalties, extra periods
/// and the partner's breaks.
async fn keep_marks(
    ctx: &Ctx,
    tx: &mut store::SqliteConnection,
    id: &str,
    game: &Imported,
) -> anyhow::Result<()> {
    for p in &game.penalties {
        let row = store::PenaltyRow {
            id: 0,
            game_id: id.to_owned(),
            player: color_name(p.player).to_owned(),
            days: i64::from(p.days),
            cause: Ok(p.cause),
            ply: i64::from(p.ply),
            message: None,
            created_at: ctx.clock.stamp(),
        };
        store::insert_penalty(tx, &row).await?;
    }
    for e in &game.extras {
        let kind = match e.kind.as_str() {
            "correction_request" => store::ExtraPeriodKind::CorrectionRequest,
            "rejected_message" => store::ExtraPeriodKind::RejectedMessage,
            _ => continue,
        };
        let row = store::ExtraRow {
            id: 0,
            game_id: id.to_owned(),
            player: color_name(e.player).to_owned(),
            from_date: e.from,
            to_date: e.to,
            kind,
            fault: e.fault.map(Ok),
            ply: i64::from(e.ply),
        };
        store::insert_extra(tx, &row).await?;
    }
    for b in &game.breaks {
        let row = store::BreakRow {
            id: 0,
            game_id: Some(id.to_owned()),
            from_date: b.from,
            to_date: b.to,
            notice_date: b.notice,
            ended_on: b.ended,
            created_at: ctx.clock.stamp(),
        };
        store::insert_break(tx, &row).await?;
    }
    Ok(())
}

/// Stores a message of the imported mail as one of the game's: the partner's as applied, ours
/// as sent (its copy is in the player's archive already, so it is not copied to Sent again).
/// The daemon then knows it, and neither applies nor answers it a second time.
async fn keep_message(
    ctx: &Ctx,
    tx: &mut store::SqliteConnection,
    game: &str,
    m: &Mail,
) -> anyhow::Result<()> {
    let from = m.incoming.from();
    let ours = from.as_deref() == Some(ctx.me.email.as_str());
    let to_addrs = m.incoming.decoded.as_ref().map(|d| {
        d.to.iter()
            .chain(&d.cc)
            .map(|a| a.normalized_email())
            .collect::<Vec<_>>()
            .join(",")
    });
    let row = NewMessage {
        direction: if ours {
            store::Direction::Out
        } else {
            store::Direction::In
        },
        message_id: m.incoming.message_id(),
        raw: &m.raw,
        game_id: Some(game),
        kind: m.incoming.message.kind.into(),
        from_addr: from.as_deref(),
        to_addrs: to_addrs.as_deref(),
        subject: m.incoming.envelope.subject.as_deref(),
        date_header: m.incoming.envelope.date.map(|d| d.to_rfc3339()),
        received_at: m.arrived_at.clone(),
        status: if ours {
            store::MessageStatus::Sent
        } else {
            store::MessageStatus::Applied
        },
        reason: Some("imported"),
        mailbox: ours.then_some("imported"),
        created_at: &ctx.clock.stamp(),
        ..NewMessage::default()
    };
    store::insert_incoming(tx, &row).await?;
    Ok(())
}
