//! Our move as the standard-form message: every date and both clocks filled in (51.2.1),
//! the arbiter copied when the rules say so (51.4.10, 51.5.1; [`recipients`]), threaded in
//! the game's mail.
//! [`draft`] changes nothing (it is `--dry-run` and the preview); [`queue`] writes the move
//! and the message to the outbox in one transaction. In a game that asks for it, each message
//! with a move carries the game so far as a PGN attachment ([`pgn_attachment`]); the text
//! part stays the standard form.

use anyhow::{Context, anyhow, bail};
use ccmail_core::addressees::{self, Addressed, Who};
use ccmail_core::clock::ClockReport;
use ccmail_core::conditional::{self, Take};
use ccmail_core::message::{self, Outgoing, PartnerMove, Signature, Totals};
use ccmail_core::notation;
use ccmail_mail::smtp;
use ccmail_store::{
    self as store, MoveRow, NewMessage, SqliteConnection, StoredKind, VariationRow,
};
use chrono::NaiveDate;
use sha2::Digest;
use shakmaty::{Chess, Move, Position};

use super::game::{Game, color_name, to_uci};
use super::{Clock, Me, win_for};

/// What the player wants to send.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// The move, in any notation ccmail reads; `None` for a resignation or draw acceptance.
    pub mv: Option<String>,
    /// A conditional continuation after the move: the partner's reply, ours, … (51.3.7).
    pub variation: Option<String>,
    pub offer_draw: bool,
    pub accept_draw: bool,
    pub resign: bool,
    pub note: Option<String>,
    /// Whether the move is read as accepting the partner's offered variation (51.3.7–8).
    pub accept: Accept,
    /// Our private plan after this move (the prompt's `plan …`): their expected reply, ours, …
    pub plan: Option<String>,
}

/// How a request takes the variation the partner offered with their last move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Accept {
    /// It does not: the move is our reply, the variation our own offer.
    #[default]
    No,
    /// As typed at the prompt: the offer's moves typed before our reply are accepted.
    Typed,
    /// `--accept-variation[=N]`: all of it (`None`) or its first N half-moves; the move is our
    /// reply after them.
    Part(Option<usize>),
}

/// A composed message, not yet stored.
#[derive(Debug, Clone)]
pub struct Draft {
    pub game_id: String,
    pub my_move: Option<Move>,
    /// The partner's offered moves we accept, repeated before our move (51.3.8).
    pub accepted: Vec<Move>,
    /// The partner's offer and the ply through which this message accepts it.
    pub offer_through: Option<(i64, i64)>,
    pub variation: Vec<Move>,
    /// Our plan after this message, its first move expected as ply `ply + 1`.
    pub plan: Vec<Move>,
    /// The ply our move will be.
    pub ply: usize,
    /// When we received the move we answer (our ply's `received`).
    pub received: NaiveDate,
    pub sent: NaiveDate,
    pub form: Outgoing,
    pub mail: smtp::Outgoing,
    pub kind: StoredKind,
    pub result: Option<&'static str>,
    pub draw_offered_by: Option<String>,
}

impl Draft {
    /// The message as the user sees it before it goes: To, Cc, Subject, then the body.
    pub fn preview(&self) -> String {
        let list = |v: &[smtp::Mailbox]| {
            v.iter()
                .map(|m| m.email.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut s = format!(
            "{}\n",
            crate::t!("app-preview-to", to = list(&self.mail.to))
        );
        if !self.mail.cc.is_empty() {
            s.push_str(&format!(
                "{}\n",
                crate::t!("app-preview-cc", cc = list(&self.mail.cc))
            ));
        }
        s.push_str(&format!(
            "{}\n\n{}",
            crate::t!("app-preview-subject", subject = &self.mail.subject),
            self.mail.body
        ));
        for a in &self.mail.attachments {
            s.push_str(&format!(
                "\n{}\n",
                crate::t!(
                    "app-preview-attached",
                    file = &a.filename,
                    mime = &a.mime_type
                )
            ));
        }
        s
    }
}

/// Reads a move the player typed, against `pos`, with an error that says what is wrong.
pub fn read_player_move(pos: &Chess, text: &str) -> anyhow::Result<Move> {
    notation::read_move(pos, text).map_err(|e| anyhow!("{}", super::compose::explain(pos, &e)))
}

/// The error in words, with what was probably meant: the legal moves of that piece, the
/// disambiguation an ambiguous text needs (see [`super::prompt::suggest`]).
pub fn explain(pos: &Chess, e: &notation::MoveError) -> String {
    super::prompt::explain(pos, e)
}

/// The moves of `req` from the position now: the offered moves it accepts, our move, then our
/// own offer; and how to read them against the partner's offer. `None` when the request
/// carries no move (a resignation, an accepted draw).
fn our_line(game: &Game, req: &Request) -> anyhow::Result<Option<(Vec<Move>, Take)>> {
    let mut at = game.position();
    let (mut line, take) = match req.accept {
        Accept::Part(asked) => {
            let Some((_, offered)) = game.partner_offer() else {
                bail!(crate::t!("app-no-offer-to-accept", game = game.id()));
            };
            let asked = conditional::accepted_part(offered.len(), asked, req.mv.is_some())?;
            let line = offered[..asked].to_vec();
            for &m in &line {
                // legal: the partner's offer, replayed by uci_move (checked) from this position
                at.play_unchecked(m);
            }
            (line, Take::First(asked))
        }
        Accept::Typed => (Vec::new(), Take::Typed),
        Accept::No => (Vec::new(), Take::Nothing),
    };
    match &req.mv {
        Some(text) => {
            let m = read_player_move(&at, text)?;
            // legal: from read_player_move (notation::read_move) in this position
            at.play_unchecked(m);
            line.push(m);
        }
        None if !line.is_empty() => {}
        None if req.variation.is_some() => bail!(crate::t!("app-variation-needs-move")),
        None if req.resign || req.accept_draw => return Ok(None),
        None => bail!(crate::t!("app-no-move-given")),
    }
    if let Some(text) = &req.variation {
        line.extend(
            super::conditional::read_moves(&at, text)
                .with_context(|| crate::t!("app-in-the-variation"))?,
        );
    }
    Ok(Some((line, take)))
}

/// Composes the message for `req` in `game`; changes nothing.
pub fn draft(
    game: &Game,
    me: &Me,
    clock: &Clock,
    req: &Request,
    thread: &[String],
) -> anyhow::Result<Draft> {
    let id = game.id();
    let draw_offered_by_them = check_can_send(game, req)?;
    let n = game.plies.len();
    let pos = game.position();
    let moves = split_our_line(game, req, &pos)?;
    let plan = read_plan(req, &moves)?;
    let (received, sent) = date_the_message(game, clock, &moves)?;

    // Both clocks as they stand before this message, and as they will after it.
    let before = game.report(sent)?;
    let mut next = play_on_a_copy(game, &pos, &moves, (received, sent));
    let result = result_after(game, req, &moves.after);
    if let Some(r) = result {
        next.row.status = store::GameStatus::Finished;
        next.row.result = Some(r.into());
    }
    let report = next.report(sent)?;
    let (move_days, totals, low) = charge_the_message(&before, &report, n);
    let (to, cc) = recipients(
        game,
        addressees::Letter::Move {
            low_on_time: low,
            answers_repeat: game.row.answer_cc_arbiter,
        },
    )
    .with_context(|| crate::t!("app-move-goes-to-partner"))?;

    let form = fill_the_form(game, me, req, &moves, (received, sent), (move_days, totals));
    let kind = kind_of(req, &moves);
    let mut mail = envelope(
        game,
        me,
        clock,
        Letter {
            subject: message::subject(&form),
            body: message::write(&form),
            to,
            cc,
            kind: kind.clone(),
            ply: n + moves.accepted.len() + 1,
        },
        thread,
    );
    // The game so far, with this message's move and result.
    mail.attachments
        .extend(pgn_attachment(&next, me, sent, &kind)?);
    // Built once here so that a message that can't be built fails before anything is stored.
    smtp::build(&mail).with_context(|| crate::t!("app-cant-build-message"))?;
    let draw_offered_by = draw_offer_after(game, req, result, draw_offered_by_them);
    let OurMoves {
        accepted,
        my_move,
        variation,
        offer_through,
        ..
    } = moves;
    Ok(Draft {
        game_id: id.into(),
        my_move,
        ply: n + accepted.len() + 1,
        accepted,
        offer_through,
        variation,
        plan,
        received,
        sent,
        form,
        mail,
        kind,
        result,
        draw_offered_by,
    })
}

/// Who has a draw offer open once the message is sent: us when it offers one; nobody when it
/// ends the game or answers the partner's offer; else as before.
fn draw_offer_after(
    game: &Game,
    req: &Request,
    result: Option<&str>,
    draw_offered_by_them: bool,
) -> Option<String> {
    if req.offer_draw {
        Some(color_name(game.me).to_owned())
    } else if result.is_some() || draw_offered_by_them {
        None
    } else {
        game.row.draw_offered_by.clone()
    }
}

/// Checks that `req` can be sent in `game` now: the game is active, a draw accepted was
/// offered, and a move is ours to make. Returns whether the partner has offered a draw.
fn check_can_send(game: &Game, req: &Request) -> anyhow::Result<bool> {
    let id = game.id();
    if !game.is_active() {
        bail!(crate::t!(
            "app-send-game-not-active",
            game = id,
            status = game.row.status.to_string()
        ));
    }
    let draw_offered_by_them =
        game.row.draw_offered_by.as_deref() == Some(color_name(game.opponent()));
    if req.accept_draw && !draw_offered_by_them {
        if game.partner_offer().is_some() {
            bail!(crate::t!("app-no-draw-offer-but-variation", game = id));
        }
        bail!(crate::t!("app-no-draw-offer", game = id));
    }
    let needs_turn = req.mv.is_some() || !(req.resign || req.accept_draw);
    if needs_turn && !game.my_turn() {
        bail!(crate::t!(
            "app-not-your-move",
            game = id,
            color = color_name(game.to_move())
        ));
    }
    Ok(draw_offered_by_them)
}

/// The moves of a message, read against the partner's offer.
struct OurMoves {
    /// The partner's offered moves we accept, repeated before our move (51.3.8).
    accepted: Vec<Move>,
    my_move: Option<Move>,
    /// Our own offer after our move.
    variation: Vec<Move>,
    /// The partner's offer and the ply through which this message accepts it.
    offer_through: Option<(i64, i64)>,
    /// The position after the accepted moves and ours.
    after: Chess,
}

/// Splits the moves of `req` ([`our_line`]) into the accepted part of the partner's offer,
/// our move and our own offer, from `pos`, the position now.
fn split_our_line(game: &Game, req: &Request, pos: &Chess) -> anyhow::Result<OurMoves> {
    let n = game.plies.len();
    let line = our_line(game, req)?;
    let offer = game.partner_offer();
    let reading = match (&line, &offer) {
        (Some((line, take)), _) => Some(conditional::read_line(
            offer.as_ref().map_or(&[][..], |(_, m)| m),
            line,
            *take,
        )?),
        (None, _) => None,
    };
    let (accepted, my_move, variation) = match (&line, reading) {
        (Some((line, _)), Some(r)) => (
            line[..r.repeated].to_vec(),
            Some(line[r.repeated]),
            line[r.repeated + 1..].to_vec(),
        ),
        _ => (Vec::new(), None, Vec::new()),
    };
    let offer_through = match (&offer, reading) {
        (Some((row, _)), Some(r)) if r.followed > 0 => Some((row.id, (n + r.followed) as i64)),
        _ => None,
    };
    let mut after = pos.clone();
    for &m in accepted.iter().chain(&my_move) {
        // legal: our_line's moves, found in turn from this position
        after.play_unchecked(m);
    }
    Ok(OurMoves {
        accepted,
        my_move,
        variation,
        offer_through,
        after,
    })
}

/// Reads our private plan of `req`, from the position after our move.
fn read_plan(req: &Request, moves: &OurMoves) -> anyhow::Result<Vec<Move>> {
    Ok(match &req.plan {
        Some(_) if moves.my_move.is_none() => bail!(crate::t!("app-plan-needs-move")),
        Some(text) => {
            let plan = super::conditional::read_moves(&moves.after, text)
                .with_context(|| crate::t!("app-in-the-plan"))?;
            conditional::check_plan(plan.len())?;
            plan
        }
        None => Vec::new(),
    })
}

/// Dates the message: when the move we answer was received, and today, when it is sent (not
/// before that, if it carries a move). Returns (received, sent).
fn date_the_message(
    game: &Game,
    clock: &Clock,
    moves: &OurMoves,
) -> anyhow::Result<(NaiveDate, NaiveDate)> {
    let n = game.plies.len();
    let sent = clock.today();
    let received = if n == 0 {
        game.row.start_date
    } else {
        game.row.awaited_received.unwrap_or(game.moves[n - 1].sent)
    };
    if moves.my_move.is_some() && sent < received {
        bail!(crate::t!(
            "app-now-before-received",
            sent = sent,
            received = received
        ));
    }
    Ok((received, sent))
}

/// Plays the message's moves on a copy of `game` (from `pos`, the position now), with the
/// partner's offer accepted as far as it is.
fn play_on_a_copy(
    game: &Game,
    pos: &Chess,
    moves: &OurMoves,
    (received, sent): (NaiveDate, NaiveDate),
) -> Game {
    let n = game.plies.len();
    let mut next = game.clone();
    let mut at = pos.clone();
    for (i, &m) in moves.accepted.iter().chain(&moves.my_move).enumerate() {
        next.moves.push(MoveRow {
            game_id: game.id().into(),
            ply: (n + i + 1) as i64,
            uci: to_uci(m),
            san: notation::san(&at, m),
            received,
            sent,
            message: None,
        });
        next.plies.push(m);
        next.row.awaited_received = None;
        // legal: our_line's moves, found in turn from this position
        at.play_unchecked(m);
    }
    if let Some((offer, through)) = moves.offer_through {
        for v in next.variations.iter_mut().filter(|v| v.id == offer) {
            v.accepted_through = Some(through);
        }
    }
    next
}

/// The result the message ends the game with, if it does: our resignation, a draw accepted
/// or on the board, or our mate.
fn result_after(game: &Game, req: &Request, after: &Chess) -> Option<&'static str> {
    if req.resign {
        Some(win_for(game.opponent()))
    } else if req.accept_draw || after.is_stalemate() || after.is_insufficient_material() {
        Some("1/2-1/2")
    } else if after.is_checkmate() {
        Some(win_for(game.me))
    } else {
        None
    }
}

/// Charges the message on the clocks, `before` it and in the `report` after it (the game had
/// `n` plies): its days, both totals, and whether either side has five days or fewer left.
fn charge_the_message(before: &ClockReport, report: &ClockReport, n: usize) -> (u32, Totals, bool) {
    // The message's days: an accepted variation's are charged on one of its plies (51.4.6).
    let move_days = report.ply_days.iter().skip(n).sum();
    let totals = Totals {
        white: report.clock.white.total,
        black: report.clock.black.total,
    };
    // 51.4.10: five days or fewer left for either side → the arbiter gets a copy; judged
    // before the move is charged too, so the control move of a sender who had five days or
    // fewer left goes Cc (the move itself starts the next control).
    let low = [before, report]
        .iter()
        .flat_map(|r| [r.clock.white.left, r.clock.black.left])
        .any(|l| l <= 5);
    (move_days, totals, low)
}

/// Fills in the standard form of the message: the game, the partner's move we answer, ours,
/// the offers, the notes, the dates and the clocks.
fn fill_the_form(
    game: &Game,
    me: &Me,
    req: &Request,
    moves: &OurMoves,
    (received, sent): (NaiveDate, NaiveDate),
    (move_days, totals): (u32, Totals),
) -> Outgoing {
    let n = game.plies.len();
    let mut notes: Vec<String> = game
        .row
        .reply_notes
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    notes.retain(|n| !n.starts_with("answer to a repeat"));
    notes.extend(req.note.clone());
    Outgoing {
        language: game.language,
        notation: game.notation,
        event: game.row.event.clone(),
        start: game.row.start_date,
        white: game.row.white.clone(),
        black: game.row.black.clone(),
        moves: game.plies.iter().chain(&moves.accepted).copied().collect(),
        partner: (n > 0).then(|| PartnerMove {
            sent: game.moves[n - 1].sent,
            received,
            accepted: moves.accepted.len(),
        }),
        my_move: moves.my_move,
        variation: moves.variation.clone(),
        draw_offer: req.offer_draw,
        draw_accept: req.accept_draw,
        resign: req.resign,
        break_notice: None,
        repeat_of: None,
        notes,
        sent,
        move_days,
        totals,
        signature: Signature {
            name: me.name.clone(),
            email: Some(me.email.clone()),
        },
    }
}

/// The kind of message `req` makes: a resignation, a draw accepted without a move, or a move.
fn kind_of(req: &Request, moves: &OurMoves) -> StoredKind {
    if req.resign {
        StoredKind::RESIGN
    } else if moves.my_move.is_none() {
        StoredKind::DRAW
    } else {
        StoredKind::MOVE
    }
}

/// The game so far as a PGN file, for a message of `kind` in a game that asks for one
/// (`ccmail game new --attach-pgn`, `ccmail game set`); `None` otherwise.
pub fn pgn_attachment(
    game: &Game,
    me: &Me,
    today: NaiveDate,
    kind: &StoredKind,
) -> anyhow::Result<Option<smtp::Attachment>> {
    if !game.row.attach_pgn || !kind.carries_our_move() {
        return Ok(None);
    }
    let pgn = super::pgn::pgn_after_letter(game, kind, today, &me.email)?;
    Ok(Some(smtp::Attachment {
        filename: format!("{}.pgn", game.id()),
        mime_type: "application/x-chess-pgn".into(),
        data: pgn.into_bytes(),
    }))
}

/// The addresses `letter` goes to in `game`, To and Cc, as the core decides
/// ([`addressees::addressees`]): `None` when it goes to no one or needs an arbiter that a
/// friendly game has not.
pub fn recipients(game: &Game, letter: addressees::Letter) -> Option<(Vec<String>, Vec<String>)> {
    let address = |who: &Who| match who {
        Who::Partner => Some(game.row.opponent_email.clone()),
        Who::Arbiter => game.arbiter().map(str::to_owned),
    };
    match addressees::addressees(letter, game.arbiter().is_some()) {
        Addressed::Send { to, cc } => Some((
            to.iter().filter_map(address).collect(),
            cc.iter().filter_map(address).collect(),
        )),
        Addressed::NoOne | Addressed::NoArbiterToAsk => None,
    }
}

/// Our Message-ID: stable for this message once queued (a retry sends the same one), and
/// different for two different messages of the same game on the same day.
fn message_id(letter: &Letter, game: &str, clock: &Clock, email: &str) -> String {
    let seed = format!(
        "{game}/{}/{}/{}/{}/{}/{}",
        letter.ply,
        letter.kind,
        clock.stamp(),
        letter.to.join(","),
        letter.subject,
        letter.body
    );
    let digest = sha2::Sha256::digest(seed.as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let domain = email.rsplit_once('@').map_or("localhost", |(_, d)| d);
    format!("ccmail.{game}.{}.{hex}@{domain}", letter.ply)
}

/// What a message says and to whom, before it is an RFC 5322 message.
#[derive(Debug, Clone)]
pub struct Letter {
    pub subject: String,
    pub body: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    /// What it is, as the store keeps it.
    pub kind: StoredKind,
    /// The ply it concerns, for the Message-ID.
    pub ply: usize,
}

/// The mail for a letter in `game`: from us, our own stable Message-ID, threaded into the
/// game's mail ([`thread_headers`]).
pub fn envelope(
    game: &Game,
    me: &Me,
    clock: &Clock,
    letter: Letter,
    thread: &[String],
) -> smtp::Outgoing {
    let opponent_name = if game.me.is_white() {
        &game.row.black
    } else {
        &game.row.white
    };
    let mailbox = |email: &String| {
        let name = if *email == game.row.opponent_email {
            opponent_name.clone()
        } else {
            String::new()
        };
        smtp::Mailbox::new(name, email.clone())
    };
    let message_id = message_id(&letter, game.id(), clock, &me.email);
    let (in_reply_to, references) = thread_headers(thread);
    smtp::Outgoing {
        from: smtp::Mailbox::new(me.name.clone(), me.email.clone()),
        to: letter.to.iter().map(mailbox).collect(),
        cc: letter.cc.iter().map(mailbox).collect(),
        subject: letter.subject,
        body: letter.body,
        message_id,
        in_reply_to,
        references,
        date: clock.now.fixed_offset(),
        attachments: Vec::new(),
    }
}

/// In-Reply-To and References from the game's Message-IDs, oldest first: In-Reply-To the last
/// message, References the last twenty. An id no header can carry (a partner's written in
/// Cyrillic, one over 250 characters: [`smtp::threadable`]) is left out, so that one odd
/// message never stops the player from answering in the game.
pub fn thread_headers(thread: &[String]) -> (Option<String>, Vec<String>) {
    let mut references: Vec<String> = thread
        .iter()
        .rev()
        .filter(|id| smtp::threadable(id))
        .take(20)
        .cloned()
        .collect();
    references.reverse();
    (references.last().cloned(), references)
}

/// Queues `letter` in `game`'s thread (envelope, Message-ID, outbox): the one way every
/// message of a game goes out.
pub async fn queue_letter(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
    letter: Letter,
) -> anyhow::Result<i64> {
    let kind = letter.kind.clone();
    let thread = store::thread_ids(conn, game.id()).await?;
    let mut mail = envelope(game, me, clock, letter, &thread);
    mail.attachments
        .extend(pgn_attachment(game, me, clock.today(), &kind)?);
    queue_mail(conn, clock, Some(game.id()), kind, &mail).await
}

/// Stores an outgoing message and queues it in the outbox (sent after the commit).
pub async fn queue_mail(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: Option<&str>,
    kind: StoredKind,
    mail: &smtp::Outgoing,
) -> anyhow::Result<i64> {
    // The tag that makes the Message-ID unguessable (an answer to it is evidence of who
    // sent the answer); deterministic, so the same message queued twice is still one.
    let key = super::verify::key(conn).await?;
    let mail = &smtp::Outgoing {
        message_id: super::verify::tagged(&key, &mail.message_id),
        ..mail.clone()
    };
    let raw = smtp::build(mail).with_context(|| crate::t!("app-cant-build-message"))?;
    let to_addrs = mail.recipients().join(",");
    let id = store::insert_message(
        conn,
        &NewMessage {
            direction: store::Direction::Out,
            message_id: Some(&mail.message_id),
            raw: &raw,
            game_id: game,
            kind,
            from_addr: Some(mail.envelope_from()),
            to_addrs: Some(&to_addrs),
            subject: Some(&mail.subject),
            date_header: Some(mail.date.to_rfc3339()),
            status: store::MessageStatus::Queued,
            created_at: &clock.stamp(),
            ..NewMessage::default()
        },
    )
    .await?;
    // The very same message again (same Message-ID): it is queued or sent already.
    let store::Inserted::New(id) = id else {
        return Ok(id.id());
    };
    store::enqueue(
        conn,
        id,
        mail.envelope_from(),
        &mail.recipients(),
        &clock.stamp(),
    )
    .await?;
    Ok(id)
}

/// Stores the draft: the message (queued in the outbox), our move, the game's new state.
pub async fn queue(conn: &mut SqliteConnection, clock: &Clock, d: &Draft) -> anyhow::Result<i64> {
    let id = queue_mail(conn, clock, Some(&d.game_id), d.kind.clone(), &d.mail).await?;
    // The accepted moves (51.3.8) and ours, each with this message's dates.
    let first = d.ply - d.accepted.len();
    let mut pos = message::play_all(&d.form.moves[..first - 1]);
    for (i, &m) in d.accepted.iter().chain(&d.my_move).enumerate() {
        store::insert_move(
            conn,
            &MoveRow {
                game_id: d.game_id.clone(),
                ply: (first + i) as i64,
                uci: to_uci(m),
                san: notation::san(&pos, m),
                received: d.received,
                sent: d.sent,
                message: Some(id),
            },
        )
        .await?;
        // legal: the draft's moves, found in turn after the form's record
        pos.play_unchecked(m);
    }
    if d.my_move.is_some() {
        store::set_awaited_received(conn, &d.game_id, None).await?;
    }
    if let Some((offer, through)) = d.offer_through {
        store::accept_variation(conn, offer, through).await?;
    }
    if !d.plan.is_empty() {
        super::conditional::store_plan(conn, &d.game_id, &d.plan, d.ply + 1).await?;
    }
    if !d.variation.is_empty() {
        let by = if d.ply % 2 == 1 { "white" } else { "black" };
        let v = VariationRow {
            id: 0,
            game_id: d.game_id.clone(),
            proposed_by: by.into(),
            proposed_with: d.ply as i64,
            moves: d
                .variation
                .iter()
                .map(|&m| to_uci(m))
                .collect::<Vec<_>>()
                .join(" "),
            accepted_through: None,
        };
        store::insert_variation(conn, &v).await?;
    }
    store::set_reply_notes(conn, &d.game_id, "", false).await?;
    store::set_draw_offer(conn, &d.game_id, d.draw_offered_by.as_deref()).await?;
    if let Some(result) = d.result {
        store::set_status(conn, &d.game_id, store::GameStatus::Finished, Some(result)).await?;
        let plies: Vec<Move> = d.form.moves.iter().copied().chain(d.my_move).collect();
        let why = super::pgn::ending_by_letter(&plies, result, d.kind == StoredKind::RESIGN);
        store::set_ending(conn, &d.game_id, Some(&why.to_string())).await?;
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::thread_headers;

    #[test]
    fn thread_headers_leave_out_ids_no_header_can_carry() {
        let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let long = format!("{}@x", "a".repeat(249));
        let thread = ids(&["a@x", "ход.1@пример.рф", "b@x", "c d@x", "e\u{1}@x", &long]);
        assert_eq!(
            thread_headers(&thread),
            (Some("b@x".into()), ids(&["a@x", "b@x"]))
        );
        assert_eq!(thread_headers(&ids(&["ход@x"])), (None, vec![]));
        assert_eq!(thread_headers(&[]), (None, vec![]));
        // The last twenty that can be named.
        let many: Vec<String> = (1..=25).map(|n| format!("{n}@x")).collect();
        let (last, references) = thread_headers(&many);
        assert_eq!(last.as_deref(), Some("25@x"));
        assert_eq!(references, many[5..]);
    }
}
