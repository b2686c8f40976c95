//! Reading a partner's move message: tolerant, in either language, in any layout.
//!
//! The text is taken line by line. Quoted mail (`>` lines, "-----Original Message-----",
//! "On … wrote:", "… пишет:") is not the new message and is dropped first. Each remaining
//! line is either labelled (`Турнир:`, `Received`, `Мой ход 15.Кd2-f3 отправлен 14.05.2026`,
//! any case, with or without a colon, the synonyms of [`labels`]), a line of moves (the record,
//! numbered or not, in any notation), a PGN tag, a phrase (`Предлагаю ничью`, `I resign`,
//! `Беру перерыв с … по …`), or talk, which is ignored.
//!
//! Which moves are the record and which is the sender's new one: a "my move" line names the new
//! move; in the standard form (a `Ходы`/`Moves` record or a "your move … sent" line) the record
//! ends with the recipient's move; otherwise (PGN from cmail or Scid, the IECC template) the
//! record runs up to and including the sender's move.
//!
//! The work per message is bounded: a text (with its PGN parts) of more than [`MAX_LINES`]
//! lines or [`MAX_TEXT_BYTES`] bytes is not read at all but said to be too large (the daemon
//! holds it), and the lines are taken one by one, only the sender's own kept (a run of blank
//! lines as one). The caps are far above any letter of a game: a year-long game's letter with
//! every quote is under 100 KB and 3,000 lines, a PGN of a whole game a few KB. Without them a
//! stranger's letter of blank lines made the reader keep ~100 bytes a line, hundreds of
//! megabytes, and a daemon under a memory limit died on it at every start.

mod pgn_game;
pub(super) mod pgn_text;

use chrono::NaiveDate;
use shakmaty::{Chess, Color, Position};

use super::dates::{Found, break_dates, break_span, find_dates};
use super::kind::{self, MessageKind, OwnLine};
use super::{
    BreakNotice, Envelope, MoveMessage, Problem, ProblemCode, Signature, TooLarge, Totals,
};
use crate::notation::{self, MoveErrorKind, looks_like_move, strip_move_number};

/// The labels ccmail recognises at the start of a line, lower case, longest first where one
/// is a prefix of another. A label must be followed by something that is not a letter.
mod labels {
    pub const EVENT: &[&str] = &[
        "соревнование",
        "турнир",
        "tournament",
        "competition",
        "event",
    ];
    pub const START: &[&str] = &[
        "дата старта",
        "дата начала",
        "старт",
        "начало",
        "start date",
        "started",
        "start",
    ];
    pub const WHITE: &[&str] = &["белые", "white"];
    pub const BLACK: &[&str] = &["черные", "black"];
    /// The labels above that Russian also writes with `ё`, so spelled: the reader folds `ё` to
    /// `е` before it compares, a mail server's search may not.
    pub const WITH_YO: &[&str] = &["чёрные"];
    pub const RECORD: &[&str] = &[
        "запись партии",
        "запись",
        "ходы",
        "партия",
        "move list",
        "game record",
        "moves",
    ];
    pub const PARTNER: &[&str] = &[
        "ваш последний ход",
        "ваш ход",
        "your last move",
        "your move",
    ];
    pub const MINE: &[&str] = &["мой ход", "мой ответ", "my move", "my reply", "ход"];
    pub const RECEIVED: &[&str] = &[
        "дата получения",
        "получено",
        "получен",
        "получил",
        "получила",
        "date received",
        "received",
        "i received",
    ];
    pub const SENT: &[&str] = &[
        "дата отправки",
        "отправлено",
        "отправлен",
        "отправил",
        "отправила",
        "date sent",
        "sent",
        "i sent",
        "i answered",
        "answered",
    ];
    pub const MOVE_DAYS: &[&str] = &[
        "время на обдумывание",
        "время на ход",
        "дней на ход",
        "затрачено дней",
        "затрачено",
        "думала",
        "думал",
        "время",
        "time for this move",
        "time for move",
        "thinking time",
        "reflection time",
        "time used",
        "time",
    ];
    pub const TOTALS: &[&str] = &[
        "итого дней",
        "всего дней",
        "итого",
        "всего",
        "total days",
        "totals",
        "total",
    ];
    pub const VARIATION: &[&str] = &["условный вариант", "вариант", "conditional", "variation"];
    pub const NOTES: &[&str] = &["замечания", "примечания", "notes", "remarks"];
    pub const REPEAT: &[&str] = &["повторяю", "повтор", "repeat"];
    /// Words that turn a draw phrase into its refusal.
    pub const DECLINE: &[&str] = &[
        "declin",
        "reject",
        "not accept",
        "don't accept",
        "don’t accept",
        "won't accept",
        "won’t accept",
        "can't accept",
        "can’t accept",
        "cannot accept",
        "отклон",
        "не принимаю",
        "не согласен",
        "не согласна",
        "отказ",
    ];

    pub const DRAW_OFFER: &[&str] = &[
        "предлагаю ничью",
        "ничью предлагаю",
        "предложение ничьей",
        "offer a draw",
        "draw offer",
        "draw offered",
        "offers a draw",
        "propose a draw",
    ];
    /// Only what cannot be read as an offer or a question: a wrongly read acceptance of our
    /// own offer would end the game.
    pub const DRAW_ACCEPT: &[&str] = &[
        "ничья принята",
        "принимаю ничью",
        "ничью принимаю",
        "принимаю ваше предложение ничьей",
        "принимаю предложение ничьей",
        "принимаю ваше предложение о ничьей",
        "принимаю предложение о ничьей",
        "предложение ничьей принимаю",
        "предложение ничьей принято",
        "ничьей согласен",
        "ничьей согласна",
        "согласен на ничью",
        "согласна на ничью",
        "на ничью согласен",
        "на ничью согласна",
        "draw accepted",
        "draw offer accepted",
        "accept the draw",
        "accept your draw",
        "accept your offer of a draw",
        "accept the offer of a draw",
        "accepts the draw",
        "draw agreed",
    ];
    pub const RESIGN: &[&str] = &[
        "сдаюсь",
        "партию сдаю",
        "признаю поражение",
        "признаю свое поражение",
        "i resign",
        "resigns",
    ];
}

/// What a line was taken to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    PartnerSent,
    Received,
    Sent,
}

/// The labels that say what a line is, in the order they are tried: where labels of two
/// kinds fit a line, the earlier kind is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Event,
    White,
    Black,
    Start,
    Partner,
    Mine,
    Received,
    Sent,
    MoveDays,
    Record,
    Variation,
    Notes,
}

const LABELS: [(Label, &[&str]); 12] = [
    (Label::Event, labels::EVENT),
    (Label::White, labels::WHITE),
    (Label::Black, labels::BLACK),
    (Label::Start, labels::START),
    (Label::Partner, labels::PARTNER),
    (Label::Mine, labels::MINE),
    (Label::Received, labels::RECEIVED),
    (Label::Sent, labels::SENT),
    (Label::MoveDays, labels::MOVE_DAYS),
    (Label::Record, labels::RECORD),
    (Label::Variation, labels::VARIATION),
    (Label::Notes, labels::NOTES),
];

/// The lists of words looked for anywhere in a line, not only at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Words {
    Totals,
    /// "you sent", "i received", "i answered": a line of dates without a label.
    DateTalk,
    Received,
    Sent,
    /// What the sender says we sent.
    YouSent,
    /// The sides in a totals line.
    White,
    Black,
    Decline,
    DrawOffer,
    DrawAccept,
    Resign,
    Break,
}

/// Each list, and whether its words are stems (`declin` finds "declined") rather than whole
/// words.
const WORDS: [(Words, &[&str], bool); 12] = [
    (Words::Totals, labels::TOTALS, false),
    (
        Words::DateTalk,
        &["you sent", "i received", "i answered"],
        false,
    ),
    (Words::Received, labels::RECEIVED, false),
    (Words::Sent, labels::SENT, false),
    (Words::YouSent, &["you sent", "вы отправили"], false),
    (Words::White, &["белые", "белых", "б", "white"], false),
    (Words::Black, &["черные", "черных", "ч", "black"], false),
    (Words::Decline, labels::DECLINE, true),
    (Words::DrawOffer, labels::DRAW_OFFER, true),
    (Words::DrawAccept, labels::DRAW_ACCEPT, true),
    (Words::Resign, labels::RESIGN, true),
    // A break by other names: its dates are read on such a line, and the letter's kind says
    // whether a break is taken (a holiday someone just had is not one).
    (
        Words::Break,
        &["перерыв", "отпуск", "break", "away", "holiday", "vacation"],
        true,
    ),
];

/// Words (or labels) by their first two bytes, so that a line is compared only with those
/// that start as it does. Within one key, entries keep the order they were given in.
struct Index<T: 'static> {
    /// Sorted by key, stably.
    entries: Vec<([u8; 2], &'static str, T)>,
    /// Each key once, in order, with where its entries start in `entries` (and, last, the
    /// end of `entries`).
    keys: Vec<([u8; 2], usize)>,
    /// One bit for each key of two bytes, set for the keys of the entries: most words of a
    /// line start with none of them, and are passed over by one look at a bit.
    bits: Box<[u64; 1024]>,
    /// For each word of `bits`, how many bits are set in the words before it: a key's place
    /// in `keys` is this and the bits set before its own in its word.
    ranks: Box<[u16; 1024]>,
    /// For each entry, its first four bytes (fewer for a shorter one) as [`head`] reads
    /// them, and the mask of those bytes: a text that does not hold these bytes at a place
    /// does not start with the entry there, and needs no comparison byte by byte.
    heads: Vec<(u32, u32)>,
}

/// The first four bytes of `bytes` as one number, zeros for those it does not have.
fn head(bytes: &[u8]) -> u32 {
    match bytes {
        [a, b, c, d, ..] => u32::from_le_bytes([*a, *b, *c, *d]),
        _ => {
            let mut four = [0u8; 4];
            for (to, from) in four.iter_mut().zip(bytes) {
                *to = *from;
            }
            u32::from_le_bytes(four)
        }
    }
}

impl<T: Copy> Index<T> {
    fn new(lists: &[(T, &'static [&'static str])]) -> Index<T> {
        let mut entries: Vec<_> = lists
            .iter()
            .flat_map(|&(what, words)| words.iter().map(move |w| (w, what)))
            .filter_map(|(w, what)| Some((first_two(w)?, *w, what)))
            .collect();
        entries.sort_by_key(|e| e.0);
        let mut bits = Box::new([0u64; 1024]);
        let mut keys: Vec<([u8; 2], usize)> = Vec::new();
        for (i, (key, _, _)) in entries.iter().enumerate() {
            let k = usize::from(u16::from_be_bytes(*key));
            bits[k / 64] |= 1 << (k % 64);
            if keys.last().is_none_or(|last| last.0 != *key) {
                keys.push((*key, i));
            }
        }
        keys.push(([0xff; 2], entries.len()));
        let mut ranks = Box::new([0u16; 1024]);
        let mut set = 0u16;
        for (rank, word) in ranks.iter_mut().zip(bits.iter()) {
            *rank = set;
            set += word.count_ones() as u16;
        }
        let heads = entries
            .iter()
            .map(|(_, word, _)| {
                let n = word.len().min(4);
                let mask = if n == 4 { u32::MAX } else { (1 << (8 * n)) - 1 };
                (head(word.as_bytes()), mask)
            })
            .collect();
        Index {
            entries,
            keys,
            bits,
            ranks,
            heads,
        }
    }

    /// The entries whose first two bytes are `key`.
    fn starting(&self, key: [u8; 2]) -> &[([u8; 2], &'static str, T)] {
        &self.entries[self.starting_at(key)]
    }

    /// Where in `entries` (and `heads`) those whose first two bytes are `key` stand.
    fn starting_at(&self, key: [u8; 2]) -> std::ops::Range<usize> {
        let k = usize::from(u16::from_be_bytes(key));
        let word = self.bits[k / 64];
        let bit = 1u64 << (k % 64);
        if word & bit == 0 {
            return 0..0;
        }
        // The bit is set: the key is one of `keys` (not the end mark after them), the one
        // with as many keys before it as bits are set before its own.
        let i = usize::from(self.ranks[k / 64]) + (word & (bit - 1)).count_ones() as usize;
        self.keys[i].1..self.keys[i + 1].1
    }
}

fn label_index() -> &'static Index<Label> {
    static INDEX: std::sync::OnceLock<Index<Label>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| Index::new(&LABELS))
}

fn word_index() -> &'static Index<(Words, bool)> {
    static INDEX: std::sync::OnceLock<Index<(Words, bool)>> = std::sync::OnceLock::new();
    INDEX.get_or_init(|| {
        let lists: Vec<_> = WORDS
            .iter()
            .map(|&(list, words, stem)| ((list, stem), words))
            .collect();
        Index::new(&lists)
    })
}

/// A letter, for word boundaries: ASCII and Cyrillic without a Unicode table look-up.
fn is_letter(c: char) -> bool {
    c.is_ascii_alphabetic()
        || ('\u{400}'..='\u{4ff}').contains(&c)
        || (!c.is_ascii() && c.is_alphabetic())
}

/// The character at byte `at` of `text`, whose first byte is neither ASCII nor Cyrillic
/// (seldom met): whether it is a letter, and its length in bytes.
fn other_char(text: &str, at: usize) -> (bool, usize) {
    let c = text[at..].chars().next().expect("a character starts here");
    (is_letter(c), c.len_utf8())
}

/// The first two bytes of `s`, if it has two.
fn first_two(s: &str) -> Option<[u8; 2]> {
    match s.as_bytes() {
        [a, b, ..] => Some([*a, *b]),
        _ => None,
    }
}

/// Whether `s` starts with something other than a letter (or is empty): the end of a word.
fn ends_word(s: &str) -> bool {
    s.chars().next().is_none_or(|c| !is_letter(c))
}

/// A word of [`WORDS`] found in a line.
#[derive(Clone, Copy, Debug)]
struct Hit {
    list: Words,
    /// Byte offsets of its start and end.
    at: usize,
    end: usize,
}

/// A line with a copy folded for matching (lower case, ё as е), byte offsets kept equal.
///
/// The words of [`WORDS`] are found in it in one pass, on the first search for one: a line
/// of moves is told by its label and is never searched.
struct Line<'a> {
    text: &'a str,
    folded: std::borrow::Cow<'a, str>,
    hits: std::cell::OnceCell<Vec<Hit>>,
    /// A vector to keep the hits in, if one is handed on from a line before (emptied
    /// first): the lines of a text share one allocation.
    spare: std::cell::Cell<Vec<Hit>>,
}

/// `c` folded for matching, if it folds to a character of the same UTF-8 length.
fn fold_char(c: char) -> char {
    match c {
        // Russian capitals fold by a fixed offset (both forms are two bytes); ё is е.
        'А'..='Я' => char::from_u32(c as u32 + 0x20).unwrap_or(c),
        'а'..='я' => c,
        'Ё' | 'ё' => 'е',
        _ => match c.to_lowercase().next() {
            Some(l) if l.len_utf8() == c.len_utf8() => l,
            _ => c,
        },
    }
}

/// `text` folded: the same length in bytes, so that offsets carry over from one to the
/// other. ASCII is lowered, and each other character is replaced only by one of its own UTF-8
/// length.
fn fold(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // What folds to itself is copied in runs, the other characters one by one; ASCII is
    // lowered at the end, all at once.
    let mut run = 0;
    let mut at = 0;
    while let Some(next) = non_ascii(bytes, at) {
        at = next;
        // Small Russian letters (most of a Russian text) are passed over by their two bytes.
        while let (0xd0, Some(0xb0..=0xbf)) | (0xd1, Some(0x80..=0x8f)) =
            (bytes[at], bytes.get(at + 1))
        {
            at += 2;
            if at == bytes.len() {
                break;
            }
        }
        if at == bytes.len() || bytes[at].is_ascii() {
            continue;
        }
        let c = text[at..].chars().next().expect("a character starts here");
        let f = fold_char(c);
        if f != c {
            out.push_str(&text[run..at]);
            out.push(f);
            run = at + c.len_utf8();
        }
        at += c.len_utf8();
    }
    out.push_str(&text[run..]);
    out.make_ascii_lowercase();
    out
}

/// Where the first byte of `bytes` at `from` or after it that is not ASCII stands: eight
/// bytes are looked at together, by their high bits, and then what is left one by one.
fn non_ascii(bytes: &[u8], from: usize) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let rest = bytes.get(from..)?;
    let mut eights = rest.chunks_exact(8);
    let mut at = from;
    for eight in eights.by_ref() {
        let word = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        let high = word & HIGH;
        if high != 0 {
            // The lowest high bit set is that of the first such byte (little-endian).
            return Some(at + (high.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    eights
        .remainder()
        .iter()
        .position(|b| !b.is_ascii())
        .map(|i| at + i)
}

impl<'a> Line<'a> {
    /// A line and its fold, made here.
    fn new(text: &'a str) -> Line<'a> {
        Line {
            text,
            folded: std::borrow::Cow::Owned(fold(text)),
            hits: std::cell::OnceCell::new(),
            spare: std::cell::Cell::new(Vec::new()),
        }
    }

    /// A line whose fold was made with the rest of its text: `folded` is `fold(text)`.
    fn folded_already(text: &'a str, folded: &'a str) -> Line<'a> {
        debug_assert_eq!(text.len(), folded.len());
        Line {
            text,
            folded: std::borrow::Cow::Borrowed(folded),
            hits: std::cell::OnceCell::new(),
            spare: std::cell::Cell::new(Vec::new()),
        }
    }

    /// The whole line, folded.
    fn folded(&self) -> &str {
        &self.folded
    }

    /// Whether the folded line starts with `prefix` (lower case).
    fn starts_with(&self, prefix: &str) -> bool {
        self.folded.starts_with(prefix)
    }

    /// The rest of the line after a label of `len` bytes that the folded line starts with,
    /// if the label ends a word there; a `:` or `-` after it is left out.
    fn rest_after(&self, len: usize) -> Option<&'a str> {
        if !ends_word(&self.folded[len..]) {
            return None;
        }
        Some(trim(
            self.text[len..].trim_start_matches([' ', ':', '-', '–', '\t']),
        ))
    }

    /// The label of [`LABELS`] the line starts with, the first in their order, and the rest.
    fn label(&self) -> Option<(Label, &'a str)> {
        let key = first_two(&self.folded)?;
        label_index()
            .starting(key)
            .iter()
            .filter(|(_, label, _)| self.folded.starts_with(label))
            .find_map(|&(_, label, what)| Some((what, self.rest_after(label.len())?)))
    }

    /// If the line starts with one of `labels`, the rest after it (and a `:` or `-`).
    fn after_label(&self, labels: &[&str]) -> Option<&'a str> {
        let first = first_two(&self.folded)?;
        labels
            .iter()
            .filter(|label| first_two(label) == Some(first) && self.folded.starts_with(*label))
            .find_map(|label| self.rest_after(label.len()))
    }

    /// The words of [`WORDS`] in the line, in order: one pass over its word starts.
    fn hits(&self) -> &[Hit] {
        self.hits.get_or_init(|| {
            let index = word_index();
            let folded: &str = &self.folded;
            let bytes = folded.as_bytes();
            let mut hits = self.spare.take();
            hits.clear();
            // Byte by byte, not char by char: ASCII and Cyrillic (lead bytes D0 to D3, all
            // letters to `is_letter`) are told by their first byte. What is not a letter is
            // passed over, then each word: looked up at its start, then passed over whole.
            let mut at = 0;
            while let Some(&b) = bytes.get(at) {
                let len = match b {
                    b'a'..=b'z' | b'A'..=b'Z' => 1,
                    0..=0x7f => {
                        at += 1;
                        continue;
                    }
                    0xd0..=0xd3 => 2,
                    _ => {
                        let (letter, len) = other_char(folded, at);
                        if !letter {
                            at += len;
                            continue;
                        }
                        len
                    }
                };
                // A word starts here.
                let rest = &bytes[at..];
                let Some(key) = first_two(&folded[at..]) else {
                    break;
                };
                let found = index.starting_at(key);
                if !found.is_empty() {
                    let first_four = head(rest);
                    for i in found {
                        let (four, mask) = index.heads[i];
                        if first_four & mask != four {
                            continue;
                        }
                        let (_, word, (list, stem)) = index.entries[i];
                        let end = at + word.len();
                        if rest.starts_with(word.as_bytes()) && (stem || ends_word(&folded[end..]))
                        {
                            hits.push(Hit { list, at, end });
                        }
                    }
                }
                // The rest of the word.
                at += len;
                while let Some(&b) = bytes.get(at) {
                    match b {
                        b'a'..=b'z' | b'A'..=b'Z' => at += 1,
                        0..=0x7f => break,
                        0xd0..=0xd3 => at += 2,
                        _ => {
                            let (letter, len) = other_char(folded, at);
                            if !letter {
                                break;
                            }
                            at += len;
                        }
                    }
                }
            }
            hits
        })
    }

    /// Whether a word of `list` is in the line.
    fn has(&self, list: Words) -> bool {
        self.hits().iter().any(|h| h.list == list)
    }

    /// The first word of `list` that starts at `from` or later: its start and end (the
    /// shortest of the list's words that start there).
    fn find_word(&self, list: Words, from: usize) -> Option<(usize, usize)> {
        let hits = self.hits();
        let first = hits.iter().find(|h| h.list == list && h.at >= from)?;
        let end = hits
            .iter()
            .filter(|h| h.list == list && h.at == first.at)
            .map(|h| h.end)
            .min()?;
        Some((first.at, end))
    }
}

/// What a line of the sender's text was to the reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LineUse {
    /// A line of a PGN game in the body.
    Pgn,
    /// A line of moves (the record, a move line): moves, move numbers, results, remarks.
    Moves,
    /// Anything else: labels, dates, talk.
    Words,
}

/// The most lines of text (the body's and the PGN parts' together) a message is read with.
pub const MAX_LINES: usize = 20_000;

/// The most bytes of text (the body's and the PGN parts' together) a message is read with.
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// Whether the text and PGN parts are more than a message is read with ([`MAX_LINES`],
/// [`MAX_TEXT_BYTES`]), and why. Counting costs a pass over the bytes and no memory.
pub fn over_the_caps(text: &str, pgn: &[String]) -> Option<TooLarge> {
    let texts = || std::iter::once(text).chain(pgn.iter().map(String::as_str));
    let bytes: usize = texts().map(str::len).sum();
    if bytes > MAX_TEXT_BYTES {
        return Some(TooLarge::Text {
            bytes: bytes as u64,
            max: MAX_TEXT_BYTES as u64,
        });
    }
    let lines: usize = texts()
        .map(|t| memchr::memchr_iter(b'\n', t.as_bytes()).count() + 1)
        .sum();
    (lines > MAX_LINES).then_some(TooLarge::Lines { max: MAX_LINES })
}

/// Reads a move message from its decoded text, the PGN parts the MIME layer found, and the
/// envelope. Never fails: what is wrong is in `problems`; a text over the caps
/// ([`over_the_caps`]) is not read, and says so.
pub fn read(text: &str, pgn: &[String], envelope: &Envelope) -> MoveMessage {
    if let Some(why) = over_the_caps(text, pgn) {
        return super::too_large(why);
    }
    let mut reader = Reader::new(envelope);
    // The text is folded once, whole; each line's fold is the same stretch of it.
    let folded = fold(text);
    let mut own = own_text(text, &folded);
    // Each line's vector of hits, once it is done with, is handed on to the next.
    let mut spare = Vec::new();
    // What each line was: the kind is told from the sender's words only. The body PGN's tags
    // and comments are the game's, not the sender's words about it (`[Termination
    // "adjudication"]` is not a request for one), and a line of moves holds no words.
    let mut uses = Vec::with_capacity(own.len());
    for line in &mut own {
        line.spare.set(spare);
        uses.push(reader.line(line));
        spare = line.hits.take().unwrap_or_else(|| line.spare.take());
    }
    reader.signature(&own, envelope);
    // The body's PGN and the attached ones (cmail, Scid): tags fill in the header; a game's
    // moves count only when the body gave no record.
    reader.pgn_parts(pgn, envelope);
    let mut msg = reader.finish();
    let lines: Vec<OwnLine<'_>> = own
        .iter()
        .zip(uses)
        .filter(|(l, use_)| *use_ == LineUse::Words && !l.text.is_empty())
        .map(|(l, _)| OwnLine {
            text: l.text,
            folded: l.folded(),
        })
        .collect();
    set_kind(&mut msg, &lines, envelope);
    msg
}

/// Decides the message's kind; a message that is not a move message has no move of its own,
/// nothing in it is a faulty move, and it owes none of the 51.2 form's header and dates
/// (RULES.md, "What a message is").
fn set_kind(msg: &mut MoveMessage, lines: &[OwnLine<'_>], envelope: &Envelope) {
    let subject = fold(envelope.subject.as_deref().unwrap_or(""));
    // A bounce quotes our own move message whole, an automatic reply or a list post may too:
    // none of it is the sender's.
    let found = if envelope.automatic {
        kind::Kinds::default()
    } else {
        kind::classify(
            msg,
            lines,
            &subject,
            envelope.from.as_deref(),
            envelope.replies,
        )
    };
    msg.kind = found.kind;
    msg.new_address = found.new_address;
    msg.resumes_on = found.resumes_on;
    msg.says_lost = found.lost;
    if !msg.kind.carries_move() {
        msg.new_move = None;
        msg.variation.clear();
        msg.problems.retain(|p| {
            !matches!(
                p.code,
                ProblemCode::NoMove
                    | ProblemCode::MissingHeader
                    | ProblemCode::MissingDate
                    | ProblemCode::IllegibleMove
                    | ProblemCode::AmbiguousMove
                    | ProblemCode::ImpossibleMove
            )
        });
    }
    if msg.kind != MessageKind::Move {
        msg.move_line_empty = false;
    }
    // Dates of a holiday in a newsletter, an absence notice or a letter about the holiday the
    // sender had are no break of theirs.
    if !msg.kind.carries_break() || !found.break_taken {
        msg.break_notice = None;
    }
}

/// A line with blanks and a byte-order mark trimmed off both ends.
fn trim_line(line: &str) -> &str {
    let blank = |c: char| c.is_whitespace() || c == '\u{feff}';
    let line = line.trim_ascii();
    // What is left needs the slower trim only when it starts or ends with a blank that is not
    // ASCII's (vertical tab is a blank to `char::is_whitespace`, not to `trim_ascii`): most
    // lines of Russian text end with a letter.
    if line.chars().next().is_some_and(blank) || line.chars().next_back().is_some_and(blank) {
        return line.trim_matches(blank);
    }
    line
}

/// `text.trim()`, which most texts here need only for ASCII blanks: those are cut off by
/// bytes, and the search by characters is made only when a blank of another kind is left at
/// an end.
fn trim(text: &str) -> &str {
    let text = text.trim_ascii();
    let blank = |c: Option<char>| c.is_some_and(char::is_whitespace);
    if blank(text.chars().next()) || blank(text.chars().next_back()) {
        return text.trim();
    }
    text
}

/// The lines of `text`, as `str::lines` gives them (a `\r` before a `\n` left out, no
/// empty line after a last `\n`): the line ends found by one `memchr` iterator over the whole
/// text, not by a search set up anew for each short line.
fn lines(text: &str) -> impl Iterator<Item = &str> + Clone {
    let mut start = 0;
    memchr::memchr_iter(b'\n', text.as_bytes())
        .map(Some)
        .chain([None])
        .map_while(move |end| {
            let from = start;
            match end {
                Some(end) => {
                    start = end + 1;
                    let line = &text[from..end];
                    Some(line.strip_suffix('\r').unwrap_or(line))
                }
                None if from < text.len() => {
                    start = text.len();
                    Some(&text[from..])
                }
                None => None,
            }
        })
}

/// The lines of the new message, `folded` being `fold(whole)`: quoted mail dropped, line
/// ends and spaces normalised.
///
/// A quote is a line of `>` or of The Bat!'s initials (`ПС>`), an attribution line ("On …
/// wrote:", "… пишет:", "05.10.2026, 10:00, "Name" <a@b>:", also wrapped onto two lines), or
/// everything from a forwarded or original-message header ("-----Original Message-----",
/// Outlook's `____` rule or a `From:`/`Sent:` block) on.
fn own_text<'a>(whole: &'a str, folded: &'a str) -> Vec<Line<'a>> {
    let fold_of = |text: &'a str| {
        let at = text.as_ptr() as usize - whole.as_ptr() as usize;
        Line::folded_already(text, &folded[at..at + text.len()])
    };
    // The lines are taken as they come, and only the sender's own are kept, a run of blank
    // lines as one: what a message holds beyond that costs no memory here.
    let mut rest = lines(whole);
    let mut out: Vec<Line<'a>> = Vec::with_capacity(32);
    while let Some(text) = rest.next().map(trim_line) {
        if is_quoted(text) || (text.is_empty() && out.last().is_some_and(|l| l.text.is_empty())) {
            continue;
        }
        let line = fold_of(text);
        let f = line.folded();
        if is_attribution(f) {
            // A wrapped attribution: its first half (the one with the time) is the line before.
            let head = out.last().is_some_and(|l| has_time(l.text));
            if head && !has_time(text) {
                out.pop();
            }
            continue;
        }
        // The next non-empty line, looked for only after a line that may start a quote: each
        // blank line is passed over once.
        let may_start = ["--", "__", "from:", "от:"]
            .iter()
            .any(|p| f.starts_with(p));
        let next = may_start
            .then(|| rest.clone().map(trim_line).find(|l| !l.is_empty()))
            .flatten()
            .map(fold_of);
        if may_start && starts_quoted_mail(f, next.as_ref().map(Line::folded)) {
            break;
        }
        // "Ваш ход 21.Кa3 получен 05.03.2026. Мой ход: 21...Кe5": two lines' worth in one.
        match own_move_inside(f) {
            Some(at) => {
                out.push(fold_of(trim(&text[..at])));
                out.push(fold_of(&text[at..]));
            }
            None => out.push(line),
        }
    }
    out
}

/// Where a sentence that starts with the sender's move label stands inside a folded line
/// (`… получен 05.03.2026. Мой ход: 21...Кe5`, `…; my move: 21... Ne5`): after a full stop,
/// a semicolon or an exclamation mark and blanks, never at the line's start.
fn own_move_inside(f: &str) -> Option<usize> {
    const LABELS: [&str; 4] = ["мой ход", "мой ответ", "my move", "my reply"];
    let bytes = f.as_bytes();
    memchr::memchr3_iter(b'.', b';', b'!', bytes).find_map(|stop| {
        let after = stop + 1;
        let blanks = bytes[after..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let at = after + blanks;
        (blanks > 0 && LABELS.iter().any(|l| f[at..].starts_with(l))).then_some(at)
    })
}

/// A line of a quote: `>` before it, or The Bat!'s initials and `>` (`ПС> text`, `AB>`).
fn is_quoted(text: &str) -> bool {
    let initials = text.chars().take_while(|&c| is_letter(c)).count();
    initials <= 3 && text.chars().nth(initials) == Some('>')
}

/// Whether a folded line is the attribution of a quote: it ends with a colon and says who
/// wrote (in words, or by an address).
fn is_attribution(f: &str) -> bool {
    const WROTE: &[&str] = &[
        "wrote",
        "writes",
        "пишет",
        "писал",
        "писала",
        "писали",
        "написал",
        "написала",
        "написали",
    ];
    let Some(body) = f.strip_suffix(':') else {
        return false;
    };
    body.contains('@')
        || body
            .split(|c: char| !is_letter(c))
            .any(|word| WROTE.contains(&word))
}

/// Whether a line holds a time of day (`10:00`): the first half of a wrapped attribution does.
fn has_time(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| {
        w[0].is_ascii_digit() && w[1] == b':' && w[2].is_ascii_digit() && w[3].is_ascii_digit()
    })
}

/// Whether the folded line `f` (before the next non-empty one, `next`) starts the copy of an
/// earlier message that runs to the end: a forwarded or original message's header line,
/// Outlook's rule before a `From:` block, or the `From:`/`Sent:` block alone.
fn starts_quoted_mail(f: &str, next: Option<&str>) -> bool {
    let header_next =
        |names: &[&str]| next.is_some_and(|n| names.iter().any(|name| n.starts_with(name)));
    if (f.starts_with("--") || f.starts_with("__")) && !f.bytes().all(|b| b == b'-' || b == b'_') {
        return [
            "original message",
            "исходное сообщение",
            "пересылаемое сообщение",
            "forwarded message",
        ]
        .iter()
        .any(|words| f.contains(words));
    }
    if f.len() >= 8 && f.bytes().all(|b| b == b'_') {
        return header_next(&["from:", "от:", "sent:", "отправлено:", "date:", "дата:"]);
    }
    (f.starts_with("from:") || f.starts_with("от:"))
        && header_next(&["sent:", "отправлено:", "date:", "дата:"])
}

struct Reader {
    context: Option<NaiveDate>,
    msg: MoveMessage,
    /// Text of the move record, in order, from every line that holds part of it.
    record: String,
    /// The record ends with the recipient's move (standard form), not the sender's.
    standard: bool,
    my_move: Option<String>,
    /// The side the move line's number gives the sender's move (`6.` White, `6...` Black).
    my_move_side: Option<shakmaty::Color>,
    /// The move line's number (`23` of `23...Кр:f8`).
    my_move_number: Option<u32>,
    variation: Option<String>,
    /// Per-side "used +N days which totals T" lines (IECC template).
    used: [Option<(u32, u32)>; 2],
    in_notes: bool,
    /// A move line with nothing on it was read: the move may follow on the next line.
    awaiting_move: bool,
    pgn: bool,
    comments: String,
    /// [`Reader::dates`]'s keywords of a line (start, end, what they name), kept for the next.
    keywords: Vec<(usize, usize, Slot)>,
    /// A PGN of the body, from its first tag line on, while its lines come in.
    pgn_block: Option<pgn_game::PgnBlock>,
    /// The first game with moves that a PGN of the body holds.
    body_game: Option<pgn_text::Game>,
    /// The players as a PGN's White and Black tags name them.
    pgn_players: [Option<String>; 2],
    /// The record so far ends inside a `{…}` comment: the next line goes on with it.
    record_comment: bool,
    /// The sender's colour, as a PGN of the message tells it.
    sender: Option<shakmaty::Color>,
}

impl Reader {
    fn new(envelope: &Envelope) -> Reader {
        Reader {
            context: envelope.date_sent(),
            msg: MoveMessage::default(),
            record: String::new(),
            standard: false,
            my_move: None,
            my_move_side: None,
            my_move_number: None,
            variation: None,
            used: [None, None],
            in_notes: false,
            awaiting_move: false,
            pgn: false,
            comments: String::new(),
            keywords: Vec::new(),
            pgn_block: None,
            body_game: None,
            pgn_players: [None, None],
            record_comment: false,
            sender: None,
        }
    }

    /// Takes one line of the sender's own text; what it was.
    fn line(&mut self, line: &Line<'_>) -> LineUse {
        let text = line.text;
        if self.pgn_block_line(text) {
            return LineUse::Pgn;
        }
        if self.other_line(line) {
            LineUse::Moves
        } else {
            LineUse::Words
        }
    }

    /// [`Reader::line`] for a line outside a PGN block; whether it was a line of moves.
    fn other_line(&mut self, line: &Line<'_>) -> bool {
        let text = line.text;
        if self.record_comment {
            self.record_text(text);
            return false;
        }
        if self.awaiting_move {
            // `Мой ход:` alone on its line: the move may stand on the next one.
            if text.is_empty() {
                return false;
            }
            self.awaiting_move = false;
            if line.label().is_none() && is_move_line(text) {
                self.my_move_side = side_of_number(text);
                self.my_move_number = number_of(text);
                self.my_move = Some(strip_number(text).to_owned());
                return false;
            }
            self.msg.move_line_empty = true;
        }
        if text
            .bytes()
            .all(|b| matches!(b, b'-' | b'=' | b'_' | b'*' | b'~'))
        {
            self.in_notes = false;
            return false;
        }
        if self.in_notes {
            if let Some(note) = text.strip_prefix("- ").or_else(|| text.strip_prefix("• ")) {
                self.msg.notes.push(note.trim().to_owned());
                return false;
            }
            self.in_notes = false;
        }
        // Moves never hold a phrase: the long record line is not searched for one.
        let moves = self.classify(line);
        if !moves {
            self.phrases(line);
        }
        moves
    }

    /// Takes what a line says by its label or shape; whether it was a line of moves.
    fn classify(&mut self, line: &Line<'_>) -> bool {
        let text = line.text;
        if text.starts_with('[') && text.ends_with(']') {
            self.pgn_tag(text);
            return false;
        }
        if self.used_line(line) {
            return false;
        }
        // "Принимаю вариант: 19... f:e6 20. e4": our variation's moves, the record's (51.3.8).
        if let Some(moves) = accepted_variation(line) {
            self.record_text(moves);
            return true;
        }
        let Some((label, rest)) = line.label() else {
            if line.has(Words::Totals) {
                self.totals(line);
            } else if is_move_line(without_semicolon_comment(text, false)) {
                self.record_text(text);
                return true;
            } else if line.has(Words::DateTalk) {
                self.dates(line, Slot::Sent);
            }
            return false;
        };
        let header = &mut self.msg.header;
        match label {
            Label::Event => set_once(&mut header.event, rest),
            Label::White => set_once(&mut header.white, rest),
            Label::Black => set_once(&mut header.black, rest),
            Label::Start => self.start(line),
            Label::Partner => {
                self.standard = true;
                let (moved, _) = split_at_keyword(line, rest, &[Words::Sent, Words::Received]);
                let moved = strip_number(moved);
                if !moved.is_empty() {
                    self.msg.partner_move_text = Some(moved.to_owned());
                }
                self.dates(line, Slot::PartnerSent);
            }
            Label::Mine => {
                let (moved, _) = split_at_keyword(line, rest, &[Words::Sent]);
                self.my_move_side = side_of_number(moved);
                self.my_move_number = number_of(moved);
                let moved = strip_number(moved);
                if !moved.is_empty() && !move_text(moved, line.folded().starts_with("ход")) {
                    // Prose after the word: "My reply to 19... Rfd8 follows in a day or
                    // two", "ход 12...a6 я отправил в тот же день": talk, not the move line.
                    self.phrases(line);
                    return false;
                }
                self.msg.labelled = true;
                self.awaiting_move = moved.is_empty() && self.my_move.is_none();
                self.my_move = Some(move_as_written(moved).to_owned());
                self.dates(line, Slot::Sent);
            }
            Label::Received => self.dates(line, Slot::Received),
            Label::Sent => self.dates(line, Slot::Sent),
            Label::MoveDays => {
                self.msg.move_days = self.msg.move_days.or_else(|| first_number(rest));
                self.totals(line);
            }
            Label::Record => {
                self.msg.labelled = true;
                self.standard |= line.after_label(&["ходы", "moves"]).is_some();
                self.record_text(rest);
                return true;
            }
            Label::Variation => {
                match accepted_prefix(&line.folded()[line.text.len() - rest.len()..]) {
                    // "Variation accepted: 19... 6756 20. 5354": our variation's moves, the
                    // record's (51.3.8).
                    Some(len) => self.record_text(trim_label_end(&rest[len..])),
                    None => self.variation = Some(rest.to_owned()),
                }
                return true;
            }
            Label::Notes => {
                if !rest.is_empty() {
                    self.msg.notes.push(rest.to_owned());
                }
                self.in_notes = true;
            }
        }
        false
    }

    /// A conditional offer in words (51.3.7): `Если 18.Сe3, то 18...Кc5`, `If 16...Qg5 then
    /// 17.f4, and if 17...Qh5 then 18.f5`. Its moves, in order and in pairs (our reply, the
    /// sender's answer), continue the variation offered with the new move.
    fn conditional(&mut self, line: &Line<'_>) {
        let f = line.folded();
        let conditional = (f.starts_with("если ") && (f.contains(" то ") || f.contains(",то ")))
            || (f.starts_with("if ") && f.contains(" then "));
        if !conditional {
            return;
        }
        let moves: Vec<&str> = line
            .text
            .split_whitespace()
            .map(|w| w.trim_end_matches([',', '.', ';', ':']))
            .filter(|w| token_is_movetext(w) && looks_like_move(strip_number(w)))
            .collect();
        if moves.is_empty() || !moves.len().is_multiple_of(2) {
            return;
        }
        let variation = self.variation.get_or_insert_with(String::new);
        for m in moves {
            variation.push(' ');
            variation.push_str(m);
        }
    }

    /// Phrases that may stand anywhere: draw, resignation, break, repeat.
    fn phrases(&mut self, line: &Line<'_>) {
        self.conditional(line);
        if !line.has(Words::Decline) {
            // "Принимаю ваше предложение ничьей" names the offer it accepts: not one of its own.
            let accepts = line.has(Words::DrawAccept);
            self.msg.draw_accept |= accepts;
            self.msg.draw_offer |= !accepts && line.has(Words::DrawOffer);
        }
        self.msg.resign |=
            line.has(Words::Resign) || line.folded().trim_end_matches('.') == "resign";
        self.msg.repeat |= line.after_label(labels::REPEAT).is_some();
        if line.has(Words::Break)
            && let Some((from, to)) = break_dates(line.text, self.context)
        {
            match break_span(&from, &to, self.context) {
                Some((from, to)) => {
                    self.msg.break_notice = Some(BreakNotice { from, to });
                }
                None => self.problem(
                    ProblemCode::BadDate,
                    format!(
                        "the break \"{}\" does not give two dates in order",
                        line.text
                    ),
                    format!("в перерыве «{}» нет двух дат по порядку", line.text),
                ),
            }
        }
    }

    /// The start date line.
    fn start(&mut self, line: &Line<'_>) {
        if self.msg.header.start.is_some() {
            return;
        }
        match find_dates(line.text, self.context).next() {
            Some(Found { date: Ok(d), .. }) => self.msg.header.start = Some(d),
            Some(Found { date: Err(t), .. }) => {
                let detail = format!("the start date {t} is not a date");
                let ru = format!("дата начала {t} — не дата");
                self.problem(ProblemCode::BadDate, detail, ru);
            }
            None => {}
        }
    }

    fn pgn_tag(&mut self, text: &str) {
        let inner = &text[1..text.len() - 1];
        let Some((name, value)) = inner.split_once(' ') else {
            return;
        };
        self.tag(name, trim(trim(value).trim_matches('"')));
    }

    /// A PGN tag's name and value: the header, the players' addresses and names.
    fn tag(&mut self, name: &str, value: &str) {
        let header = &mut self.msg.header;
        match name {
            "Event" => set_once(&mut header.event, value),
            "White" => {
                set_once(&mut header.white, value);
                set_once(&mut self.pgn_players[0], value);
            }
            "Black" => {
                set_once(&mut header.black, value);
                set_once(&mut self.pgn_players[1], value);
            }
            "Date" | "EventDate" if header.start.is_none() => {
                header.start = find_dates(value, None).next().and_then(|f| f.date.ok());
            }
            "WhiteNA" => self.msg.white_email = Some(value.to_owned()),
            "BlackNA" => self.msg.black_email = Some(value.to_owned()),
            _ => {}
        }
    }

    /// `White used +2 days which totals 49 of 60 …` (IECC template).
    fn used_line(&mut self, line: &Line<'_>) -> bool {
        let side = if line.starts_with("white used") {
            0
        } else if line.starts_with("black used") {
            1
        } else {
            return false;
        };
        let numbers: Vec<u32> = numbers(line.text).collect();
        if let [used, total, ..] = numbers.as_slice() {
            self.used[side] = Some((*used, *total));
        }
        true
    }

    /// Dates in a line, each given to the nearest keyword before it, else to `default`.
    fn dates(&mut self, line: &Line<'_>, default: Slot) {
        let partner_line = default == Slot::PartnerSent;
        // The reader's own buffer, used again for each line.
        let mut keywords = std::mem::take(&mut self.keywords);
        keywords.clear();
        for (words, slot) in [
            (Words::Received, Slot::Received),
            (
                Words::Sent,
                if partner_line {
                    Slot::PartnerSent
                } else {
                    Slot::Sent
                },
            ),
            (Words::YouSent, Slot::PartnerSent),
        ] {
            let mut from = 0;
            while let Some((at, end)) = line.find_word(words, from) {
                keywords.push((at, end, slot));
                from = end;
            }
        }
        // "you sent" holds "sent": a keyword inside a longer one is not a keyword of its own.
        // (Taking them out one at a time leaves the same: what holds a keyword that is taken
        // out holds the keywords inside it too, and the outermost is never taken out.)
        let mut i = 0;
        while i < keywords.len() {
            let (at, end, _) = keywords[i];
            let inside = keywords
                .iter()
                .any(|&(a, e, _)| a <= at && end <= e && (a, e) != (at, end));
            if inside {
                keywords.remove(i);
            } else {
                i += 1;
            }
        }
        keywords.sort_by_key(|k| k.0);
        for found in find_dates(line.text, self.context) {
            let slot = keywords
                .iter()
                .rev()
                .find(|k| k.0 < found.start)
                .map_or(default, |k| k.2);
            let target = match slot {
                Slot::PartnerSent => &mut self.msg.partner_move_sent,
                Slot::Received => &mut self.msg.received,
                Slot::Sent => &mut self.msg.sent,
            };
            match found.date {
                Ok(d) => {
                    target.get_or_insert(d);
                }
                Err(t) => self.problem(
                    ProblemCode::BadDate,
                    format!("\"{t}\" in the line \"{}\" is not a date", line.text),
                    format!("«{t}» в строке «{}» — не дата", line.text),
                ),
            }
        }
        self.keywords = keywords;
    }

    /// Totals in a line: `белые 5, черные 4`, `White 5, Black 4`. Whether any were found.
    fn totals(&mut self, line: &Line<'_>) -> bool {
        let from = line.find_word(Words::Totals, 0).map_or(0, |(_, end)| end);
        let side = |words: Words| {
            let (_, end) = line.find_word(words, from)?;
            first_number(&line.text[end..])
        };
        match (side(Words::White), side(Words::Black)) {
            (Some(white), Some(black)) => {
                self.msg.total_days.get_or_insert(Totals { white, black });
                true
            }
            _ => false,
        }
    }

    /// A line's part of the record, without a `;` comment; a `{` comment left open goes
    /// on in the next line.
    fn record_text(&mut self, text: &str) {
        let text = without_semicolon_comment(text, self.record_comment);
        // One allocation for the blank and the text, not one for each.
        self.record.reserve(1 + text.len());
        self.record.push(' ');
        self.record.push_str(text);
        for c in text.chars() {
            match c {
                '{' => self.record_comment = true,
                '}' => self.record_comment = false,
                _ => {}
            }
        }
    }

    fn problem(&mut self, code: ProblemCode, detail: String, detail_ru: String) {
        self.msg
            .problems
            .push(Problem::new(code, detail, detail_ru));
    }

    /// The signature: a `Name <email>` line, else a short name line. After a `-- ` line the
    /// signature is the first such line; without one, the last in the message's end. A
    /// client's footer ("Sent from my iPhone") is never the signature.
    fn signature(&mut self, own: &[Line<'_>], envelope: &Envelope) {
        let lines: Vec<&Line<'_>> = own
            .iter()
            .filter(|l| !l.text.is_empty() && !is_client_footer(l.folded()))
            .collect();
        let dash = lines.iter().rposition(|l| l.text == "--");
        let found = match dash {
            Some(at) => signature_after_dash(&lines[at + 1..]),
            None => None,
        };
        let tail = &lines[dash.unwrap_or(lines.len())..];
        let before = &lines[..lines.len() - tail.len()];
        self.msg.signature = found
            .or_else(|| signature_at_end(before))
            .map(|(name, email)| Signature {
                name,
                email: email.or_else(|| envelope.from.clone()),
            });
    }

    /// The accepted moves of our variation written on the move line before the reply
    /// (`19... fxe6 20. e4 Qe7`, 51.3.8) go to the record, as if written there; the last move
    /// stays the new one.
    fn accepted_on_the_move_line(&mut self) {
        let Some(mine) = self.my_move.take() else {
            return;
        };
        let (tokens, _) = record_tokens(&mine);
        match tokens[..] {
            [.., last] if tokens.len() > 1 && tokens.iter().all(|t| looks_like_move(t)) => {
                let at = last.as_ptr() as usize - mine.as_ptr() as usize;
                self.record_text(&mine[..at]);
                self.my_move = Some(mine[at..].to_owned());
            }
            _ => self.my_move = Some(mine),
        }
    }

    fn finish(mut self) -> MoveMessage {
        self.msg.move_line_empty |= self.awaiting_move;
        self.accepted_on_the_move_line();
        let record = std::mem::take(&mut self.record);
        let (mut tokens, comments) = record_tokens(&record);
        self.last_move_if_the_sender_s(tokens.len());
        self.comments.push_str(&comments);
        let comment = Line::new(&self.comments);
        self.msg.draw_offer |= comment.has(Words::DrawOffer);
        self.msg.draw_accept |= comment.has(Words::DrawAccept);
        self.msg.resign |= comment.has(Words::Resign) || comment.folded().contains("resign");

        // Without a move line, the record's last move is the new one (unless the record is
        // the standard form's, ending with the recipient's move).
        let from_record = self.my_move.is_none() && (self.pgn || !self.standard);
        let last = if from_record { tokens.pop() } else { None };
        let (pos, record_ok) = self.replay(&tokens);
        if self.my_move.is_some() {
            self.msg.new_move_side = self.my_move_side;
            self.msg.new_move_number = self.my_move_number;
        }
        let new_text = self.my_move.take().or(last.map(str::to_owned));
        self.msg.record_unread = !record_ok;
        // A move numbered past the first with no record before it (`Мой ход: 23...Кр:f8`
        // alone) has no position here to be read in: it is read against the game itself.
        let placed = !(tokens.is_empty() && self.my_move_number.is_some_and(|n| n > 1));
        self.new_move(new_text, pos, record_ok && placed);
        self.dates_and_totals();
        self.missing();
        self.msg
    }

    fn replay(&mut self, tokens: &[&str]) -> (Chess, bool) {
        let mut pos = Chess::default();
        self.msg.moves.reserve_exact(tokens.len());
        for (i, token) in tokens.iter().enumerate() {
            match notation::read_move(&pos, token) {
                // The record ends with the new move, written on the move line too: it counts
                // once, as the new move.
                Ok(m) if i + 1 == tokens.len() && self.repeats_new_move(tokens.len(), &pos, m) => {}
                Ok(m) => {
                    self.msg.moves.push(m);
                    // legal: from notation::read_move in this position
                    pos.play_unchecked(m);
                }
                Err(e) => {
                    let (detail, ru) =
                        move_problem(&pos, &e, "in the move record", "в записи партии");
                    self.problem(code_of(e.kind), detail, ru);
                    self.msg.record_error = Some(e);
                    return (pos, false);
                }
            }
        }
        (pos, true)
    }

    fn new_move(&mut self, text: Option<String>, mut pos: Chess, record_ok: bool) {
        let text = text.filter(|t| !t.is_empty());
        self.msg.new_move_text.clone_from(&text);
        let Some(text) = text else {
            if !self.msg.resign && !self.msg.draw_accept {
                let detail = "the message has no move of its own (51.3.5)".to_owned();
                let ru = "в письме нет своего хода (51.3.5)".to_owned();
                self.problem(ProblemCode::NoMove, detail, ru);
            }
            return;
        };
        if !record_ok {
            return;
        }
        match notation::read_move(&pos, &text) {
            Ok(m) => {
                self.msg.new_move = Some(m);
                // legal: from notation::read_move in this position
                pos.play_unchecked(m);
                self.variation(pos);
            }
            Err(e) => {
                let (detail, ru) = move_problem(&pos, &e, "the new move", "новый ход");
                self.problem(code_of(e.kind), detail, ru);
            }
        }
    }

    fn variation(&mut self, mut pos: Chess) {
        let Some(text) = self.variation.take() else {
            return;
        };
        let (tokens, _) = record_tokens(&text);
        for token in tokens {
            match notation::read_move(&pos, token) {
                Ok(m) => {
                    self.msg.variation.push(m);
                    // legal: from notation::read_move in this position
                    pos.play_unchecked(m);
                }
                Err(e) => {
                    let (detail, ru) = move_problem(&pos, &e, "in the variation", "в варианте");
                    self.problem(code_of(e.kind), detail, ru);
                    return;
                }
            }
        }
    }

    /// Thinking days from the IECC "used" lines, once the mover is known.
    fn dates_and_totals(&mut self) {
        if let [Some((_, white)), Some((_, black))] = self.used {
            self.msg.total_days.get_or_insert(Totals { white, black });
        }
        let mover = if self.msg.moves.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let side = match mover {
            Color::White => 0,
            Color::Black => 1,
        };
        if let Some((used, _)) = self.used[side] {
            self.msg.move_days.get_or_insert(used);
        }
    }

    /// 51.2.1 items that are missing, in words.
    fn missing(&mut self) {
        let h = &self.msg.header;
        let absent: Vec<(&str, &str)> = [
            ("the competition", "соревнования", h.event.is_none()),
            ("the start date", "даты начала", h.start.is_none()),
            ("White's surname", "фамилии белых", h.white.is_none()),
            ("Black's surname", "фамилии чёрных", h.black.is_none()),
        ]
        .into_iter()
        .filter_map(|(what, ru, missing)| missing.then_some((what, ru)))
        .collect();
        if !absent.is_empty() {
            let (en, ru) = both_joined(&absent);
            let detail = format!("the game header lacks {en}");
            self.problem(
                ProblemCode::MissingHeader,
                detail,
                format!("в заголовке партии нет {ru}"),
            );
        }
        let has_partner_move = !self.msg.moves.is_empty();
        let absent: Vec<(&str, &str)> = [
            (
                "the date our last move was sent",
                "даты отправки нашего последнего хода",
                has_partner_move && self.msg.partner_move_sent.is_none(),
            ),
            (
                "the date it was received",
                "даты его получения",
                has_partner_move && self.msg.received.is_none(),
            ),
            (
                "the send date of this message's move",
                "даты отправки хода этого письма",
                self.msg.sent.is_none(),
            ),
        ]
        .into_iter()
        .filter_map(|(what, ru, missing)| missing.then_some((what, ru)))
        .collect();
        if !absent.is_empty() {
            let (en, ru) = both_joined(&absent);
            let detail = format!("the message does not give {en} (51.2.3)");
            self.problem(
                ProblemCode::MissingDate,
                detail,
                format!("в письме нет {ru} (51.2.3)"),
            );
        }
    }
}

/// A name and an address, if `line` is `Name <email>`.
fn name_and_address(line: &str) -> Option<(String, Option<String>)> {
    let (name, rest) = line.split_once('<')?;
    let email = rest.strip_suffix('>').filter(|e| e.contains('@'))?;
    let name = name.trim().trim_matches('"').trim();
    Some((name.to_owned(), Some(email.trim().to_owned())))
}

/// A short name line (a sign-off): one to four words of letters.
fn name_line(line: &str) -> Option<(String, Option<String>)> {
    let words = line.split_whitespace().count();
    let plain = line
        .chars()
        .all(|c| c.is_alphabetic() || c == ' ' || c == '.' || c == '-');
    ((1..=4).contains(&words) && plain && !is_move_line(line)).then(|| (line.to_owned(), None))
}

/// The signature in the lines after a `-- ` line: the first name line there.
fn signature_after_dash(lines: &[&Line<'_>]) -> Option<(String, Option<String>)> {
    lines
        .iter()
        .find_map(|l| name_and_address(l.text).or_else(|| name_line(l.text)))
}

/// The signature at the end of the message: the last `Name <email>` line of its last eight,
/// else its last line if that is a name.
fn signature_at_end(lines: &[&Line<'_>]) -> Option<(String, Option<String>)> {
    lines
        .iter()
        .rev()
        .take(8)
        .find_map(|l| name_and_address(l.text))
        .or_else(|| name_line(lines.last()?.text))
}

/// Whether a folded line is a mail client's footer, not the sender's own words.
fn is_client_footer(f: &str) -> bool {
    const FOOTERS: &[&str] = &[
        "sent from ",
        "sent with ",
        "sent via ",
        "sent using ",
        "get outlook for ",
        "отправлено с ",
        "отправлено из ",
        "отправлено через ",
        "yandex.mail",
        "яндекс.почта",
        "яндекс почта",
    ];
    FOOTERS.iter().any(|footer| f.starts_with(footer))
}

fn set_once(field: &mut Option<String>, value: &str) {
    if field.is_none() && !value.is_empty() {
        *field = Some(value.to_owned());
    }
}

fn code_of(kind: MoveErrorKind) -> ProblemCode {
    match kind {
        MoveErrorKind::Illegible => ProblemCode::IllegibleMove,
        MoveErrorKind::Ambiguous => ProblemCode::AmbiguousMove,
        MoveErrorKind::Impossible => ProblemCode::ImpossibleMove,
    }
}

/// `move 6. Ne2 (the new move): it fits both Nc3-e2 and Ng1-e2`.
/// The English and the Russian words of `items`, each joined by commas.
fn both_joined(items: &[(&str, &str)]) -> (String, String) {
    let en: Vec<&str> = items.iter().map(|(en, _)| *en).collect();
    let ru: Vec<&str> = items.iter().map(|(_, ru)| *ru).collect();
    (en.join(", "), ru.join(", "))
}

/// A move's problem in English and in Russian: its number, the text, where (`place`,
/// `place_ru`) and why.
fn move_problem(
    pos: &Chess,
    e: &notation::MoveError,
    place: &str,
    place_ru: &str,
) -> (String, String) {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    let n = pos.fullmoves();
    (
        format!("move {n}{dots} {} ({place}): {}", e.text, e.reason()),
        format!(
            "ход {n}{dots} {} ({place_ru}): {}",
            e.text,
            e.reason_in(crate::message::Language::Ru)
        ),
    )
}

/// Splits `rest` (a tail of `line.text`) at the first of `keywords`: before, and from it on.
fn split_at_keyword<'a>(line: &Line<'a>, rest: &'a str, keywords: &[Words]) -> (&'a str, &'a str) {
    let offset = line.text.len() - rest.len();
    let at = keywords
        .iter()
        .filter_map(|&words| line.find_word(words, offset))
        .map(|(at, _)| at)
        .min();
    match at {
        Some(at) => (trim(&line.text[offset..at]), &line.text[at..]),
        None => (trim(rest), ""),
    }
}

/// A move text without its number: `13...Сh3` → `Сh3`, `16. 5171` → `5171`.
/// The side a move number gives the move after it: `6.` White, `6...` Black.
/// The length of an "accepted" word at the start of a folded text (`accepted`, `принят`,
/// `принимаю`), with what follows it up to the moves: `None` without one.
fn accepted_prefix(folded: &str) -> Option<usize> {
    ["accepted", "принят", "принимаю"]
        .iter()
        .find(|w| folded.starts_with(*w))
        .map(|w| {
            let rest = &folded[w.len()..];
            w.len() + rest.len() - rest.trim_start_matches(|c: char| c.is_alphabetic()).len()
        })
}

/// The moves of a line that accepts our variation in words: `Принимаю вариант: 19... f:e6 20.
/// e4`, `I accept your variation: 19... fxe6 20. e4`. `None` for any other line, and for one
/// with no move after the words.
fn accepted_variation<'a>(line: &Line<'a>) -> Option<&'a str> {
    const SAYS: [&str; 6] = [
        "принимаю ваш вариант",
        "принимаю вариант",
        "i accept your variation",
        "i accept the variation",
        "accepted variation",
        "accept your variation",
    ];
    let len = SAYS.iter().find(|s| line.starts_with(s))?.len();
    let moves = trim_label_end(&line.text[len..]);
    let first = record_tokens(moves).0.first().copied()?;
    looks_like_move(first).then_some(moves)
}

/// `text` without a `:` or `-` and blanks before it.
fn trim_label_end(text: &str) -> &str {
    text.trim_start_matches([' ', ':', '-', '–', '\t'])
}

/// The number before a move: `23` of `23...Кр:f8`.
fn number_of(text: &str) -> Option<u32> {
    strip_move_number(trim(text)).map(|(n, _, _)| n)
}

fn side_of_number(text: &str) -> Option<shakmaty::Color> {
    let (_, black, _) = strip_move_number(trim(text))?;
    Some(if black {
        shakmaty::Color::Black
    } else {
        shakmaty::Color::White
    })
}

fn strip_number(text: &str) -> &str {
    let text = trim(text);
    // The number first: `19...` alone is a number and no move, not a move `19`.
    let rest = strip_move_number(text).map_or(text, |(_, _, rest)| rest);
    trim(trim(rest).trim_end_matches([',', ';', '.']))
}

fn numbers(text: &str) -> impl Iterator<Item = u32> + '_ {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty() && s.len() <= 6)
        .filter_map(|s| s.parse().ok())
}

fn first_number(text: &str) -> Option<u32> {
    numbers(text).next()
}

/// A line of moves without its `;` comment (to the end of the line, as in PGN), `in_comment`
/// saying whether the line starts inside a `{…}` comment. A `;` followed by nothing but
/// moves is a separator (`1. e4; e5`), not a comment.
fn without_semicolon_comment(text: &str, mut in_comment: bool) -> &str {
    for (at, c) in text.char_indices() {
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            ';' if !in_comment => {
                let mut comments = String::new();
                let rest = strip_brackets(&text[at + 1..], &mut comments);
                if blank_split(&rest).all(token_is_movetext) {
                    // What follows is moves, and so is what follows any `;` further on.
                    return text;
                }
                return &text[..at];
            }
            _ => {}
        }
    }
    text
}

/// A remark after a move, not a move: `шах`, `мат`, `check`, `mate` (51.3.6).
/// Whether the text after a move label is a move, not talk: its first word is a move, and
/// (after the bare word `ход`, which also begins sentences) every word is movetext.
fn move_text(text: &str, bare: bool) -> bool {
    let mut words = text.split_whitespace();
    let first = words.next().is_some_and(token_is_movetext);
    first && (!bare || words.all(|w| token_is_movetext(w) || w.starts_with(['(', '{'])))
}

/// The move on a move line, without what the sender wrote after it: `Кр:f8` of `Кр:f8.
/// Получил ваш ход 05.03.`, `Kxf8` of `Kxf8 - the only move`. A remark, a comment or talk
/// after a move is not the move (51.3.6); a move is fined only as written, never for the
/// sentence after it.
///
/// The move runs to the last word of movetext before the first word that is not: a word
/// before any move-shaped one stays (`Кр e8-f8`), and so does a bracketed duplicate or
/// comment (`Кр:f8 (Крe8-f8)`). The dashes and stops left at its end go.
fn move_as_written(text: &str) -> &str {
    let mut end = 0;
    let mut seen_move = false;
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        let len = rest[start..]
            .find(char::is_whitespace)
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + len];
        let bracketed = word.starts_with(['(', '{']) || word.ends_with([')', '}']);
        if token_is_movetext(word) || bracketed {
            seen_move |= looks_like_move(word);
        } else if seen_move {
            break;
        }
        let at = text.len() - rest.len();
        end = at + start + len;
        rest = &rest[start + len..];
    }
    text[..end].trim_end_matches(|c: char| {
        c.is_whitespace() || matches!(c, '.' | ',' | ';' | ':' | '-' | '–' | '—')
    })
}

fn is_remark(token: &str) -> bool {
    let word = token.trim_end_matches(['!', '?', '+', '#', '.', ',', ';']);
    matches!(word, "шах" | "Шах" | "ШАХ" | "мат" | "Мат" | "МАТ")
        || word.eq_ignore_ascii_case("check")
        || word.eq_ignore_ascii_case("mate")
}

/// Whether a line holds nothing but moves, move numbers and results.
fn is_move_line(text: &str) -> bool {
    // Talk fails at its first word, before the record's tokens are looked for.
    blank_split(text)
        .all(|t| token_is_movetext(t) || t.starts_with(['{', '(', '$']) || t.ends_with(['}', ')']))
        && if has_brackets(text) {
            !record_tokens(text).0.is_empty()
        } else {
            plain_tokens(text).next().is_some()
        }
}

fn token_is_movetext(token: &str) -> bool {
    let token = trim_separators(token);
    if matches!(
        token,
        "*" | "1-0" | "0-1" | "1/2-1/2" | "½-½" | "..." | "…" | "e.p." | "ep"
    ) || is_remark(token)
    {
        return true;
    }
    match strip_move_number(token) {
        Some((_, _, "")) => true,
        Some((_, _, rest)) => looks_like_move(rest),
        None => {
            (token.len() <= 3 && token.bytes().all(|b| b.is_ascii_digit()))
                || looks_like_move(token)
        }
    }
}

/// The moves of a record or variation text, in order, and the text of its `{…}` comments.
/// Move numbers, results, NAGs, `(…)` duplicates and variations are left out.
fn record_tokens(text: &str) -> (Vec<&str>, String) {
    let mut comments = String::new();
    if !has_brackets(text) {
        let mut tokens = Vec::with_capacity(text.len() / 4);
        tokens.extend(plain_tokens(text));
        return (tokens, comments);
    }
    // The bracketed parts blanked out byte for byte, so that a token of `plain` is found in
    // `text` at the same offset.
    let plain = strip_brackets(text, &mut comments);
    let tokens = plain_tokens(&plain)
        .map(|t| {
            let at = t.as_ptr() as usize - plain.as_ptr() as usize;
            &text[at..at + t.len()]
        })
        .collect();
    (tokens, comments)
}

/// Whether `text` holds a `{`, `(` or `[` (a comment, a duplicate, a variation): looked for
/// by bytes, which ASCII characters are, several at a time.
fn has_brackets(text: &str) -> bool {
    memchr::memchr3(b'{', b'(', b'[', text.as_bytes()).is_some()
}

/// The move tokens of a text without brackets.
fn plain_tokens(plain: &str) -> PlainTokens<'_> {
    PlainTokens {
        words: blank_split(plain),
    }
}

/// [`plain_tokens`]: the text's words without trailing commas and semicolons, up to a result;
/// move numbers cut off (a bare one, `12` or `12.`, left out), and NAGs, ellipses,
/// en-passant marks and signs alone left out. Each word is told by its first byte before it
/// is compared with any of these.
struct PlainTokens<'a> {
    words: BlankSplit<'a>,
}

impl<'a> Iterator for PlainTokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        for word in self.words.by_ref() {
            let token = trim_separators(word);
            let token = match token.as_bytes().first() {
                // (A word that is all commas is empty by now.)
                None | Some(b'$') => continue,
                Some(b'*') if token == "*" => return None,
                Some(b'0'..=b'9') => {
                    if matches!(token, "1-0" | "0-1" | "1/2-1/2") {
                        return None;
                    }
                    match strip_move_number(token) {
                        Some((_, _, rest)) => rest,
                        None if token.len() <= 3 && token.bytes().all(|b| b.is_ascii_digit()) => {
                            continue;
                        }
                        None => token,
                    }
                }
                Some(b'.' | b'e' | 0xc2 | 0xd0 | 0xe2) => {
                    if token == "½-½" {
                        return None;
                    }
                    if matches!(token, "..." | "…" | "e.p." | "ep" | "в.п.") {
                        continue;
                    }
                    token
                }
                Some(_) => token,
            };
            if !token.is_empty()
                && !token.bytes().all(|c| b"!?+#-".contains(&c))
                && !is_remark(token)
            {
                return Some(token);
            }
        }
        None
    }
}

/// `text.split_whitespace()`, told by bytes: an ASCII byte is a blank or not by a look at a
/// table, and so is a byte that starts no blank; only the bytes that may start a blank of
/// Unicode's (`C2`, `E1` to `E3`) are decoded as characters.
fn blank_split(text: &str) -> BlankSplit<'_> {
    BlankSplit { text, at: 0 }
}

/// [`blank_split`].
struct BlankSplit<'a> {
    text: &'a str,
    at: usize,
}

/// What a byte is to [`BlankSplit`].
const WORD: u8 = 0;
const ASCII_BLANK: u8 = 1;
const MAY_START_BLANK: u8 = 2;

/// [`BlankSplit`]'s class of each byte.
static BLANK_CLASS: [u8; 256] = {
    let mut table = [WORD; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            b'\t'..=b'\r' | b' ' => ASCII_BLANK,
            0xc2 | 0xe1..=0xe3 => MAY_START_BLANK,
            _ => WORD,
        };
        b += 1;
    }
    table
};

impl<'a> BlankSplit<'a> {
    /// The length of the blank that starts at `at` (a byte of class [`MAY_START_BLANK`]),
    /// or 0 when the character there is not a blank.
    fn blank_len(&self, at: usize) -> usize {
        match self.text[at..].chars().next() {
            Some(c) if c.is_whitespace() => c.len_utf8(),
            _ => 0,
        }
    }
}

impl<'a> Iterator for BlankSplit<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let bytes = self.text.as_bytes();
        let mut at = self.at;
        // The blanks before the word.
        loop {
            let Some(&b) = bytes.get(at) else {
                self.at = at;
                return None;
            };
            match BLANK_CLASS[usize::from(b)] {
                ASCII_BLANK => at += 1,
                MAY_START_BLANK => match self.blank_len(at) {
                    0 => break,
                    n => at += n,
                },
                _ => break,
            }
        }
        let start = at;
        // The word: up to a blank or the end. A character that starts with a byte of class
        // [`MAY_START_BLANK`] and is not a blank is passed over whole.
        while let Some(&b) = bytes.get(at) {
            match BLANK_CLASS[usize::from(b)] {
                WORD => at += 1,
                ASCII_BLANK => break,
                _ => {
                    if self.blank_len(at) > 0 {
                        break;
                    }
                    at += if b < 0xe0 { 2 } else { 3 };
                }
            }
        }
        self.at = at;
        Some(&self.text[start..at])
    }
}

/// A word without the commas and semicolons after it.
fn trim_separators(word: &str) -> &str {
    let bytes = word.as_bytes();
    let mut end = bytes.len();
    while end > 0 && matches!(bytes[end - 1], b',' | b';') {
        end -= 1;
    }
    &word[..end]
}

/// The text with its `{…}` comments (collected into `comments`) and `(…)`/`[…]` parts
/// replaced by spaces, byte for byte: what is left stands at the same offsets as in `text`.
fn strip_brackets(text: &str, comments: &mut String) -> String {
    let mut plain = String::with_capacity(text.len());
    let (mut brace, mut paren) = (false, 0u32);
    let blank = |plain: &mut String, c: char| {
        for _ in 0..c.len_utf8() {
            plain.push(' ');
        }
    };
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        // A promotion piece in brackets after the last rank, `b8(Q)`, `b1[Ф]`, is the move's.
        if matches!(c, '(' | '[') && !brace && paren == 0 && plain.ends_with(['1', '8']) {
            let piece = text[at + 1..].chars().next().unwrap_or(' ');
            let close = if c == '(' { ')' } else { ']' };
            let after = at + 1 + piece.len_utf8();
            if "QRBNФЛСК".contains(piece) && text[after..].starts_with(close) {
                plain.push_str(&text[at..=after]);
                chars.nth(1);
                continue;
            }
        }
        match c {
            '{' if !brace => brace = true,
            '}' if brace => {
                brace = false;
                comments.push(' ');
            }
            _ if brace => comments.push(c),
            '(' | '[' => paren += 1,
            ')' | ']' => paren = paren.saturating_sub(1),
            _ if paren > 0 => {}
            c => {
                plain.push(c);
                continue;
            }
        }
        blank(&mut plain, c);
    }
    plain
}

/// Whether [`read`] could find a game header (the event, White or Black) in this text and
/// these PGN parts: true for every message whose header it reads, and for some others. A
/// cheap test for a caller that wants only mail naming a game and must not read all mail:
/// it looks at the start of each line only (a label, or a PGN tag), where [`read`] folds
/// and classifies every line whole.
pub fn may_name_a_game(text: &str, pgn: &[String]) -> bool {
    let initials = label_initials();
    std::iter::once(text)
        .chain(pgn.iter().map(String::as_str))
        .any(|t| text_may_name(t, initials))
}

/// [`may_name_a_game`] for one text: each line's first character is looked up in a table
/// (most lines start with one no label starts with); only the rest are looked at further.
fn text_may_name(text: &str, initials: &LabelInitials) -> bool {
    let b = text.as_bytes();
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', b).map(|i| i + 1))
        .any(|start| {
            let rest = &b[start..];
            let lead = rest
                .iter()
                .position(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c'))
                .unwrap_or(rest.len());
            let may = match rest.get(lead) {
                None | Some(b'\n') => return false,
                Some(b'[') => return true,
                Some(&c) if c.is_ascii() => {
                    initials.ascii[usize::from(c)]
                        && initials
                            .ascii_labels
                            .iter()
                            .any(|label| may_start_with(&rest[lead..], label))
                }
                // `start + lead` is a character boundary: only ASCII bytes were skipped.
                Some(_) => text[start + lead..]
                    .chars()
                    .next()
                    .is_some_and(|c| initials.may_start(c) || c.is_whitespace() || c == '\u{feff}'),
            };
            may && {
                let end = memchr::memchr(b'\n', rest).map_or(b.len(), |i| start + i);
                let line = &text[start..end];
                line_may_name(line.strip_suffix('\r').unwrap_or(line))
            }
        })
}

/// The words of every game header [`read`] takes: one of the event's labels (`event`), or one
/// of White's and one of Black's (`white`, `black`), in lower case. A label line starts with a
/// label; a PGN tag (`[Event "…"]`) holds the English one. A caller that can only ask a mail
/// server whether a text holds a word (IMAP SEARCH) finds every message naming a game by
/// them, and some others, whether the server matches substrings (Dovecot) or whole words
/// (Gmail's search). A label Russian also writes with `ё` comes in both spellings
/// (`черные`, `чёрные`): [`read`] folds `ё` to `е`, a server may not.
pub fn game_header_words() -> GameHeaderWords {
    let spellings = |labels: &[&'static str]| {
        let mut words = Vec::new();
        for label in labels {
            words.push((*label).to_owned());
            let yo = labels::WITH_YO
                .iter()
                .filter(|w| w.replace('ё', "е") == *label);
            words.extend(yo.map(|w| (*w).to_owned()));
        }
        words
    };
    GameHeaderWords {
        event: spellings(labels::EVENT),
        white: spellings(labels::WHITE),
        black: spellings(labels::BLACK),
    }
}

/// See [`game_header_words`]: the spellings of each label list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameHeaderWords {
    pub event: Vec<String>,
    pub white: Vec<String>,
    pub black: Vec<String>,
}

/// The labels of a game header: the event, White, Black.
const GAME_LABELS: [&[&str]; 3] = [labels::EVENT, labels::WHITE, labels::BLACK];

/// The characters the game-header labels start with, and the labels written in ASCII.
struct LabelInitials {
    /// ASCII characters, either case.
    ascii: [bool; 128],
    /// Other characters, folded ([`fold_char`]).
    other: Vec<char>,
    ascii_labels: Vec<&'static str>,
}

impl LabelInitials {
    /// Whether a label may start with `c` (any case).
    fn may_start(&self, c: char) -> bool {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else {
            self.other.contains(&fold_char(c))
        }
    }
}

fn label_initials() -> &'static LabelInitials {
    static TABLE: std::sync::OnceLock<LabelInitials> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let labels = GAME_LABELS.concat();
        let mut ascii = [false; 128];
        let mut other = Vec::new();
        for c in labels.iter().filter_map(|l| l.chars().next()) {
            if c.is_ascii() {
                ascii[usize::from(c.to_ascii_lowercase() as u8)] = true;
                ascii[usize::from(c.to_ascii_uppercase() as u8)] = true;
            } else if !other.contains(&fold_char(c)) {
                other.push(fold_char(c));
            }
        }
        LabelInitials {
            ascii,
            other,
            ascii_labels: labels.into_iter().filter(|l| l.is_ascii()).collect(),
        }
    })
}

/// Whether `line` may start with the ASCII `label` once folded: its bytes equal the label's
/// in any case, up to a non-ASCII byte (whose folding is left to [`line_may_name`]).
fn may_start_with(line: &[u8], label: &str) -> bool {
    label.bytes().enumerate().all(|(i, c)| {
        line.get(i)
            .is_some_and(|&x| !x.is_ascii() || x.to_ascii_lowercase() == c)
    })
}

/// [`may_name_a_game`] for one line, the whole way: Unicode blanks, a byte-order mark, a
/// Russian label.
fn line_may_name(line: &str) -> bool {
    let line = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let Some(first) = line.chars().next() else {
        return false;
    };
    if first == '[' {
        return true;
    }
    if !is_letter(first) {
        return false;
    }
    // Most lines start with a letter no label starts with: no folding for them.
    if !label_initials().may_start(first) {
        return false;
    }
    // The longest label and the character after it are enough to decide.
    let end = line.char_indices().nth(16).map_or(line.len(), |(at, _)| at);
    let head = Line::new(&line[..end]);
    GAME_LABELS
        .iter()
        .any(|labels| head.after_label(labels).is_some())
}

#[cfg(test)]
mod tests;
