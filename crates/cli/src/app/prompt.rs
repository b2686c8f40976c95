//! What the player types, read: the command line of the `reply` prompt ([`input`]) and, for a
//! move that does not fit the position, what was probably meant ([`suggest`]). `move` uses
//! the same suggestions (through [`super::compose::explain`]), so a typo reads the same in
//! both places.
//!
//! Pure: a position and a line of text in, words out. The terminal is the command's business.

pub mod input;
pub mod suggest;

pub use input::{Input, help, parse};
pub use suggest::explain;
