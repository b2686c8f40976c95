//! The two settings a game's clock is played under: the rules profile and the time control.
//! Both have the text forms of the config and the command line (`article51`, `10/60`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Which rules govern breaks (the rest of the clock is the same under both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Article 51.7 (the default): several breaks, 30 days a year in all; a break stops only
    /// its taker's clock.
    #[default]
    Article51,
    /// Section 10.4 of the postal rules: one break a year of at most 30 days; it stops both
    /// clocks in every game where the partner was told, from the day he was told.
    Postal104,
}

impl Profile {
    /// The text form: `article51` or `postal104`.
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Article51 => "article51",
            Profile::Postal104 => "postal104",
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is neither `article51` nor `postal104`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown rules profile {0:?}: expected article51 or postal104")]
pub struct ProfileParseError(pub String);

impl FromStr for Profile {
    type Err = ProfileParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "article51" => Ok(Profile::Article51),
            "postal104" => Ok(Profile::Postal104),
            other => Err(ProfileParseError(other.to_owned())),
        }
    }
}

/// The time control "N moves / D days", cumulative (51.4.3): after a player's move N·k his
/// total must be at most D·k. Both numbers are at least 1.
///
/// Text form `10/60`. In JSON it is the object `{"moves": 10, "days": 60}` of `show --json`;
/// it also reads from the text form, as the config writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ControlRepr")]
pub struct Control {
    moves: u32,
    days: u32,
}

impl Default for Control {
    /// 51.4.3: 60 days for every 10 moves.
    fn default() -> Self {
        Control {
            moves: 10,
            days: 60,
        }
    }
}

/// A time control that is not "N/D" with N and D at least 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("bad time control {0:?}: expected MOVES/DAYS, both at least 1, e.g. 10/60")]
pub struct ControlParseError(pub String);

impl Control {
    /// "`moves` moves in `days` days"; both must be at least 1.
    pub fn new(moves: u32, days: u32) -> Result<Self, ControlParseError> {
        if moves == 0 || days == 0 {
            return Err(ControlParseError(format!("{moves}/{days}")));
        }
        Ok(Control { moves, days })
    }

    /// Moves per control period (N).
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Days per control period (D).
    pub fn days(&self) -> u32 {
        self.days
    }

    /// The control period a player's move `move_number` (1-based) falls in: `k` with
    /// N·(k−1) < move_number <= N·k.
    pub fn period_of(&self, move_number: u32) -> u32 {
        move_number.max(1).div_ceil(self.moves)
    }

    /// The control move of period `k` (N·k).
    pub fn control_move(&self, period: u32) -> u32 {
        self.moves.saturating_mul(period)
    }

    /// The days allowed up to the control move of period `k` (D·k), cumulative.
    pub fn limit(&self, period: u32) -> u32 {
        self.days.saturating_mul(period)
    }
}

impl fmt::Display for Control {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.moves, self.days)
    }
}

impl FromStr for Control {
    type Err = ControlParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ControlParseError(s.to_owned());
        let (moves, days) = s.trim().split_once('/').ok_or_else(bad)?;
        let moves = moves.trim().parse().map_err(|_| bad())?;
        let days = days.trim().parse().map_err(|_| bad())?;
        Control::new(moves, days).map_err(|_| bad())
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ControlRepr {
    Text(String),
    Object { moves: u32, days: u32 },
}

impl TryFrom<ControlRepr> for Control {
    type Error = ControlParseError;
    fn try_from(repr: ControlRepr) -> Result<Self, Self::Error> {
        match repr {
            ControlRepr::Text(text) => text.parse(),
            ControlRepr::Object { moves, days } => Control::new(moves, days),
        }
    }
}

/// `shakmaty::Color` as `"white"` / `"black"` (shakmaty's own serde feature is off here).
pub(crate) mod color_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    pub(crate) fn serialize<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color.fold_wb("white", "black"))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::unknown_variant(
                other,
                &["white", "black"],
            )),
        }
    }

    /// `Option<Color>` as `"white"`, `"black"` or `null`.
    pub(crate) mod option {
        use serde::Serializer;
        use shakmaty::Color;

        pub(crate) fn serialize<S: Serializer>(
            color: &Option<Color>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            match color {
                Some(c) => super::serialize(c, s),
                None => s.serialize_none(),
            }
        }
    }
}
