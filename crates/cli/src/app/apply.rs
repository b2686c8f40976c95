//! Applying an incoming message to its game, in one transaction (used by `apply`, `inbox
//! accept` and the daemon).
//!
//! The message is stored first, raw, whatever happens next: nothing is ever dropped. Then:
//! match the game (thread headers, the opponent's address, header names, move record); check
//! the repetition of the record ply by ply (51.3.3), an accepted variation (51.3.7–9) and the
//! new move (51.3.4–5); take the actual send date over the stated one and fill missing dates
//! (51.2.3); flag transmission over one day (51.2.5); record penalties (51.4.7), break notices,
//! draw offers and resignations. A message from an address not on file for the game is held,
//! never applied (51.1.2); so is one that can't be matched or read, with the reason.

use anyhow::Context;
use ccmail_core::clock::PenaltyCause;
use ccmail_core::message::{MoveMessage, ProblemCode};
use ccmail_core::notation;
use ccmail_core::trust;
use ccmail_mail::mime::{Automatic, Decoded};
use ccmail_store::{
    self as store, ExtraRow, Inserted, MoveRow, NewMessage, PenaltyRow, SqliteConnection, Store,
    StoredKind, VariationRow,
};
use chrono::{DateTime, FixedOffset, NaiveDate};
use shakmaty::{Color, Move, Position};

use super::game::{Game, color_name, to_uci, uci_move};
use super::game_index::GameIndex;
use super::verify::{self, Sender};
use super::{Clock, Me};
use crate::incoming::{self, Incoming};

/// A message as it arrived.
#[derive(Debug, Clone)]
pub struct Arrival<'a> {
    pub raw: &'a [u8],
    /// When it arrived (IMAP INTERNALDATE, `--received`, the `Received:` header, or now).
    pub at: DateTime<FixedOffset>,
    pub mailbox: Option<&'a str>,
    pub uid_validity: Option<u32>,
    pub uid: Option<u32>,
}

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Already stored (same Message-ID or the same bytes): nothing changed.
    Duplicate { message: i64 },
    /// Applied to a game.
    Applied {
        message: i64,
        game: String,
        summary: String,
    },
    /// Stored for a game, nothing to apply (a repeat of a move we have, a break notice).
    Info {
        message: i64,
        game: String,
        summary: String,
    },
    /// Held: shown in `ccmail inbox` with the reason.
    Held {
        message: i64,
        game: Option<String>,
        reason: String,
    },
}

impl Outcome {
    pub fn game(&self) -> Option<&str> {
        match self {
            Outcome::Applied { game, .. } | Outcome::Info { game, .. } => Some(game),
            Outcome::Held { game, .. } => game.as_deref(),
            Outcome::Duplicate { .. } => None,
        }
    }

    /// One line for the user.
    pub fn describe(&self) -> String {
        self.describe_in(crate::i18n::current())
    }

    /// [`Outcome::describe`] in `words`' language (JSON's: English). The reason and the
    /// summary are as they were said when the message was applied or held.
    pub fn describe_in(&self, words: &crate::i18n::Catalogue) -> String {
        use crate::i18n::Arg;
        match self {
            Outcome::Duplicate { message } => {
                words.text("app-outcome-duplicate", &[("message", Arg::from(*message))])
            }
            Outcome::Applied { game, summary, .. } | Outcome::Info { game, summary, .. } => words
                .text(
                    "app-game-said",
                    &[("game", Arg::from(game)), ("what", Arg::from(summary))],
                ),
            Outcome::Held {
                message, reason, ..
            } => words.text(
                "app-outcome-held",
                &[
                    ("message", Arg::from(*message)),
                    ("reason", Arg::from(reason)),
                ],
            ),
        }
    }
}

/// Stores and applies one incoming message.
pub async fn apply(
    store: &Store,
    me: &Me,
    clock: &Clock,
    arrival: &Arrival<'_>,
) -> anyhow::Result<Outcome> {
    apply_read(store, me, clock, arrival, &incoming::read(arrival.raw)).await
}

/// [`apply`], the message already read from `arrival.raw`.
pub async fn apply_read(
    store: &Store,
    me: &Me,
    clock: &Clock,
    arrival: &Arrival<'_>,
    incoming: &Incoming,
) -> anyhow::Result<Outcome> {
    let mut tx = store.begin().await?;
    let outcome = apply_in(&mut tx, me, clock, arrival, incoming).await?;
    tx.commit().await?;
    Ok(outcome)
}

/// [`apply_read`] inside the caller's transaction (the daemon applies a fetched batch and
/// records how far it read in one). An error leaves the message half applied: the caller
/// rolls the transaction back.
pub async fn apply_in(
    tx: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    arrival: &Arrival<'_>,
    incoming: &Incoming,
) -> anyhow::Result<Outcome> {
    apply_indexed(tx, me, clock, arrival, incoming, None).await
}

/// [`apply_in`], the message's game looked up in `index` (the store's games, by address and
/// header) rather than among all the games with its sender: a caller applying many messages
/// builds the index once.
pub async fn apply_indexed(
    tx: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    arrival: &Arrival<'_>,
    incoming: &Incoming,
    index: Option<&GameIndex>,
) -> anyhow::Result<Outcome> {
    let mid = incoming.message_id();
    let decoded = incoming.decoded.as_ref();
    let to_addrs = decoded.map(|d| {
        d.to.iter()
            .chain(&d.cc)
            .map(|a| a.normalized_email())
            .collect::<Vec<_>>()
            .join(",")
    });
    let from = incoming.from();
    let not_processed = crate::t!("app-held-not-processed");
    let row = NewMessage {
        direction: store::Direction::In,
        message_id: mid,
        raw: arrival.raw,
        kind: kind_of(&incoming.message),
        from_addr: from.as_deref(),
        to_addrs: to_addrs.as_deref(),
        subject: incoming.envelope.subject.as_deref(),
        date_header: incoming.envelope.date.map(|d| d.to_rfc3339()),
        received_at: Some(arrival.at.to_rfc3339()),
        status: store::MessageStatus::Held,
        reason: Some(not_processed.as_str()),
        mailbox: arrival.mailbox,
        uid_validity: arrival.uid_validity.map(i64::from),
        uid: arrival.uid.map(i64::from),
        created_at: &clock.stamp(),
        ..NewMessage::default()
    };
    let id = match store::insert_incoming(tx, &row).await? {
        Inserted::New(id) => id,
        Inserted::Duplicate(id) => return Ok(Outcome::Duplicate { message: id }),
    };
    let received = clock.local_date(arrival.at);
    let found = Matching {
        forced: None,
        index,
    };
    process(tx, me, clock, id, incoming, received, found).await
}

/// How [`process`] finds the message's game: the one given, or by [`find_game`] (with an
/// index, or without).
#[derive(Clone, Copy)]
struct Matching<'a> {
    forced: Option<&'a str>,
    index: Option<&'a GameIndex>,
}

/// Applies a held message to `game` after the user accepted it (`inbox accept`): the sender
/// becomes the game's opponent address (51.1.2), unless it is the game's arbiter. With
/// `by_eye`, the move is the one the player read in the message, and its record is taken as
/// ours: the player has looked where ccmail could not.
pub async fn accept(
    store: &Store,
    me: &Me,
    clock: &Clock,
    message: i64,
    game: &str,
    how: &Accepting<'_>,
) -> anyhow::Result<Outcome> {
    let mut tx = store.begin().await?;
    let row = held_row(&mut tx, message).await?;
    let raw = store::raw(&mut tx, message).await?.unwrap_or_default();
    let mut incoming = incoming::read(&raw);
    let g = Game::load(&mut tx, game)
        .await?
        .with_context(|| crate::t!("app-no-game", game = game))?;
    if let Some(text) = how.by_eye {
        read_by_eye(&g, &mut incoming.message, text)?;
    }
    let from = incoming.from();
    if let Some(from) = &from
        && from != &g.row.opponent_email
        && g.arbiter() != Some(from.as_str())
        && from != &me.email
    {
        store::set_opponent_email(&mut tx, game, from).await?;
    }
    if how.trust
        && let Some(from) = &from
    {
        store::trust_sender(&mut tx, game, from, &clock.stamp()).await?;
    }
    let at = received_at(&row, clock);
    let outcome = process(
        &mut tx,
        me,
        clock,
        message,
        &incoming,
        clock.local_date(at),
        Matching {
            forced: Some(game),
            index: None,
        },
    )
    .await?;
    tx.commit().await?;
    Ok(outcome)
}

/// How the player accepts a held message ([`accept`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Accepting<'a> {
    /// The partner's move as the player read it (`--move`).
    pub by_eye: Option<&'a str>,
    /// Trust the sender's address without verification in this game from now on.
    pub trust: bool,
}

/// What ties a held message to a game, for the player to weigh before its sender becomes the
/// game's opponent: `None` when accepting it changes no address (it comes from the opponent
/// on file, or from the arbiter, who never becomes the opponent).
pub async fn address_match(
    store: &Store,
    me: &Me,
    message: i64,
    game: &str,
) -> anyhow::Result<Option<String>> {
    let mut conn = store.conn().await?;
    held_row(&mut conn, message).await?;
    let raw = store::raw(&mut conn, message).await?.unwrap_or_default();
    let incoming = incoming::read(&raw);
    let g = Game::load(&mut conn, game)
        .await?
        .with_context(|| crate::t!("app-no-game", game = game))?;
    let Some(from) = incoming.from() else {
        return Ok(None);
    };
    if from == g.row.opponent_email || g.arbiter() == Some(from.as_str()) {
        return Ok(None);
    }
    anyhow::ensure!(
        from != me.email,
        "{}",
        crate::t!("app-message-from-us", message = message)
    );
    let mut ties = Vec::new();
    let thread = store::thread_ids(&mut conn, game).await?;
    if verify::answered(&incoming)
        .iter()
        .any(|id| thread.iter().any(|t| t == id))
    {
        ties.push(crate::t!("app-tie-thread"));
    }
    let msg = &incoming.message;
    match header_fits(&g, msg) {
        Some(true) => ties.push(crate::t!("app-tie-header")),
        Some(false) => ties.push(crate::t!("app-tie-other-header")),
        None => {}
    }
    if !msg.moves.is_empty() && record_fits(&g, msg) {
        ties.push(crate::t!("app-tie-record", count = msg.moves.len()));
    }
    let said = if ties.is_empty() {
        String::new()
    } else {
        format!(": {}", ties.join("; "))
    };
    let matches = match (ties.len(), header_fits(&g, msg)) {
        (_, Some(false)) => crate::t!("app-match-weak", ties = said),
        (0, _) => crate::t!("app-match-none"),
        (1, _) => crate::t!("app-match-in-part", ties = said),
        _ => crate::t!("app-match-strong", ties = said),
    };
    let on_file = crate::t!(
        "app-match-not-on-file",
        message = message,
        from = &from,
        address = &g.row.opponent_email,
        game = game
    );
    let accepting = crate::t!("app-match-accepting", from = &from);
    Ok(Some(format!("{on_file}\n{matches}\n{accepting}")))
}

/// The message as the player read it: a move message with `text` as the move after our
/// record. A move that is not legal is the player's typing error, refused in words.
fn read_by_eye(g: &Game, msg: &mut MoveMessage, text: &str) -> anyhow::Result<()> {
    anyhow::ensure!(
        g.to_move() != g.me,
        "{}",
        crate::t!("app-by-eye-your-move", game = g.id())
    );
    let pos = g.position();
    if let Err(e) = notation::read_move(&pos, text) {
        anyhow::bail!(crate::t!(
            "app-by-eye-not-a-move",
            text = format!("{text:?}"),
            game = g.id(),
            reason = e.reason_in(crate::i18n::language())
        ));
    }
    msg.kind = ccmail_core::message::MessageKind::Move;
    msg.new_move_text = Some(text.to_owned());
    msg.moves = g.plies.clone();
    msg.partner_move_text = None;
    msg.record_unread = false;
    msg.move_line_empty = false;
    msg.problems
        .retain(|p| !ccmail_core::judge::is_move_fault(p.code));
    Ok(())
}

/// A fault the player found by eye in a held message (`inbox fine`): two penalty days
/// (51.4.7), a correction request due at once (51.3.4), as for a fault ccmail finds itself.
pub async fn fine(
    store: &Store,
    clock: &Clock,
    message: i64,
    game: Option<&str>,
    cause: PenaltyCause,
) -> anyhow::Result<Outcome> {
    let mut tx = store.begin().await?;
    let row = held_row(&mut tx, message).await?;
    let id = game
        .map(str::to_owned)
        .or(row.game_id.clone())
        .with_context(|| crate::t!("app-fine-no-game", message = message))?;
    let g = Game::load(&mut tx, &id)
        .await?
        .with_context(|| crate::t!("app-no-game", game = &id))?;
    anyhow::ensure!(
        g.to_move() != g.me && g.row.status == store::GameStatus::Active,
        "{}",
        crate::t!("app-fine-nothing-awaited", game = &id)
    );
    let raw = store::raw(&mut tx, message).await?.unwrap_or_default();
    let incoming = incoming::read(&raw);
    let received = clock.local_date(received_at(&row, clock));
    let sent: Vec<NaiveDate> = g.moves.iter().map(|m| m.sent).collect();
    let from = incoming.from().unwrap_or_default();
    let view = super::play::view(&g, &sent, &[]);
    let letter = ccmail_core::judge::Letter {
        from: &from,
        msg: &incoming.message,
        date_sent: incoming.envelope.date_sent(),
        received,
        confirmed: true,
    };
    let (their_received, their_sent) = ccmail_core::judge::move_dates(&view, &letter);
    let what = ccmail_core::judge::fault_by_eye(cause);
    let outcome = record_fault(
        &mut tx,
        clock,
        &g,
        message,
        cause,
        (their_received, their_sent, received),
        what,
    )
    .await?;
    // Settled by the player: out of the inbox, kept with the game.
    let reason = match &outcome {
        Outcome::Held { reason, .. } => crate::t!("app-fined-by-player", reason = reason),
        other => other.describe(),
    };
    store::set_message_status(
        &mut tx,
        message,
        store::MessageStatus::Info,
        Some(&reason),
        Some(&id),
    )
    .await?;
    tx.commit().await?;
    Ok(Outcome::Info {
        message,
        game: id,
        summary: reason,
    })
}

async fn held_row(conn: &mut SqliteConnection, message: i64) -> anyhow::Result<store::MessageRow> {
    let row = store::message(conn, message)
        .await?
        .with_context(|| crate::t!("app-no-message", message = message))?;
    anyhow::ensure!(
        row.status == store::MessageStatus::Held,
        "{}",
        crate::t!(
            "app-message-not-held",
            message = message,
            status = row.status.to_string()
        )
    );
    Ok(row)
}

fn received_at(row: &store::MessageRow, clock: &Clock) -> DateTime<FixedOffset> {
    row.received_at
        .as_deref()
        .and_then(|s| DateTime::parse_from_rfc3339(s).ok())
        .unwrap_or_else(|| clock.now.fixed_offset())
}

/// The stored kind: cli.md's name of what the message is.
fn kind_of(msg: &MoveMessage) -> StoredKind {
    msg.kind.into()
}

async fn hold(
    conn: &mut SqliteConnection,
    message: i64,
    game: Option<&str>,
    reason: String,
) -> anyhow::Result<Outcome> {
    store::set_message_status(
        conn,
        message,
        store::MessageStatus::Held,
        Some(&reason),
        game,
    )
    .await?;
    Ok(Outcome::Held {
        message,
        game: game.map(str::to_owned),
        reason,
    })
}

/// Matches, checks and applies a stored message; records the outcome on it.
async fn process(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    message: i64,
    incoming: &Incoming,
    received: NaiveDate,
    matching: Matching<'_>,
) -> anyhow::Result<Outcome> {
    let forced = matching.forced;
    let msg = &incoming.message;
    if msg.has(ProblemCode::Unreadable) {
        let why = msg
            .problems
            .iter()
            .map(|p| p.detail_in(crate::i18n::language()))
            .collect::<Vec<_>>()
            .join("; ");
        let reason = crate::t!("app-held-unreadable", why = why);
        return hold(conn, message, None, reason).await;
    }
    let Some(from) = incoming.from() else {
        return hold(conn, message, None, crate::t!("app-held-no-from")).await;
    };
    if from == me.email {
        return hold(conn, message, None, crate::t!("app-held-from-us")).await;
    }
    // A forged From: the envelope sender (Return-Path) is someone else (51.1.2).
    if let Some(rp) = incoming
        .decoded
        .as_ref()
        .and_then(|d| d.return_path.as_deref())
    {
        let rp = rp.trim().to_lowercase();
        if !rp.is_empty() && forced.is_none() && rp != from {
            let reason = crate::t!("app-held-envelope-sender", sender = &rp, from = &from);
            return hold(conn, message, None, reason).await;
        }
    }
    if forced.is_none()
        && let Some(why) = incoming.decoded.as_ref().and_then(|d| d.automatic)
    {
        return hold_automatic(conn, message, incoming, &from, why).await;
    }
    let game = match forced {
        Some(id) => Game::load(conn, id)
            .await?
            .with_context(|| crate::t!("app-no-game", game = id))?,
        None => match find_game(conn, incoming, &from, matching.index).await? {
            Found::Game(g) => g,
            // The arbiter's letter about a game: judged as such, never as a new address.
            Found::NotOnFile(g) if g.arbiter() == Some(from.as_str()) => g,
            Found::NotOnFile(g) => {
                let reason = crate::t!(
                    "app-held-not-on-file",
                    game = g.id(),
                    from = &from,
                    address = &g.row.opponent_email,
                    message = message
                );
                return hold(conn, message, Some(g.id()), reason).await;
            }
            Found::Several(ids) => {
                let reason = crate::t!(
                    "app-held-several-games",
                    from = &from,
                    games = ids.join(", ")
                );
                return hold(conn, message, None, reason).await;
            }
            Found::Nothing => {
                let reason = crate::t!("app-held-no-game", from = &from);
                return hold(conn, message, None, reason).await;
            }
        },
    };
    if game.row.status == store::GameStatus::Finished {
        let reason = crate::t!("app-held-game-finished");
        return hold(conn, message, Some(game.id()), reason).await;
    }
    let unverified = if forced.is_none() && trust::must_be_verified(msg.kind) {
        match verify::sender(conn, me, message, (game.id(), &from), incoming).await? {
            Sender::Held(reason) => return hold(conn, message, Some(game.id()), reason).await,
            Sender::Unverified => true,
            Sender::Vouched => false,
        }
    } else {
        false
    };
    let confirmed = forced.is_some();
    super::play::incoming_to_game(
        conn,
        (me, clock),
        &game,
        message,
        incoming,
        (received, confirmed, unverified),
    )
    .await
}

/// Holds mail no person wrote, in words that say what it is: it is never the partner's
/// letter, nor a new address of theirs. The game its thread names, if any, is noted with it.
async fn hold_automatic(
    conn: &mut SqliteConnection,
    message: i64,
    incoming: &Incoming,
    from: &str,
    why: Automatic,
) -> anyhow::Result<Outcome> {
    let answers = incoming
        .decoded
        .as_ref()
        .map(Decoded::answers)
        .unwrap_or_default();
    let game = store::games_of_message_ids(conn, &answers)
        .await?
        .into_iter()
        .next();
    let reason = match why {
        Automatic::DeliveryReport => crate::t!("app-held-delivery-report", from = from),
        Automatic::AutoReply => crate::t!("app-held-auto-reply", from = from),
        Automatic::List => crate::t!("app-held-list", from = from),
    };
    hold(conn, message, game.as_deref(), reason).await
}

enum Found {
    Game(Game),
    NotOnFile(Game),
    Several(Vec<String>),
    Nothing,
}

/// Which game a message belongs to: its thread, the sender's games (narrowed by header
/// and record), or a game whose header it carries but whose opponent is someone else.
async fn find_game(
    conn: &mut SqliteConnection,
    incoming: &Incoming,
    from: &str,
    index: Option<&GameIndex>,
) -> anyhow::Result<Found> {
    let msg = &incoming.message;
    if let Some(d) = &incoming.decoded {
        for game in store::games_of_message_ids(conn, &d.answers()).await? {
            if let Some(g) = Game::load(conn, &game).await? {
                return Ok(if g.row.opponent_email == from {
                    Found::Game(g)
                } else {
                    Found::NotOnFile(g)
                });
            }
        }
    }
    let mut mine = Vec::new();
    // How many games the sender has: with several, only the games whose header the message
    // may fit are loaded (which of them the header rule keeps, below, is the same).
    let with_sender = match index {
        Some(index) => {
            let n = index.count(from);
            let ids = if n > 1 {
                index.fitting(from, msg)
            } else {
                index.fitting(from, &MoveMessage::default())
            };
            for id in ids {
                mine.extend(Game::load(conn, id).await?);
            }
            n
        }
        None => {
            for row in store::games_with(conn, from).await? {
                mine.push(Game::load_rest(conn, row).await?);
            }
            mine.len()
        }
    };
    if with_sender == 0 || (mine.is_empty() && with_sender == 1) {
        // Someone else writing about one of our games (by its header)?
        let all = Game::load_all(conn, false).await?;
        return Ok(
            match all.into_iter().find(|g| header_fits(g, msg) == Some(true)) {
                Some(g) => Found::NotOnFile(g),
                None => Found::Nothing,
            },
        );
    }
    if with_sender == 1 {
        return Ok(Found::Game(mine.pop().expect("one game")));
    }
    // Several games with this partner: the header, then the record decide.
    mine.retain(|g| header_fits(g, msg) != Some(false));
    let active: Vec<&Game> = mine
        .iter()
        .filter(|g| g.row.status != store::GameStatus::Finished)
        .collect();
    let exact: Vec<&Game> = active
        .iter()
        .copied()
        .filter(|g| record_fits(g, msg))
        .collect();
    let pick = match (exact.as_slice(), active.as_slice()) {
        ([g], _) | ([], [g]) => Some(g.id().to_owned()),
        _ => None,
    };
    match pick {
        Some(id) => Ok(Found::Game(
            mine.into_iter().find(|g| g.id() == id).expect("picked"),
        )),
        None if mine.is_empty() => Ok(Found::Nothing),
        None => Ok(Found::Several(
            mine.iter().map(|g| g.id().to_owned()).collect(),
        )),
    }
}

/// Whether the message's header names this game: `None` when it has no header to compare.
fn header_fits(g: &Game, msg: &MoveMessage) -> Option<bool> {
    let h = &msg.header;
    let same = |a: &str, b: &str| {
        let (a, b) = (a.trim().to_lowercase(), b.trim().to_lowercase());
        !a.is_empty() && (a.contains(&b) || b.contains(&a))
    };
    let mut seen = false;
    for (theirs, ours) in [
        (&h.event, &g.row.event),
        (&h.white, &g.row.white),
        (&h.black, &g.row.black),
    ] {
        if let Some(t) = theirs {
            seen = true;
            if !same(t, ours) {
                return Some(false);
            }
        }
    }
    seen.then_some(true)
}

/// Whether the message's record is this game's, up to the shorter of the two.
fn record_fits(g: &Game, msg: &MoveMessage) -> bool {
    let n = g.plies.len().min(msg.moves.len());
    same_moves(&g.plies[..n], &msg.moves[..n]) && msg.moves.len() + 1 >= g.plies.len()
}

pub(super) fn same_moves(a: &[Move], b: &[Move]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| to_uci(*x) == to_uci(*y))
}

pub(super) use ccmail_core::judge::Said;

/// Records a faulty message from the partner: two penalty days (51.4.7), the partner's days on
/// it as a rejected-message period, a correction due at once (51.3.4), and the words for it.
/// `dates` are the partner's receipt of our move, their send date, and our receipt of theirs.
pub(super) async fn record_fault(
    conn: &mut SqliteConnection,
    clock: &Clock,
    game: &Game,
    message: i64,
    cause: PenaltyCause,
    (their_received, their_sent, received): (NaiveDate, NaiveDate, NaiveDate),
    what: Said,
) -> anyhow::Result<Outcome> {
    let ply = game.plies.len() as i64 + 1;
    let player = color_name(game.opponent()).to_owned();
    let days = cause.rule_days().unwrap_or(0) as i64;
    store::insert_penalty(
        conn,
        &PenaltyRow {
            id: 0,
            game_id: game.id().into(),
            player: player.clone(),
            days,
            cause: Ok(cause),
            ply,
            message: Some(message),
            created_at: clock.stamp(),
        },
    )
    .await?;
    store::insert_extra(
        conn,
        &ExtraRow {
            id: 0,
            game_id: game.id().into(),
            player,
            from_date: their_received,
            to_date: their_sent.max(their_received),
            kind: store::ExtraPeriodKind::RejectedMessage,
            fault: Some(Ok(cause)),
            ply,
        },
    )
    .await?;
    store::set_correction_due(conn, game.id(), Some(received)).await?;
    // The reason, for the player, in the interface's language; the note, for the partner, in
    // the game's.
    let reason = crate::t!(
        "app-held-fault",
        what = what.in_language(crate::i18n::language()),
        days = days
    );
    let note = Said {
        // not the interface's: the partner's reply, in the game's language
        en: format!("{}; {days} penalty days recorded (51.4.7)", what.en),
        // not the interface's: the partner's reply, in the game's language
        ru: format!("{}; начислено штрафных дней: {days} (51.4.7)", what.ru),
    };
    add_note(conn, game, note.in_language(game.language), false).await?;
    hold(conn, message, Some(game.id()), reason).await
}

/// Adds a statement to the notes of our next reply.
pub(super) async fn add_note(
    conn: &mut SqliteConnection,
    game: &Game,
    note: &str,
    cc: bool,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        store::add_reply_note(conn, game.id(), note, cc).await?,
        "{}",
        crate::t!("app-game-vanished", game = game.id())
    );
    Ok(())
}

/// Inserts moves made by a message (the partner's, and accepted variation moves).
pub(super) async fn insert_plies(
    conn: &mut SqliteConnection,
    game: &Game,
    moves: &[Move],
    received: NaiveDate,
    sent: NaiveDate,
    message: i64,
) -> anyhow::Result<()> {
    let mut pos = game.position();
    for (i, &m) in moves.iter().enumerate() {
        store::insert_move(
            conn,
            &MoveRow {
                game_id: game.id().into(),
                ply: (game.plies.len() + i + 1) as i64,
                uci: to_uci(m),
                san: notation::san(&pos, m),
                received,
                sent,
                message: Some(message),
            },
        )
        .await?;
        // legal: the verdict's moves (judge: read by notation::read_move), in turn from the game
        pos.play_unchecked(m);
    }
    Ok(())
}

/// Records a variation the partner proposes with their move (51.3.7).
pub(super) async fn record_variation(
    conn: &mut SqliteConnection,
    game: &Game,
    by: Color,
    with_ply: i64,
    moves: &[Move],
) -> anyhow::Result<()> {
    if moves.is_empty() {
        return Ok(());
    }
    let v = VariationRow {
        id: 0,
        game_id: game.id().into(),
        proposed_by: color_name(by).into(),
        proposed_with: with_ply,
        moves: moves
            .iter()
            .map(|&m| to_uci(m))
            .collect::<Vec<_>>()
            .join(" "),
        accepted_through: None,
    };
    store::insert_variation(conn, &v).await?;
    Ok(())
}

/// The moves of a stored variation, played from `pos`.
pub(super) fn variation_moves(pos: &shakmaty::Chess, v: &VariationRow) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for uci in v.moves.split_whitespace() {
        let Some(m) = uci_move(&pos, uci) else { break };
        // legal: from uci_move, which UciMove::to_move checked in this position
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}
