use super::*;
use crate::notation::read_move;

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn moves(list: &[&str]) -> Vec<Move> {
    let mut pos = Chess::default();
    list.iter()
        .map(|t| {
            let m = read_move(&pos, t).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

/// The example of message-form.md: Black (Petrov) answers 3. Bb5 with 3... a6.
fn example(language: Language) -> Outgoing {
    let (event, white, black, name) = match language {
        Language::Ru => ("Кубок клуба 2026", "Иванов", "Петров", "Петров Пётр"),
        Language::En => ("Club Cup 2026", "Ivanov", "Petrov", "Petrov Petr"),
    };
    let record = moves(&["e4", "e5", "Nf3", "Nc6", "Bb5"]);
    let my_move = read_move(&super::super::play_all(&record), "a6").unwrap();
    Outgoing {
        language,
        notation: Notation::Numeric,
        event: event.into(),
        start: d("2026-03-01"),
        white: white.into(),
        black: black.into(),
        moves: record,
        partner: Some(PartnerMove {
            sent: d("2026-03-05"),
            received: d("2026-03-06"),
            accepted: 0,
        }),
        my_move: Some(my_move),
        variation: vec![],
        draw_offer: false,
        draw_accept: false,
        resign: false,
        break_notice: None,
        repeat_of: None,
        notes: vec![],
        sent: d("2026-03-08"),
        move_days: 2,
        totals: Totals { white: 5, black: 4 },
        signature: Signature {
            name: name.into(),
            email: Some("petrov@example.org".into()),
        },
    }
}

#[test]
fn russian_standard_form_is_byte_exact() {
    let want = "\
Турнир: Кубок клуба 2026
Старт: 01.03.2026
Белые: Иванов
Черные: Петров
----------------------------------------
Ходы: 1. 5254 5755 2. 7163 2836 3. 6125
Ваш ход 3. 6125 отправлен: 05.03.2026
Получен: 06.03.2026
Мой ход: 3... 1716
Отправлен: 08.03.2026
Время на ход: 2
Итого дней: белые 5, черные 4
----------------------------------------
Петров Пётр <petrov@example.org>
";
    let o = example(Language::Ru);
    assert_eq!(write(&o), want);
    assert_eq!(subject(&o), "Кубок клуба 2026: Иванов – Петров, 3... 1716");
}

#[test]
fn english_standard_form_is_byte_exact() {
    let want = "\
Event: Club Cup 2026
Start: 2026-03-01
White: Ivanov
Black: Petrov
----------------------------------------
Moves: 1. 5254 5755 2. 7163 2836 3. 6125
Your move 3. 6125 sent: 2026-03-05
Received: 2026-03-06
My move: 3... 1716
Sent: 2026-03-08
Time for this move: 2
Total days: White 5, Black 4
----------------------------------------
Petrov Petr <petrov@example.org>
";
    let o = example(Language::En);
    assert_eq!(write(&o), want);
    assert_eq!(subject(&o), "Club Cup 2026: Ivanov – Petrov, 3... 1716");
}

#[test]
fn optional_lines_stand_after_my_move_in_order() {
    let mut o = example(Language::Ru);
    o.notation = Notation::SanRu;
    o.variation =
        moves(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"])[6..].to_vec();
    o.draw_offer = true;
    o.break_notice = Some(BreakNotice {
        from: d("2026-10-10"),
        to: d("2026-10-25"),
    });
    o.repeat_of = Some(d("2026-03-08"));
    o.notes = vec![
        "дата получения 3. Сb5 принята равной дате отправки".into(),
        "штраф\r\nBcc: x".into(),
    ];
    let text = write(&o);
    let tail: Vec<&str> = text.lines().skip(8).collect();
    assert_eq!(
        tail,
        [
            "Мой ход: 3... a6",
            "Вариант: 4. Сa4 Кf6 5. 0-0",
            "Предлагаю ничью",
            "Беру перерыв с 10.10.2026 по 25.10.2026",
            "ПОВТОР хода от 08.03.2026",
            "Замечания:",
            "- дата получения 3. Сb5 принята равной дате отправки",
            "- штраф  Bcc: x",
            "Отправлен: 08.03.2026",
            "Время на ход: 2",
            "Итого дней: белые 5, черные 4",
            "----------------------------------------",
            "Петров Пётр <petrov@example.org>",
        ]
    );
    assert_eq!(
        subject(&o),
        "ПОВТОР: Кубок клуба 2026: Иванов – Петров, 3... a6"
    );
}

#[test]
fn resignation_has_no_move_lines() {
    let mut o = example(Language::Ru);
    o.my_move = None;
    o.resign = true;
    let text = write(&o);
    assert!(text.contains("Получен: 06.03.2026\nСдаюсь\nОтправлен: 08.03.2026\nИтого дней"));
    assert!(!text.contains("Время на ход"));
    assert_eq!(subject(&o), "Кубок клуба 2026: Иванов – Петров, сдаюсь");
}

#[test]
fn whites_first_move_has_no_record() {
    let mut o = example(Language::En);
    o.moves = vec![];
    o.partner = None;
    o.my_move = Some(moves(&["d4"])[0]);
    o.event = "Cup\r\nBcc: evil@example.org".into();
    let text = write(&o);
    assert!(text.starts_with("Event: Cup  Bcc: evil@example.org\n"));
    assert!(text.contains("----------------------------------------\nMy move: 1. 4244\nSent:"));
    assert!(!text.contains("Moves:"));
    assert_eq!(
        subject(&o),
        "Cup  Bcc: evil@example.org: Ivanov – Petrov, 1. 4244"
    );
}
