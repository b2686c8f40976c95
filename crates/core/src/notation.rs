//! Notation: reading a move as a person wrote it, writing a move in the game's notation.
//!
//! Reading is tolerant (docs/message-form.md, "What ccmail reads"): ICCF numeric notation, SAN
//! with English or Russian piece letters, long algebraic (`e2-e4`, `Кg1-f3`, `e4:d5`) and UCI.
//! Every form is reduced to a [`Pattern`] — piece, from-file, from-rank, destination, promotion,
//! castling side — and matched against the legal moves of the position. So castling written
//! as the king's move (`5171`, `e1-g1`) is decided by the piece on the from-square, never by the
//! digits alone: a rook on e1 going to g1 is a rook move.
//!
//! 51.3.6: check, mate and capture signs, `!`/`?` and a duplicate in brackets are ignored.
//! 51.3.4: what can't be read is *illegible*, what matches two moves is *ambiguous*, what
//! matches none is *impossible*; [`MoveError`] says which, for which text, and why.
//!
//! Writing is exact: [`write_move`] in numeric, SAN, Russian SAN, long algebraic or UCI.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use shakmaty::san::SanPlus;
use shakmaty::{
    CastlingMode, CastlingSide, Chess, Color, File, Move, Position, Rank, Role, Square,
};

/// A notation ccmail writes moves in. A game's notation is one of the first three (51.2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Notation {
    /// ICCF numeric (Article 53): `5254`, castling as the king's move `5171`, `17181` for a=Q.
    Numeric,
    /// SAN with English letters: `Nf3`, `exd5`, `O-O`, `e8=Q+`.
    San,
    /// SAN with Russian letters: `Кf3`, `e:d5`, `0-0`, `e8=Ф+`.
    SanRu,
    /// Long algebraic: `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q`.
    Lan,
    /// UCI: `e2e4`, `e1g1`, `e7e8q`.
    Uci,
}

impl Notation {
    /// All notations, for tests and round trips.
    pub const ALL: [Notation; 5] = [
        Notation::Numeric,
        Notation::San,
        Notation::SanRu,
        Notation::Lan,
        Notation::Uci,
    ];

    /// The name used in the config and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Notation::Numeric => "numeric",
            Notation::San => "san",
            Notation::SanRu => "san-ru",
            Notation::Lan => "lan",
            Notation::Uci => "uci",
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A notation name that is not one of `numeric`, `san`, `san-ru`, `lan`, `uci`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown notation {0:?} (expected numeric, san, san-ru, lan or uci)")]
pub struct ParseNotationError(pub String);

impl FromStr for Notation {
    type Err = ParseNotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Notation::ALL
            .into_iter()
            .find(|n| n.as_str() == s)
            .ok_or_else(|| ParseNotationError(s.to_owned()))
    }
}

/// What is wrong with a written move (51.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveErrorKind {
    /// The text is not a move in any notation ccmail reads.
    Illegible,
    /// The text fits more than one legal move.
    Ambiguous,
    /// The text is a move, but not a legal one in the position.
    Impossible,
}

/// A move that could not be read, with the text and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text}: {}", .why.english())]
pub struct MoveError {
    pub kind: MoveErrorKind,
    /// The move as written.
    pub text: String,
    /// Why, to be put in words in either language ([`MoveError::reason`], [`Why::russian`]).
    pub why: Why,
}

impl MoveError {
    fn new(kind: MoveErrorKind, text: &str, why: Why) -> MoveError {
        MoveError {
            kind,
            text: text.to_owned(),
            why,
        }
    }

    /// Why, in English words: "9 is not a file", "it fits both Nc3-e2 and Ng1-e2".
    pub fn reason(&self) -> String {
        self.why.english()
    }

    /// Why, in `language`'s words.
    pub fn reason_in(&self, language: crate::message::Language) -> String {
        match language {
            crate::message::Language::En => self.why.english(),
            crate::message::Language::Ru => self.why.russian(),
        }
    }
}

/// Why a written move was not read as a move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Why {
    /// Nothing is left of the text once signs are dropped.
    Empty,
    /// Numeric notation of the wrong length (the number of digits).
    NumericLength(usize),
    /// A digit of numeric notation out of 1–8: the digit and its place (0 from-file,
    /// 1 from-rank, 2 to-file, 3 to-rank).
    NumericDigit { digit: u32, place: usize },
    /// A fifth digit of numeric notation that names no promotion piece.
    PromotionDigit(u32),
    /// The text is not a move in any notation ccmail reads.
    NoNotation,
    /// Castling that the position does not allow.
    Castling(CastlingSide),
    /// No piece stands on the from-square.
    NoPieceOn(Square),
    /// The piece on the from-square belongs to the side not to move (`mover` is to move).
    NotTheMovers { on: Square, mover: Color },
    /// The piece on the from-square can't go to the target.
    CantGo {
        role: Role,
        from: Square,
        to: Square,
    },
    /// No piece of the mover (of that kind, when one was written) can go to the target.
    NoneCanGo {
        role: Option<Role>,
        mover: Color,
        to: Square,
    },
    /// Several promotions fit and none was written: the moves, in long algebraic.
    PromotionNotGiven(Vec<String>),
    /// Several moves fit: the moves, in long algebraic.
    Fits(Vec<String>),
}

impl Why {
    /// In English words.
    pub fn english(&self) -> String {
        match self {
            Why::Empty => "no move written".to_owned(),
            Why::NumericLength(n) => {
                format!("numeric moves have 4 digits (5 for a promotion), this has {n}")
            }
            Why::NumericDigit { digit, place } => {
                let name = ["from-file", "from-rank", "to-file", "to-rank"][*place % 4];
                let what = if place % 2 == 0 { "file" } else { "rank" };
                format!("{digit} is not a {what} ({name}: digits 1–8 only)")
            }
            Why::PromotionDigit(x) => {
                format!("{x} is not a promotion piece (1 queen, 2 rook, 3 bishop, 4 knight)")
            }
            Why::NoNotation => "not a move in any notation ccmail reads".to_owned(),
            Why::Castling(side) => format!(
                "castling {} is not possible here",
                if side.is_king_side() { "short" } else { "long" }
            ),
            Why::NoPieceOn(from) => format!("there is no piece on {from}"),
            Why::NotTheMovers { on, mover } => {
                format!("the piece on {on} is not {}'s", english_color(*mover))
            }
            Why::CantGo { role, from, to } => {
                format!("the {} on {from} can't go to {to}", role_name(*role))
            }
            Why::NoneCanGo { role, mover, to } => format!(
                "no {} of {} can go to {to}",
                role.map_or("piece", role_name),
                english_color(*mover)
            ),
            Why::PromotionNotGiven(moves) => {
                format!("the promotion piece is not given ({})", moves.join(", "))
            }
            Why::Fits(moves) => format!("it fits {}", join_or(moves)),
        }
    }

    /// In Russian words, for the correction request of a Russian game (51.3.4).
    pub fn russian(&self) -> String {
        match self {
            Why::Empty => "ход не записан".to_owned(),
            Why::NumericLength(n) => {
                format!("в цифровой записи хода 4 цифры (5 при превращении), а здесь {n}")
            }
            Why::NumericDigit { digit, place } => {
                let what = if place % 2 == 0 {
                    "вертикали"
                } else {
                    "горизонтали"
                };
                let whose = if *place < 2 {
                    "исходного поля"
                } else {
                    "поля, куда идёт фигура"
                };
                format!("{digit} — не номер {what} {whose} (только цифры 1–8)")
            }
            Why::PromotionDigit(x) => {
                format!("{x} — не фигура превращения (1 ферзь, 2 ладья, 3 слон, 4 конь)")
            }
            Why::NoNotation => "это не ход ни в одной из записей, которые читает ccmail".to_owned(),
            Why::Castling(side) => format!(
                "{} рокировка здесь невозможна",
                if side.is_king_side() {
                    "короткая"
                } else {
                    "длинная"
                }
            ),
            Why::NoPieceOn(from) => format!("на {from} нет фигуры"),
            Why::NotTheMovers { on, mover } => {
                format!("фигура на {on} не {}", russian_color(*mover))
            }
            Why::CantGo { role, from, to } => {
                format!("{} с {from} не может пойти на {to}", russian_role(*role))
            }
            Why::NoneCanGo { role, mover, to } => {
                let what = role.map_or("фигура", russian_role);
                // Король, ферзь, слон, конь; but ладья, пешка, фигура.
                let none = if matches!(role, Some(Role::Rook | Role::Pawn) | None) {
                    "ни одна"
                } else {
                    "ни один"
                };
                format!(
                    "{none} {what} {} не может пойти на {to}",
                    russian_color(*mover)
                )
            }
            Why::PromotionNotGiven(moves) => format!(
                "не указано, в какую фигуру превращается пешка ({})",
                moves.join(", ")
            ),
            Why::Fits(moves) => match moves.as_slice() {
                [] => String::new(),
                [one] => format!("подходит {one}"),
                [init @ .., last] => format!("подходят {} и {last}", init.join(", ")),
            },
        }
    }
}

/// A written move reduced to what it says, before it meets a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pattern {
    Castle(CastlingSide),
    Coords {
        /// `None` when no piece letter was written (and none is implied).
        role: Option<Role>,
        from_file: Option<File>,
        from_rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

/// Reads one move as written, in any notation ccmail reads, and finds it in `pos`.
///
/// `text` is a single move: move numbers are the caller's business (see
/// [`strip_move_number`]). Signs and a bracketed duplicate are ignored (51.3.6).
pub fn read_move(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    read_as_written(pos, text).or_else(|e| small_bishop(pos, text, e))
}

fn read_as_written(pos: &Chess, text: &str) -> Result<Move, MoveError> {
    let pattern = match quick_pattern(text.as_bytes()) {
        Some(pattern) => pattern,
        None => parse_cleaned(text)?,
    };
    fit_among_candidates(pos, text.trim(), pattern)
}

/// A bishop's move written with a small `b` (`bb7`, `bxc6`), which reads first as a pawn's on
/// the b-file, as SAN has it (`bf1-b5` not even that): when no pawn's move fits, the
/// bishop's move that does is the move (`e`, the pawn reading's error, stands otherwise). Small `n`, `q`, `r` and `k` are not
/// files, and read as pieces at once.
fn small_bishop(pos: &Chess, text: &str, e: MoveError) -> Result<Move, MoveError> {
    let text = text.trim();
    match (e.kind, text.strip_prefix('b')) {
        (MoveErrorKind::Impossible | MoveErrorKind::Illegible, Some(rest))
            if rest.starts_with(|c: char| c.is_ascii()) =>
        {
            read_as_written(pos, &format!("B{rest}")).map_err(|_| e)
        }
        _ => Err(e),
    }
}

/// Splits a leading move number (`12.`, `12...`, `12…`, `12.e4`) off a token; returns the
/// number, whether it was a Black-to-move number (`...`/`…`), and the rest.
pub fn strip_move_number(token: &str) -> Option<(u32, bool, &str)> {
    let bytes = token.as_bytes();
    let mut number = 0;
    let mut digits = 0;
    while let Some(&b) = bytes.get(digits).filter(|b| b.is_ascii_digit()) {
        if digits == 3 {
            return None;
        }
        number = number * 10 + u32::from(b - b'0');
        digits += 1;
    }
    if digits == 0 {
        return None;
    }
    // The marker: dots and ellipses, in any mix.
    let mut end = digits;
    loop {
        if bytes.get(end) == Some(&b'.') {
            end += 1;
        } else if bytes[end..].starts_with("…".as_bytes()) {
            end += "…".len();
        } else {
            break;
        }
    }
    // One dot is White's move; more dots, or an ellipsis, Black's.
    match end - digits {
        0 => None,
        marker => Some((number, marker > 1, &token[end..])),
    }
}

/// Cheap test of whether a token is a move attempt at all (for a reader scanning free text):
/// it looks like numeric notation, castling, or has a square in it.
pub fn looks_like_move(token: &str) -> bool {
    let token = token.trim();
    !surely_not_a_move(token) && move_shape(token)
}

/// Whether a token without a digit cannot be castling either: castling starts with an O, a
/// dash, or a sign that [`clean`] drops. Most words of talk are told so, without [`clean`]'s
/// copy. (`move_shape` of such a token is false: without a digit only castling passes it.)
///
/// The first character is told by its bytes: О о are D0 9E, D0 BE; – — ‒ † ‡ are E2 80 and
/// 93, 94, 92, A0, A1; − is E2 88 92; × is C3 97.
fn surely_not_a_move(token: &str) -> bool {
    !token.bytes().any(|b| b.is_ascii_digit())
        && !matches!(
            token.as_bytes(),
            [
                b'O' | b'o' | b'-' | b'+' | b'#' | b'!' | b'?' | b',' | b';',
                ..
            ] | [0xD0, 0x9E | 0xBE, ..]
                | [0xE2, 0x80, 0x92 | 0x93 | 0x94 | 0xA0 | 0xA1, ..]
                | [0xE2, 0x88, 0x92, ..]
                | [0xC3, 0x97, ..]
        )
}

fn move_shape(token: &str) -> bool {
    let core = clean(token);
    if core.is_empty() || core.chars().count() > 12 {
        return false;
    }
    if core.bytes().all(|b| b.is_ascii_digit()) {
        return core.len() == 4 || core.len() == 5;
    }
    if castle_side(&core).is_some() {
        return true;
    }
    // A file letter then a rank digit: both ASCII, so a byte pair is a character pair.
    core.as_bytes()
        .windows(2)
        .any(|w| (b'a'..=b'h').contains(&w[0]) && (b'1'..=b'8').contains(&w[1]))
}

/// Writes `m` (a legal move in `pos`) in `notation`. SAN forms carry `+`/`#`.
pub fn write_move(pos: &Chess, m: Move, notation: Notation) -> String {
    match notation {
        Notation::Numeric => numeric(pos, m),
        Notation::San => SanPlus::from_move(pos.clone(), m).to_string(),
        Notation::SanRu => russian(&SanPlus::from_move(pos.clone(), m).to_string()),
        Notation::Lan => lan(m),
        Notation::Uci => m.to_uci(CastlingMode::Standard).to_string(),
    }
}

/// SAN with English letters and no check or mate sign: the form of `parse --json`.
pub fn san(pos: &Chess, m: Move) -> String {
    shakmaty::san::San::from_move(pos, m).to_string()
}

/// `moves`, played one after another from `pos`, each in SAN ([`san`]).
pub fn sans(pos: &Chess, moves: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    moves
        .iter()
        .map(|&m| {
            let text = san(&pos, m);
            // legal: the caller's moves, each found legal in turn from `pos`
            pos.play_unchecked(m);
            text
        })
        .collect()
}

fn numeric(pos: &Chess, m: Move) -> String {
    let from = m.from().expect("chess moves have a from-square");
    let to = king_target(pos, m);
    let mut s = String::with_capacity(5);
    for sq in [from, to] {
        s.push(char::from(b'1' + sq.file().to_u32() as u8));
        s.push(sq.rank().char());
    }
    if let Some(p) = m.promotion() {
        s.push(match p {
            Role::Queen => '1',
            Role::Rook => '2',
            Role::Bishop => '3',
            _ => '4',
        });
    }
    s
}

fn lan(m: Move) -> String {
    if let Some(side) = m.castling_side() {
        return castle_text(side, "O").to_owned();
    }
    let from = m.from().expect("chess moves have a from-square");
    let mut s = String::new();
    if m.role() != Role::Pawn {
        s.push(m.role().upper_char());
    }
    s.push_str(&from.to_string());
    s.push(if m.is_capture() { 'x' } else { '-' });
    s.push_str(&m.to().to_string());
    if let Some(p) = m.promotion() {
        s.push('=');
        s.push(p.upper_char());
    }
    s
}

fn castle_text(side: CastlingSide, o: &str) -> &'static str {
    match (side, o) {
        (CastlingSide::KingSide, "O") => "O-O",
        (CastlingSide::QueenSide, "O") => "O-O-O",
        (CastlingSide::KingSide, _) => "0-0",
        (CastlingSide::QueenSide, _) => "0-0-0",
    }
}

/// English SAN text to Russian letters: Кр Ф Л С К, `:` for captures, `0-0`.
fn russian(san: &str) -> String {
    let mut out = String::with_capacity(san.len() + 2);
    for c in san.chars() {
        match c {
            'K' => out.push_str("Кр"),
            'Q' => out.push('Ф'),
            'R' => out.push('Л'),
            'B' => out.push('С'),
            'N' => out.push('К'),
            'x' => out.push(':'),
            'O' => out.push('0'),
            c => out.push(c),
        }
    }
    out
}

/// The square a move goes to as a person writes it: for castling, the king's square.
fn king_target(pos: &Chess, m: Move) -> Square {
    match m.castling_side() {
        Some(side) => side.king_to(pos.turn()),
        None => m.to(),
    }
}

/// Removes what 51.3.6 says to ignore and folds look-alike characters. Inlined: for a plain
/// move it is one pass over the bytes, less than a call's cost.
#[inline]
fn clean(text: &str) -> std::borrow::Cow<'_, str> {
    match plain_core(text) {
        Some(core) => std::borrow::Cow::Borrowed(core),
        None => clean_by_chars(text),
    }
}

/// The move in `text` when nothing in it is to be folded or dropped but check, mate and
/// `!`/`?` signs after it: most moves, told so in one pass over their bytes, with no copy
/// (the signs are cut off the end). `None` for the rest, which [`clean_by_chars`] cleans.
fn plain_core(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let end = bytes
        .iter()
        .rposition(|&b| !matches!(b, b'+' | b'#' | b'!' | b'?'))?
        + 1;
    let core = &bytes[..end];
    let mut i = 0;
    while let Some(&b) = core.get(i) {
        if PLAIN[usize::from(b)] {
            i += 1;
            continue;
        }
        // Cyrillic letters are two bytes, D0 or D1 and one more. Of them only the look-alikes
        // а е О о (D0) and с х (D1) are folded: Кр Ф Л С К stay as written.
        match (b, core.get(i + 1)) {
            (0xD0, Some(0x9E | 0xB0 | 0xB5 | 0xBE)) | (0xD1, Some(0x81 | 0x85)) => return None,
            (0xD0 | 0xD1, Some(_)) => i += 2,
            _ => return None,
        }
    }
    // An en-passant mark is cut by the long way (its other forms have dots, not plain).
    if core.ends_with(b"ep") {
        return None;
    }
    // The cut is before an ASCII sign, so at a character boundary.
    text.get(..end)
}

/// The bytes [`plain_core`] passes as they are: ASCII letters and digits, `-` and `=`. (A
/// table: one look-up a byte instead of the ranges' comparisons.)
const PLAIN: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'-' || c == b'=';
        b += 1;
    }
    table
};

/// [`clean`] by characters, for what [`plain_core`] leaves: blanks around the move, signs
/// before or inside it, dashes, look-alikes, brackets, en-passant marks. Kept out of line,
/// so that `clean` of a plain move does not pay for this one's frame.
#[inline(never)]
fn clean_by_chars(text: &str) -> std::borrow::Cow<'_, str> {
    let text = text.trim();
    // Most moves need nothing removed or folded: no allocation for them.
    // (Russian piece letters, `Кf3`, are kept as they are: only what the loop below changes
    // or drops, and the dots of an en-passant mark, need a copy.)
    let changed = |c: char| {
        matches!(
            c,
            '+' | '#'
                | '!'
                | '?'
                | '†'
                | '‡'
                | '×'
                | ','
                | ';'
                | '–'
                | '—'
                | '‒'
                | '−'
                | 'а'
                | 'с'
                | 'е'
                | 'О'
                | 'о'
                | 'х'
                | '('
                | '['
                | '{'
                | '.'
        ) || c.is_whitespace()
    };
    let plain = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'=';
    let unchanged = if text.is_ascii() {
        text.bytes().all(plain)
    } else {
        !text.chars().any(changed)
    };
    if unchanged && !text.ends_with("ep") {
        return std::borrow::Cow::Borrowed(text);
    }
    // The promotion piece in brackets, `b8(Q)`, `b1(Ф)`: the piece, not a duplicate.
    let promotion = promotion_in_brackets(text);
    let text = promotion.as_deref().unwrap_or(text);
    // A duplicate in brackets: `5254(e4)`, `5254 [e2-e4]`.
    let text = match text.find(['(', '[', '{']) {
        Some(i) if i > 0 => text[..i].trim_end(),
        _ => text,
    };
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '+' | '#' | '!' | '?' | '†' | '‡' | '×' | ',' | ';' => {}
            // Dashes of every kind are the hyphen of long algebraic and castling.
            '–' | '—' | '‒' | '−' => out.push('-'),
            // Cyrillic letters typed for the files (а с е), Cyrillic О/о in castling.
            'а' => out.push('a'),
            'с' => out.push('c'),
            'е' => out.push('e'),
            'О' | 'о' => out.push('O'),
            'х' => out.push('x'),
            c => out.push(c),
        }
    }
    // An en-passant mark after the move.
    for suffix in ["e.p.", "e.p", "ep", "в.п.", "b.п."] {
        if let Some(stripped) = out.strip_suffix(suffix).filter(|s| s.len() >= 2) {
            out.truncate(stripped.len());
            break;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `b8(Q)` as `b8Q` (and `b1[Ф]+` as `b1Ф+`): a move to the last rank with one piece letter
/// in brackets after it names the piece it promotes to. `None` for any other text.
fn promotion_in_brackets(text: &str) -> Option<String> {
    let open = text.find(['(', '['])?;
    let close = if text[open..].starts_with('(') {
        ')'
    } else {
        ']'
    };
    let len = text[open + 1..].find(close)?;
    let (before, piece) = (&text[..open], &text[open + 1..open + 1 + len]);
    let after = &text[open + 1 + len + 1..];
    let letter = matches!(
        piece,
        "Q" | "R" | "B" | "N" | "q" | "r" | "b" | "n" | "Ф" | "Л" | "С" | "К" | "C"
    );
    (letter && before.trim_end().ends_with(['1', '8']))
        .then(|| format!("{}{piece}{after}", before.trim_end()))
}

fn castle_side(core: &str) -> Option<CastlingSide> {
    let mut os = 0;
    for c in core.chars() {
        match c {
            'O' | 'o' | '0' => os += 1,
            '-' => {}
            _ => return None,
        }
    }
    match os {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// A piece letter at the start of a move: English (K Q R B N, N/Q/R/K also lower case),
/// Russian (Кр Ф Л С К, with Latin look-alikes Kp and C). Returns the role and the rest.
pub fn piece_prefix(s: &str) -> Option<(Role, &str)> {
    let (role, len) = piece_prefix_len(s.as_bytes())?;
    Some((role, s.get(len..)?))
}

/// [`piece_prefix`] by bytes: the role and the prefix's length. Кр (or the Latin-letter
/// mixes Kр Кp Kp) before К alone; the Russian letters are К D0 9A, р D1 80, Ф D0 A4,
/// Л D0 9B, С D0 A1.
fn piece_prefix_len(s: &[u8]) -> Option<(Role, usize)> {
    Some(match s {
        [b'K', b'p', ..] => (Role::King, 2),
        [b'K', 0xD1, 0x80, ..] | [0xD0, 0x9A, b'p', ..] => (Role::King, 3),
        [0xD0, 0x9A, 0xD1, 0x80, ..] => (Role::King, 4),
        [b'K' | b'k', ..] => (Role::King, 1),
        [b'Q' | b'q', ..] => (Role::Queen, 1),
        [b'R' | b'r', ..] => (Role::Rook, 1),
        [b'B' | b'C', ..] => (Role::Bishop, 1),
        [b'N' | b'S' | b'n', ..] => (Role::Knight, 1),
        [0xD0, 0xA4, ..] => (Role::Queen, 2),
        [0xD0, 0x9B, ..] => (Role::Rook, 2),
        [0xD0, 0xA1, ..] => (Role::Bishop, 2),
        [0xD0, 0x9A, ..] => (Role::Knight, 2),
        _ => return None,
    })
}

/// A promotion letter written in Russian, by its two bytes: Ф ф Л л С с К к.
fn russian_promotion_piece(lead: u8, next: u8) -> Option<Role> {
    match (lead, next) {
        (0xD0, 0xA4) | (0xD1, 0x84) => Some(Role::Queen),
        (0xD0, 0x9B | 0xBB) => Some(Role::Rook),
        (0xD0, 0xA1) | (0xD1, 0x81) => Some(Role::Bishop),
        (0xD0, 0x9A | 0xBA) => Some(Role::Knight),
        _ => None,
    }
}

fn promotion_piece(c: char) -> Option<Role> {
    match c {
        'Q' | 'q' | 'Ф' | 'ф' => Some(Role::Queen),
        'R' | 'r' | 'Л' | 'л' => Some(Role::Rook),
        'B' | 'b' | 'С' | 'с' => Some(Role::Bishop),
        'N' | 'n' | 'К' | 'к' | 'S' => Some(Role::Knight),
        _ => None,
    }
}

/// The pattern of a move written in one of the common shapes, read straight from its bytes
/// with no cleaning: four digits 1–8 (`5254`), or an optional piece letter, an optional
/// from-file and from-rank, an optional separator and the square (`e4`, `Nf3`, `exd5`,
/// `Кf3`, `e:d5`, `Nbd7`, `R1e2`, `Ng1-f3`, `e4:d5`, `g1f3`), with check, mate and `!`/`?`
/// signs after it. `None` for anything else, which [`parse_cleaned`] reads; where this gives
/// a pattern, that one gives the same.
#[inline(always)]
fn quick_pattern(text: &[u8]) -> Option<Pattern> {
    let mut s = text;
    while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = s {
        s = rest;
    }
    let digit = |b: u8| b.wrapping_sub(b'1') < 8;
    if let [a, b, c, d] = *s
        && digit(a)
        && digit(b)
        && digit(c)
        && digit(d)
    {
        return Some(Pattern::Coords {
            role: None,
            from_file: Some(File::new(u32::from(a - b'1'))),
            from_rank: Some(Rank::new(u32::from(b - b'1'))),
            to: Square::from_coords(
                File::new(u32::from(c - b'1')),
                Rank::new(u32::from(d - b'1')),
            ),
            promotion: None,
        });
    }
    // A file letter first is no piece letter (most moves: pawns', coordinates).
    let (role, s) = match s {
        [b'a'..=b'h', ..] => (None, s),
        _ => match piece_prefix_len(s) {
            Some((role, len)) => (Some(role), &s[len..]),
            None => (None, s),
        },
    };
    let [ref head @ .., to_file, to_rank] = *s else {
        return None;
    };
    let file = |b: u8| b.wrapping_sub(b'a') < 8;
    if !file(to_file) || !digit(to_rank) {
        return None;
    }
    let (head, hyphen) = match head {
        [head @ .., b'x' | b':'] => (head, false),
        [head @ .., b'-'] => (head, true),
        _ => (head, false),
    };
    let (from_file, from_rank) = match *head {
        [] => (None, None),
        [f] if file(f) => (Some(f), None),
        [r] if digit(r) => (None, Some(r)),
        [f, r] if file(f) && digit(r) => (Some(f), Some(r)),
        _ => return None,
    };
    coords(
        role,
        from_file.map(|f| File::new(u32::from(f - b'a'))),
        from_rank.map(|r| Rank::new(u32::from(r - b'1'))),
        hyphen,
        Square::from_coords(
            File::new(u32::from(to_file - b'a')),
            Rank::new(u32::from(to_rank - b'1')),
        ),
        None,
    )
}

/// The pattern of a move whose parts are read: `None` when a hyphen stands without both
/// from-coordinates (long algebraic writes both). In SAN a move with no piece letter is a
/// pawn's; in long algebraic and UCI it may be any.
#[inline]
fn coords(
    role: Option<Role>,
    from_file: Option<File>,
    from_rank: Option<Rank>,
    hyphen: bool,
    to: Square,
    promotion: Option<Role>,
) -> Option<Pattern> {
    let coordinate = from_file.is_some() && from_rank.is_some();
    if hyphen && !coordinate {
        return None;
    }
    let role = match role {
        Some(r) => Some(r),
        None if coordinate => None,
        None => Some(Role::Pawn),
    };
    Some(Pattern::Coords {
        role,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// The pattern of any text: cleaned of what 51.3.6 says to ignore, then read in whichever
/// notation it is in, or why it is none. [`read_move`] asks [`quick_pattern`] first.
#[inline(never)]
fn parse_cleaned(text: &str) -> Result<Pattern, MoveError> {
    let core = clean(text);
    let illegible = |why: Why| MoveError::new(MoveErrorKind::Illegible, text.trim(), why);
    if core.is_empty() {
        return Err(illegible(Why::Empty));
    }
    if core.bytes().all(|b| b.is_ascii_digit()) {
        return parse_numeric(&core).map_err(illegible);
    }
    if let Some(side) = castle_side(&core) {
        return Ok(Pattern::Castle(side));
    }
    parse_algebraic(&core).ok_or_else(|| illegible(Why::NoNotation))
}

/// ICCF numeric: from-file, from-rank, to-file, to-rank digits 1–8, then 1–4 for a promotion.
fn parse_numeric(digits: &str) -> Result<Pattern, Why> {
    if digits.len() != 4 && digits.len() != 5 {
        return Err(Why::NumericLength(digits.len()));
    }
    let mut d = [0u32; 5];
    for (slot, b) in d.iter_mut().zip(digits.bytes()) {
        *slot = u32::from(b - b'0');
    }
    let d = &d[..digits.len()];
    for (place, &digit) in d[..4].iter().enumerate() {
        if !(1..=8).contains(&digit) {
            return Err(Why::NumericDigit { digit, place });
        }
    }
    let promotion = match d.get(4) {
        None => None,
        Some(1) => Some(Role::Queen),
        Some(2) => Some(Role::Rook),
        Some(3) => Some(Role::Bishop),
        Some(4) => Some(Role::Knight),
        Some(&x) => return Err(Why::PromotionDigit(x)),
    };
    let square = |f: u32, r: u32| Square::from_coords(File::new(f - 1), Rank::new(r - 1));
    Ok(Pattern::Coords {
        role: None,
        from_file: Some(File::new(d[0] - 1)),
        from_rank: Some(Rank::new(d[1] - 1)),
        to: square(d[2], d[3]),
        promotion,
    })
}

/// SAN (English or Russian letters), long algebraic and UCI, read by bytes: every letter
/// that matters is ASCII but the piece prefix and a Russian promotion letter at the end, and
/// any other letter makes the text no move.
fn parse_algebraic(core: &str) -> Option<Pattern> {
    let bytes = core.as_bytes();
    let (role, rest) = match piece_prefix_len(bytes) {
        Some((role, len)) => (Some(role), &bytes[len..]),
        None => (None, bytes),
    };
    // A Russian promotion letter at the end: two bytes. Capture signs are no part of the
    // move's squares wherever they stand, after that letter too (`a1к:`).
    let rest = match rest.iter().rposition(|&b| b != b'x' && b != b':') {
        Some(last) => &rest[..=last],
        None => &rest[..0],
    };
    let (tail, rest) = match rest {
        [body @ .., lead, next] if *lead >= 0x80 => {
            (Some(russian_promotion_piece(*lead, *next)?), body)
        }
        _ => (None, rest),
    };
    // At most a dozen characters matter; a longer text is not a move (no more than seven
    // can make one).
    let mut buf = [0u8; 12];
    let mut n = 0;
    for &b in rest.iter().filter(|&&b| b != b'x' && b != b':') {
        if n == buf.len() || b >= 0x80 {
            return None;
        }
        buf[n] = b;
        n += 1;
    }
    let mut chars = &buf[..n];
    // Promotion at the end: `=Q`, `Q`, `(Q)` was cut as a bracket, `/Q`.
    // `b` at the end is a file only when a rank follows it; at the end it is a bishop.
    // (Before one or no letter a promotion letter leaves less than a square: no move.)
    let promotion = match tail {
        Some(p) => Some(p),
        None => match chars
            .last()
            .copied()
            .and_then(|b| promotion_piece(char::from(b)))
        {
            Some(p) if n >= 3 => {
                chars = &chars[..n - 1];
                Some(p)
            }
            _ => None,
        },
    };
    if promotion.is_some() && matches!(chars.last(), Some(b'=' | b'/')) {
        chars = &chars[..chars.len() - 1];
    }
    // What is left: [from-file][from-rank][-]to-file to-rank.
    let hyphen = chars.iter().filter(|&&c| c == b'-').count();
    if hyphen > 1 {
        return None;
    }
    let mut squares = [0u8; 12];
    let mut n = 0;
    for &c in chars.iter().filter(|&&c| c != b'-') {
        squares[n] = c;
        n += 1;
    }
    let chars = &squares[..n];
    if n < 2 {
        return None;
    }
    let to_file = File::from_char(char::from(chars[n - 2]))?;
    let to_rank = Rank::from_char(char::from(chars[n - 1]))?;
    let (mut from_file, mut from_rank) = (None, None);
    for &c in &chars[..n - 2] {
        let c = char::from(c);
        if let Some(f) = File::from_char(c).filter(|_| from_file.is_none() && from_rank.is_none()) {
            from_file = Some(f);
        } else if let Some(r) = Rank::from_char(c).filter(|_| from_rank.is_none()) {
            from_rank = Some(r);
        } else {
            return None;
        }
    }
    coords(
        role,
        from_file,
        from_rank,
        hyphen == 1,
        Square::from_coords(to_file, to_rank),
        promotion,
    )
}

/// The legal moves that could fit `pattern`: only those to its square, of its piece.
/// (`san_candidates` generates moves to one square, far cheaper than all legal moves.)
fn candidates(pos: &Chess, pattern: Pattern) -> shakmaty::MoveList {
    match pattern {
        Pattern::Castle(side) => pos.castling_moves(side),
        Pattern::Coords {
            role,
            from_file,
            from_rank,
            to,
            ..
        } => {
            // Without a piece letter, the piece on the from-square decides (51.2.4: numeric).
            let role = role.or_else(|| {
                let from = Square::from_coords(from_file?, from_rank?);
                pos.board().piece_at(from).map(|p| p.role)
            });
            let mut moves = match role {
                Some(role) => pos.san_candidates(role, to),
                None => pos.legal_moves(),
            };
            // Castling written as the king's move: `5171`, `e1-g1`, `Kpe1-g1`.
            if matches!(role, None | Some(Role::King)) {
                for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
                    // Without the right there is no castling move: no list to make (each is
                    // 256 moves' room, copied).
                    if pos.castles().has(pos.turn(), side) {
                        moves.extend(pos.castling_moves(side));
                    }
                }
            }
            moves
        }
    }
}

/// The legal move that fits `pattern`, from the legal moves to its square, or why none or
/// several do. Every move the reader finds comes from here: from shakmaty's move
/// generation, never put together from the squares the text names.
fn fit_among_candidates(pos: &Chess, text: &str, pattern: Pattern) -> Result<Move, MoveError> {
    // Most texts fit exactly one move: that is settled without copying the candidate list
    // (256 moves' room) or sorting it.
    let moves = candidates(pos, pattern);
    let mut fits = moves
        .iter()
        .copied()
        .filter(|&m| fits_pattern(pos, m, pattern));
    let (first, second) = (fits.next(), fits.next());
    let (Some(first), Some(second)) = (first, second) else {
        return first.ok_or_else(|| {
            MoveError::new(
                MoveErrorKind::Impossible,
                text,
                impossible_reason(pos, pattern),
            )
        });
    };
    let mut many: Vec<Move> = [first, second].into_iter().chain(fits).collect();
    // A stable order for the words: by from-square file then rank, queen promotions first.
    many.sort_by_key(|m| {
        let from = m.from().expect("chess moves have a from-square");
        (from.file(), from.rank(), std::cmp::Reverse(m.promotion()))
    });
    let names: Vec<String> = many.iter().map(|&m| lan(m)).collect();
    let why = if many.iter().all(|m| m.is_promotion()) && pattern_promotion(pattern).is_none() {
        Why::PromotionNotGiven(names)
    } else {
        Why::Fits(names)
    };
    Err(MoveError::new(MoveErrorKind::Ambiguous, text, why))
}

fn pattern_promotion(p: Pattern) -> Option<Role> {
    match p {
        Pattern::Coords { promotion, .. } => promotion,
        Pattern::Castle(_) => None,
    }
}

fn fits_pattern(pos: &Chess, m: Move, pattern: Pattern) -> bool {
    match pattern {
        Pattern::Castle(side) => m.castling_side() == Some(side),
        Pattern::Coords {
            role,
            from_file,
            from_rank,
            to,
            promotion,
        } => {
            let from = m.from().expect("chess moves have a from-square");
            role.is_none_or(|r| r == m.role())
                && from_file.is_none_or(|f| f == from.file())
                && from_rank.is_none_or(|r| r == from.rank())
                && king_target(pos, m) == to
                && (promotion == m.promotion() || (promotion.is_none() && m.is_promotion()))
        }
    }
}

fn impossible_reason(pos: &Chess, pattern: Pattern) -> Why {
    match pattern {
        Pattern::Castle(side) => Why::Castling(side),
        Pattern::Coords {
            role,
            from_file,
            from_rank,
            to,
            ..
        } => {
            if let (Some(f), Some(r)) = (from_file, from_rank) {
                let from = Square::from_coords(f, r);
                return match pos.board().piece_at(from) {
                    None => Why::NoPieceOn(from),
                    Some(p) if p.color != pos.turn() => Why::NotTheMovers {
                        on: from,
                        mover: pos.turn(),
                    },
                    Some(p) => Why::CantGo {
                        role: p.role,
                        from,
                        to,
                    },
                };
            }
            Why::NoneCanGo {
                role,
                mover: pos.turn(),
                to,
            }
        }
    }
}

fn english_color(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// "Of White" in Russian: белых, чёрных.
fn russian_color(color: Color) -> &'static str {
    match color {
        Color::White => "белых",
        Color::Black => "чёрных",
    }
}

fn russian_role(role: Role) -> &'static str {
    match role {
        Role::Pawn => "пешка",
        Role::Knight => "конь",
        Role::Bishop => "слон",
        Role::Rook => "ладья",
        Role::Queen => "ферзь",
        Role::King => "король",
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("both {} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests;
