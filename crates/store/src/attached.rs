//! Everything attached to one game besides its row and its moves, in one query: the partner's
//! breaks, the player's own breaks, penalties, extra periods and variations. Each query is a
//! round trip to the store's thread, and `apply` loads a game for every chess message.

use sqlx::{Row, SqliteConnection};

use crate::{BreakRow, ExtraRow, PenaltyRow, Result, StoreError, VariationRow};

/// A game's attached rows, each kind in the order of its own query ([`crate::game_breaks`],
/// [`crate::my_breaks`], [`crate::penalties`], [`crate::extras`], [`crate::variations`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attached {
    pub partner_breaks: Vec<BreakRow>,
    pub my_breaks: Vec<BreakRow>,
    pub penalties: Vec<PenaltyRow>,
    pub extras: Vec<ExtraRow>,
    pub variations: Vec<VariationRow>,
}

/// The rows attached to `game`. Each kind's rows come as a `kind` (0 breaks, 1 penalties,
/// 2 extra periods, 3 variations), two sort keys, then its own columns from the fourth on.
pub async fn attached(conn: &mut SqliteConnection, game: &str) -> Result<Attached> {
    let rows = sqlx::query(
        "SELECT 0 AS kind, from_date AS k1, id AS k2, \
                id, game_id, from_date, to_date, notice_date, ended_on, created_at, NULL \
           FROM breaks WHERE game_id = ?1 OR game_id IS NULL \
         UNION ALL SELECT 1, id, NULL, \
                id, game_id, player, days, cause, ply, message, created_at \
           FROM penalties WHERE game_id = ?1 \
         UNION ALL SELECT 2, id, NULL, \
                id, game_id, player, from_date, to_date, kind, fault, ply \
           FROM extra_periods WHERE game_id = ?1 \
         UNION ALL SELECT 3, proposed_with, id, \
                id, game_id, proposed_by, proposed_with, moves, accepted_through, NULL, NULL \
           FROM variations WHERE game_id = ?1 \
         ORDER BY 1, 2, 3",
    )
    .bind(game)
    .fetch_all(conn)
    .await?;
    let mut a = Attached::default();
    for r in &rows {
        match r.try_get::<i64, _>(0)? {
            0 => {
                let b = BreakRow {
                    id: r.try_get(3)?,
                    game_id: r.try_get(4)?,
                    from_date: r.try_get(5)?,
                    to_date: r.try_get(6)?,
                    notice_date: r.try_get(7)?,
                    ended_on: r.try_get(8)?,
                    created_at: r.try_get(9)?,
                };
                if b.game_id.is_some() {
                    a.partner_breaks.push(b);
                } else {
                    a.my_breaks.push(b);
                }
            }
            1 => a.penalties.push(PenaltyRow {
                id: r.try_get(3)?,
                game_id: r.try_get(4)?,
                player: r.try_get(5)?,
                days: r.try_get(6)?,
                cause: crate::penalties::required_cause_at(r, 7)?,
                ply: r.try_get(8)?,
                message: r.try_get(9)?,
                created_at: r.try_get(10)?,
            }),
            2 => a.extras.push(ExtraRow {
                id: r.try_get(3)?,
                game_id: r.try_get(4)?,
                player: r.try_get(5)?,
                from_date: r.try_get(6)?,
                to_date: r.try_get(7)?,
                kind: r.try_get(8)?,
                fault: crate::penalties::cause_at(r, 9)?,
                ply: r.try_get(10)?,
            }),
            3 => a.variations.push(VariationRow {
                id: r.try_get(3)?,
                game_id: r.try_get(4)?,
                proposed_by: r.try_get(5)?,
                proposed_with: r.try_get(6)?,
                moves: r.try_get(7)?,
                accepted_through: r.try_get(8)?,
            }),
            kind => {
                return Err(StoreError::Corrupt(crate::Corrupted::Attached {
                    game: game.to_string(),
                    kind,
                }));
            }
        }
    }
    Ok(a)
}
