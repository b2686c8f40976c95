//! The break bookkeeping (51.7, 10.4.1) and the text forms of the settings.

use super::*;
use Profile::{Article51, Postal104};

#[test]
fn a_break_across_new_year_is_split_between_the_years() {
    let b = span("20.12.2026", "09.01.2027");
    assert_eq!(b.days(), 21);
    assert_eq!((b.days_in_year(2026), b.days_in_year(2027)), (12, 9));
    assert_eq!(b.days_in_year(2028), 0);
    assert_eq!(b.years(), 2026..=2027);
    let taken = [b, span("01.06.2027", "05.06.2027")];
    assert_eq!(days_used(&taken, 2026), 12);
    assert_eq!(days_used(&taken, 2027), 14);
    assert_eq!(days_left(Article51, &taken, 2027), 16);
    assert_eq!(days_left(Postal104, &taken[..1], 2027), 0);
    assert_eq!(days_left(Postal104, &taken[..1], 2028), 30);
    let one_day = [span("01.06.2027", "01.06.2027")];
    assert_eq!(
        days_left(Postal104, &one_day, 2027),
        0,
        "10.4.1: even a 1-day break is the one"
    );
    assert_eq!(days_left(Article51, &one_day, 2027), 29);
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn check_break_rows() {
    let taken_2026 = vec![
        span("01.02.2026", "10.02.2026"),
        span("01.05.2026", "15.05.2026"),
    ];
    let rows: Vec<(
        &str,
        Profile,
        Vec<DateSpan>,
        DateSpan,
        Result<(), BreakError>,
    )> = vec![
        (
            "51.7.1: several breaks, 10 + 15 + 5 = 30 days in the year: allowed",
            Article51,
            taken_2026.clone(),
            span("01.08.2026", "05.08.2026"),
            Ok(()),
        ),
        (
            "51.7.1: 10 + 15 + 6 = 31 days: refused, saying the year and the days",
            Article51,
            taken_2026.clone(),
            span("01.08.2026", "06.08.2026"),
            Err(BreakError::OverAllowance {
                year: 2026,
                used: 25,
                asked: 6,
                allowed: 30,
            }),
        ),
        (
            "a break across New Year that overlaps January's break is refused",
            Article51,
            vec![span("01.01.2027", "25.01.2027")],
            span("25.12.2026", "08.01.2027"),
            Err(BreakError::Overlaps {
                existing: span("01.01.2027", "25.01.2027"),
            }),
        ),
        (
            "a break across New Year: 7 days in 2026 fit, 8 in 2027 do not (25 used)",
            Article51,
            vec![span("01.03.2027", "25.03.2027")],
            span("25.12.2026", "08.01.2027"),
            Err(BreakError::OverAllowance {
                year: 2027,
                used: 25,
                asked: 8,
                allowed: 30,
            }),
        ),
        (
            "Article 51: a 40-day break across New Year, 20 days in each year, is allowed",
            Article51,
            vec![],
            span("12.12.2026", "20.01.2027"),
            Ok(()),
        ),
        (
            "a break overlapping one already taken is refused",
            Article51,
            taken_2026.clone(),
            span("10.02.2026", "12.02.2026"),
            Err(BreakError::Overlaps {
                existing: span("01.02.2026", "10.02.2026"),
            }),
        ),
        (
            "10.4.1: postal104 allows one break of 30 days",
            Postal104,
            vec![],
            span("01.07.2026", "30.07.2026"),
            Ok(()),
        ),
        (
            "10.4.1: postal104 refuses a second break in the same year",
            Postal104,
            vec![span("01.02.2026", "05.02.2026")],
            span("01.07.2026", "02.07.2026"),
            Err(BreakError::SecondBreakInYear {
                year: 2026,
                existing: span("01.02.2026", "05.02.2026"),
            }),
        ),
        (
            "10.4.1: postal104 refuses a break of 31 days",
            Postal104,
            vec![],
            span("01.07.2026", "31.07.2026"),
            Err(BreakError::TooLong {
                days: 31,
                allowed: 30,
            }),
        ),
        (
            "postal104: a break across New Year is the one break of 2027 as well",
            Postal104,
            vec![span("25.12.2026", "05.01.2027")],
            span("01.07.2027", "02.07.2027"),
            Err(BreakError::SecondBreakInYear {
                year: 2027,
                existing: span("25.12.2026", "05.01.2027"),
            }),
        ),
        (
            "postal104: one break in each of two years is fine",
            Postal104,
            vec![span("01.07.2026", "10.07.2026")],
            span("01.07.2027", "10.07.2027"),
            Ok(()),
        ),
    ];
    for (sentence, profile, taken, proposed, expected) in rows {
        assert_eq!(
            check_break(profile, &taken, proposed),
            expected,
            "{sentence}"
        );
    }
}

#[test]
fn end_early_rows() {
    let b = span("10.10.2026", "25.10.2026");
    let rows = [
        (
            "51.7.3: back on 20.10: the break is 10.10–19.10, 6 days return",
            "20.10.2026",
            Ok(EndedBreak {
                kept: Some(span("10.10.2026", "19.10.2026")),
                returned: 6,
            }),
        ),
        (
            "called off before its first day: all 16 days return",
            "10.10.2026",
            Ok(EndedBreak {
                kept: None,
                returned: 16,
            }),
        ),
        (
            "back on the day after the last day: nothing returns",
            "26.10.2026",
            Ok(EndedBreak {
                kept: Some(b),
                returned: 0,
            }),
        ),
        (
            "back on the last day: 1 day returns",
            "25.10.2026",
            Ok(EndedBreak {
                kept: Some(span("10.10.2026", "24.10.2026")),
                returned: 1,
            }),
        ),
        (
            "after the break is over there is nothing to end",
            "27.10.2026",
            Err(BreakError::NotEarly {
                span: b,
                back_on: d("27.10.2026"),
            }),
        ),
    ];
    for (sentence, back_on, expected) in rows {
        assert_eq!(end_early(b, d(back_on)), expected, "{sentence}");
    }
    // The returned days go back to the allowance.
    let ended = end_early(b, d("20.10.2026")).unwrap();
    assert_eq!(days_left(Article51, &[b], 2026), 14);
    assert_eq!(days_left(Article51, &[ended.kept.unwrap()], 2026), 20);
}

#[test]
fn spans_cannot_be_reversed_and_print_as_the_rules_write_them() {
    assert_eq!(
        DateSpan::new(d("25.10.2026"), d("10.10.2026")),
        Err(BreakError::Reversed {
            from: d("25.10.2026"),
            to: d("10.10.2026"),
        })
    );
    assert_eq!(
        span("10.10.2026", "25.10.2026").to_string(),
        "10.10.2026–25.10.2026"
    );
    let json = r#"{"from":"2026-10-25","to":"2026-10-10"}"#;
    assert!(serde_json::from_str::<DateSpan>(json).is_err());
    let json = r#"{"from":"2026-10-10","to":"2026-10-25"}"#;
    assert_eq!(
        serde_json::from_str::<DateSpan>(json).unwrap(),
        span("10.10.2026", "25.10.2026")
    );
}

#[test]
fn a_reversed_break_never_reaches_the_clock() {
    // DateSpan cannot be built reversed, so a game's breaks are always well formed.
    let text = r#"{"player":"black","span":{"from":"2026-10-25","to":"2026-10-10"},"notice":null}"#;
    assert!(serde_json::from_str::<Break>(text).is_err());
}

#[test]
fn profile_text_round_trips() {
    for (text, profile) in [("article51", Article51), ("postal104", Postal104)] {
        assert_eq!(text.parse::<Profile>(), Ok(profile));
        assert_eq!(profile.to_string(), text);
        assert_eq!(
            serde_json::to_string(&profile).unwrap(),
            format!("\"{text}\"")
        );
        let json = format!("\"{text}\"");
        assert_eq!(serde_json::from_str::<Profile>(&json).unwrap(), profile);
    }
    assert_eq!(Profile::default(), Article51);
    assert_eq!(
        "article 51".parse::<Profile>(),
        Err(ProfileParseError("article 51".into()))
    );
}

#[test]
fn control_text_round_trips() {
    let c: Control = "10/60".parse().unwrap();
    assert_eq!(c, Control::default());
    assert_eq!((c.moves(), c.days()), (10, 60));
    assert_eq!(c.to_string(), "10/60");
    assert_eq!(" 5 / 30 ".parse::<Control>().unwrap().to_string(), "5/30");
    for bad in ["10", "0/60", "10/0", "10/60/2", "a/b", "", "-1/60"] {
        assert_eq!(
            bad.parse::<Control>(),
            Err(ControlParseError(bad.into())),
            "{bad:?}"
        );
    }
    // JSON: the object of `show --json`; the text form of the config also reads.
    assert_eq!(
        serde_json::to_string(&c).unwrap(),
        r#"{"moves":10,"days":60}"#
    );
    assert_eq!(
        serde_json::from_str::<Control>(r#""15/90""#)
            .unwrap()
            .to_string(),
        "15/90"
    );
    assert_eq!(
        serde_json::from_str::<Control>(r#"{"moves":15,"days":90}"#).unwrap(),
        Control::new(15, 90).unwrap()
    );
    assert!(serde_json::from_str::<Control>(r#"{"moves":0,"days":90}"#).is_err());
    assert!(serde_json::from_str::<Control>(r#""ten/sixty""#).is_err());
}

#[test]
fn control_periods() {
    let c = Control::default();
    assert_eq!(
        (c.period_of(1), c.period_of(10), c.period_of(11)),
        (1, 1, 2)
    );
    assert_eq!((c.control_move(3), c.limit(3)), (30, 180));
}
