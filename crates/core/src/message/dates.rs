//! Dates as people write them in move messages (message-form.md, "dates").
//!
//! `DD.MM.YYYY`, `DD.MM.YY`, `DD.MM` (the year from context), `YYYY-MM-DD`, `YYYY.MM.DD`,
//! `DD/MM/YYYY`, and month names in Russian and English (`5 марта 2026`, `March 5, 2026`,
//! `5 March 2026`). A date that is written as one but does not exist (`31.02.2026`) is
//! reported as bad, not guessed at.

use chrono::{Datelike, NaiveDate};

/// A date found in a line: where it stood and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Byte offset of its first character in the line.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
    /// The date, or the text when it is not a real date.
    pub date: Result<NaiveDate, String>,
    /// The day and the month, when the date was written without a year (its year in `date`
    /// is the context's guess for a date just before the message, see [`find_dates`]).
    pub yearless: Option<(u32, u32)>,
}

const RU_MONTHS: [&str; 12] = [
    "янв", "фев", "мар", "апр", "ма", "июн", "июл", "авг", "сен", "окт", "ноя", "дек",
];
const EN_MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Every date in `line`, left to right. `context` is a date near the message's own (the
/// `Date:` header): a date written without a year takes the year that puts it closest
/// before or at that date (a message of 05.01.2027 saying "received 30.12" means 2026).
pub(crate) fn find_dates(line: &str, context: Option<NaiveDate>) -> Dates<'_> {
    Dates {
        line,
        context,
        at: 0,
    }
}

/// [`find_dates`]: found one at a time, as the caller asks (most lines hold one date, and the
/// start line's first is all that is wanted).
pub(crate) struct Dates<'a> {
    line: &'a str,
    context: Option<NaiveDate>,
    at: usize,
}

impl Iterator for Dates<'_> {
    type Item = Found;

    /// A date starts only at an ASCII letter or digit that no ASCII letter or digit comes
    /// just before: the bytes are passed over a run at a time, other bytes (non-ASCII ones
    /// among them) and the rest of each run of letters and digits.
    fn next(&mut self) -> Option<Found> {
        let (line, context) = (self.line, self.context);
        let bytes = line.as_bytes();
        let mut i = self.at;
        // Whether the byte before `i` is an ASCII letter or digit.
        let mut after_alnum = i > 0 && bytes[i - 1].is_ascii_alphanumeric();
        while let Some(&b) = bytes.get(i) {
            if !b.is_ascii_alphanumeric() {
                // The run of other bytes, passed over by a look at a table for each.
                let run = bytes[i..].iter().position(|&b| ALNUM[usize::from(b)]);
                after_alnum = false;
                match run {
                    Some(run) => i += run,
                    None => break,
                }
                continue;
            }
            if !after_alnum {
                let hit = if b.is_ascii_digit() {
                    numeric_date(line, i, context).or_else(|| day_month_name(line, i, context))
                } else if matches!(
                    b | 0x20,
                    b'j' | b'f' | b'm' | b'a' | b's' | b'o' | b'n' | b'd'
                ) {
                    // (Every English month starts with one of these letters.)
                    month_name_day(line, i, context)
                } else {
                    None
                };
                if let Some(found) = hit {
                    self.at = found.end;
                    return Some(found);
                }
            }
            // The rest of the run is not at a boundary.
            after_alnum = true;
            i += 1;
        }
        self.at = bytes.len();
        None
    }
}

/// Whether each byte is an ASCII letter or digit.
static ALNUM: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric();
        b += 1;
    }
    table
};

/// Reads a run of ASCII digits at `i`: its value and length.
fn digits(line: &str, i: usize) -> Option<(u32, usize)> {
    let (mut value, mut run) = (0, 0);
    // The value is made as the digits are counted: four digits can't overflow, and a fifth
    // refuses the run.
    for &b in line.as_bytes().get(i..)? {
        if !b.is_ascii_digit() {
            break;
        }
        if run == 4 {
            return None;
        }
        value = value * 10 + u32::from(b - b'0');
        run += 1;
    }
    (run > 0).then_some((value, run))
}

fn numeric_date(line: &str, i: usize, context: Option<NaiveDate>) -> Option<Found> {
    let b = line.as_bytes();
    let (first, n1) = digits(line, i)?;
    let sep = *b.get(i + n1)?;
    if !matches!(sep, b'.' | b'-' | b'/') {
        return None;
    }
    let j = i + n1 + 1;
    let (second, n2) = digits(line, j).filter(|&(_, n)| n <= 2)?;
    let k = j + n2;
    let next = b.get(k).copied();
    // Year first: YYYY-MM-DD, YYYY.MM.DD, YYYY/MM/DD.
    if n1 == 4 {
        if next != Some(sep) {
            return None;
        }
        let (day, n3) = digits(line, k + 1).filter(|&(_, n)| n <= 2)?;
        let end = k + 1 + n3;
        if followed_by_digit(b, end) {
            return None;
        }
        return Some(found(line, i, end, first as i32, second, day));
    }
    if n1 > 2 {
        return None;
    }
    // Day first, with a year: DD.MM.YYYY, DD.MM.YY, DD/MM/YYYY.
    let year = digits(line, k + 1).filter(|&(_, n)| n == 2 || n == 4);
    if let (true, Some((year, n3))) = (next == Some(sep), year) {
        let end = k + 1 + n3;
        if !followed_by_digit(b, end) {
            let year = if n3 == 2 {
                2000 + year as i32
            } else {
                year as i32
            };
            return Some(found(line, i, end, year, second, first));
        }
    }
    // Day first, no year: DD.MM — only with a dot, and not the start of something longer.
    if sep != b'.' || n2 != 2 || matches!(next, Some(c) if c.is_ascii_alphanumeric() || c == b'-') {
        return None;
    }
    if next == Some(b'.') && b.get(k + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let date = yearless(first, second, context);
    Some(Found {
        start: i,
        end: k,
        date: date.ok_or_else(|| line[i..k].to_owned()),
        yearless: Some((first, second)),
    })
}

fn followed_by_digit(b: &[u8], end: usize) -> bool {
    b.get(end).is_some_and(u8::is_ascii_digit)
}

fn found(line: &str, start: usize, end: usize, year: i32, month: u32, day: u32) -> Found {
    Found {
        start,
        end,
        date: NaiveDate::from_ymd_opt(year, month, day).ok_or_else(|| line[start..end].to_owned()),
        yearless: None,
    }
}

/// A day and month with the year from context: the latest such date not after the context
/// date plus a week (dates in a message are of the days just before it was written).
fn yearless(day: u32, month: u32, context: Option<NaiveDate>) -> Option<NaiveDate> {
    let context = context?;
    let limit = context + chrono::Days::new(7);
    [context.year() + 1, context.year(), context.year() - 1]
        .into_iter()
        .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
        .find(|d| *d <= limit)
}

/// A break's first and last day as a line gives them: two dates (`с 10.08 по 24.08`), or a
/// range of days in one month (`с 1 по 15 сентября 2026`, `3–17 августа`, `from 14 to 28
/// July`, `August 3-17, 2026`). Each as [`find_dates`] finds dates; `None` when the line
/// gives neither.
pub(crate) fn break_dates(line: &str, context: Option<NaiveDate>) -> Option<(Found, Found)> {
    let mut dates = find_dates(line, context);
    match (dates.next(), dates.next()) {
        (Some(from), Some(to)) => Some((from, to)),
        (Some(to), None) => first_day_before(line, to),
        (None, _) => month_day_range(line),
    }
}

/// `1 по 15 сентября`, `3–17 августа`, `14 to 28 July`: the first day of a range written
/// before its last, a date, in the same month and year.
fn first_day_before(line: &str, to: Found) -> Option<(Found, Found)> {
    let before = line[..to.start].trim_end();
    let before = ["по", "до", "to", "until", "till", "through", "-", "–", "—"]
        .iter()
        .find_map(|w| before.strip_suffix(w))?
        .trim_end();
    let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if !(1..=2).contains(&digits) {
        return None;
    }
    let start = before.len() - digits;
    if before[..start].ends_with(|c: char| c.is_alphanumeric() || c == '.') {
        return None;
    }
    let day: u32 = before[start..].parse().ok()?;
    let from = Found {
        start,
        end: before.len(),
        date: to
            .date
            .clone()
            .ok()
            .and_then(|d| d.with_day(day))
            .ok_or_else(|| line[start..to.end].to_owned()),
        yearless: to.yearless.map(|(_, month)| (day, month)),
    };
    Some((from, to))
}

/// `August 3-17, 2026`, `Aug 3–17 2026`: an English month, two days and the year.
fn month_day_range(line: &str) -> Option<(Found, Found)> {
    line.char_indices()
        .filter(|&(i, c)| c.is_ascii_alphabetic() && !line[..i].ends_with(char::is_alphanumeric))
        .find_map(|(i, _)| {
            let (word, after) = word_at(line, i);
            let month = english_month(word)?;
            let d1 = skip_spaces(line, after);
            let (first, n1) = digits(line, d1).filter(|&(_, n)| n <= 2)?;
            let dash = line[d1 + n1..]
                .chars()
                .next()
                .filter(|c| matches!(c, '-' | '–' | '—'))?;
            let d2 = d1 + n1 + dash.len_utf8();
            let (last, n2) = digits(line, d2).filter(|&(_, n)| n <= 2)?;
            let mut y = d2 + n2;
            if line[y..].starts_with(',') {
                y += 1;
            }
            let y = skip_spaces(line, y);
            let (year, n3) = digits(line, y).filter(|&(_, n)| n == 4)?;
            Some((
                found(line, i, d1 + n1, year as i32, month, first),
                found(line, d2, y + n3, year as i32, month, last),
            ))
        })
}

/// The days of a break, from the two dates found in its line and the letter's date: `None`
/// when they are not two real dates in order.
///
/// A break is announced ahead of it (51.7.2), so a date written without a year is not read as
/// a move's dates are (the latest such day before the letter): the start takes the end's year
/// when the end has one (`с 3 августа по 16 августа 2026`), the end the start's, and a start
/// without either the first such day from a month before the letter on (`с 20.12 по 05.01`
/// written on 10.12.2026 is 20.12.2026 to 05.01.2027); an end without a year is the first such
/// day from the start on.
pub(crate) fn break_span(
    from: &Found,
    to: &Found,
    letter: Option<NaiveDate>,
) -> Option<(NaiveDate, NaiveDate)> {
    // The first day `(day, month)` on or after `earliest`, in its year or the next.
    let on_or_after = |(day, month): (u32, u32), earliest: NaiveDate| {
        [earliest.year(), earliest.year() + 1]
            .into_iter()
            .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
            .find(|d| *d >= earliest)
    };
    let (from, to) = match (from.yearless, to.yearless) {
        (None, None) => (from.date.clone().ok()?, to.date.clone().ok()?),
        (None, Some(end)) => {
            let from = from.date.clone().ok()?;
            (from, on_or_after(end, from)?)
        }
        (Some((day, month)), None) => {
            let to = to.date.clone().ok()?;
            let from = [to.year(), to.year() - 1]
                .into_iter()
                .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
                .find(|d| *d <= to)?;
            (from, to)
        }
        (Some(start), Some(end)) => {
            let from = on_or_after(start, letter? - chrono::Days::new(31))?;
            (from, on_or_after(end, from)?)
        }
    };
    (from <= to).then_some((from, to))
}

/// The month a word names, in Russian (any case ending) or English (full or three letters).
fn month_of(word: &str) -> Option<u32> {
    let first = word.chars().next()?;
    if first.is_ascii() {
        return english_month(word);
    }
    let lower = word.to_lowercase();
    let may = lower.starts_with("мая") || lower == "май";
    let pos = RU_MONTHS
        .iter()
        .position(|m| *m != "ма" && lower.starts_with(m))
        .or(if may { Some(4) } else { None })?;
    Some(pos as u32 + 1)
}

/// An English month name or its abbreviation (any case, a dot after it or not). Every
/// English word before a number is asked: this is done without a copy of the word.
fn english_month(word: &str) -> Option<u32> {
    const FULL: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let bare = word.trim_end_matches('.');
    let mut buf = [0u8; 9];
    let lower = buf.get_mut(..bare.len())?;
    lower.copy_from_slice(bare.as_bytes());
    lower.make_ascii_lowercase();
    let lower = std::str::from_utf8(lower).ok()?;
    if !lower.is_ascii() || !(lower.len() == 3 || FULL.contains(&lower) || lower == "sept") {
        return None;
    }
    let pos = EN_MONTHS.iter().position(|m| lower.starts_with(m))?;
    Some(pos as u32 + 1)
}

fn word_at(line: &str, i: usize) -> (&str, usize) {
    let end = line[i..]
        .char_indices()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(line.len(), |(k, _)| i + k);
    let end = if line[end..].starts_with('.') {
        end + 1
    } else {
        end
    };
    (&line[i..end], end)
}

fn skip_spaces(line: &str, i: usize) -> usize {
    line[i..]
        .char_indices()
        .find(|&(_, c)| c != ' ' && c != '\u{a0}')
        .map_or(line.len(), |(k, _)| i + k)
}

/// `5 марта 2026`, `5 March 2026`, `4-Mar-2026`, `5 марта` (year from context).
fn day_month_name(line: &str, i: usize, context: Option<NaiveDate>) -> Option<Found> {
    let (day, n) = digits(line, i).filter(|&(_, n)| n <= 2)?;
    let hyphens = line[i + n..].starts_with('-');
    let w = if hyphens {
        i + n + 1
    } else {
        skip_spaces(line, i + n)
    };
    if w == i + n || w >= line.len() {
        return None;
    }
    let (word, after_word) = word_at(line, w);
    let month = month_of(word)?;
    let y = if hyphens && line[after_word..].starts_with('-') {
        after_word + 1
    } else {
        skip_spaces(line, after_word)
    };
    if let Some((year, n3)) = digits(line, y).filter(|&(_, n)| n == 4) {
        return Some(found(line, i, y + n3, year as i32, month, day));
    }
    let date = yearless(day, month, context);
    Some(Found {
        start: i,
        end: after_word,
        date: date.ok_or_else(|| line[i..after_word].to_owned()),
        yearless: Some((day, month)),
    })
}

/// `March 5, 2026`, `Mar 5 2026`, `Mar 6` (the year from context; not after `may`, which is
/// more often the verb).
fn month_name_day(line: &str, i: usize, context: Option<NaiveDate>) -> Option<Found> {
    let (word, after_word) = word_at(line, i);
    let month = month_of(word)?;
    let d = skip_spaces(line, after_word);
    let (day, n) = digits(line, d).filter(|&(_, n)| n <= 2)?;
    let mut y = d + n;
    if line[y..].starts_with(',') {
        y += 1;
    }
    let y = skip_spaces(line, y);
    match digits(line, y) {
        Some((year, 4)) => Some(found(line, i, y + 4, year as i32, month, day)),
        // A number after a day is no year of it (`Mar 6 12:00`, `Mar 6 2`): not a date.
        Some(_) => None,
        // (A range of days, `August 3-17, 2026`, is a break's: see [`break_dates`].)
        None if !word.eq_ignore_ascii_case("may")
            && !followed_by_digit(line.as_bytes(), d + n)
            && !line[d + n..].starts_with(['-', '–', '—']) =>
        {
            Some(Found {
                start: i,
                end: d + n,
                date: yearless(day, month, context).ok_or_else(|| line[i..d + n].to_owned()),
                yearless: Some((day, month)),
            })
        }
        None => None,
    }
}

/// Writes a date in a message's language: `08.03.2026` (ru) or `2026-03-08` (en).
pub(crate) fn write_date(date: NaiveDate, russian: bool) -> String {
    if russian {
        date.format("%d.%m.%Y").to_string()
    } else {
        date.format("%Y-%m-%d").to_string()
    }
}

#[cfg(test)]
mod tests;
