//! The rules' chores, done without being asked: each is found from the clock's deadlines and
//! the stored mail, so a pass that runs twice sends nothing twice.
//!
//! - 51.5.1 repeat: on the day a repeat is due (14 counted days after our move, the partner's
//!   break days not counted; again 14 days later), our last move is sent again with all its
//!   information, marked as a repeat, Cc the arbiter (a friendly game's goes to the partner
//!   only).
//! - 51.3.4 correction request: at once after an illegible, ambiguous, impossible or missing
//!   move or a wrong repetition: our last move again, with what was wrong and the penalty
//!   recorded; the delay in asking is charged to us beyond 3 days (51.4.8).
//! - 51.9.1 the finished game goes to the arbiter as PGN (in a friendly game, to no one).
//!
//! Who gets each letter is the core's decision ([`ccmail_core::addressees`]).
//!
//! Each game's chores are done in a transaction of their own. When one game's fail (a row
//! this version can't read, a message that can't be built), that game is rolled back and the
//! error logged with its id, and the other games still get theirs: one broken game must never
//! keep every partner after it from their repeat (51.5.1) or their correction request.

use ccmail_core::addressees::Letter as Why;
use ccmail_core::clock::{DeadlineKind, PenaltyCause};
use ccmail_core::message::{self, Language, Outgoing, PartnerMove, Signature, Totals};
use ccmail_mail::smtp;
use ccmail_store::{self as store, ExtraRow, SqliteConnection, Store, StoredKind};
use chrono::NaiveDate;

use super::compose::{Letter, envelope, queue_letter, queue_mail, recipients};
use super::conditional::PlanDone;
use super::game::{Game, color_name};
use super::{Clock, Me};

/// One thing done, in words (for logs and `run --once`).
pub type Done = String;

/// What a pass over all games did ([`run_due`]).
#[derive(Debug, Default)]
pub struct Pass {
    /// What was queued, in words, game after game.
    pub done: Vec<Done>,
    /// The games whose chores failed, in the order they were tried: nothing of theirs was
    /// kept, and the next pass tries them again.
    pub failed: Vec<Failed>,
}

/// One game whose chores failed.
#[derive(Debug)]
pub struct Failed {
    pub game: String,
    pub error: anyhow::Error,
}

impl Failed {
    /// `game ID: what failed`, each cause once.
    pub fn words(&self) -> String {
        crate::t!(
            "app-game-said",
            game = &self.game,
            what = super::daemon::words(&self.error)
        )
    }
}

/// Finds and queues every chore due as of the clock's today, each game in its own
/// transaction. Returns what was done, and the games whose chores failed: each such failure
/// is logged, that game's transaction rolled back, and the pass goes on with the next game.
/// An error is returned only when the games can't be read at all.
///
/// Which games may have a chore is found from all games at once, in a handful of queries
/// ([`may_be_due`]); only those are loaded again in a transaction and looked at closely: a
/// pass over 200 quiet games costs no transaction at all.
pub async fn run_due(store: &Store, me: &Me, clock: &Clock) -> anyhow::Result<Pass> {
    let today = clock.today();
    let ids: Vec<String> = {
        let mut conn = store.conn().await?;
        let mut due = store::finished_without_pgn(&mut conn).await?;
        let games = Game::load_all_dates(&mut conn, false).await?;
        due.extend(
            games
                .into_iter()
                .filter(|g| may_be_due(g, today))
                .map(|g| (g.row.created_at, g.row.id)),
        );
        // In the order of `ccmail games`, oldest first.
        due.sort_unstable();
        due.into_iter().map(|(_, id)| id).collect()
    };
    let mut pass = Pass::default();
    for id in ids {
        match run_for(store, me, clock, &id).await {
            Ok(did) => pass.done.extend(did),
            Err(error) => {
                tracing::error!(
                    "{}",
                    crate::t!(
                        "app-chores-of-game-failed",
                        game = &id,
                        error = super::daemon::words(&error)
                    )
                );
                pass.failed.push(Failed { game: id, error });
            }
        }
    }
    Ok(pass)
}

/// Whether an unfinished game may have a chore today: a correction to ask for, or a repeat
/// due. A superset of what [`game_chores`] does (it also checks the repeats already sent).
fn may_be_due(game: &Game, today: NaiveDate) -> bool {
    if !game.row.plan.is_empty() {
        return true;
    }
    if !game.is_active() || game.moves.is_empty() {
        return false;
    }
    if game.row.correction_due.is_some() {
        return true;
    }
    if game.to_move() == game.me {
        return false;
    }
    // A game whose clock can't be read is looked at closely, where the error is reported.
    game.report(today).map_or(true, |r| {
        r.deadlines
            .iter()
            .any(|d| d.kind == DeadlineKind::Repeat && d.date <= today)
    })
}

/// The chores of one game (after `apply` or `move` touched it, and each game of a
/// [`run_due`] pass), in a transaction of their own: committed when they all succeed, else
/// rolled back (dropped uncommitted) and the error returned. A game that is gone has none.
pub async fn run_for(store: &Store, me: &Me, clock: &Clock, id: &str) -> anyhow::Result<Vec<Done>> {
    let mut tx = store.begin().await?;
    let Some(game) = Game::load(&mut tx, id).await? else {
        return Ok(Vec::new());
    };
    let done = game_chores(&mut tx, me, clock, &game).await?;
    tx.commit().await?;
    Ok(done)
}

async fn game_chores(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
) -> anyhow::Result<Vec<Done>> {
    let mut done = Vec::new();
    // The player's plan first: a planned reply is our move, and nothing else is due while
    // it is ours to move.
    match super::conditional::plan_chore(conn, me, clock, game).await? {
        Some(PlanDone::Played(what)) => return Ok(vec![what]),
        Some(PlanDone::Ended(what)) => done.push(what),
        None => {}
    }
    let mine = store::game_messages(conn, game.id()).await?;
    let sent_on = |kind: StoredKind| -> Vec<NaiveDate> {
        mine.iter()
            .filter(|m| m.direction == store::Direction::Out && m.kind == kind)
            .filter_map(|m| m.date_header.as_deref()?.get(..10)?.parse().ok())
            .collect()
    };
    if game.row.status == store::GameStatus::Finished {
        if game.row.pgn_due
            && sent_on(StoredKind::PGN).is_empty()
            && send_pgn(conn, me, clock, game).await?
        {
            done.push(crate::t!("app-chore-pgn", game = game.id()));
        }
        return Ok(done);
    }
    if !game.is_active() || game.plies.is_empty() {
        return Ok(done);
    }
    let today = clock.today();
    if game.row.correction_due.is_some() {
        request_correction(conn, me, clock, game).await?;
        done.push(crate::t!("app-chore-correction", game = game.id()));
        return Ok(done);
    }
    let report = game.report(today)?;
    // A repeat due by today that no repeat sent has met (the one rule `games` shows too).
    let due = ccmail_core::clock::open_deadlines(&report.deadlines, &sent_on(StoredKind::REPEAT))
        .iter()
        .any(|d| d.kind == DeadlineKind::Repeat && d.date <= today);
    if due && game.to_move() != game.me {
        send_repeat(conn, me, clock, game).await?;
        done.push(if game.arbiter().is_some() {
            crate::t!("app-chore-repeat-cc", game = game.id())
        } else {
            crate::t!("app-chore-repeat-friendly", game = game.id())
        });
    }
    Ok(done)
}

/// A notice that is not a move (a break, an address change, a claim): the game header, the
/// lines, the signature, in the standard form's layout.
pub fn notice_body(game: &Game, me: &Me, lines: &[String]) -> String {
    let r = &game.row;
    let (event, start, white, black) = match game.language {
        Language::Ru => (
            "Турнир",
            r.start_date.format("%d.%m.%Y").to_string(),
            "Белые",
            "Черные",
        ),
        Language::En => ("Event", r.start_date.to_string(), "White", "Black"),
    };
    let rule = "----------------------------------------";
    let mut s = format!(
        "{event}: {}\n{}: {start}\n{white}: {}\n{black}: {}\n{rule}\n",
        r.event,
        if game.language == Language::Ru {
            "Старт"
        } else {
            "Start"
        },
        r.white,
        r.black
    );
    for line in lines {
        s.push_str(&message::one_line(line));
        s.push('\n');
    }
    s.push_str(&format!("{rule}\n{} <{}>\n", me.name, me.email));
    s
}

/// What a notice looks like before it goes (`--dry-run`).
pub fn notice_preview(game: &Game, me: &Me, subject: &str, lines: &[String]) -> String {
    let (to, cc) = notice_recipients(game);
    let mut s = format!("{}\n", crate::t!("app-preview-to", to = to.join(", ")));
    if !cc.is_empty() {
        s.push_str(&format!(
            "{}\n",
            crate::t!("app-preview-cc", cc = cc.join(", "))
        ));
    }
    format!(
        "{s}{}\n\n{}",
        crate::t!("app-preview-subject", subject = subject),
        notice_body(game, me, lines)
    )
}

/// A notice goes To the opponent, Cc the arbiter (10.4.3, 51.1.2); a friendly game's to the
/// opponent only.
fn notice_recipients(game: &Game) -> (Vec<String>, Vec<String>) {
    recipients(game, Why::Notice)
        .unwrap_or_else(|| (vec![game.row.opponent_email.clone()], Vec::new()))
}

/// Queues a notice in `game`: To the opponent, Cc the arbiter (none in a friendly game).
pub async fn queue_notice(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
    kind: StoredKind,
    subject: String,
    lines: &[String],
) -> anyhow::Result<i64> {
    let (to, cc) = notice_recipients(game);
    let letter = Letter {
        subject,
        body: notice_body(game, me, lines),
        to,
        cc,
        kind,
        ply: game.plies.len(),
    };
    queue_letter(conn, me, clock, game, letter).await
}

/// Our last move's message as it was: the record before it (with the partner's variation
/// moves it accepted, 51.3.8), the partner's dates, our move, its days and the totals of that
/// moment.
fn last_move_form(game: &Game, today: NaiveDate, me: &Me) -> anyhow::Result<Outgoing> {
    let n = game.plies.len();
    let ours = n - 1;
    // The plies our last message carried: with it we may have accepted the partner's
    // variation up to our move (51.3.8); its moves after his ply then went in our record.
    let first = game
        .variations
        .iter()
        .filter(|v| v.proposed_by == color_name(game.opponent()))
        .filter(|v| {
            v.accepted_through
                .is_some_and(|t| t == n as i64 || t == ours as i64)
        })
        .map(|v| v.proposed_with as usize)
        .find(|&p| p <= ours)
        .unwrap_or(ours);
    let report = game.report(today)?;
    let totals = Totals {
        white: report.clock.white.total,
        black: report.clock.black.total,
    };
    Ok(Outgoing {
        language: game.language,
        notation: game.notation,
        event: game.row.event.clone(),
        start: game.row.start_date,
        white: game.row.white.clone(),
        black: game.row.black.clone(),
        moves: game.plies[..ours].to_vec(),
        partner: (first > 0).then(|| PartnerMove {
            sent: game.moves[first - 1].sent,
            received: game.moves[ours].received,
            accepted: ours - first,
        }),
        my_move: Some(game.plies[ours]),
        variation: Vec::new(),
        draw_offer: false,
        draw_accept: false,
        resign: false,
        break_notice: None,
        repeat_of: None,
        notes: Vec::new(),
        sent: game.moves[ours].sent,
        move_days: report.ply_days.iter().skip(first).take(n - first).sum(),
        totals,
        signature: Signature {
            name: me.name.clone(),
            email: Some(me.email.clone()),
        },
    })
}

fn low_on_time(game: &Game, today: NaiveDate) -> anyhow::Result<bool> {
    let r = game.report(today)?;
    Ok(r.clock.white.left <= 5 || r.clock.black.left <= 5)
}

pub(super) async fn send_repeat(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
) -> anyhow::Result<()> {
    let mut form = last_move_form(game, clock.today(), me)?;
    form.repeat_of = Some(form.sent);
    // 51.5.1: the repeat goes Cc the arbiter; a friendly game's to the partner only.
    let (to, cc) = recipients(game, Why::Repeat)
        .unwrap_or_else(|| (vec![game.row.opponent_email.clone()], Vec::new()));
    let letter = Letter {
        subject: message::subject(&form),
        body: message::write(&form),
        to,
        cc,
        kind: StoredKind::REPEAT,
        ply: game.plies.len(),
    };
    queue_letter(conn, me, clock, game, letter).await?;
    Ok(())
}

async fn request_correction(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
) -> anyhow::Result<()> {
    let today = clock.today();
    let mut form = last_move_form(game, today, me)?;
    form.notes = game
        .row
        .reply_notes
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    form.notes.push(
        match game.language {
            // not the interface's: mail to the partner or the arbiter, in the game's language
            Language::Ru => "Прошу исправить ход (51.3.4)",
            // not the interface's: mail to the partner or the arbiter, in the game's language
            Language::En => "Please correct your move (51.3.4)",
        }
        .to_owned(),
    );
    let base = message::subject(&Outgoing {
        my_move: None,
        ..form.clone()
    });
    let subject = match game.language {
        // not the interface's: mail to the partner or the arbiter, in the game's language
        Language::Ru => format!("{base}, исправьте ход"),
        // not the interface's: mail to the partner or the arbiter, in the game's language
        Language::En => format!("{base}, please correct your move"),
    };
    let why = Why::Correction {
        low_on_time: low_on_time(game, today)?,
    };
    let (to, cc) = recipients(game, why)
        .unwrap_or_else(|| (vec![game.row.opponent_email.clone()], Vec::new()));
    let letter = Letter {
        subject,
        body: message::write(&form),
        to,
        cc,
        kind: StoredKind::CORRECTION,
        ply: game.plies.len() + 1,
    };
    queue_letter(conn, me, clock, game, letter).await?;
    // 51.4.8: our delay in asking is charged to us beyond 3 days (for an impossible move or a
    // wrong repetition; the whole delay for other faults).
    let ply = game.plies.len() as i64 + 1;
    let fault = game
        .penalties
        .iter()
        .rev()
        .find(|p| p.ply == ply)
        .map(|p| p.cause.clone());
    if let Some(since) = game.row.correction_due {
        store::insert_extra(
            conn,
            &ExtraRow {
                id: 0,
                game_id: game.id().into(),
                player: color_name(game.me).into(),
                from_date: since,
                to_date: today.max(since),
                kind: store::ExtraPeriodKind::CorrectionRequest,
                fault: Some(fault.unwrap_or(Ok(PenaltyCause::Illegible))),
                ply,
            },
        )
        .await?;
    }
    store::set_correction_due(conn, game.id(), None).await?;
    store::set_reply_notes(conn, game.id(), "", game.row.answer_cc_arbiter).await?;
    Ok(())
}

/// Queues the finished game for the arbiter; `false` (nothing queued) in a friendly game.
async fn send_pgn(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
) -> anyhow::Result<bool> {
    // 51.9.1: to the arbiter; a friendly game has no one to send it to.
    let Some((to, cc)) = recipients(game, Why::FinishedGame) else {
        return Ok(false);
    };
    let pgn = super::pgn::pgn(conn, game, clock.today(), &me.email).await?;
    let r = &game.row;
    let result = r.result.clone().unwrap_or_else(|| "*".into());
    let (subject, intro) = match game.language {
        Language::Ru => (
            format!(
                // not the interface's: mail to the partner or the arbiter, in the game's language
                "{}: {} – {}, {result}: партия для судьи",
                r.event, r.white, r.black
            ),
            // not the interface's: mail to the partner or the arbiter, in the game's language
            format!("Партия окончена: {result}. Запись в формате PGN (51.9.1):"),
        ),
        Language::En => (
            format!(
                // not the interface's: mail to the partner or the arbiter, in the game's language
                "{}: {} – {}, {result}: the game for the arbiter",
                r.event, r.white, r.black
            ),
            // not the interface's: mail to the partner or the arbiter, in the game's language
            format!("The game is over: {result}. The record in PGN (51.9.1):"),
        ),
    };
    let body = format!("{intro}\n\n{pgn}{} <{}>\n", me.name, me.email);
    let thread = store::thread_ids(conn, game.id()).await?;
    let letter = Letter {
        subject,
        body,
        to,
        cc,
        kind: StoredKind::PGN,
        ply: game.plies.len(),
    };
    let mut mail = envelope(game, me, clock, letter, &thread);
    mail.attachments.push(smtp::Attachment {
        filename: format!("{}.pgn", r.id),
        mime_type: "application/x-chess-pgn".into(),
        data: pgn.into_bytes(),
    });
    queue_mail(conn, clock, Some(game.id()), StoredKind::PGN, &mail).await?;
    Ok(true)
}
