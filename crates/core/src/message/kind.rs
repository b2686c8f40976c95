//! What a message is: a move message, or one of the other letters of a game (RULES.md, "What a
//! message is, and when ccmail acts on its own"; `kind` in cli.md).
//!
//! A game's mail is not only moves: partners announce and end breaks (51.7.2–3), change their
//! address (51.1.2), ask us to correct or repeat a move (51.3.4, 51.5.2), claim a win on time
//! (51.6), send adjudication packages (51.9.4); the arbiter writes; people chat. None of those
//! is "a message without a move" (51.3.5), which would cost the sender two days. So the kind is
//! decided first, from the sender's own text (quotes already dropped by the reader), by the
//! phrases that say what the letter is for, and only a message that is a move message in the
//! 51.2 form can be found to lack its move.
//!
//! The phrases are lists of folded (lower-case, ё as е) words, Russian and English, the way
//! players write them and the way ccmail's own letters do, so that every kind ccmail writes is
//! read back as that kind.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use chrono::NaiveDate;
use serde::Serialize;

use super::dates::find_dates;
use super::{MoveMessage, ProblemCode};

/// The kinds of cli.md's `kind`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageKind {
    /// A move message (51.2): the sender's move, possibly with an accepted variation, a draw
    /// offer or a resignation, or a move message whose move is missing (51.3.5).
    Move,
    /// 51.5.1: the sender repeats an earlier move of theirs.
    Repeat,
    /// Accepts a draw, no move.
    DrawAccept,
    /// Resigns, no move.
    Resignation,
    /// Announces a break (51.7.2).
    BreakNotice,
    /// Ends a break early (51.7.3).
    BreakEnd,
    /// A new e-mail address (51.1.2).
    AddressChange,
    /// Asks us to correct our move (51.3.4) or to repeat it because it was lost (51.5.2).
    CorrectionRequest,
    /// A time-forfeit claim or its copy (51.6).
    Claim,
    /// An adjudication package or its copy (51.9.4).
    Adjudication,
    /// Anything else written about a game: a question, chat, an arbiter's letter.
    Note,
    /// Not about a game at all.
    #[default]
    Other,
}

impl MessageKind {
    /// Every kind.
    pub const ALL: [MessageKind; 12] = [
        MessageKind::Move,
        MessageKind::Repeat,
        MessageKind::DrawAccept,
        MessageKind::Resignation,
        MessageKind::BreakNotice,
        MessageKind::BreakEnd,
        MessageKind::AddressChange,
        MessageKind::CorrectionRequest,
        MessageKind::Claim,
        MessageKind::Adjudication,
        MessageKind::Note,
        MessageKind::Other,
    ];

    /// The name cli.md gives the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageKind::Move => "move",
            MessageKind::Repeat => "repeat",
            MessageKind::DrawAccept => "draw_accept",
            MessageKind::Resignation => "resignation",
            MessageKind::BreakNotice => "break_notice",
            MessageKind::BreakEnd => "break_end",
            MessageKind::AddressChange => "address_change",
            MessageKind::CorrectionRequest => "correction_request",
            MessageKind::Claim => "claim",
            MessageKind::Adjudication => "adjudication",
            MessageKind::Note => "note",
            MessageKind::Other => "other",
        }
    }

    /// The kind named `name` (cli.md), if any.
    pub fn from_name(name: &str) -> Option<MessageKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// Whether the kind carries a move of the sender's to apply.
    pub fn carries_move(self) -> bool {
        matches!(self, MessageKind::Move | MessageKind::Repeat)
    }

    /// Whether a break the message announces is the sender's (51.7.2): a break notice's, or a
    /// move message's that carries one.
    pub fn carries_break(self) -> bool {
        self == MessageKind::BreakNotice || self.carries_move()
    }
}

/// Phrases, folded. A phrase is found anywhere in a line.
mod phrases {
    /// Our move did not arrive: repeat it (51.5.2).
    pub const LOST: &[&str] = &[
        "не пришло",
        "не пришел",
        "не пришёл",
        "не дошло",
        "не дошел",
        "не получил ваш",
        "не получила ваш",
        "не получал",
        "не получила",
        "ничего не получ",
        "ход не получен",
        "письмо потерял",
        "потерялось",
        "повторите ход",
        "повторите ваш ход",
        "повторите свой ход",
        "повторите, пожалуйста, ход",
        "прошу повторить",
        "повторить ваш ход",
        "please repeat",
        "repeat your move",
        "resend your move",
        "please resend",
        "send your move again",
        "did not receive your",
        "didn't receive your",
        "did not get your",
        "didn't get your",
        "never received",
        "never arrived",
        "has not arrived",
        "hasn't arrived",
        "have not received",
        "haven't received",
        "not received your",
        "letter was lost",
        "message was lost",
        "move was lost",
        "mail was lost",
        "got lost in the post",
    ];
    /// Our move is wrong: correct it (51.3.4).
    pub const CORRECT: &[&str] = &[
        "прошу исправить",
        "исправьте ход",
        "исправьте ваш ход",
        "исправьте свой ход",
        "исправленный ход",
        "ход невозможен",
        "невозможный ход",
        "ход неразборчив",
        "ход неоднозначен",
        "please correct",
        "correct your move",
        "corrected move",
        "illegal move",
    ];
    /// Said of a move, these ask for its correction too: found only on a line that speaks of
    /// a move, so that "it is impossible to say" is chat.
    pub const CORRECT_MOVE: &[&str] = &[
        "невозможен",
        "неразборчив",
        "неоднозначен",
        "can't be played",
        "cannot be played",
        "is impossible",
        "is illegal",
        "is ambiguous",
        "is illegible",
    ];
    pub const MOVE_WORDS: &[&str] = &["ход", "move"];
    pub const CLAIM: &[&str] = &[
        "просрочк",
        "превышение контрольного времени",
        "превышении контрольного времени",
        "превысил контроль",
        "превысила контроль",
        "превысили контроль",
        "превышение контроля",
        "заявляю о превышении",
        "claim a win on time",
        "claim the game on time",
        "time forfeit",
        "overstepped the time",
        "exceeded the time",
        "win on time",
    ];
    pub const ADJUDICATION: &[&str] = &[
        "присуждени",
        "присудить",
        "на присуждение",
        "adjudication",
        "adjudicate",
    ];
    pub const ADDRESS: &[&str] = &[
        "новый адрес",
        "адрес изменился",
        "изменился адрес",
        "изменился мой адрес",
        "сменил адрес",
        "сменила адрес",
        "смена адреса",
        "изменение адреса",
        "новая почта",
        "new e-mail address",
        "new email address",
        "new address",
        "address change",
        "change of e-mail address",
        "change of email address",
        "change of address",
        "changed my e-mail",
        "changed my email",
        "my e-mail address for all",
        "my email address for all",
        "my e-mail address will be",
        "my email address will be",
        "please write to",
    ];
    pub const BREAK_END: &[&str] = &[
        "заканчиваю перерыв",
        "закончил перерыв",
        "закончила перерыв",
        "завершаю перерыв",
        "прерываю перерыв",
        "прекращаю перерыв",
        "перерыв окончен",
        "перерыв закончен",
        "перерыв завершен",
        "выхожу из перерыва",
        "вернулся из перерыва",
        "end my break",
        "ending my break",
        "ended my break",
        "end of my break",
        "my break is over",
        "break is over",
        "back from my break",
        "cut my break short",
        "cutting my break short",
    ];
    /// The line of a resumption date: "играю с 20.09.2026", "playing again from …".
    pub const RESUME: &[&str] = &[
        "играю с",
        "играю снова с",
        "возобновляю игру с",
        "playing again from",
        "playing from",
        "back on",
        "resume play on",
        "resuming on",
    ];
    /// An arbiter's decision: shown as a note whatever claim or break it speaks of.
    pub const DECISION: &[&str] = &[
        "decision on the",
        "the claim is rejected",
        "the claim is upheld",
        "is resumed",
        "play resumes",
        "сообщаю решение",
        "решение по заявлению",
        "решение судьи",
        "заявление отклонено",
        "заявление удовлетворено",
        "возобновляется",
    ];
    /// Mail no one wrote to us about a game: automatic replies, lists and newsletters.
    pub const MACHINE: &[&str] = &[
        "автоответ",
        "автоматический ответ",
        "отправлено автоматически",
        "auto-reply",
        "autoreply",
        "automatic reply",
        "out of office",
        "out-of-office",
        "отправитель рассылки",
        "рассылк",
        "digest for",
        "today's topic summary",
        "unsubscribe",
        "отписаться",
        "mailing list",
    ];
    /// A break announced, not only spoken of (a notice takes one, in the first person).
    pub const BREAK_TAKEN: &[&str] = &[
        "беру перерыв",
        "взял перерыв",
        "взяла перерыв",
        "ухожу на перерыв",
        "буду в перерыве",
        "перерыв с",
        "taking a break",
        "take a break",
        "taking my break",
        "i'll be on a break",
        "i will be on a break",
        "my break from",
        "a break from",
        "break from",
        "беру отпуск",
        "ухожу в отпуск",
        "уезжаю в отпуск",
        "буду в отпуске",
        "в отпуске с",
        "be away from",
        "i'm away from",
        "i am away from",
        "i'll be away",
        "i will be away",
        "on holiday from",
        "on vacation from",
        "be on holiday",
        "be on vacation",
        "going on holiday",
        "going on vacation",
        "that's my break",
        "as my break",
        "мой перерыв",
        "моим перерывом",
    ];
    /// Words that make a letter one about a game, not about anything at all.
    pub const GAME: &[&str] = &[
        "партия",
        "партии",
        "партию",
        "ваш ход",
        "мой ход",
        "ход получил",
        "ход получен",
        "судья",
        "судье",
        "контроль времени",
        "контрольного времени",
        "турнир",
        "соперник",
        "our game",
        "our games",
        "your move",
        "my move",
        "the game",
        "time control",
        "arbiter",
        "tournament director",
        "tournament",
        "opponent",
    ];
}

/// What [`classify`] finds besides the kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Kinds {
    pub kind: MessageKind,
    /// An address change's new address.
    pub new_address: Option<String>,
    /// A break end's first day of play again.
    pub resumes_on: Option<NaiveDate>,
    /// A correction request says our move was lost (51.5.2), not that it was wrong.
    pub lost: bool,
    /// The sender says they take a break ("беру перерыв", "I'll be away from"): dates of a
    /// break, a holiday or an absence spoken of otherwise are none of theirs to record.
    pub break_taken: bool,
}

/// One line of the sender's own text, as written and folded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OwnLine<'a> {
    pub text: &'a str,
    pub folded: &'a str,
}

/// The phrase lists [`classify`] asks about, a bit each in a [`Lists`].
#[derive(Clone, Copy)]
enum List {
    Lost,
    Correct,
    CorrectMove,
    MoveWords,
    Claim,
    Adjudication,
    Address,
    BreakEnd,
    Decision,
    Machine,
    BreakTaken,
    Game,
}

impl List {
    const ALL: [(List, &'static [&'static str]); 12] = [
        (List::Lost, phrases::LOST),
        (List::Correct, phrases::CORRECT),
        (List::CorrectMove, phrases::CORRECT_MOVE),
        (List::MoveWords, phrases::MOVE_WORDS),
        (List::Claim, phrases::CLAIM),
        (List::Adjudication, phrases::ADJUDICATION),
        (List::Address, phrases::ADDRESS),
        (List::BreakEnd, phrases::BREAK_END),
        (List::Decision, phrases::DECISION),
        (List::Machine, phrases::MACHINE),
        (List::BreakTaken, phrases::BREAK_TAKEN),
        (List::Game, phrases::GAME),
    ];

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The phrase lists found in a text: a bit per [`List`].
#[derive(Clone, Copy, Default)]
struct Lists(u16);

impl Lists {
    fn has(self, list: List) -> bool {
        self.0 & list.bit() != 0
    }

    /// The lists whose phrases stand in `text`, from one pass over it: every phrase of every
    /// list in one Aho-Corasick automaton, built once, rather than a search a phrase (a
    /// 40-move message's lines against some 200 phrases were two thirds of its reading).
    fn in_text(text: &str) -> Lists {
        static INDEX: OnceLock<(AhoCorasick, Vec<List>)> = OnceLock::new();
        let (automaton, list_of) = INDEX.get_or_init(|| {
            let mut patterns = Vec::new();
            let mut list_of = Vec::new();
            for (list, phrases) in List::ALL {
                patterns.extend_from_slice(phrases);
                list_of.extend(phrases.iter().map(|_| list));
            }
            // A DFA: one table step a byte, the fastest of the crate's kinds for a small set.
            let automaton = AhoCorasick::builder()
                .kind(Some(AhoCorasickKind::DFA))
                .build(patterns)
                .expect("the phrases are a few kilobytes");
            (automaton, list_of)
        });
        let bits = automaton
            .find_overlapping_iter(text)
            .fold(0, |bits, m| bits | list_of[m.pattern().as_usize()].bit());
        Lists(bits)
    }
}

/// The kind of a message already read: `msg` is what the reader found, `lines` the sender's
/// own lines (quotes dropped), `subject` the folded subject, `sender` the From address, and
/// `replies` whether it answers another message (In-Reply-To).
pub(crate) fn classify(
    msg: &MoveMessage,
    lines: &[OwnLine<'_>],
    subject: &str,
    sender: Option<&str>,
    replies: bool,
) -> Kinds {
    let mut out = Kinds::default();
    if msg.has(ProblemCode::Unreadable) {
        return out;
    }
    // The lists found anywhere, and whether one line says a move "is impossible".
    let (all, wrong_move) = lines
        .iter()
        .map(|l| l.folded)
        .chain([subject])
        .map(Lists::in_text)
        .fold((Lists::default(), false), |(all, wrong), line| {
            let wrong_here = line.has(List::CorrectMove) && line.has(List::MoveWords);
            (Lists(all.0 | line.0), wrong || wrong_here)
        });
    let has = |list: List| all.has(list);
    out.break_taken = has(List::BreakTaken);
    // The letters whose purpose overrides any move they quote: ccmail's own correction request
    // and claim carry the form of our last move, which is not the sender's new move.
    if has(List::Machine) {
        return out;
    }
    if has(List::Decision) {
        out.kind = MessageKind::Note;
        return out;
    }
    let lost = has(List::Lost);
    out.kind = if lost || wrong_move || has(List::Correct) {
        out.lost = lost;
        MessageKind::CorrectionRequest
    } else if has(List::Claim) {
        MessageKind::Claim
    } else if has(List::Adjudication) {
        MessageKind::Adjudication
    } else if has(List::BreakEnd) {
        out.resumes_on = resumption(lines);
        MessageKind::BreakEnd
    } else if msg.new_move_text.is_some() && in_correspondence(msg, replies) {
        if msg.repeat {
            MessageKind::Repeat
        } else {
            MessageKind::Move
        }
    } else if let Some(address) = has(List::Address)
        .then(|| new_address(lines, sender))
        .flatten()
    {
        out.new_address = Some(address);
        MessageKind::AddressChange
    } else if msg.resign {
        MessageKind::Resignation
    } else if msg.draw_accept {
        MessageKind::DrawAccept
    } else if msg.break_notice.is_some() && has(List::BreakTaken) {
        MessageKind::BreakNotice
    } else if msg.move_line_empty || msg.labelled || in_move_form(msg) {
        MessageKind::Move
    } else if replies || about_a_game(msg) || has(List::Game) {
        MessageKind::Note
    } else {
        MessageKind::Other
    };
    out
}

/// Whether a message with moves in it is written to a partner, not a puzzle or a record in a
/// newsletter: it names the game (the event, or both players), gives a date of the 51.2 form,
/// shows our move, carries a PGN's addresses, or answers another message.
fn in_correspondence(msg: &MoveMessage, replies: bool) -> bool {
    let h = &msg.header;
    replies
        || msg.labelled
        || h.event.is_some()
        || (h.white.is_some() && h.black.is_some())
        || msg.sent.is_some()
        || msg.received.is_some()
        || msg.partner_move_sent.is_some()
        || msg.partner_move_text.is_some()
        || msg.white_email.is_some()
        || msg.black_email.is_some()
}

/// A letter in the 51.2 form: the record (or the "your move … sent" line) and a date of ours
/// confirmed — whose move line is then missing, not a letter of another kind.
fn in_move_form(msg: &MoveMessage) -> bool {
    let record = !msg.moves.is_empty() || msg.partner_move_text.is_some();
    let header =
        msg.header.event.is_some() && (msg.header.white.is_some() || msg.header.black.is_some());
    let dates = msg.partner_move_sent.is_some() || msg.received.is_some();
    record && (header || dates)
}

fn about_a_game(msg: &MoveMessage) -> bool {
    let h = &msg.header;
    h.event.is_some() || h.white.is_some() || h.black.is_some() || !msg.moves.is_empty()
}

/// The first day of play again, from a break end's lines: the date on a "playing again from"
/// line, else the first date on the line that ends the break.
fn resumption(lines: &[OwnLine<'_>]) -> Option<NaiveDate> {
    let dated = |l: &OwnLine<'_>| find_dates(l.text, None).find_map(|f| f.date.ok());
    lines
        .iter()
        .filter(|l| phrases::RESUME.iter().any(|p| l.folded.contains(p)))
        .find_map(dated)
        .or_else(|| {
            lines
                .iter()
                .filter(|l| phrases::BREAK_END.iter().any(|p| l.folded.contains(p)))
                .find_map(dated)
        })
}

/// The new address in an address change: the first address in the sender's text that is not
/// the one it comes from.
fn new_address(lines: &[OwnLine<'_>], sender: Option<&str>) -> Option<String> {
    let sender = sender.map(str::to_lowercase);
    let named: Vec<String> = lines.iter().flat_map(|l| addresses(l.text)).collect();
    // Another address than the sender's; else the sender's own, when the notice is written
    // from the new address already and names it.
    named
        .iter()
        .find(|a| Some(*a) != sender.as_ref())
        .or(named.first())
        .cloned()
}

/// The e-mail addresses in a line, lower case: `local@domain.tld`, with what surrounds them
/// (`<…>`, quotes, a full stop at the end of a sentence) left out.
pub(crate) fn addresses(line: &str) -> impl Iterator<Item = String> + '_ {
    let part = |c: char| c.is_alphanumeric() || "._%+-".contains(c);
    line.split(move |c: char| !(part(c) || c == '@'))
        .filter_map(move |word| {
            let word = word.trim_matches(|c: char| c == '.' || c == '-');
            let (local, domain) = word.split_once('@')?;
            let domain_ok = domain.contains('.')
                && !domain.contains('@')
                && domain.split('.').all(|p| !p.is_empty());
            (!local.is_empty() && domain_ok).then(|| word.to_lowercase())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_found_in_sentences() {
        let found: Vec<String> =
            addresses("will be margaret.holloway@new.example.net. The old <A@b.org>, x@y")
                .collect();
        assert_eq!(found, ["margaret.holloway@new.example.net", "a@b.org"]);
    }

    #[test]
    fn every_kind_has_its_name() {
        for k in MessageKind::ALL {
            assert_eq!(MessageKind::from_name(k.as_str()), Some(k));
            assert_eq!(
                serde_json::to_value(k).unwrap(),
                serde_json::Value::String(k.as_str().into())
            );
        }
    }
}
