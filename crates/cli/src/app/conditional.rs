//! Moves decided in advance, as the store keeps them: the variation the partner offered
//! with their last move (51.3.7), which [`super::compose::draft`] accepts, and the player's
//! own plan (`ccmail plan`), which the daemon's chores play ([`plan_chore`]). The decisions
//! are the core's ([`ccmail_core::conditional`]); this module reads the rows into moves and
//! writes what the core decided.

use anyhow::{Context, bail};
use ccmail_core::conditional::{self, PlanEnd, PlanStep};
use ccmail_core::message::play_all;
use ccmail_core::notation::{self, strip_move_number};
use ccmail_store::{self as store, SqliteConnection, VariationRow};
use shakmaty::{Chess, Move, Position};

use super::chores::Done;
use super::compose::{self, Request, read_player_move};
use super::game::{Game, color_name, to_uci, uci_move};
use super::{Clock, Me};

impl Game {
    /// The variation the partner offered with their last move, still open (51.3.7): its row
    /// and its moves from the position now.
    pub fn partner_offer(&self) -> Option<(&VariationRow, Vec<Move>)> {
        let n = self.plies.len() as i64;
        let row = self.variations.iter().find(|v| {
            v.proposed_by == color_name(self.opponent())
                && v.proposed_with == n
                && v.accepted_through.is_none()
        })?;
        let moves = moves_of(&self.position(), &row.moves);
        (!moves.is_empty() && self.is_active()).then_some((row, moves))
    }

    /// The player's plan: the moves, the partner's expected move first, and the position
    /// they start from. Empty when there is none or it no longer fits the game.
    pub fn plan(&self) -> (Vec<Move>, Chess) {
        let from = usize::try_from(self.row.plan_from).unwrap_or(0);
        if self.row.plan.is_empty() || from == 0 || from > self.plies.len() + 1 {
            return (Vec::new(), self.position());
        }
        let start = play_all(&self.plies[..from - 1]);
        (moves_of(&start, &self.row.plan), start)
    }

    /// The partner's open offer in SAN (`show --json`'s `offered_variation`).
    pub fn offered_sans(&self) -> Vec<String> {
        self.partner_offer()
            .map(|(_, moves)| notation::sans(&self.position(), &moves))
            .unwrap_or_default()
    }

    /// The plan in SAN (`show --json`'s `plan`).
    pub fn plan_sans(&self) -> Vec<String> {
        let (moves, start) = self.plan();
        notation::sans(&start, &moves)
    }
}

/// `moves` from `pos` numbered as a record writes them (`1... e5 2. Nf3 Nc6`), each move
/// written by `write`.
pub fn numbered_line(
    pos: &Chess,
    moves: &[Move],
    write: impl Fn(&Chess, Move) -> String,
) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let text = write(&pos, m);
        if i == 0 || pos.turn().is_white() {
            let dots = if pos.turn().is_white() { "." } else { "..." };
            words.push(format!("{}{dots} {text}", pos.fullmoves()));
        } else {
            words.push(text);
        }
        // legal: the caller's moves, each found legal in turn from `pos` (read or replayed)
        pos.play_unchecked(m);
    }
    words.join(" ")
}

/// Stored UCI moves played from `pos`, as far as they are legal.
fn moves_of(pos: &Chess, uci: &str) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for text in uci.split_whitespace() {
        let Some(m) = uci_move(&pos, text) else { break };
        // legal: from uci_move, which UciMove::to_move checked in this position
        pos.play_unchecked(m);
        out.push(m);
    }
    out
}

/// Moves as the player typed them, one after another from `pos`, in any notation ccmail
/// reads; move numbers (`2.`, `2...`) may be written. The error names the move and says what
/// is wrong with it.
pub fn read_moves(pos: &Chess, text: &str) -> anyhow::Result<Vec<Move>> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        let token = match strip_move_number(token) {
            Some((_, _, "")) => continue,
            Some((_, _, rest)) => rest,
            None => token,
        };
        let m = read_player_move(&pos, token)?;
        // legal: from read_player_move (notation::read_move) in this position
        pos.play_unchecked(m);
        out.push(m);
    }
    Ok(out)
}

/// Sets the plan of `game` from the player's line, or clears it (`None`); the plan as it
/// will be shown.
pub async fn set_plan(
    conn: &mut SqliteConnection,
    game: &Game,
    line: Option<&str>,
) -> anyhow::Result<Vec<String>> {
    let id = game.id();
    let Some(line) = line else {
        store::set_plan(conn, id, "", 0).await?;
        return Ok(Vec::new());
    };
    if !game.is_active() {
        bail!(crate::t!(
            "app-plan-game-not-active",
            game = id,
            status = game.row.status.to_string()
        ));
    }
    if game.my_turn() {
        bail!(crate::t!("app-plan-your-move", game = id));
    }
    let pos = game.position();
    let moves = read_moves(&pos, line).with_context(|| crate::t!("app-in-the-plan"))?;
    conditional::check_plan(moves.len())?;
    store_plan(conn, id, &moves, game.plies.len() + 1).await?;
    Ok(notation::sans(&pos, &moves))
}

/// Stores `moves` as the plan of game `id`, the first expected as ply `from`.
pub async fn store_plan(
    conn: &mut SqliteConnection,
    id: &str,
    moves: &[Move],
    from: usize,
) -> anyhow::Result<()> {
    let uci: Vec<String> = moves.iter().map(|&m| to_uci(m)).collect();
    store::set_plan(conn, id, &uci.join(" "), from as i64).await?;
    Ok(())
}

/// What the plan's chore did, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanDone {
    /// Our planned reply was queued.
    Played(Done),
    /// The plan ended; the move is the player's.
    Ended(Done),
}

/// The plan's chore in `game`: our planned reply queued when the partner's move is the one
/// expected, the plan ended otherwise; `None` when it waits (or there is none).
pub async fn plan_chore(
    conn: &mut SqliteConnection,
    me: &Me,
    clock: &Clock,
    game: &Game,
) -> anyhow::Result<Option<PlanDone>> {
    if game.row.plan.is_empty() {
        return Ok(None);
    }
    let id = game.id();
    let (moves, _) = game.plan();
    if moves.is_empty() {
        // The stored plan no longer fits the game's moves (a game corrected by hand): it
        // can't be followed.
        store::set_plan(conn, id, "", 0).await?;
        return Ok(Some(PlanDone::Ended(crate::t!(
            "app-plan-ended-no-fit",
            game = id
        ))));
    }
    let from = usize::try_from(game.row.plan_from).unwrap_or(0);
    let draw = game.row.draw_offered_by.as_deref() == Some(color_name(game.opponent()));
    match conditional::plan_step(&moves, from, &game.plies, draw, game.is_active()) {
        PlanStep::Wait => Ok(None),
        PlanStep::Play { reply, rest, next } => {
            let pos = game.position();
            let text = notation::san(&pos, reply);
            let req = Request {
                mv: Some(text.clone()),
                ..Request::default()
            };
            let thread = store::thread_ids(conn, id).await?;
            let draft = compose::draft(game, me, clock, &req, &thread)
                .with_context(|| crate::t!("app-planned-reply", reply = &text))?;
            compose::queue(conn, clock, &draft).await?;
            store_plan(conn, id, &rest, next).await?;
            let n = game.plies.len();
            let theirs = super::numbered(&play_all(&game.plies[..n - 1]), game.plies[n - 1]);
            let ours = super::numbered(&pos, reply);
            let said = if rest.is_empty() {
                crate::t!(
                    "app-plan-played-done",
                    game = id,
                    reply = ours,
                    theirs = theirs
                )
            } else {
                let mut after = pos.clone();
                // legal: the plan's next move, legal after the plies plan_step found to follow it
                after.play_unchecked(reply);
                crate::t!(
                    "app-plan-played-goes-on",
                    game = id,
                    reply = ours,
                    theirs = theirs,
                    rest = notation::sans(&after, &rest).join(" ")
                )
            };
            Ok(Some(PlanDone::Played(said)))
        }
        PlanStep::End(why) => {
            store::set_plan(conn, id, "", 0).await?;
            let said = match why {
                PlanEnd::Deviated {
                    ply,
                    expected,
                    played,
                } => {
                    let at = play_all(&game.plies[..ply - 1]);
                    crate::t!(
                        "app-plan-ended-deviated",
                        game = id,
                        played = super::numbered(&at, played),
                        planned = notation::san(&at, expected)
                    )
                }
                PlanEnd::DrawOffered => crate::t!("app-plan-ended-draw-offered", game = id),
                PlanEnd::NotGoingOn => crate::t!(
                    "app-plan-ended-not-going-on",
                    game = id,
                    status = game.row.status.to_string()
                ),
                PlanEnd::Done => crate::t!("app-plan-ended-done", game = id),
            };
            Ok(Some(PlanDone::Ended(said)))
        }
    }
}
