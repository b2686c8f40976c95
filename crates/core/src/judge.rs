//! The judgment of a partner's message against its game: one pure function, [`judge`], from
//! the game as stored, the message as read and its dates to a typed [`Verdict`] — what to
//! record, what to fine and why, what to answer, what to hold for the player and why.
//!
//! The app layer only loads the game, calls this, and writes what it says. Every rule that
//! decides is cited by its clause, and one table test reaches each row of RULES.md's "What a
//! message is, and when ccmail acts on its own".
//!
//! The principle of that section governs everything here: a partner is fined (51.4.7) and
//! asked to correct a move (51.3.4) only when ccmail is certain the partner erred — a move it
//! read and found impossible or ambiguous, a record it read and found to repeat our last move
//! wrongly, a move line that is empty or illegible as written. Whatever ccmail could not make
//! sense of is its own doubt: [`Verdict::Hold`], with the reason in words, for the player to
//! decide.

use chrono::{Days, NaiveDate};
use shakmaty::{Chess, Color, Move, Position};

use crate::clock::{PenaltyCause, Profile};
use crate::message::{
    BreakNotice, Language, MessageKind, MoveMessage, ProblemCode, Totals, play_all,
};
use crate::notation::{self, MoveErrorKind, Notation};
use crate::wording;

/// A statement in English and in Russian: for the player, in the interface's language, and
/// for the partner, in the game's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub en: String,
    pub ru: String,
}

impl Said {
    pub fn new(en: impl Into<String>, ru: impl Into<String>) -> Said {
        Said {
            en: en.into(),
            ru: ru.into(),
        }
    }

    /// The statement in `language`.
    pub fn in_language(&self, language: Language) -> &str {
        match language {
            Language::Ru => &self.ru,
            Language::En => &self.en,
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Active,
    /// A claim is pending (51.6).
    Suspended,
    Finished,
}

/// The game as stored, as far as the judgment needs it.
#[derive(Clone, Copy, Debug)]
pub struct GameView<'a> {
    pub me: Color,
    /// The moves made, in order.
    pub plies: &'a [Move],
    /// The send date of each move of `plies`.
    pub sent: &'a [NaiveDate],
    /// The official start (51.4.5).
    pub start: NaiveDate,
    pub status: Status,
    pub language: Language,
    pub notation: Notation,
    /// The opponent's address on file, lower case.
    pub opponent: &'a str,
    /// The arbiter's address, lower case; `None` in a friendly game.
    pub arbiter: Option<&'a str>,
    /// The variation we offered with our last move, still open (51.3.7): the partner's reply
    /// first.
    pub our_offer: &'a [Move],
    /// The end of the period of a rejected message of the partner's for the move now awaited
    /// (51.3.4): the corrected move counts from then at the earliest.
    pub rejected_until: Option<NaiveDate>,
    pub draw_offered_by: Option<Color>,
    /// The rules the game's clock follows: they differ on a break announced late.
    pub profile: Profile,
}

impl GameView<'_> {
    fn opponent_color(&self) -> Color {
        !self.me
    }

    fn side_to_move(&self) -> Color {
        if self.plies.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Our last move, numbered in the game's notation: `3... 1716`.
    fn our_last(&self) -> String {
        let n = self.plies.len();
        if n == 0 {
            return String::new();
        }
        let before = play_all(&self.plies[..n - 1]);
        in_notation(self.notation, &before, self.plies[n - 1])
    }
}

/// The message and its dates.
#[derive(Clone, Copy, Debug)]
pub struct Letter<'a> {
    /// The From address, lower case.
    pub from: &'a str,
    pub msg: &'a MoveMessage,
    /// The actual send date: the local date of `Date:` in the sender's offset (51.2.3).
    pub date_sent: Option<NaiveDate>,
    /// The day it arrived, in the player's zone.
    pub received: NaiveDate,
    /// The player has read the letter and applies it (`inbox accept`): ccmail's own doubts
    /// about it are settled; the rules' checks still stand.
    pub confirmed: bool,
}

impl Letter<'_> {
    /// The date the letter counts as sent: the actual date over the stated one (51.2.3).
    fn sent(&self) -> NaiveDate {
        self.date_sent.or(self.msg.sent).unwrap_or(self.received)
    }
}

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Checkmate,
    DrawnPosition,
    Resignation,
    Agreement,
}

/// What a draw offer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// Nothing changes.
    Unchanged,
    /// The partner offers a draw.
    Offered,
    /// Our offer lapses: the partner moved without accepting it.
    Lapsed,
}

/// A partner's move (or moves, with an accepted variation), or a resignation or an accepted
/// draw, to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    /// Our accepted variation moves, then the partner's new move.
    pub moves: Vec<Move>,
    /// How many of `moves` are accepted variation moves (51.3.8).
    pub accepted: usize,
    /// How far our offer was followed, the partner's move matching it included; 0 when not.
    pub offer_followed: usize,
    /// The dates of the partner's move: received (ours arriving) and sent.
    pub received: NaiveDate,
    pub sent: NaiveDate,
    /// The continuation the partner offers (51.3.7).
    pub variation: Vec<Move>,
    pub draw: Draw,
    /// The result, when the game ends with this message.
    pub result: Option<(&'static str, Ending)>,
    pub break_notice: Option<BreakNotice>,
    /// Statements for our next reply (51.2.3, 51.2.5, 51.3.3).
    pub notes: Vec<Said>,
    /// Our answer goes Cc the arbiter: it answers a repeat (51.5.1).
    pub cc_answer: bool,
    /// What happened, for the player.
    pub summary: Vec<Said>,
    /// The totals the partner states (`Итого дней`), to be compared with the clock once the
    /// move is charged: see [`totals_differ`].
    pub stated_totals: Option<Totals>,
}

/// The statement for our next reply when the partner's stated totals differ from the clock's
/// after his move (message-form.md, "Notes"): `None` when they agree.
pub fn totals_differ(stated: Totals, ours: Totals) -> Option<Said> {
    (stated != ours).then(|| {
        Said::new(
            format!(
                "the totals stated, White {} and Black {}, differ from ours: White {}, Black {} \
                 (51.4.1)",
                stated.white, stated.black, ours.white, ours.black
            ),
            format!(
                "указанные итоги, белые {} и чёрные {}, расходятся с нашими: белые {}, чёрные {} \
                 (51.4.1)",
                stated.white, stated.black, ours.white, ours.black
            ),
        )
    })
}

/// The partner erred, for certain: two penalty days (51.4.7) and a correction request at once
/// (51.3.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub cause: PenaltyCause,
    pub what: Said,
    /// The partner's period on the rejected message: from their receipt of our move to its
    /// send date.
    pub received: NaiveDate,
    pub sent: NaiveDate,
}

/// A thing to do for a message that carries no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The partner's break in this game (51.7.2).
    Break(BreakNotice),
    /// The partner's break ends early: they play again from this day (51.7.3).
    EndBreak(NaiveDate),
    /// The partner's new address (51.1.2); the notice is kept as evidence.
    NewAddress(String),
    /// Our last move is sent again, marked as a repeat: it was lost (51.5.2).
    ResendOurLast,
    /// Our next answer goes Cc the arbiter: it answers a repeat (51.5.1).
    CcAnswer,
    /// The game is suspended until the arbiter decides (51.6).
    Suspend,
}

/// What the judgment says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Play(Play),
    Fault(Fault),
    /// Recorded for the game, without a move: the actions, and what it was in words.
    Record {
        actions: Vec<Action>,
        summary: Said,
    },
    /// ccmail's doubt, or something only the player can decide: held, with the reason.
    Hold(Said),
}

/// Held, with the reason in English and in Russian.
fn hold(en: impl Into<String>, ru: impl Into<String>) -> Verdict {
    Verdict::Hold(Said::new(en, ru))
}

/// Recorded without a move, with what it was in English and in Russian.
fn record(actions: Vec<Action>, en: impl Into<String>, ru: impl Into<String>) -> Verdict {
    Verdict::Record {
        actions,
        summary: Said::new(en, ru),
    }
}

/// `16. O-O`, `15... Rfb8`: a move with its number, in SAN.
pub fn numbered(pos: &Chess, m: Move) -> String {
    format!("{} {}", move_number(pos), notation::san(pos, m))
}

/// A move with its number in the game's notation: `1. 5254`.
fn in_notation(n: Notation, pos: &Chess, m: Move) -> String {
    format!("{} {}", move_number(pos), notation::write_move(pos, m, n))
}

/// `13.` or `13...` for the side to move in `pos`.
fn move_number(pos: &Chess) -> String {
    let dots = if pos.turn().is_white() { "." } else { "..." };
    format!("{}{dots}", pos.fullmoves())
}

fn side(c: Color) -> &'static str {
    if c.is_white() { "White" } else { "Black" }
}

/// The side in Russian, as a sentence's subject: `Белые`, `Чёрные`.
fn side_ru(c: Color) -> &'static str {
    if c.is_white() {
        "Белые"
    } else {
        "Чёрные"
    }
}

/// The side in Russian, as a move's owner: `белых`, `чёрных`.
fn of_side_ru(c: Color) -> &'static str {
    if c.is_white() {
        "белых"
    } else {
        "чёрных"
    }
}

/// `side` takes a break (51.7.2), in words.
fn break_said(side_of: Color, b: BreakNotice) -> Said {
    Said::new(
        format!(
            "{} takes a break from {} to {}",
            side(side_of),
            b.from,
            b.to
        ),
        format!(
            "{} берут перерыв с {} по {}",
            side_ru(side_of),
            ru(b.from),
            ru(b.to)
        ),
    )
}

/// Why a partner's break, as the letter announces it, is not recorded without the player: it
/// starts before the letter was sent (51.7.2 asks for notice in advance) or is longer than a
/// year's 30 days (51.7.1). The arbiter may allow either (51.7.7); the player knows whether
/// they did, ccmail does not. Under the postal profile a late notice is good from its own
/// date (10.4.2), as the clock counts it. `None` for a break that may stand.
fn doubtful_break(b: BreakNotice, sent: NaiveDate, profile: Profile) -> Option<Said> {
    const MOST_DAYS: i64 = 30;
    let days = (b.to - b.from).num_days() + 1;
    let (en, ru_) = if b.from < sent && profile == Profile::Article51 {
        (
            format!(
                "it announces a break from {} to {} that starts before the letter was sent \
                 ({sent}): 51.7.2 asks for notice in advance",
                b.from, b.to
            ),
            format!(
                "в нём объявлен перерыв с {} по {}, который начинается раньше, чем отправлено \
                 письмо ({}): 51.7.2 требует сообщать заранее",
                ru(b.from),
                ru(b.to),
                ru(sent)
            ),
        )
    } else if days > MOST_DAYS {
        (
            format!(
                "it announces a break from {} to {}, {days} days: more than the {MOST_DAYS} a \
                 year of 51.7.1",
                b.from, b.to
            ),
            format!(
                "в нём объявлен перерыв с {} по {}, {days} дн.: больше {MOST_DAYS} дней в год \
                 (51.7.1)",
                ru(b.from),
                ru(b.to)
            ),
        )
    } else {
        return None;
    };
    Some(Said::new(
        format!(
            "{en}. If the arbiter allowed it (51.7.7), apply the letter with `ccmail inbox \
             accept`; else dismiss it"
        ),
        format!(
            "{ru_}. Если арбитр это разрешил (51.7.7), примените письмо командой `ccmail inbox \
             accept`, иначе отклоните его"
        ),
    ))
}

/// `side` resigns, in words.
fn resigns(side_of: Color) -> Said {
    Said::new(
        format!("{} resigns", side(side_of)),
        format!("{} сдаются", side_ru(side_of)),
    )
}

fn draw_agreed() -> Said {
    Said::new("the draw is agreed", "ничья по соглашению")
}

/// The result, in words.
fn result_said(result: &str) -> Said {
    Said::new(format!("result {result}"), format!("результат {result}"))
}

/// What a letter is, in Russian, for the player: as `ccmail show` names the kinds.
fn kind_ru(kind: MessageKind) -> &'static str {
    match kind {
        MessageKind::Move => "ход",
        MessageKind::Repeat => "повтор хода",
        MessageKind::DrawAccept => "согласие на ничью",
        MessageKind::Resignation => "сдача",
        MessageKind::BreakNotice => "уведомление о перерыве",
        MessageKind::BreakEnd => "конец перерыва",
        MessageKind::AddressChange => "смена адреса",
        MessageKind::CorrectionRequest => "запрос на исправление",
        MessageKind::Claim => "заявление о просрочке времени",
        MessageKind::Adjudication => "материалы для присуждения",
        MessageKind::Note => "сообщение",
        MessageKind::Other => "другое",
    }
}

/// The result when `winner` wins.
pub fn win_for(winner: Color) -> &'static str {
    if winner.is_white() { "1-0" } else { "0-1" }
}

fn same(a: &[Move], b: &[Move]) -> bool {
    a == b
}

/// A date as Russian writes it: `08.03.2026`.
fn ru(date: NaiveDate) -> String {
    wording::date(date, Language::Ru)
}

/// Judges `letter` against `game`.
pub fn judge(game: &GameView<'_>, letter: &Letter<'_>) -> Verdict {
    let msg = letter.msg;
    if game.status == Status::Finished {
        return hold("the game is finished", "партия окончена");
    }
    if game.arbiter == Some(letter.from) {
        // The arbiter's letter is shown, and never changes the opponent; a decision is
        // recorded when the player confirms it (RULES.md, "What a message is").
        return hold(
            format!(
                "a letter from the arbiter ({}): read it; record a decision with `ccmail game \
                 decision`, or dismiss it",
                msg.kind.as_str().replace('_', " ")
            ),
            format!(
                "письмо арбитра ({}): прочитайте его; решение запишите командой `ccmail game \
                 decision` или отклоните письмо",
                kind_ru(msg.kind)
            ),
        );
    }
    if let Some(b) = msg.break_notice
        && msg.kind.carries_break()
        && !letter.confirmed
        && let Some(why) = doubtful_break(b, letter.sent(), game.profile)
    {
        return Verdict::Hold(why);
    }
    let theirs = game.side_to_move() == game.opponent_color();
    let opponent = game.opponent_color();
    match msg.kind {
        MessageKind::Move | MessageKind::Repeat if theirs => their_move(game, letter),
        MessageKind::Move | MessageKind::Repeat => while_ours(game, letter),
        MessageKind::Resignation => Verdict::Play(ending(
            game,
            letter,
            (win_for(game.me), Ending::Resignation),
            resigns(opponent),
        )),
        MessageKind::DrawAccept if game.draw_offered_by == Some(game.me) => Verdict::Play(ending(
            game,
            letter,
            ("1/2-1/2", Ending::Agreement),
            draw_agreed(),
        )),
        MessageKind::DrawAccept => hold(
            "it accepts a draw, but we have no draw offer open in this game",
            "в нём принимается ничья, но в этой партии мы ничью не предлагали",
        ),
        MessageKind::BreakNotice => match msg.break_notice {
            Some(b) => Verdict::Record {
                actions: vec![Action::Break(b)],
                summary: break_said(opponent, b),
            },
            None => hold(
                "it speaks of a break, but its dates could not be read",
                "в нём говорится о перерыве, но его даты прочитать не удалось",
            ),
        },
        MessageKind::BreakEnd => {
            let on = msg.resumes_on.unwrap_or_else(|| letter.sent());
            record(
                vec![Action::EndBreak(on)],
                format!(
                    "{} ends their break early: playing again from {on} (51.7.3)",
                    side(opponent)
                ),
                format!(
                    "{} досрочно заканчивают перерыв: игра снова с {} (51.7.3)",
                    side_ru(opponent),
                    ru(on)
                ),
            )
        }
        MessageKind::AddressChange => address_change(game, letter),
        MessageKind::CorrectionRequest => correction_request(game, letter, theirs),
        MessageKind::Claim | MessageKind::Adjudication | MessageKind::Note | MessageKind::Other => {
            without_play(msg)
        }
    }
}

/// A claim, an adjudication package, a note: recorded, or held when a note names a move.
fn without_play(msg: &MoveMessage) -> Verdict {
    match msg.kind {
        MessageKind::Claim => record(
            vec![Action::Suspend],
            "a time-forfeit claim (51.6): the game is suspended until the arbiter decides",
            "заявление о просрочке времени (51.6): партия прервана до решения арбитра",
        ),
        MessageKind::Adjudication => record(
            Vec::new(),
            "an adjudication package (51.9.4)",
            "материалы для присуждения (51.9.4)",
        ),
        _ => match &msg.new_move_text {
            // A move in a letter that does not read as a move message: the player looks.
            Some(text) => hold(
                format!(
                    "it reads as a note, not a move message, but names the move \"{text}\": \
                     apply it with `ccmail inbox accept --move`, or dismiss it"
                ),
                format!(
                    "оно читается как письмо без хода, а не как сообщение о ходе, но называет ход \
                     «{text}»: примените его командой `ccmail inbox accept --move` или \
                     отклоните письмо"
                ),
            ),
            None => record(
                Vec::new(),
                "a note from the partner, not a move: nothing to do",
                "письмо партнёра, не ход: делать ничего не нужно",
            ),
        },
    }
}

/// A resignation or an agreed draw without a move.
fn ending(
    game: &GameView<'_>,
    letter: &Letter<'_>,
    result: (&'static str, Ending),
    what: Said,
) -> Play {
    let received = game.sent.last().copied().unwrap_or(game.start);
    Play {
        moves: Vec::new(),
        accepted: 0,
        offer_followed: 0,
        received,
        sent: letter.sent().max(received),
        variation: Vec::new(),
        draw: Draw::Unchanged,
        result: Some(result),
        break_notice: None,
        notes: Vec::new(),
        cc_answer: false,
        summary: vec![what, result_said(result.0)],
        stated_totals: None,
    }
}

/// 51.1.2: an address change from the address on file records the new address; the arbiter's
/// or our own address is never the opponent's.
fn address_change(game: &GameView<'_>, letter: &Letter<'_>) -> Verdict {
    let Some(new) = letter.msg.new_address.as_deref() else {
        return hold(
            "it announces a new address, but none could be found in it",
            "в нём сообщается о новом адресе, но самого адреса в нём не нашлось",
        );
    };
    if letter.from != game.opponent {
        return hold(
            format!(
                "it announces the new address {new}, but comes from {}, not the address on file {}",
                letter.from, game.opponent
            ),
            format!(
                "в нём сообщается новый адрес {new}, но оно пришло с {}, а не с записанного \
                 адреса партнёра {}",
                letter.from, game.opponent
            ),
        );
    }
    if game.arbiter == Some(new) {
        return hold(
            format!("it names the arbiter's address {new} as the opponent's new one"),
            format!("новым адресом партнёра в нём назван адрес арбитра {new}"),
        );
    }
    record(
        vec![Action::NewAddress(new.to_owned())],
        format!(
            "the opponent's address changes from {} to {new} (51.1.2)",
            game.opponent
        ),
        format!(
            "адрес партнёра меняется с {} на {new} (51.1.2)",
            game.opponent
        ),
    )
}

/// 51.3.4, 51.5.2: a request to correct or repeat our move. A lost move is sent again; a
/// claim that our move is wrong is for the player to weigh (ccmail's own moves are legal).
fn correction_request(game: &GameView<'_>, letter: &Letter<'_>, theirs: bool) -> Verdict {
    let ours = game.our_last();
    if letter.msg.says_lost && theirs && !game.plies.is_empty() {
        return record(
            vec![Action::ResendOurLast],
            format!("the partner did not receive our move {ours}: it is sent again (51.5.2)"),
            format!("партнёр не получил наш ход {ours}: он отправляется повторно (51.5.2)"),
        );
    }
    if letter.msg.says_lost {
        return hold(
            "the partner asks for a move of ours that was lost, but it is our move in this \
             game: read the letter and answer it",
            "партнёр просит повторить наш потерянный ход, но в этой партии ход за нами: \
             прочитайте письмо и ответьте на него",
        );
    }
    hold(
        format!(
            "the partner asks us to correct our move {ours} (51.3.4): read the letter and decide"
        ),
        format!("партнёр просит исправить наш ход {ours} (51.3.4): прочитайте письмо и решите"),
    )
}

/// A move message while it is our move: a repeat of the partner's move we have (51.5.1) —
/// sent again because ours was slow, or crossing in the post — or something that does not
/// fit.
fn while_ours(game: &GameView<'_>, letter: &Letter<'_>) -> Verdict {
    let msg = letter.msg;
    let n = game.plies.len();
    let repeats_theirs = n > 0 && reads_as(msg, &game.plies[..n - 1], game.plies[n - 1]);
    let mut actions: Vec<Action> = msg.break_notice.map(Action::Break).into_iter().collect();
    if repeats_theirs {
        if msg.kind == MessageKind::Repeat && game.arbiter.is_some() {
            // 51.5.1: the answer to a repeat goes Cc the arbiter (a friendly game has none).
            actions.push(Action::CcAnswer);
        }
        return record(
            actions,
            format!("a repeat of their move {n}, which we have"),
            format!("повтор хода партнёра {n}, который у нас уже записан"),
        );
    }
    if let Some(b) = msg.break_notice
        && msg.new_move_text.is_none()
    {
        return Verdict::Record {
            actions,
            summary: break_said(game.opponent_color(), b),
        };
    }
    hold(
        format!(
            "it is our move in this game, and the message does not repeat their last move ({})",
            msg.new_move_text.as_deref().unwrap_or("no move")
        ),
        format!(
            "в этой партии ход за нами, а сообщение не повторяет последний ход партнёра ({})",
            msg.new_move_text.as_deref().unwrap_or("хода нет")
        ),
    )
}

/// Whether the message's new move, read after `before`, is `m`.
fn reads_as(msg: &MoveMessage, before: &[Move], m: Move) -> bool {
    let pos = play_all(before);
    msg.new_move_text
        .as_deref()
        .and_then(|t| notation::read_move(&pos, t).ok())
        == Some(m)
}

/// The dates of a partner's move message (their receipt of our move, their send date), as
/// [`judge`] takes them: for a fault the player finds by eye.
pub fn move_dates(game: &GameView<'_>, letter: &Letter<'_>) -> (NaiveDate, NaiveDate) {
    their_dates(game, letter, &mut Vec::new())
}

/// The words for a fault the player found by eye, by its cause.
pub fn fault_by_eye(cause: PenaltyCause) -> Said {
    let (en, ru) = match cause {
        PenaltyCause::Illegible => ("the move is illegible (51.3.4)", "ход неразборчив (51.3.4)"),
        PenaltyCause::Ambiguous => (
            "the move is ambiguous (51.3.4)",
            "ход неоднозначен (51.3.4)",
        ),
        PenaltyCause::Impossible => ("the move is impossible (51.3.4)", "ход невозможен (51.3.4)"),
        PenaltyCause::NoMove => (
            "the message has no move of its own (51.3.5)",
            "сообщение отправлено без ответного хода (51.3.5)",
        ),
        PenaltyCause::WrongRepetition => (
            "our last move was repeated wrongly (51.3.3)",
            "наш последний ход повторён неправильно (51.3.3)",
        ),
        PenaltyCause::LateRepeat => (
            "the repeat came more than 3 days late (51.4.9)",
            "повтор отправлен с опозданием более 3 дней (51.4.9)",
        ),
    };
    Said::new(en, ru)
}

/// The dates of the partner's move and the statements they call for (51.2.3, 51.2.5).
fn their_dates(
    game: &GameView<'_>,
    letter: &Letter<'_>,
    notes: &mut Vec<Said>,
) -> (NaiveDate, NaiveDate) {
    let msg = letter.msg;
    let our_last = game.our_last();
    let our_last_sent = game.sent.last().copied();
    let mut received = match (msg.received, our_last_sent) {
        (_, None) => game.start,
        (Some(r), Some(_)) => r,
        (None, Some(sent)) => {
            notes.push(Said::new(
                format!("the receipt date of our move {our_last} was not given; taken as its send date {sent} (51.2.3)"),
                format!("не указана дата получения нашего хода {our_last}; принята дата его отправки {} (51.2.3)", ru(sent)),
            ));
            sent
        }
    };
    if let Some(ours) = our_last_sent {
        received = probable_receipt(received, ours, letter.date_sent, &our_last, notes);
    }
    let mut sent = letter.sent();
    if let (Some(stated), Some(actual)) = (msg.sent, letter.date_sent)
        && stated != actual
    {
        notes.push(Said::new(
            format!("the move was stated as sent {stated} but was sent {actual} (51.2.3)"),
            format!(
                "ход указан отправленным {}, но отправлен {} (51.2.3)",
                ru(stated),
                ru(actual)
            ),
        ));
    }
    if let (Some(confirmed), Some(ours)) = (msg.partner_move_sent, our_last_sent)
        && confirmed != ours
    {
        notes.push(Said::new(
            format!("our move {our_last} was sent {ours}, not {confirmed}"),
            format!(
                "наш ход {our_last} отправлен {}, а не {}",
                ru(ours),
                ru(confirmed)
            ),
        ));
    }
    if let Some(ours) = our_last_sent
        && (received - ours).num_days() > 1
    {
        notes.push(Said::new(
            format!("our move {our_last} of {ours} took until {received} to arrive: more than the one day of 51.2.5"),
            format!("наш ход {our_last} от {} получен только {}: дольше одних суток (51.2.5)", ru(ours), ru(received)),
        ));
    }
    // 51.3.4: after a rejected message the corrected move counts from that message's send
    // date at the earliest; its days are charged already.
    if let Some(until) = game.rejected_until {
        received = received.max(until);
    }
    if sent < received {
        notes.push(Said::new(
            format!(
                "the send date {sent} is before the receipt date {received}; taken as {received}"
            ),
            format!(
                "дата отправки {} раньше даты получения {}; принята {}",
                ru(sent),
                ru(received),
                ru(received)
            ),
        ));
        sent = received;
    }
    (received, sent)
}

/// The receipt date of our move `our_last`, sent `ours`, as the partner states it (`stated`),
/// or the most probable one where it cannot be true (51.2.3): our move did not arrive before
/// we sent it, nor after the partner sent his answer to it (`answered`, the actual date of
/// his letter). Then it is taken as our send date, as a receipt date not given is.
fn probable_receipt(
    stated: NaiveDate,
    ours: NaiveDate,
    answered: Option<NaiveDate>,
    our_last: &str,
    notes: &mut Vec<Said>,
) -> NaiveDate {
    let (en, ru_) = if stated < ours {
        ("before it was sent", "раньше, чем он отправлен")
    } else if answered.is_some_and(|a| stated > a) {
        (
            "after the answer to it was sent",
            "позже, чем отправлен ответ на него",
        )
    } else {
        return stated;
    };
    let probable = answered.map_or(ours, |a| ours.min(a));
    notes.push(Said::new(
        format!(
            "the receipt date {stated} of our move {our_last} is {en}; taken as {probable} (51.2.3)"
        ),
        format!(
            "дата получения нашего хода {our_last} {} — {ru_}; принята {} (51.2.3)",
            ru(stated),
            ru(probable)
        ),
    ));
    probable
}

/// A move message while it is the partner's move: the checks of 51.3, then the move.
fn their_move(game: &GameView<'_>, letter: &Letter<'_>) -> Verdict {
    let msg = letter.msg;
    let n = game.plies.len();
    if let Some(v) = crossed_repeat(game, letter) {
        return v;
    }
    let mut notes = Vec::new();
    let (received, sent) = their_dates(game, letter, &mut notes);
    let fault = |cause: PenaltyCause, what: Said| {
        Verdict::Fault(Fault {
            cause,
            what,
            received,
            sent,
        })
    };
    if msg.record_unread {
        return hold_unread_record(msg);
    }

    // 51.3.3: the record must repeat the moves, our last one above all; moves after it are
    // our accepted variation (51.3.8).
    let accepted = match accepted_in_record(game, msg) {
        Ok(accepted) => accepted,
        Err(why) => return Verdict::Hold(why),
    };
    if n > 0
        && let Some(wrong) = wrong_repetition(game, msg)
    {
        match wrong {
            Repetition::Wrong(what) => return fault(PenaltyCause::WrongRepetition, what),
            Repetition::Unknown(why) => return Verdict::Hold(why),
        }
    }
    note_where_record_differs(game, msg, &mut notes);

    // The new move, read against our position after any accepted variation moves.
    let mut after = play_all(game.plies);
    for &m in &accepted {
        // legal: the record's moves after ours, read in turn from the start; rec[..n] is our game
        after.play_unchecked(m);
    }
    if let Some(why) = numbered_past_our_offer(game, msg, &accepted, &after) {
        return Verdict::Hold(why);
    }
    let new_move = match read_new_move(msg, &after, &accepted) {
        Ok(new_move) => new_move,
        // Numbered as our move, the move line may be our own letter, sent back or pasted:
        // ccmail's doubt, not the partner's fault.
        Err(NotRead::Fault(_, what)) if msg.new_move_side == Some(game.me) => {
            return Verdict::Hold(numbered_as_ours(game.me, &what));
        }
        Err(NotRead::Fault(cause, what)) => return fault(cause, what),
        Err(NotRead::Hold(why)) => return Verdict::Hold(why),
    };
    play(
        game,
        letter,
        accepted,
        new_move,
        after,
        (received, sent),
        notes,
    )
}

/// Why a move line numbered past our open variation that it does not repeat (`20... Qe7`
/// where `19... fxe6 20. e4` was offered and `19...` is due) is held: the partner may think he
/// accepted it, and which move he means is not certain (51.3.8).
fn numbered_past_our_offer(
    game: &GameView<'_>,
    msg: &MoveMessage,
    accepted: &[Move],
    after: &Chess,
) -> Option<Said> {
    let number = msg.new_move_number?;
    let due = after.fullmoves().get();
    if game.our_offer.is_empty() || !accepted.is_empty() || number <= due {
        return None;
    }
    let text = msg.new_move_text.as_deref().unwrap_or_default();
    let dots = if after.turn().is_white() { "." } else { "..." };
    Some(Said::new(
        format!(
            "its move {number}{dots} {text} is numbered as after our variation, but it does not \
             repeat the variation's moves (51.3.8), and move {due} is due: read it, and apply \
             the move with `ccmail inbox accept --move`, or dismiss it"
        ),
        format!(
            "его ход {number}{dots} {text} пронумерован как ход после нашего варианта, но ходов \
             варианта в письме нет (51.3.8), а очередной ход — {due}-й: прочитайте письмо и \
             примените ход командой `ccmail inbox accept --move` или отклоните его"
        ),
    ))
}

/// Why a move line numbered as our move (`11. 7274` when we play White) that does not read as
/// theirs is held: `what`, the fault it would otherwise be.
fn numbered_as_ours(me: Color, what: &Said) -> Said {
    Said::new(
        format!(
            "{}; but its move line is numbered as {}'s move, which is ours: it may be our own \
             letter sent back or pasted. Read it, and apply the move with `ccmail inbox accept \
             --move`, or dismiss it",
            what.en,
            side(me)
        ),
        format!(
            "{}; но ход в нём пронумерован как ход {}, то есть наш: возможно, это наше же письмо, \
             вернувшееся или вставленное в ответ. Прочитайте его и примените ход командой \
             `ccmail inbox accept --move` или отклоните письмо",
            what.ru,
            of_side_ru(me)
        ),
    )
}

/// Holds a message whose move record could not be read through, saying where it failed.
fn hold_unread_record(msg: &MoveMessage) -> Verdict {
    let why = match &msg.record_error {
        Some(e) => {
            // The record stops at the move it could not read: numbered after the moves read.
            let number = move_number(&msg.position_before());
            Said::new(
                format!(
                    "move {number} {} (in the move record): {}",
                    e.text,
                    e.reason()
                ),
                format!(
                    "ход {number} {} в записи ходов: {}",
                    e.text,
                    e.why.russian()
                ),
            )
        }
        None => Said::new(
            "a move in it could not be read",
            "один из ходов в ней не прочитан",
        ),
    };
    hold(
        format!(
            "the move record could not be read through ({}): check it by eye and apply \
             the move with `ccmail inbox accept --move`, or dismiss it",
            why.en
        ),
        format!(
            "запись ходов не удалось прочитать до конца ({}): проверьте её сами и примените \
             ход командой `ccmail inbox accept --move` или отклоните письмо",
            why.ru
        ),
    )
}

/// The moves of our offered variation the record accepts after our last move (51.3.8); a
/// reason to hold it when it has moves after ours that we did not play or offer.
fn accepted_in_record(game: &GameView<'_>, msg: &MoveMessage) -> Result<Vec<Move>, Said> {
    let n = game.plies.len();
    let our_last = game.our_last();
    let rec = &msg.moves;
    let mut accepted: Vec<Move> = Vec::new();
    if rec.len() > n && same(&rec[..n], game.plies) {
        let extra = &rec[n..];
        if extra.len().is_multiple_of(2)
            && game.our_offer.len() >= extra.len()
            && same(&game.our_offer[..extra.len()], extra)
        {
            accepted = extra.to_vec();
        } else {
            return Err(Said::new(
                format!(
                    "the record has moves after our move {our_last} that we did not play or \
                     offer: check it by eye"
                ),
                format!(
                    "в записи есть ходы после нашего хода {our_last}, которых мы не делали и не \
                     предлагали: проверьте её сами"
                ),
            ));
        }
    }
    Ok(accepted)
}

/// Notes the first move before our last one where the partner's record differs from ours
/// (51.3.3).
fn note_where_record_differs(game: &GameView<'_>, msg: &MoveMessage, notes: &mut Vec<Said>) {
    let n = game.plies.len();
    let rec = &msg.moves;
    let k = n.saturating_sub(1).min(rec.len());
    if let Some(i) = (0..k).find(|&i| rec[i] != game.plies[i]) {
        let before = play_all(&game.plies[..i]);
        let at = in_notation(game.notation, &before, game.plies[i]);
        let (at, ours) = at.split_once(' ').unwrap_or_default();
        notes.push(Said::new(
            format!("your record differs from ours at {at}: ours is {ours} (51.3.3)"),
            format!("ваша запись расходится с нашей на ходу {at}: у нас {ours} (51.3.3)"),
        ));
    }
}

/// Why the partner's new move is not taken: a fault of the sender's, or a message to hold.
enum NotRead {
    Fault(PenaltyCause, Said),
    Hold(Said),
}

/// Reads the partner's new move against `after`, our position after the `accepted` moves:
/// `None` for a resignation or a draw accepted without one. A move that can't be read, or
/// none where one is due, is a fault (51.3.4–5, 51.3.9) or held.
fn read_new_move(
    msg: &MoveMessage,
    after: &Chess,
    accepted: &[Move],
) -> Result<Option<Move>, NotRead> {
    match &msg.new_move_text {
        Some(text) => match notation::read_move(after, text) {
            Ok(m) => Ok(Some(m)),
            Err(e) => {
                let number = move_number(after);
                let (cause, ru_word) = match e.kind {
                    MoveErrorKind::Illegible => (PenaltyCause::Illegible, "неразборчив"),
                    MoveErrorKind::Ambiguous => (PenaltyCause::Ambiguous, "неоднозначен"),
                    MoveErrorKind::Impossible => (PenaltyCause::Impossible, "невозможен"),
                };
                let what = Said::new(
                    format!("the move {number} {text}: {}", e.reason()),
                    format!(
                        "ход {number} {text} {ru_word} (51.3.4): {}",
                        e.why.russian()
                    ),
                );
                Err(NotRead::Fault(cause, what))
            }
        },
        None if msg.resign || (msg.draw_accept && accepted.is_empty()) => Ok(None),
        None if msg.move_line_empty => {
            let (en, ru) = if accepted.is_empty() {
                (
                    "the message has no move of its own (51.3.5)",
                    "сообщение отправлено без ответного хода (51.3.5)",
                )
            } else {
                (
                    "the accepted variation has no reply move (51.3.9)",
                    "принятый вариант без ответного хода (51.3.9)",
                )
            };
            Err(NotRead::Fault(PenaltyCause::NoMove, Said::new(en, ru)))
        }
        None => Err(NotRead::Hold(Said::new(
            "no move of the sender's could be found in it: read it, and apply the move with \
             `ccmail inbox accept --move`, or dismiss it",
            "хода отправителя в нём не нашлось: прочитайте письмо и примените ход командой \
             `ccmail inbox accept --move` или отклоните письмо",
        ))),
    }
}

/// The partner's move found good: what it makes of the game.
fn play(
    game: &GameView<'_>,
    letter: &Letter<'_>,
    accepted: Vec<Move>,
    new_move: Option<Move>,
    mut after: Chess,
    (received, sent): (NaiveDate, NaiveDate),
    notes: Vec<Said>,
) -> Verdict {
    let msg = letter.msg;
    let mut summary = Vec::new();
    let offer_followed = if !game.our_offer.is_empty() {
        let a = accepted.len();
        let next = game.our_offer.get(a).copied();
        if a > 0 && new_move.is_some() && new_move == next {
            a + 1
        } else if a == 0 && new_move.is_some() && new_move == next {
            1
        } else {
            a
        }
    } else {
        0
    };
    let opponent = game.opponent_color();
    if let Some(m) = new_move {
        let written = numbered(&after, m);
        summary.push(Said::new(
            format!("applied {written} by {}", side(opponent)),
            format!("применён ход {} {written}", of_side_ru(opponent)),
        ));
        // legal: from notation::read_move in this position (above)
        after.play_unchecked(m);
    }
    if !accepted.is_empty() {
        summary.push(Said::new(
            format!("{} moves of our variation accepted", accepted.len()),
            format!("принято ходов нашего варианта: {}", accepted.len()),
        ));
    }
    let draw_by_me = game.draw_offered_by == Some(game.me);
    let draw = if msg.draw_offer {
        summary.push(Said::new("offers a draw", "предлагает ничью"));
        Draw::Offered
    } else if draw_by_me && !msg.draw_accept {
        Draw::Lapsed
    } else {
        Draw::Unchanged
    };
    if let Some(b) = msg.break_notice {
        summary.push(break_said(opponent, b));
    }
    let result = if msg.resign {
        summary.push(resigns(opponent));
        Some((win_for(game.me), Ending::Resignation))
    } else if msg.draw_accept && draw_by_me {
        summary.push(draw_agreed());
        Some(("1/2-1/2", Ending::Agreement))
    } else if after.is_checkmate() {
        summary.push(Said::new("checkmate", "мат"));
        Some((win_for(opponent), Ending::Checkmate))
    } else if after.is_stalemate() || after.is_insufficient_material() {
        summary.push(Said::new("drawn position", "ничейная позиция"));
        Some(("1/2-1/2", Ending::DrawnPosition))
    } else {
        None
    };
    if let Some((r, _)) = result {
        summary.push(result_said(r));
    }
    let mut moves = accepted;
    let count = moves.len();
    moves.extend(new_move);
    Verdict::Play(Play {
        moves,
        accepted: count,
        offer_followed,
        received,
        sent,
        variation: if new_move.is_some() {
            msg.variation.clone()
        } else {
            Vec::new()
        },
        draw,
        result,
        break_notice: msg.break_notice,
        notes,
        cc_answer: msg.kind == MessageKind::Repeat,
        summary,
        stated_totals: msg.total_days,
    })
}

enum Repetition {
    /// Read, and wrong: certain (51.3.3).
    Wrong(Said),
    /// Not read: doubt.
    Unknown(Said),
}

/// 51.3.3: whether the message repeats our last move right — in its record, or on its "your
/// move … sent" line when the record stops short. `None` when it does.
fn wrong_repetition(game: &GameView<'_>, msg: &MoveMessage) -> Option<Repetition> {
    let n = game.plies.len();
    let ours = game.plies[n - 1];
    let before = play_all(&game.plies[..n - 1]);
    let ours_san = numbered(&before, ours);
    let ours_written = game.our_last();
    let rec = &msg.moves;
    if rec.len() >= n {
        if same(&rec[..n], game.plies) {
            return None;
        }
        if !same(&rec[..n - 1], &game.plies[..n - 1]) {
            // The record departs from ours before our last move: noted, not faulted, when our
            // last move itself is right on the partner-move line.
            return partner_line(msg, &before, ours, &ours_san, &ours_written);
        }
        let wrong = rec[n - 1];
        return Some(Repetition::Wrong(Said::new(
            format!(
                "our move {ours_san} was repeated as {} (51.3.3)",
                numbered(&before, wrong)
            ),
            format!(
                "наш ход {ours_written} повторён неправильно: {} (51.3.3)",
                in_notation(game.notation, &before, wrong)
            ),
        )));
    }
    partner_line(msg, &before, ours, &ours_san, &ours_written)
}

/// Our last move on the "your move … sent" line: right, read as another move (certain), or
/// not there or not readable (doubt).
fn partner_line(
    msg: &MoveMessage,
    before: &Chess,
    ours: Move,
    ours_san: &str,
    ours_written: &str,
) -> Option<Repetition> {
    let Some(text) = msg.partner_move_text.as_deref() else {
        return Some(Repetition::Unknown(Said::new(
            format!(
                "the message does not show our move {ours_san} where it could be read: check \
                 its record by eye"
            ),
            format!(
                "сообщение не приводит наш ход {ours_san} там, где его можно прочитать: \
                 проверьте запись сами"
            ),
        )));
    };
    match notation::read_move(before, text) {
        Ok(m) if m == ours => None,
        Ok(_) => Some(Repetition::Wrong(Said::new(
            format!("our move {ours_san} was repeated as {text} (51.3.3)"),
            format!("наш ход {ours_written} повторён неправильно: {text} (51.3.3)"),
        ))),
        Err(_) => Some(Repetition::Unknown(Said::new(
            format!(
                "our move {ours_san} is given as \"{text}\", which could not be read: check it \
                 by eye"
            ),
            format!(
                "наш ход {ours_san} приведён как «{text}», и прочитать это не удалось: \
                 проверьте сами"
            ),
        ))),
    }
}

/// The partner repeats the move we answered already (51.5.1): their repeat crossed our answer
/// in the post, which changes nothing, or came after our answer should have arrived, which
/// means our answer was lost and is sent again (51.5.2).
fn crossed_repeat(game: &GameView<'_>, letter: &Letter<'_>) -> Option<Verdict> {
    let msg = letter.msg;
    let n = game.plies.len();
    if n < 2 || msg.moves.len() != n - 2 || !same(&msg.moves, &game.plies[..n - 2]) {
        return None;
    }
    if !reads_as(msg, &game.plies[..n - 2], game.plies[n - 2]) {
        return None;
    }
    let ours = game.our_last();
    let our_sent = *game.sent.last()?;
    // 51.2.5: e-mail takes one day.
    let due = our_sent.checked_add_days(Days::new(1))?;
    let mut actions: Vec<Action> = msg.break_notice.map(Action::Break).into_iter().collect();
    if letter.sent() <= due {
        return Some(record(
            actions,
            format!(
                "their repeat of move {} crossed our answer {ours} in the post",
                n - 1
            ),
            format!(
                "повтор хода партнёра {} разминулся в почте с нашим ответом {ours}",
                n - 1
            ),
        ));
    }
    actions.push(Action::ResendOurLast);
    Some(record(
        actions,
        format!(
            "their repeat of move {} came after our answer {ours} of {our_sent} should have \
             arrived: it was lost, and is sent again (51.5.2)",
            n - 1
        ),
        format!(
            "повтор хода партнёра {} пришёл позже, чем должен был дойти наш ответ {ours} от {}: \
             ответ потерян и отправляется повторно (51.5.2)",
            n - 1,
            ru(our_sent)
        ),
    ))
}

/// The codes of the move faults a message may carry.
pub fn is_move_fault(code: ProblemCode) -> bool {
    matches!(
        code,
        ProblemCode::IllegibleMove
            | ProblemCode::AmbiguousMove
            | ProblemCode::ImpossibleMove
            | ProblemCode::NoMove
    )
}

#[cfg(test)]
#[path = "judge/tests.rs"]
mod tests;
