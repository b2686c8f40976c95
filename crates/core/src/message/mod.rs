//! The move message: what a partner's mail says, and the standard form ccmail writes.
//!
//! Article 51.2.1 lists what every move message carries: the game header, the record of all
//! moves so far, the date the partner's last move was sent and the date it was received, the
//! sender's own move and its send date, the thinking time of this move and both totals, and a
//! signature. [`read`] takes the decoded text of a message (plus its From, Date and Subject)
//! and finds all of it, tolerantly, in any of the layouts of message-form.md; [`write`]
//! renders the standard form exactly. What cannot be read becomes a [`Problem`] in words —
//! the reader never fails and never panics.

mod dates;
mod kind;
mod read;
mod write;

pub(crate) use read::pgn_text::read_all as read_pgn_games;

use chrono::{DateTime, FixedOffset, NaiveDate};
use serde::Serialize;
use shakmaty::{Chess, Move};

pub(crate) use dates::write_date;
pub use kind::MessageKind;
pub use read::{
    GameHeaderWords, MAX_LINES, MAX_TEXT_BYTES, game_header_words, may_name_a_game, over_the_caps,
    read,
};
pub use write::{
    Language, Outgoing, ParseLanguageError, PartnerMove, break_phrase, one_line, subject, write,
};

/// The game header of 51.2.2: competition, its start date, White's and Black's surnames.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GameHeader {
    pub event: Option<String>,
    pub start: Option<NaiveDate>,
    pub white: Option<String>,
    pub black: Option<String>,
}

/// What the envelope of a message says, as the MIME layer decoded it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Envelope {
    /// The From address.
    pub from: Option<String>,
    /// The From display name (`Per Lindqvist`): a PGN's White or Black tag may name the
    /// sender by it.
    pub from_name: Option<String>,
    pub subject: Option<String>,
    /// The `Date:` header, in the sender's own offset.
    pub date: Option<DateTime<FixedOffset>>,
    /// Whether the message answers another (it has In-Reply-To or References).
    pub replies: bool,
    /// Whether the header says no person wrote it: a delivery report, an automatic reply, a
    /// mailing list's post. Such mail is no letter of a game's (kind `other`), whatever it
    /// quotes.
    pub automatic: bool,
}

impl Envelope {
    /// The local date of `Date:` in the sender's offset: the actual send date (51.2.3).
    pub fn date_sent(&self) -> Option<NaiveDate> {
        self.date.map(|d| d.date_naive())
    }
}

/// The signature line: `Петров Пётр <petrov@example.org>`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Signature {
    pub name: String,
    pub email: Option<String>,
}

/// Both players' totals as the message states them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub white: u32,
    pub black: u32,
}

/// A break announced in a message: both days included (10.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BreakNotice {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

/// The kinds of thing that can be wrong with a message (cli.md, `problems[].code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemCode {
    IllegibleMove,
    AmbiguousMove,
    ImpossibleMove,
    NoMove,
    MissingHeader,
    MissingDate,
    BadDate,
    Unreadable,
}

/// One thing wrong with a message, with the line or move and why, in words: English
/// (`detail`, the JSON's) and Russian.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub code: ProblemCode,
    pub detail: String,
    #[serde(skip)]
    pub detail_ru: String,
}

impl Problem {
    /// A problem said in English and in Russian.
    pub fn new(
        code: ProblemCode,
        detail: impl Into<String>,
        detail_ru: impl Into<String>,
    ) -> Problem {
        Problem {
            code,
            detail: detail.into(),
            detail_ru: detail_ru.into(),
        }
    }

    /// The detail in `language`.
    pub fn detail_in(&self, language: Language) -> &str {
        match language {
            Language::En => &self.detail,
            Language::Ru => &self.detail_ru,
        }
    }
}

/// Everything read from one message. Moves are replayed from the initial position.
#[derive(Clone, Debug, Default)]
pub struct MoveMessage {
    /// What the message is (RULES.md, "What a message is"). Only a `Move` or `Repeat` has a
    /// new move, and only a `Move` can lack one (51.3.5).
    pub kind: MessageKind,
    pub header: GameHeader,
    /// The record of moves before the sender's new move, as far as it could be replayed.
    pub moves: Vec<Move>,
    /// The sender's own move (`None` if absent or unreadable: see `problems`).
    pub new_move: Option<Move>,
    /// The new move as written, even when it could not be read.
    pub new_move_text: Option<String>,
    /// The side the move line's number gives the new move (`6.` White, `6...` Black).
    pub new_move_side: Option<shakmaty::Color>,
    /// The move line's number (`23` of `23...Кр:f8`).
    pub new_move_number: Option<u32>,
    /// The message labels its moves as the 51.2 form does (`Ходы:`, `Мой ход:`, `Moves:`,
    /// `My move:`): it is written as a move message.
    pub labelled: bool,
    /// The message has a move line (`Мой ход:`, `My move:`) with nothing on it (51.3.5).
    pub move_line_empty: bool,
    /// The record could not be read through (a move in it illegible, ambiguous or
    /// impossible as read): whatever follows in it is unknown, not wrong.
    pub record_unread: bool,
    /// Why the record could not be read through: the move that stopped it, which comes
    /// after `moves`.
    pub record_error: Option<crate::notation::MoveError>,
    /// A proposed conditional continuation after the new move (51.3.7).
    pub variation: Vec<Move>,
    /// The partner's last move as the sender repeats it on the "your move … sent" line.
    pub partner_move_text: Option<String>,
    /// 51.2.1 item 3: the date the recipient's last move was sent, as the sender confirms it.
    pub partner_move_sent: Option<NaiveDate>,
    /// 51.2.1 item 4: the date the sender received it.
    pub received: Option<NaiveDate>,
    /// 51.2.1 item 6: the intended send date of the new move.
    pub sent: Option<NaiveDate>,
    /// 51.2.1 item 7: the thinking time of this move, as stated.
    pub move_days: Option<u32>,
    /// 51.2.1 item 7: both totals, as stated.
    pub total_days: Option<Totals>,
    pub signature: Option<Signature>,
    pub draw_offer: bool,
    pub draw_accept: bool,
    pub resign: bool,
    pub break_notice: Option<BreakNotice>,
    /// A repeat of a move not answered in 14 days (51.5.1).
    pub repeat: bool,
    /// The sender's statements under 51.2.3 (`Замечания:`/`Notes:`), one per line.
    pub notes: Vec<String>,
    /// An address change's new address (51.1.2).
    pub new_address: Option<String>,
    /// A break end's first day of play again (51.7.3), when the message gives it.
    pub resumes_on: Option<NaiveDate>,
    /// A correction request that says our move was lost (51.5.2), not wrong (51.3.4).
    pub says_lost: bool,
    /// Addresses a PGN gives for the players (`WhiteNA`, `BlackNA`).
    pub white_email: Option<String>,
    pub black_email: Option<String>,
    pub problems: Vec<Problem>,
    /// The message is more than ccmail reads, and was not read ([`too_large`]).
    pub too_large: Option<TooLarge>,
}

impl MoveMessage {
    /// The position after the record (before the new move).
    pub fn position_before(&self) -> Chess {
        play_all(&self.moves)
    }

    /// The position after the record and the new move.
    pub fn position_after(&self) -> Chess {
        let mut pos = self.position_before();
        if let Some(m) = self.new_move {
            // legal: the reader found it (notation::read_move) after the record
            shakmaty::Position::play_unchecked(&mut pos, m);
        }
        pos
    }

    /// Whether any problem of `code` was found.
    pub fn has(&self, code: ProblemCode) -> bool {
        self.problems.iter().any(|p| p.code == code)
    }
}

/// Plays moves (legal ones, as the reader produced them) from the initial position.
pub fn play_all(moves: &[Move]) -> Chess {
    let mut pos = Chess::default();
    for &m in moves {
        // legal: moves found legal in turn from the start (read, or replayed by UciMove::to_move)
        shakmaty::Position::play_unchecked(&mut pos, m);
    }
    pos
}

/// A message that is not mail at all (cli.md: exit 0 and one `unreadable` problem).
pub fn unreadable(why: impl Into<String>) -> MoveMessage {
    let why: String = why.into();
    MoveMessage {
        problems: vec![Problem::new(ProblemCode::Unreadable, why.clone(), why)],
        ..MoveMessage::default()
    }
}

/// Why a message is more than ccmail reads. Such a message is not read in part (a move read
/// from part of a letter could be the wrong one): it is held, whole, for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooLarge {
    /// The message is `bytes` long, more than `max`.
    Message { bytes: u64, max: u64 },
    /// A text or PGN part of it is `bytes` long as sent, more than `max`.
    Part { bytes: u64, max: u64 },
    /// It has more than `max` MIME parts.
    Parts { max: u64 },
    /// Its MIME parts are nested more than `max` levels deep.
    Depth { max: u64 },
    /// It has more than `max` PGN parts.
    PgnParts { max: u64 },
    /// Its text is `bytes` long, more than `max`.
    Text { bytes: u64, max: u64 },
    /// Its text has more than `max` lines.
    Lines { max: usize },
}

impl TooLarge {
    /// Why, in English and in Russian.
    pub fn words(self) -> (String, String) {
        let (en, ru) = match self {
            TooLarge::Message { bytes, max } => (
                format!("the message is {bytes} bytes long, more than the {max} ccmail reads"),
                format!("письмо длиной {bytes} байт, больше {max}, которые читает ccmail"),
            ),
            TooLarge::Part { bytes, max } => (
                format!("a text part is {bytes} bytes long, more than the {max} ccmail reads"),
                format!("текстовая часть длиной {bytes} байт, больше {max}, которые читает ccmail"),
            ),
            TooLarge::Parts { max } => (
                format!("it has more than {max} MIME parts"),
                format!("в нём больше {max} частей MIME"),
            ),
            TooLarge::Depth { max } => (
                format!("its MIME parts are nested more than {max} levels deep"),
                format!("его части MIME вложены глубже {max} уровней"),
            ),
            TooLarge::PgnParts { max } => (
                format!("it has more than {max} PGN parts"),
                format!("в нём больше {max} частей PGN"),
            ),
            TooLarge::Text { bytes, max } => (
                format!("its text is {bytes} bytes long, more than the {max} ccmail reads"),
                format!("его текст длиной {bytes} байт, больше {max}, которые читает ccmail"),
            ),
            TooLarge::Lines { max } => (
                format!("its text has more than {max} lines"),
                format!("в его тексте больше {max} строк"),
            ),
        };
        (
            format!("too large to read: {en}"),
            format!("слишком большое, чтобы читать: {ru}"),
        )
    }
}

/// A message too large to read: not read at all, one `unreadable` problem that says why.
pub fn too_large(why: TooLarge) -> MoveMessage {
    let (en, ru) = why.words();
    MoveMessage {
        problems: vec![Problem::new(ProblemCode::Unreadable, en, ru)],
        too_large: Some(why),
        ..MoveMessage::default()
    }
}
