//! Small pieces of text a player reads and types: a number of days as the game's language
//! says it ("1 день", "3 дня", "5 дней"), a date as it writes it, and a date as a player
//! types it on the command line (`2026-12-01` or `01.12.2026`).

use chrono::NaiveDate;

use crate::message::Language;

/// `n` days in `lang`, the noun declined as Russian declines it after a number: 1, 21, 101
/// день; 2–4, 22–24 дня; 0, 5–20, 25–30 дней (11–14 always дней). Negative numbers as their
/// size.
pub fn days(n: i64, lang: Language) -> String {
    let word = match lang {
        Language::En if n.unsigned_abs() == 1 => "day",
        Language::En => "days",
        Language::Ru => match (n.unsigned_abs() % 10, n.unsigned_abs() % 100) {
            (_, 11..=14) => "дней",
            (1, _) => "день",
            (2..=4, _) => "дня",
            _ => "дней",
        },
    };
    format!("{n} {word}")
}

/// A date as a letter in `lang` writes it: `08.03.2026` (ru) or `2026-03-08` (en).
pub fn date(d: NaiveDate, lang: Language) -> String {
    crate::message::write_date(d, lang == Language::Ru)
}

/// A date the player typed that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a date (YYYY-MM-DD or DD.MM.YYYY)")]
pub struct DateError(pub String);

/// A date as a player types it: `YYYY-MM-DD` (ISO 8601) or `DD.MM.YYYY` (as Russian players
/// write it, and as Russian letters carry it); one-digit days and months are accepted in the
/// second form (`1.3.2026`).
pub fn parse_date(text: &str) -> Result<NaiveDate, DateError> {
    let t = text.trim();
    let error = || DateError(text.to_owned());
    if let Ok(d) = t.parse::<NaiveDate>() {
        return Ok(d);
    }
    let mut parts = t.split('.');
    let (Some(day), Some(month), Some(year), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(error());
    };
    let number = |s: &str, len: std::ops::RangeInclusive<usize>| {
        (len.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<u32>().ok())
            .flatten()
    };
    let (Some(day), Some(month), Some(year)) = (
        number(day, 1..=2),
        number(month, 1..=2),
        number(year, 4..=4),
    ) else {
        return Err(error());
    };
    NaiveDate::from_ymd_opt(year as i32, month, day).ok_or_else(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_declined_as_russian_declines_them() {
        let rows = [
            (0, "0 дней", "0 days"),
            (1, "1 день", "1 day"),
            (2, "2 дня", "2 days"),
            (4, "4 дня", "4 days"),
            (5, "5 дней", "5 days"),
            (11, "11 дней", "11 days"),
            (12, "12 дней", "12 days"),
            (14, "14 дней", "14 days"),
            (20, "20 дней", "20 days"),
            (21, "21 день", "21 days"),
            (22, "22 дня", "22 days"),
            (25, "25 дней", "25 days"),
            (60, "60 дней", "60 days"),
            (101, "101 день", "101 days"),
            (111, "111 дней", "111 days"),
            (112, "112 дней", "112 days"),
            (123, "123 дня", "123 days"),
            (-1, "-1 день", "-1 day"),
            (-3, "-3 дня", "-3 days"),
        ];
        for (n, ru, en) in rows {
            assert_eq!(days(n, Language::Ru), ru, "{n}");
            assert_eq!(days(n, Language::En), en, "{n}");
        }
    }

    #[test]
    fn dates_are_read_in_both_forms_and_written_back() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).unwrap();
        let good = [
            ("2026-12-01", d(2026, 12, 1)),
            ("01.12.2026", d(2026, 12, 1)),
            ("1.12.2026", d(2026, 12, 1)),
            (" 29.02.2028 ", d(2028, 2, 29)),
            ("2026-3-8", d(2026, 3, 8)),
        ];
        for (text, want) in good {
            assert_eq!(parse_date(text), Ok(want), "{text}");
        }
        let bad = [
            "",
            "01.12.26",
            "31.02.2026",
            "1.12.2026.",
            "01/12/2026",
            "12.2026",
            "+1.12.2026",
            "001.12.2026",
            "2026-02-30",
            "завтра",
        ];
        for text in bad {
            assert_eq!(parse_date(text), Err(DateError(text.into())), "{text}");
        }
        // Each form written reads back as the same day.
        for day in [d(2026, 1, 9), d(2026, 12, 31), d(2028, 2, 29)] {
            for lang in [Language::Ru, Language::En] {
                assert_eq!(parse_date(&date(day, lang)), Ok(day), "{day} {lang}");
            }
        }
        assert_eq!(date(d(2026, 3, 8), Language::Ru), "08.03.2026");
        assert_eq!(date(d(2026, 3, 8), Language::En), "2026-03-08");
    }
}
