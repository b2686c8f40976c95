//! Reading a PGN game that a message carries, in its body or attached (cmail, Scid,
//! ChessBase, lichess, the IECC template).
//!
//! Why a module of its own, and not the line reader's: PGN is a grammar, not a layout. Tags
//! stand several to a line, comments run across lines (a cmail board diagram in one is not
//! moves), variations nest and are not the main line, `%` lines are escapes, and one text may
//! hold several games. The `pgn-reader` crate follows that grammar; this module only keeps
//! what the move message needs from it: the tags, the main line replayed from the initial
//! position, and each comment with the number of moves played before it (so that a
//! `{Black resigns}` can be told to follow Black's move, and an old `{White offers a draw}`
//! further up the record from the sender's new one).
//!
//! Nothing here panics on a broken PGN: a move that can't be played stops the main line and
//! is kept as a [`notation::MoveError`]; a text `pgn-reader` gives up on is an `Err` in words.

use std::ops::ControlFlow;

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Move, Position};

use crate::notation::{self, MoveError};

/// One game of a PGN text, as far as its main line could be played.
#[derive(Clone, Debug, Default)]
pub(crate) struct Game {
    /// The tags in their order, names and values as written (escapes decoded).
    pub tags: Vec<(String, String)>,
    /// The main line, legal moves from the initial position.
    pub moves: Vec<Move>,
    /// Each comment of the main line, with how many moves (of [`Game::plies`]) come before it.
    pub comments: Vec<(usize, String)>,
    /// The move the main line stopped at, and the position it could not be played in.
    pub stopped: Option<(Chess, MoveError)>,
    /// The moves of the main line from the one it stopped at on, as written.
    pub unplayed: Vec<String>,
}

impl Game {
    pub fn has_moves(&self) -> bool {
        !self.moves.is_empty() || self.stopped.is_some()
    }

    /// How many moves the main line has, played or not.
    pub fn plies(&self) -> usize {
        self.moves.len() + self.unplayed.len()
    }
}

/// A PGN reader of `text` that takes a comment as long as the text, up to 64 KiB. pgn-reader
/// zeroes a buffer of twice that: sized to the text, not to the longest comment it could ever
/// take (a 256 KiB buffer for each PGN part was a fifth of the reading of a sample mail).
fn reader_of(text: &str) -> Reader<&[u8]> {
    Reader::build(text.as_bytes())
        .set_supported_comment_length(text.len().min(1 << 16))
        .finish()
}

/// Every game of `text`, in order, tags-only games included. `Err` is how many games were
/// read before the text could not be, and the reader's words why.
pub(crate) fn read_all(text: &str) -> Result<Vec<Game>, (usize, String)> {
    let mut reader = reader_of(text);
    let mut games = Vec::new();
    loop {
        match reader.read_game(&mut MainLine) {
            Ok(Some(game)) => games.push(game),
            Ok(None) => return Ok(games),
            Err(e) => return Err((games.len(), e.to_string())),
        }
    }
}

/// The first game of `text` that has moves, else its first game (tags alone), else `None`.
/// `Err` says in words why the text can't be read as PGN.
pub(super) fn read_pgn(text: &str) -> Result<Option<Game>, String> {
    let mut reader = reader_of(text);
    let mut first = None;
    loop {
        match reader.read_game(&mut MainLine) {
            Ok(Some(game)) if game.has_moves() => return Ok(Some(game)),
            Ok(Some(game)) => {
                first.get_or_insert(game);
            }
            Ok(None) => return Ok(first),
            Err(e) => return Err(format!("the PGN can't be read: {e}")),
        }
    }
}

/// The game being read, and the position its main line has reached.
struct Progress {
    game: Game,
    pos: Chess,
}

/// The [`Visitor`] that keeps a game's tags, main line and comments; variations are skipped
/// (the default of [`Visitor::begin_variation`]).
struct MainLine;

impl Visitor for MainLine {
    type Tags = Vec<(String, String)>;
    type Movetext = Progress;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Game> {
        let name = String::from_utf8_lossy(name).into_owned();
        tags.push((name, value.decode_utf8_lossy().into_owned()));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Game, Progress> {
        ControlFlow::Continue(Progress {
            game: Game {
                tags,
                ..Game::default()
            },
            pos: Chess::default(),
        })
    }

    fn san(&mut self, progress: &mut Progress, san_plus: SanPlus) -> ControlFlow<Game> {
        if progress.game.stopped.is_some() {
            progress.game.unplayed.push(san_plus.to_string());
            return ControlFlow::Continue(());
        }
        // Through the notation module, for its words when the move can't be played.
        match notation::read_move(&progress.pos, &san_plus.to_string()) {
            Ok(m) => {
                progress.game.moves.push(m);
                // legal: from notation::read_move in this position
                progress.pos.play_unchecked(m);
            }
            Err(e) => {
                progress.game.unplayed.push(san_plus.to_string());
                progress.game.stopped = Some((progress.pos.clone(), e));
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, progress: &mut Progress, comment: RawComment<'_>) -> ControlFlow<Game> {
        let text = String::from_utf8_lossy(comment.as_bytes())
            .trim()
            .to_owned();
        let played = progress.game.plies();
        progress.game.comments.push((played, text));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, progress: Progress) -> Game {
        progress.game
    }
}

#[cfg(test)]
mod tests;
