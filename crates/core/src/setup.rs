//! What a game needs before it can be played by mail: the header of 51.2.2 (the competition's
//! name and both players' surnames, since every message carries them) and addresses that
//! can be told apart — the opponent is not ourselves, and the arbiter is neither of us
//! (docs/rules.md: the arbiter's address is never a partner's). `game new` and `game import`
//! refuse a game that fails here, naming what is wrong and the flag that sets it.

/// The game as it is about to be stored. Addresses are compared as given, trimmed and
/// without regard to case; an empty `arbiter` is a friendly game.
#[derive(Debug, Clone, Copy)]
pub struct Setup<'a> {
    pub event: &'a str,
    pub white: &'a str,
    pub black: &'a str,
    pub opponent: &'a str,
    pub arbiter: &'a str,
    /// Our own address (`[player] email`).
    pub me: &'a str,
}

/// What is wrong with a [`Setup`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("the competition's name is empty (51.2.2); give --event NAME")]
    NoEvent,
    #[error("White's name is empty (51.2.2)")]
    NoWhite,
    #[error("Black's name is empty (51.2.2)")]
    NoBlack,
    #[error("the opponent's address {0} is your own ([player] email); give --opponent EMAIL")]
    OpponentIsMe(String),
    #[error("the arbiter's address {0} is your own ([player] email); give --arbiter EMAIL")]
    ArbiterIsMe(String),
    #[error("the arbiter's address {0} is the opponent's; give --arbiter EMAIL")]
    ArbiterIsOpponent(String),
}

/// The first thing wrong with `s`, or `Ok`.
pub fn check(s: &Setup<'_>) -> Result<(), SetupError> {
    let same = |a: &str, b: &str| !a.trim().is_empty() && a.trim().eq_ignore_ascii_case(b.trim());
    if s.event.trim().is_empty() {
        Err(SetupError::NoEvent)
    } else if s.white.trim().is_empty() {
        Err(SetupError::NoWhite)
    } else if s.black.trim().is_empty() {
        Err(SetupError::NoBlack)
    } else if same(s.opponent, s.me) {
        Err(SetupError::OpponentIsMe(s.opponent.trim().to_owned()))
    } else if same(s.arbiter, s.me) {
        Err(SetupError::ArbiterIsMe(s.arbiter.trim().to_owned()))
    } else if same(s.arbiter, s.opponent) {
        Err(SetupError::ArbiterIsOpponent(s.arbiter.trim().to_owned()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_needs_its_header_and_three_different_addresses() {
        let good = Setup {
            event: "Кубок клуба 2026",
            white: "Иванов",
            black: "Петров",
            opponent: "petrov@example.org",
            arbiter: "arbiter@example.org",
            me: "ivanov@example.org",
        };
        let rows: [(Setup<'_>, Result<(), SetupError>); 10] = [
            (good, Ok(())),
            // A friendly game has no arbiter.
            (
                Setup {
                    arbiter: "",
                    ..good
                },
                Ok(()),
            ),
            (Setup { event: "", ..good }, Err(SetupError::NoEvent)),
            (
                Setup {
                    event: " \t",
                    ..good
                },
                Err(SetupError::NoEvent),
            ),
            (Setup { white: "", ..good }, Err(SetupError::NoWhite)),
            (
                Setup {
                    black: "  ",
                    ..good
                },
                Err(SetupError::NoBlack),
            ),
            (
                Setup {
                    opponent: " Ivanov@Example.org ",
                    ..good
                },
                Err(SetupError::OpponentIsMe("Ivanov@Example.org".into())),
            ),
            (
                Setup {
                    arbiter: "IVANOV@example.org",
                    ..good
                },
                Err(SetupError::ArbiterIsMe("IVANOV@example.org".into())),
            ),
            (
                Setup {
                    arbiter: "petrov@example.org",
                    ..good
                },
                Err(SetupError::ArbiterIsOpponent("petrov@example.org".into())),
            ),
            // The first thing wrong is named.
            (
                Setup {
                    event: "",
                    opponent: "ivanov@example.org",
                    ..good
                },
                Err(SetupError::NoEvent),
            ),
        ];
        for (setup, want) in rows {
            assert_eq!(check(&setup), want, "{setup:?}");
        }
    }
}
