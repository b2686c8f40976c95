//! Who a letter goes to: the partner, the arbiter, or both — and what a friendly game, one
//! without an arbiter, makes of a letter that needs one.
//!
//! In a tournament game the arbiter is copied when the rules say so (51.4.10, 51.5.1, the
//! notices of 10.4.3 and 51.1.2), and is the addressee of the finished game (51.9.1), of a
//! claim (51.6) and of an adjudication package (51.9.4). In a friendly game the partner still
//! gets everything he would get, nobody else is copied, a letter meant for the arbiter alone is
//! not written, and one that asks an arbiter to decide is refused.

/// A letter ccmail writes in a game, with what decides its copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Letter {
    /// Our move, resignation or draw acceptance.
    Move {
        /// 51.4.10: a side has 5 or fewer days left before its next control.
        low_on_time: bool,
        /// 51.5.1: it answers the partner's repeat.
        answers_repeat: bool,
    },
    /// 51.5.1: our move again, no answer in 14 days.
    Repeat,
    /// 51.3.4: a correction request (copied when a side is low on time, 51.4.10).
    Correction { low_on_time: bool },
    /// A break notice (10.4.3) or an address change (51.1.2).
    Notice,
    /// 51.9.1: the finished game as PGN.
    FinishedGame,
    /// 51.6: a time-forfeit claim.
    Claim,
    /// 51.9.4: an adjudication package.
    Adjudication,
}

/// Someone a letter is addressed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    Partner,
    Arbiter,
}

/// What becomes of a letter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Addressed {
    /// It goes: To these, Cc those.
    Send {
        to: &'static [Who],
        cc: &'static [Who],
    },
    /// It is for an arbiter only and the game has none: nothing is written (51.9.1).
    NoOne,
    /// It asks an arbiter to decide and the game has none: refused (51.6, 51.9.4).
    NoArbiterToAsk,
}

use Who::{Arbiter, Partner};

/// Who gets `letter` in a game with (`has_arbiter`) or without an arbiter.
pub fn addressees(letter: Letter, has_arbiter: bool) -> Addressed {
    let send = |to: &'static [Who], cc: &'static [Who]| Addressed::Send { to, cc };
    let copy: &'static [Who] = if has_arbiter { &[Arbiter] } else { &[] };
    match letter {
        Letter::Move {
            low_on_time,
            answers_repeat,
        } if low_on_time || answers_repeat => send(&[Partner], copy),
        Letter::Correction { low_on_time: true } => send(&[Partner], copy),
        Letter::Move { .. } | Letter::Correction { .. } => send(&[Partner], &[]),
        Letter::Repeat | Letter::Notice => send(&[Partner], copy),
        Letter::FinishedGame if has_arbiter => send(&[Arbiter], &[]),
        Letter::FinishedGame => Addressed::NoOne,
        Letter::Claim if has_arbiter => send(&[Arbiter], &[Partner]),
        Letter::Adjudication if has_arbiter => send(&[Arbiter], &[]),
        Letter::Claim | Letter::Adjudication => Addressed::NoArbiterToAsk,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_gets_each_letter_with_and_without_an_arbiter() {
        let mv = |low_on_time, answers_repeat| Letter::Move {
            low_on_time,
            answers_repeat,
        };
        let send = |to: &'static [Who], cc: &'static [Who]| Addressed::Send { to, cc };
        // (letter, in a tournament game, in a friendly game)
        let rows = [
            (
                mv(false, false),
                send(&[Partner], &[]),
                send(&[Partner], &[]),
            ),
            // 51.4.10
            (
                mv(true, false),
                send(&[Partner], &[Arbiter]),
                send(&[Partner], &[]),
            ),
            // 51.5.1: the answer to a repeat
            (
                mv(false, true),
                send(&[Partner], &[Arbiter]),
                send(&[Partner], &[]),
            ),
            // 51.5.1: the repeat itself still goes to the partner
            (
                Letter::Repeat,
                send(&[Partner], &[Arbiter]),
                send(&[Partner], &[]),
            ),
            (
                Letter::Correction { low_on_time: false },
                send(&[Partner], &[]),
                send(&[Partner], &[]),
            ),
            (
                Letter::Correction { low_on_time: true },
                send(&[Partner], &[Arbiter]),
                send(&[Partner], &[]),
            ),
            // 10.4.3, 51.1.2
            (
                Letter::Notice,
                send(&[Partner], &[Arbiter]),
                send(&[Partner], &[]),
            ),
            // 51.9.1
            (
                Letter::FinishedGame,
                send(&[Arbiter], &[]),
                Addressed::NoOne,
            ),
            // 51.6
            (
                Letter::Claim,
                send(&[Arbiter], &[Partner]),
                Addressed::NoArbiterToAsk,
            ),
            // 51.9.4
            (
                Letter::Adjudication,
                send(&[Arbiter], &[]),
                Addressed::NoArbiterToAsk,
            ),
        ];
        for (letter, tournament, friendly) in rows {
            assert_eq!(
                addressees(letter, true),
                tournament,
                "{letter:?} with an arbiter"
            );
            assert_eq!(
                addressees(letter, false),
                friendly,
                "{letter:?} in a friendly game"
            );
        }
    }

    #[test]
    fn a_friendly_game_never_addresses_an_arbiter() {
        let letters = [
            Letter::Move {
                low_on_time: true,
                answers_repeat: true,
            },
            Letter::Repeat,
            Letter::Correction { low_on_time: true },
            Letter::Notice,
            Letter::FinishedGame,
            Letter::Claim,
            Letter::Adjudication,
        ];
        for letter in letters {
            if let Addressed::Send { to, cc } = addressees(letter, false) {
                assert!(
                    !to.contains(&Arbiter) && !cc.contains(&Arbiter),
                    "{letter:?}"
                );
                assert!(to.contains(&Partner), "{letter:?}");
            }
        }
    }
}
