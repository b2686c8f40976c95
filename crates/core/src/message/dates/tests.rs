/// [`digits`] as first written (the run counted, then parsed): the reference.
fn digits_parsed(line: &str, i: usize) -> Option<(u32, usize)> {
    let run = line
        .as_bytes()
        .get(i..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if run == 0 || run > 4 {
        return None;
    }
    Some((line[i..i + run].parse().ok()?, run))
}

/// [`Dates::next`] as first written (each byte asked in turn): the reference.
fn find_dates_bytewise(line: &str, context: Option<NaiveDate>) -> Vec<Found> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let i = at;
        let boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        let hit = if boundary && bytes[i].is_ascii_digit() {
            numeric_date(line, i, context).or_else(|| day_month_name(line, i, context))
        } else if boundary && line.is_char_boundary(i) && bytes[i].is_ascii_alphabetic() {
            month_name_day(line, i, context)
        } else {
            None
        };
        match hit {
            Some(found) => {
                at = found.end;
                out.push(found);
            }
            None => at += 1,
        }
    }
    out
}

proptest::proptest! {
    /// Dates are found by runs of bytes as byte by byte, in every form and around them.
    #[test]
    fn dates_as_found_byte_by_byte(
        line in proptest::string::string_regex(
            "([0-9]{1,5}|[.\\-/,]|[ \u{a0}\t]|мая|марта|Май|[A-Za-z]{1,3}|\
             March|may|Sept\\.|JUNE|а|Ё|é|x|2026|\\. |\
             [0-3]?[0-9][./][01][0-9]([./](20)?2[0-9])?|20[0-9]{2}[.\\-/][01][0-9][.\\-/][0-3][0-9]|\
             [0-9]{1,2} (марта|мая|March|dec\\.)( 2026)?|(March|Sept\\.|may) [0-9]{1,2},? 2026){0,14}"
        ).unwrap(),
        year in 2024i32..2028,
    ) {
        let context = NaiveDate::from_ymd_opt(year, 3, 1);
        let found: Vec<Found> = find_dates(&line, context).collect();
        proptest::prop_assert_eq!(&found, &find_dates_bytewise(&line, context), "{:?}", line);
        let found: Vec<Found> = find_dates(&line, None).collect();
        proptest::prop_assert_eq!(found, find_dates_bytewise(&line, None), "{:?}", line);
    }
}

proptest::proptest! {
    /// A run of digits is read by its bytes as `str::parse` reads it, wherever it starts.
    #[test]
    fn digits_as_parsed(line in "([0-9]{1,6}[.a ]?){0,3}", i in 0usize..8) {
        proptest::prop_assert_eq!(digits(&line, i), digits_parsed(&line, i));
    }
}

use super::*;

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn dates(line: &str) -> Vec<Result<String, String>> {
    find_dates(line, Some(d("2026-04-17")))
        .map(|f| f.date.map(|x| x.to_string()))
        .collect()
}

#[test]
fn forms() {
    let rows: &[(&str, &[Result<&str, &str>])] = &[
        ("Отправлен: 08.03.2026", &[Ok("2026-03-08")]),
        ("Sent: 2026-03-08", &[Ok("2026-03-08")]),
        ("Получено: 15.04", &[Ok("2026-04-15")]),
        ("Received 08.03.26", &[Ok("2026-03-08")]),
        (
            "You sent on 14/03/2026; I received on 15/03/2026",
            &[Ok("2026-03-14"), Ok("2026-03-15")],
        ),
        ("получен 5 марта 2026 г.", &[Ok("2026-03-05")]),
        ("sent March 5, 2026", &[Ok("2026-03-05")]),
        ("sent 5 March 2026", &[Ok("2026-03-05")]),
        ("1 апреля", &[Ok("2026-04-01")]),
        ("12 мая 2026", &[Ok("2026-05-12")]),
        ("1 мая", &[Ok("2025-05-01")]),
        ("[Date \"2025.12.17\"]", &[Ok("2025-12-17")]),
        ("Отправлен: 31.02.2026", &[Err("31.02.2026")]),
        ("13...Сh3 12.0-0 1. 5254", &[]),
        ("Время на ход: 2", &[]),
        ("version 1.2.3", &[]),
        // A separator at the very end of the line (found by the byte-flip test).
        ("Отправлен: 08.03.", &[Ok("2026-03-08")]),
        ("Отправлен: 2026-03-", &[]),
        ("Received: 4-Mar-2026", &[Ok("2026-03-04")]),
        ("Sent: Mar 6", &[Ok("2026-03-06")]),
        (
            "sent Apr 16, yours received Apr 15",
            &[Ok("2026-04-16"), Ok("2026-04-15")],
        ),
        // Not dates: `may` the verb, a time after a day, a range of days (a break's).
        ("I may 5 times have said so", &[]),
        ("Mar 6 12:00", &[]),
        ("August 3-17", &[]),
    ];
    for (line, want) in rows {
        let want: Vec<Result<String, String>> = want
            .iter()
            .map(|r| r.map(str::to_owned).map_err(str::to_owned))
            .collect();
        assert_eq!(dates(line), want, "{line}");
    }
}

#[test]
fn year_from_context_across_new_year() {
    let mut found = find_dates("Получено: 30.12", Some(d("2027-01-05")));
    assert_eq!(found.next().unwrap().date, Ok(d("2026-12-30")));
    let mut found = find_dates("Получено: 03.01", Some(d("2027-01-05")));
    assert_eq!(found.next().unwrap().date, Ok(d("2027-01-03")));
    assert_eq!(
        find_dates("Получено: 03.01", None).next().unwrap().date,
        Err("03.01".into())
    );
}

#[test]
fn writes_both_languages() {
    assert_eq!(write_date(d("2026-03-08"), true), "08.03.2026");
    assert_eq!(write_date(d("2026-03-08"), false), "2026-03-08");
}
