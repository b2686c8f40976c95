//! The core crate's errors in the interface's words.
//!
//! Each type's English is its `Display`, byte for byte; what comes from outside the core (the
//! PGN reader's words) passes through as it is. A move's reason is the core's own, in both
//! languages ([`MoveError::reason_in`]).

use std::error::Error;

use ccmail_core::clock::{
    BreakError, ClockError, ControlParseError, ProfileParseError, UnknownCause,
};
use ccmail_core::conditional::{AcceptError, PlanError};
use ccmail_core::import::ImportError;
use ccmail_core::message::ParseLanguageError;
use ccmail_core::notation::{MoveError, ParseNotationError};
use ccmail_core::pgn::{EndReasonError, WriteError};
use ccmail_core::setup::SetupError;
use ccmail_core::wording::DateError;

use crate::i18n::{Arg, Catalogue};

/// `cause` in the interface's words, if it is one of the core crate's errors.
pub(super) fn in_words(cause: &(dyn Error + 'static)) -> Option<String> {
    words(cause, crate::i18n::current())
}

/// `cause` in `c`'s words, if it is one of the core crate's errors.
fn words(cause: &(dyn Error + 'static), c: &Catalogue) -> Option<String> {
    macro_rules! each {
        ($($t:ty => $f:ident),+ $(,)?) => {
            $(if let Some(e) = cause.downcast_ref::<$t>() {
                return Some($f(e, c));
            })+
        };
    }
    each!(
        DateError => date,
        BreakError => break_error,
        ClockError => clock,
        AcceptError => accept,
        PlanError => plan,
        WriteError => write,
        MoveError => move_error,
        SetupError => setup,
        ImportError => import,
        EndReasonError => end_reason,
        ParseNotationError => notation,
        ProfileParseError => profile,
        ControlParseError => control,
        UnknownCause => penalty_cause,
        ParseLanguageError => language,
    );
    None
}

/// A text the player gave, quoted as the core's `{:?}` quotes it.
fn quoted(text: &str) -> Arg {
    Arg::Text(format!("{text:?}"))
}

/// A value that is written as it is, never declined (a year, a span, an address).
fn plain(value: impl ToString) -> Arg {
    Arg::Text(value.to_string())
}

fn date(e: &DateError, c: &Catalogue) -> String {
    c.text("err-core-date", &[("text", quoted(&e.0))])
}

fn break_error(e: &BreakError, c: &Catalogue) -> String {
    match e {
        BreakError::Reversed { from, to } => c.text(
            "err-core-break-reversed",
            &[("from", (*from).into()), ("to", (*to).into())],
        ),
        BreakError::Overlaps { existing } => {
            c.text("err-core-break-overlaps", &[("existing", plain(existing))])
        }
        BreakError::OverAllowance {
            year,
            used,
            asked,
            allowed,
        } => c.text(
            "err-core-break-over-allowance",
            &[
                ("year", plain(year)),
                ("used", (*used).into()),
                ("asked", (*asked).into()),
                ("allowed", (*allowed).into()),
            ],
        ),
        BreakError::SecondBreakInYear { year, existing } => c.text(
            "err-core-break-second-in-year",
            &[("year", plain(year)), ("existing", plain(existing))],
        ),
        BreakError::TooLong { days, allowed } => c.text(
            "err-core-break-too-long",
            &[("days", (*days).into()), ("allowed", (*allowed).into())],
        ),
        BreakError::NotEarly { span, back_on } => c.text(
            "err-core-break-not-early",
            &[("span", plain(span)), ("back_on", (*back_on).into())],
        ),
    }
}

fn clock(e: &ClockError, c: &Catalogue) -> String {
    match e {
        ClockError::SentBeforeReceived {
            ply,
            received,
            sent,
        } => c.text(
            "err-core-clock-sent-before-received",
            &[
                ("ply", (*ply).into()),
                ("sent", (*sent).into()),
                ("received", (*received).into()),
            ],
        ),
        ClockError::BadVariation {
            proposed_with,
            accepted_through,
        } => c.text(
            "err-core-clock-bad-variation",
            &[
                ("proposed_with", (*proposed_with).into()),
                ("accepted_through", (*accepted_through).into()),
            ],
        ),
        ClockError::NoSuchPly { ply, last } => c.text(
            "err-core-clock-no-such-ply",
            &[("ply", (*ply).into()), ("last", (*last).into())],
        ),
        ClockError::ReversedPeriod { from, to } => c.text(
            "err-core-clock-reversed-period",
            &[("from", (*from).into()), ("to", (*to).into())],
        ),
    }
}

fn accept(e: &AcceptError, c: &Catalogue) -> String {
    match e {
        AcceptError::NoReply => c.text("err-core-accept-no-reply", &[]),
        AcceptError::OutOfRange { asked, len } => c.text(
            "err-core-accept-out-of-range",
            &[("asked", (*asked).into()), ("len", (*len).into())],
        ),
        AcceptError::ExtraReply { asked } => {
            c.text("err-core-accept-extra-reply", &[("asked", (*asked).into())])
        }
        AcceptError::Empty => c.text("err-core-accept-empty", &[]),
    }
}

fn plan(e: &PlanError, c: &Catalogue) -> String {
    match e {
        PlanError::TooShort => c.text("err-core-plan-too-short", &[]),
        PlanError::NoReply => c.text("err-core-plan-no-reply", &[]),
    }
}

fn write(e: &WriteError, c: &Catalogue) -> String {
    match e {
        WriteError::IllegalMove { ply } => {
            c.text("err-core-pgn-illegal-move", &[("ply", (*ply).into())])
        }
        WriteError::IllegalVariation { ply } => {
            c.text("err-core-pgn-illegal-variation", &[("ply", (*ply).into())])
        }
        WriteError::VariationTooFar { ply, len } => c.text(
            "err-core-pgn-variation-too-far",
            &[("ply", (*ply).into()), ("len", (*len).into())],
        ),
    }
}

fn move_error(e: &MoveError, c: &Catalogue) -> String {
    c.text(
        "err-core-move",
        &[
            ("text", plain(&e.text)),
            ("reason", plain(e.reason_in(c.lang().language()))),
        ],
    )
}

fn setup(e: &SetupError, c: &Catalogue) -> String {
    match e {
        SetupError::NoEvent => c.text("err-core-setup-no-event", &[]),
        SetupError::NoWhite => c.text("err-core-setup-no-white", &[]),
        SetupError::NoBlack => c.text("err-core-setup-no-black", &[]),
        SetupError::OpponentIsMe(email) => {
            c.text("err-core-setup-opponent-is-me", &[("email", plain(email))])
        }
        SetupError::ArbiterIsMe(email) => {
            c.text("err-core-setup-arbiter-is-me", &[("email", plain(email))])
        }
        SetupError::ArbiterIsOpponent(email) => c.text(
            "err-core-setup-arbiter-is-opponent",
            &[("email", plain(email))],
        ),
    }
}

fn import(e: &ImportError, c: &Catalogue) -> String {
    match e {
        ImportError::Unreadable { after, error } => c.text(
            "err-core-import-unreadable",
            &[("after", (*after).into()), ("error", plain(error))],
        ),
        ImportError::Unplayable {
            game,
            white,
            black,
            text,
            error,
        } => c.text(
            "err-core-import-unplayable",
            &[
                ("game", (*game).into()),
                ("white", plain(white)),
                ("black", plain(black)),
                ("text", plain(text)),
                ("error", plain(move_error(error, c))),
            ],
        ),
        ImportError::NoMove => c.text("err-core-import-no-move", &[]),
    }
}

fn end_reason(e: &EndReasonError, c: &Catalogue) -> String {
    c.text("err-core-end-reason", &[("name", quoted(&e.0))])
}

fn notation(e: &ParseNotationError, c: &Catalogue) -> String {
    c.text("err-core-notation", &[("name", quoted(&e.0))])
}

fn profile(e: &ProfileParseError, c: &Catalogue) -> String {
    c.text("err-core-profile", &[("name", quoted(&e.0))])
}

fn control(e: &ControlParseError, c: &Catalogue) -> String {
    c.text("err-core-control", &[("text", quoted(&e.0))])
}

fn penalty_cause(e: &UnknownCause, c: &Catalogue) -> String {
    c.text("err-core-penalty-cause", &[("name", quoted(&e.0))])
}

fn language(e: &ParseLanguageError, c: &Catalogue) -> String {
    c.text("err-core-language", &[("name", quoted(&e.0))])
}

#[cfg(test)]
mod tests {
    use ccmail_core::clock::DateSpan;
    use chrono::NaiveDate;
    use shakmaty::Chess;

    use super::*;
    use crate::i18n::Lang;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    /// Every error here, one of each variant, with values of both plural forms.
    fn samples() -> Vec<Box<dyn Error + 'static>> {
        let span = DateSpan::new(d(2026, 7, 1), d(2026, 7, 10)).unwrap();
        let bad_move = ccmail_core::notation::read_move(&Chess::default(), "e5").unwrap_err();
        vec![
            Box::new(DateError("31.02.2026".into())),
            Box::new(BreakError::Reversed {
                from: d(2026, 7, 10),
                to: d(2026, 7, 1),
            }),
            Box::new(BreakError::Overlaps { existing: span }),
            Box::new(BreakError::OverAllowance {
                year: 2026,
                used: 21,
                asked: 12,
                allowed: 30,
            }),
            Box::new(BreakError::SecondBreakInYear {
                year: 2026,
                existing: span,
            }),
            Box::new(BreakError::TooLong {
                days: 31,
                allowed: 30,
            }),
            Box::new(BreakError::NotEarly {
                span,
                back_on: d(2026, 7, 11),
            }),
            Box::new(ClockError::SentBeforeReceived {
                ply: 3,
                received: d(2026, 3, 5),
                sent: d(2026, 3, 4),
            }),
            Box::new(ClockError::BadVariation {
                proposed_with: 4,
                accepted_through: 2,
            }),
            Box::new(ClockError::NoSuchPly { ply: 5, last: 4 }),
            Box::new(ClockError::ReversedPeriod {
                from: d(2026, 3, 5),
                to: d(2026, 3, 4),
            }),
            Box::new(AcceptError::NoReply),
            Box::new(AcceptError::OutOfRange { asked: 5, len: 1 }),
            Box::new(AcceptError::ExtraReply { asked: 1 }),
            Box::new(AcceptError::ExtraReply { asked: 3 }),
            Box::new(AcceptError::Empty),
            Box::new(PlanError::TooShort),
            Box::new(PlanError::NoReply),
            Box::new(WriteError::IllegalMove { ply: 7 }),
            Box::new(WriteError::IllegalVariation { ply: 7 }),
            Box::new(WriteError::VariationTooFar { ply: 9, len: 2 }),
            Box::new(bad_move.clone()),
            Box::new(SetupError::NoEvent),
            Box::new(SetupError::NoWhite),
            Box::new(SetupError::NoBlack),
            Box::new(SetupError::OpponentIsMe("me@example.org".into())),
            Box::new(SetupError::ArbiterIsMe("me@example.org".into())),
            Box::new(SetupError::ArbiterIsOpponent("p@example.org".into())),
            Box::new(ImportError::Unreadable {
                after: 2,
                error: "unexpected end of file".into(),
            }),
            Box::new(ImportError::Unplayable {
                game: 1,
                white: "Иванов".into(),
                black: "?".into(),
                text: "e5".into(),
                error: Box::new(bad_move),
            }),
            Box::new(ImportError::NoMove),
            Box::new(EndReasonError("resigned".into())),
            Box::new(ParseNotationError("fen".into())),
            Box::new(ProfileParseError("fide".into())),
            Box::new(ControlParseError("10/0".into())),
            Box::new(UnknownCause("late".into())),
            Box::new("de".parse::<ccmail_core::message::Language>().unwrap_err()),
        ]
    }

    #[test]
    fn the_english_is_each_errors_own() {
        let en = Catalogue::new(Lang::En);
        for e in samples() {
            assert_eq!(words(e.as_ref(), &en), Some(e.to_string()));
        }
    }

    #[test]
    fn every_error_has_russian_words() {
        let ru = Catalogue::new(Lang::Ru);
        for e in samples() {
            let text = words(e.as_ref(), &ru).unwrap();
            assert!(!text.contains("err-core-"), "{text}");
            assert_ne!(text, e.to_string());
            assert!(text.chars().any(|ch| ('а'..='я').contains(&ch)), "{text}");
        }
    }

    #[test]
    fn russian_words_decline_counts_and_write_dates_as_russians_do() {
        let ru = Catalogue::new(Lang::Ru);
        let say = |e: &(dyn Error + 'static)| words(e, &ru).unwrap();
        assert_eq!(
            say(&BreakError::Reversed {
                from: d(2026, 7, 10),
                to: d(2026, 7, 1)
            }),
            "перерыв не может закончиться (01.07.2026) раньше, чем начаться (10.07.2026)"
        );
        assert_eq!(
            say(&BreakError::OverAllowance {
                year: 2026,
                used: 21,
                asked: 12,
                allowed: 30
            }),
            "2026: уже взят 21 день перерыва, просят ещё 12 дней, а в год можно \
             не больше 30 дней (51.7.1)"
        );
        assert_eq!(
            say(&WriteError::VariationTooFar { ply: 9, len: 2 }),
            "вариант начинается с хода 9, а в партии всего 2 хода"
        );
        assert_eq!(
            say(&SetupError::OpponentIsMe("me@example.org".into())),
            "адрес соперника me@example.org — ваш собственный ([player] email); \
             укажите --opponent EMAIL"
        );
        assert_eq!(
            say(&DateError("завтра".into())),
            "\"завтра\" — не дата (нужно ГГГГ-ММ-ДД или ДД.ММ.ГГГГ)"
        );
        let bad_move = ccmail_core::notation::read_move(&Chess::default(), "e5").unwrap_err();
        let reason = bad_move.reason_in(ccmail_core::message::Language::Ru);
        assert_eq!(say(&bad_move), format!("e5: {reason}"));
    }

    #[test]
    fn what_is_not_the_cores_is_left_alone() {
        let io = std::io::Error::other("disk full");
        assert_eq!(words(&io, &Catalogue::new(Lang::Ru)), None);
    }
}
