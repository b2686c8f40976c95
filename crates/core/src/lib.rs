//! ccmail-core: the pure domain of e-mail correspondence chess.
//!
//! Notation (reading and writing moves), the move message (reading a partner's mail, writing
//! the standard form) and the rules clock (thinking days, breaks, penalties, deadlines).
//!
//! This crate never asks the world: no clock, no files, no sockets, no async. Today's date, the
//! player's time zone and message ids are arguments (`clippy.toml` enforces the clock part).

pub mod addressees;
pub mod board;
pub mod clock;
pub mod conditional;
pub mod import;
pub mod judge;
pub mod message;
pub mod notation;
pub mod pgn;
pub mod setup;
pub mod trust;
pub mod wording;
