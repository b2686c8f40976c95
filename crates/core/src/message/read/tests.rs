use super::*;
use chrono::DateTime;
use proptest::strategy::Strategy;
use shakmaty::Move;

fn envelope(date: &str) -> Envelope {
    Envelope {
        from: Some("partner@example.org".into()),
        from_name: None,
        subject: None,
        date: Some(DateTime::parse_from_rfc2822(date).unwrap()),
        replies: false,
        automatic: false,
    }
}

/// `line` read as a letter of its own, signed by the partner and sent at `date`.
fn signed(line: &str, date: &str) -> MoveMessage {
    read(&format!("{line}\nПетров\n"), &[], &envelope(date))
}

/// The break from `from` to `to`, as a letter announces it.
fn a_break(from: &str, to: &str) -> Option<BreakNotice> {
    Some(BreakNotice {
        from: d(from),
        to: d(to),
    })
}

fn sans(moves: &[Move]) -> Vec<String> {
    notation::sans(&Chess::default(), moves)
}

fn codes(msg: &MoveMessage) -> Vec<ProblemCode> {
    msg.problems.iter().map(|p| p.code).collect()
}

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn quoted_old_move_list_is_ignored() {
    let text = "\
Ходы: 1. 5254 5755 2. 7163
Мой ход: 2... 2836
Отправлен: 09.03.2026

On Sat, 7 Mar 2026, Partner wrote:
> Ходы: 1. 5254 5755 2. 4244
> Мой ход: 3. 4445
-----Original Message-----
Ходы: 1. 4244
";
    let msg = read(text, &[], &envelope("Mon, 9 Mar 2026 10:00:00 +0300"));
    assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3"]);
    assert_eq!(
        msg.new_move
            .map(|m| notation::san(&msg.position_before(), m)),
        Some("Nc6".into())
    );
}

#[test]
fn yearless_date_takes_year_from_date_header() {
    let text = "Ваш ход отправлен: 08.10\nПолучено: 09.10\nМой ход: 1. e4\nОтправлено: 10.10\n";
    let msg = read(text, &[], &envelope("Sat, 10 Oct 2026 10:00:00 +0300"));
    assert_eq!(msg.partner_move_sent, Some(d("2026-10-08")));
    assert_eq!(msg.received, Some(d("2026-10-09")));
    assert_eq!(msg.sent, Some(d("2026-10-10")));
    // Across New Year: a message of 2 January about a move received on 30 December.
    let text = "Получено: 30.12\nМой ход: 1. e4\nОтправлено: 02.01\n";
    let msg = read(text, &[], &envelope("Sat, 2 Jan 2027 10:00:00 +0300"));
    assert_eq!(msg.received, Some(d("2026-12-30")));
    assert_eq!(msg.sent, Some(d("2027-01-02")));
}

#[test]
fn labels_in_any_case_with_or_without_colon() {
    let text = "\
СОРЕВНОВАНИЕ - Весна
дата старта 01.03.2026
белые Иванов
ЧЁРНЫЕ: Петров
ЗАПИСЬ ПАРТИИ 1.е4 е5 2.Кg1-f3
МОЙ ХОД 2...Кb8-c6 ОТПРАВЛЕН 08.03.2026
ПОЛУЧЕН 06.03.2026
ВРЕМЯ: 2 дня
ИТОГО: БЕЛЫЕ 5, ЧЁРНЫЕ 4
";
    let msg = read(text, &[], &envelope("Sun, 8 Mar 2026 10:00:00 +0300"));
    assert_eq!(msg.header.event.as_deref(), Some("Весна"));
    assert_eq!(msg.header.start, Some(d("2026-03-01")));
    assert_eq!(msg.header.white.as_deref(), Some("Иванов"));
    assert_eq!(msg.header.black.as_deref(), Some("Петров"));
    assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3"]);
    assert_eq!(msg.new_move_text.as_deref(), Some("Кb8-c6"));
    assert_eq!(msg.sent, Some(d("2026-03-08")));
    assert_eq!(msg.received, Some(d("2026-03-06")));
    assert_eq!(msg.move_days, Some(2));
    assert_eq!(msg.total_days, Some(Totals { white: 5, black: 4 }));
    // Only the partner-move date is missing (White's move was received, its send date not given).
    assert_eq!(codes(&msg), [ProblemCode::MissingDate]);
}

#[test]
fn wrong_record_move_is_reported_with_its_number() {
    let text = "Ходы: 1. 5254 5755 2. 7163 2846\nМой ход: 3. 6134\n";
    let msg = read(text, &[], &envelope("Sun, 8 Mar 2026 10:00:00 +0300"));
    assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3"]);
    let p = &msg.problems[0];
    assert_eq!(p.code, ProblemCode::ImpossibleMove);
    assert_eq!(
        p.detail,
        "move 2... 2846 (in the move record): the knight on b8 can't go to d6"
    );
    assert_eq!(
        p.detail_in(crate::message::Language::Ru),
        format!(
            "ход 2... 2846 (в записи партии): {}",
            crate::notation::read_move(&after(&["e4", "e5", "Nf3"]), "2846")
                .unwrap_err()
                .reason_in(crate::message::Language::Ru)
        )
    );
    assert_eq!(msg.new_move, None);
}

/// The position after `sans` from the start.
fn after(sans: &[&str]) -> shakmaty::Chess {
    let mut pos = shakmaty::Chess::default();
    for san in sans {
        let m = crate::notation::read_move(&pos, san).unwrap();
        // legal: from notation::read_move in this position
        shakmaty::Position::play_unchecked(&mut pos, m);
    }
    pos
}

#[test]
fn missing_items_are_said_in_russian_too() {
    let msg = read(
        "Ход: 1. e4\n",
        &[],
        &envelope("Sun, 8 Mar 2026 10:00:00 +0300"),
    );
    let header = msg
        .problems
        .iter()
        .find(|p| p.code == ProblemCode::MissingHeader)
        .unwrap();
    assert_eq!(
        header.detail_in(crate::message::Language::Ru),
        "в заголовке партии нет соревнования, даты начала, фамилии белых, фамилии чёрных"
    );
    assert_eq!(
        header.detail,
        "the game header lacks the competition, the start date, White's surname, Black's surname"
    );
}

#[test]
fn message_without_a_move_is_illegible_51_3_5() {
    let text = "Ходы: 1. 5254\nВаш ход 1. 5254 отправлен: 01.03.2026\nПолучен: 02.03.2026\nОтправлен: 03.03.2026\n";
    let msg = read(text, &[], &envelope("Tue, 3 Mar 2026 10:00:00 +0300"));
    assert!(msg.has(ProblemCode::NoMove));
    assert_eq!(msg.partner_move_text.as_deref(), Some("5254"));
}

#[test]
fn draw_refusal_is_not_an_offer() {
    let text = "Мой ход: 1. e4\nI decline your draw offer.\n";
    let msg = read(text, &[], &envelope("Tue, 3 Mar 2026 10:00:00 +0000"));
    assert!(!msg.draw_offer);
    let text = "Мой ход: 1. e4\nПредлагаю ничью.\n";
    assert!(read(text, &[], &envelope("Tue, 3 Mar 2026 10:00:00 +0000")).draw_offer);
}

/// How people accept a draw, and refuse one: an acceptance names the offer it accepts and is
/// not an offer of its own; a refusal is neither. The kind follows (a letter that accepts
/// with no move is a `draw_accept`).
#[test]
fn draw_acceptances_and_refusals_as_people_write_them() {
    // (the line, offers, accepts)
    let rows = [
        ("Принимаю Ваше предложение ничьей.", false, true),
        ("Предложение ничьей принимаю, спасибо за игру.", false, true),
        ("Ничью принимаю.", false, true),
        ("На ваше предложение ничьей согласен.", false, true),
        ("На ничью согласна.", false, true),
        ("I accept your offer of a draw.", false, true),
        ("I accept your draw offer.", false, true),
        ("Draw offer accepted, thanks for the game.", false, true),
        ("I'm not accepting the draw offer.", false, false),
        ("I don't accept your draw offer yet.", false, false),
        (
            "С предложением ничьей не согласен, играем дальше.",
            false,
            false,
        ),
        ("Ничью не принимаю.", false, false),
        ("Предлагаю ничью.", true, false),
        ("I offer a draw.", true, false),
    ];
    for (line, offers, accepts) in rows {
        let msg = signed(line, "Tue, 3 Mar 2026 10:00:00 +0000");
        assert_eq!(
            (msg.draw_offer, msg.draw_accept),
            (offers, accepts),
            "{line}"
        );
        if accepts {
            assert_eq!(msg.kind, MessageKind::DrawAccept, "{line}");
        }
    }
}

#[test]
fn english_break_and_repeat() {
    let text = "My move: 1. d4\nTaking a break from 2026-10-10 to 2026-10-25\nREPEAT of the move sent 2026-10-01\n";
    let msg = read(text, &[], &envelope("Tue, 13 Oct 2026 10:00:00 +0000"));
    assert_eq!(
        msg.break_notice,
        Some(BreakNotice {
            from: d("2026-10-10"),
            to: d("2026-10-25")
        })
    );
    assert!(msg.repeat);
}

/// A break is announced ahead (51.7.2): a date written without a year lies after the letter,
/// not before it as a move's dates do, and a year written once serves both dates.
#[test]
fn a_break_without_years_lies_ahead_of_the_letter() {
    let rows = [
        // (the break's line, the letter's Date, from, to)
        (
            "Беру перерыв с 3 августа по 16 августа 2026 года.",
            "Fri, 10 Jul 2026 10:00:00 +0300",
            "2026-08-03",
            "2026-08-16",
        ),
        (
            "Беру перерыв с 10.08 по 24.08",
            "Fri, 10 Jul 2026 10:00:00 +0300",
            "2026-08-10",
            "2026-08-24",
        ),
        (
            "Taking a break from 3 August to 16 August",
            "Fri, 10 Jul 2026 10:00:00 +0000",
            "2026-08-03",
            "2026-08-16",
        ),
        (
            "Беру перерыв с 20.12 по 05.01",
            "Thu, 10 Dec 2026 10:00:00 +0300",
            "2026-12-20",
            "2027-01-05",
        ),
        (
            "Беру перерыв с 28.12.2026 по 10.01",
            "Thu, 10 Dec 2026 10:00:00 +0300",
            "2026-12-28",
            "2027-01-10",
        ),
        (
            "Беру перерыв с 28.12 по 10.01.2027",
            "Thu, 10 Dec 2026 10:00:00 +0300",
            "2026-12-28",
            "2027-01-10",
        ),
        // Announced a few days late, it still starts before the letter (the judge holds it).
        (
            "Беру перерыв с 01.12 по 10.12",
            "Fri, 4 Dec 2026 10:00:00 +0300",
            "2026-12-01",
            "2026-12-10",
        ),
        // Written with its years, it stands as written.
        (
            "Taking a break from 2026-10-10 to 2026-10-25",
            "Tue, 13 Oct 2026 10:00:00 +0000",
            "2026-10-10",
            "2026-10-25",
        ),
    ];
    for (line, date, from, to) in rows {
        let msg = read(line, &[], &envelope(date));
        assert_eq!(msg.break_notice, a_break(from, to), "{line}");
        assert!(msg.problems.is_empty(), "{line}: {:?}", msg.problems);
    }
}

/// What a sender writes after the move on its line is not the move (51.3.6): the move is
/// read, and judged, as written before it.
#[test]
fn talk_after_the_move_on_its_line_is_not_the_move() {
    let record = "Ходы: 1. e4 e5 2. Кf3 Кc6 3. Сb5 a6\n";
    let rows = [
        (
            "Мой ход: 4. Сa4. Получил ваш ход 05.03.",
            "Сa4",
            Some("2026-03-05"),
        ),
        ("Мой ход: 4. Сa4 - единственный ход", "Сa4", None),
        (
            "My move: 4. Ba4 — the only move, sent 2026-03-06",
            "Ba4",
            None,
        ),
        ("My move: 4. Ba4, I think", "Ba4", None),
        (
            "Мой ход: 4. Сb5-a4 (Сa4) отправлен 06.03",
            "Сb5-a4 (Сa4)",
            None,
        ),
        (
            "Мой ход: 4. Сb5-a4?! Получил 05.03",
            "Сb5-a4?!",
            Some("2026-03-05"),
        ),
        ("Мой ход: 4. Сa4+ шах", "Сa4+ шах", None),
    ];
    for (line, written, received) in rows {
        let msg = read(
            &format!("{record}{line}\n"),
            &[],
            &envelope("Fri, 6 Mar 2026 10:00:00 +0300"),
        );
        assert_eq!(msg.new_move_text.as_deref(), Some(written), "{line}");
        assert_eq!(msg.received, received.map(d), "{line}");
    }
    let msg = read(
        &format!("{record}Мой ход: 4. Сa4. Получил ваш ход 05.03.\n"),
        &[],
        &envelope("Fri, 6 Mar 2026 10:00:00 +0300"),
    );
    let m = msg.new_move.unwrap();
    assert_eq!(notation::san(&msg.position_before(), m), "Ba4");
    assert!(
        !codes(&msg).contains(&ProblemCode::IllegibleMove),
        "{:?}",
        msg.problems
    );
}

/// A break as partners announce it: a holiday by its name, a range of days in one month.
/// Each is a break notice with its first and last day; a holiday had is none.
#[test]
fn breaks_as_people_announce_them() {
    let rows = [
        (
            "С 01.08.2026 по 20.08.2026 беру отпуск, прошу считать это моим перерывом.",
            "2026-08-01",
            "2026-08-20",
        ),
        (
            "Беру перерыв в период с 1 по 15 сентября 2026 г.",
            "2026-09-01",
            "2026-09-15",
        ),
        ("Беру перерыв 3–17 августа.", "2026-08-03", "2026-08-17"),
        (
            "Беру перерыв с 10 до 24 августа",
            "2026-08-10",
            "2026-08-24",
        ),
        (
            "I'll be away from 14 July to 28 July 2026.",
            "2026-07-14",
            "2026-07-28",
        ),
        (
            "I'll be away from 14 to 28 July.",
            "2026-07-14",
            "2026-07-28",
        ),
        (
            "I'm on holiday August 3-17, 2026, so that's my break.",
            "2026-08-03",
            "2026-08-17",
        ),
    ];
    for (line, from, to) in rows {
        let msg = signed(line, "Fri, 10 Jul 2026 10:00:00 +0300");
        assert_eq!(msg.break_notice, a_break(from, to), "{line}");
        assert_eq!(msg.kind, MessageKind::BreakNotice, "{line}");
    }
    // A holiday spoken of is no break notice.
    let msg = read(
        "Спасибо! Был в отпуске, отвечаю с опозданием.\nПетров\n",
        &[],
        &envelope("Fri, 10 Jul 2026 10:00:00 +0300"),
    );
    assert_eq!(msg.break_notice, None);
    assert_ne!(msg.kind, MessageKind::BreakNotice);
    // Nor in a move message: it carries no break.
    let msg = read(
        "Мой ход: 1. e4\nI was away from 1 July to 5 July, sorry for the delay.\nПетров\n",
        &[],
        &envelope("Fri, 10 Jul 2026 10:00:00 +0300"),
    );
    assert_eq!(msg.kind, MessageKind::Move);
    assert_eq!(msg.break_notice, None);
}

/// The partner's move and the sender's on one line, as two sentences: each is read.
#[test]
fn the_senders_move_after_ours_on_one_line() {
    let record = "Ходы: 1. e4 e5 2. Кf3 Кc6 3. Сb5\n";
    let rows = [
        "Ваш ход 3. Сb5 получен 05.03.2026. Мой ход: 3... a6",
        "Your move 3. Bb5 received 2026-03-05; my move: 3... a6",
    ];
    for line in rows {
        let msg = read(
            &format!("{record}{line}\n"),
            &[],
            &envelope("Fri, 6 Mar 2026 10:00:00 +0300"),
        );
        let m = msg
            .new_move
            .unwrap_or_else(|| panic!("{line}: {:?}", msg.problems));
        assert_eq!(notation::san(&msg.position_before(), m), "a6", "{line}");
        assert_eq!(msg.received, Some(d("2026-03-05")), "{line}");
    }
}

/// A promotion written with its piece in brackets stands in the record as in the move line;
/// other brackets are comments or duplicates.
#[test]
fn a_promotion_piece_in_brackets_in_the_record() {
    let text = "Ходы: 1. a4 b5 2. a:b5 a6 3. b:a6 Сb7 4. a:b7 Кc6 5. b8(Ф) (b7-b8) Л:b8 6. Кf3\n\
                Мой ход: 6... e5\n";
    let msg = read(text, &[], &envelope("Fri, 6 Mar 2026 10:00:00 +0300"));
    assert_eq!(
        sans(&msg.moves),
        [
            "a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6", "b8=Q", "Rxb8", "Nf3"
        ]
    );
    assert!(
        !codes(&msg).iter().any(|c| matches!(
            c,
            ProblemCode::AmbiguousMove | ProblemCode::IllegibleMove | ProblemCode::ImpossibleMove
        )),
        "{:?}",
        msg.problems
    );
}

/// A move line alone, numbered past the first move: no position to read it in here, so no
/// problem with it is reported; the game reads it.
#[test]
fn a_numbered_move_without_a_record_is_left_to_the_game() {
    let text = "Мой ход: 23...Кр:f8. Получил ваш 23.С:f8 05.03.\n";
    let msg = read(text, &[], &envelope("Fri, 6 Mar 2026 10:00:00 +0300"));
    assert_eq!(msg.new_move_text.as_deref(), Some("Кр:f8"));
    assert_eq!(msg.new_move, None);
    assert!(
        !codes(&msg).iter().any(|c| matches!(
            c,
            ProblemCode::AmbiguousMove | ProblemCode::IllegibleMove | ProblemCode::ImpossibleMove
        )),
        "{:?}",
        msg.problems
    );
    // The first move is read from the start.
    let msg = read(
        "Мой ход: 1. e4\n",
        &[],
        &envelope("Fri, 6 Mar 2026 10:00:00 +0300"),
    );
    assert!(msg.new_move.is_some());
}

/// A conditional offer in words is the variation offered with the move (51.3.7).
#[test]
fn a_conditional_offer_in_words_is_a_variation() {
    let record = "Ходы: 1. e4 e5 2. Кf3\nМой ход: 2... Кc6\n";
    let rows: [(&str, &[&str]); 4] = [
        ("Если 3.Сb5, то 3...a6", &["Bb5", "a6"]),
        (
            "Если Вы сыграете 3. Сc4, то я отвечу 3... Сc5.",
            &["Bc4", "Bc5"],
        ),
        (
            "If 3.Bb5 then 3...a6, and if 4.Ba4 then 4...Nf6.",
            &["Bb5", "a6", "Ba4", "Nf6"],
        ),
        ("If you agree, then let us stop here.", &[]),
    ];
    for (line, variation) in rows {
        let msg = read(
            &format!("{record}{line}\n"),
            &[],
            &envelope("Fri, 6 Mar 2026 10:00:00 +0300"),
        );
        let mut pos = msg.position_before();
        pos.play_unchecked(msg.new_move.unwrap());
        assert_eq!(notation::sans(&pos, &msg.variation), variation, "{line}");
    }
}

/// The days of a move and the totals as people write them by hand.
#[test]
fn move_days_and_totals_by_hand() {
    let rows = [
        ("Затрачено: 2 дн.\nИтого: Б 20, Ч 18", 2, (20, 18)),
        ("Думал 1 день\nИтого: Б 20, Ч 19", 1, (20, 19)),
        (
            "Затрачено дней: 1\nИтого дней: белые — 14, чёрные — 17",
            1,
            (14, 17),
        ),
        (
            "Reflection time: 3 days\nTotal days: White 20 / Black 22",
            3,
            (20, 22),
        ),
    ];
    for (lines, days, (white, black)) in rows {
        let text = format!("Ходы: 1. e4\nМой ход: 1... e5\n{lines}\n");
        let msg = read(&text, &[], &envelope("Fri, 6 Mar 2026 10:00:00 +0300"));
        assert_eq!(msg.move_days, Some(days), "{lines}");
        assert_eq!(msg.total_days, Some(Totals { white, black }), "{lines}");
    }
}

#[test]
fn bad_date_is_named() {
    let text = "Мой ход: 1. e4\nОтправлен: 31.02.2026\n";
    let msg = read(text, &[], &envelope("Tue, 3 Mar 2026 10:00:00 +0000"));
    assert!(msg.problems.iter().any(|p| p.code == ProblemCode::BadDate
        && p.detail == "\"31.02.2026\" in the line \"Отправлен: 31.02.2026\" is not a date"));
}

#[test]
fn record_tokens_skip_comments_and_duplicates_and_borrow_the_text() {
    let text = "{e4 was the plan} 1. e4 e5 (1... c5) 2.Nf3{!}Кb8-c6 [Nc6] 3. Bb5 1-0 4. a3";
    let (tokens, comments) = record_tokens(text);
    assert_eq!(tokens, ["e4", "e5", "Nf3", "Кb8-c6", "Bb5"]);
    // The first "e4" is the move, not the one inside the comment.
    let at = tokens[0].as_ptr() as usize - text.as_ptr() as usize;
    assert_eq!(&text[at - 3..at + 2], "1. e4");
    assert_eq!(
        comments.split_whitespace().collect::<Vec<_>>(),
        ["e4", "was", "the", "plan", "!"]
    );
    let (plain, none) = record_tokens("1. 5254 5755 2. 7163");
    assert_eq!((plain, none.as_str()), (vec!["5254", "5755", "7163"], ""));
    // Stray commas and numbers of three digits or fewer are not moves.
    let (plain, _) = record_tokens("1. e4 , ;, e5 12 2... 7163, 4");
    assert_eq!(plain, ["e4", "e5", "7163"]);
}

proptest::proptest! {
    /// The table of first letters only saves work: on any text, the cheap test says what
    /// looking at every line the whole way ([`line_may_name`]) says.
    #[test]
    fn the_first_letter_table_loses_no_line(
        text in proptest::string::string_regex(
            "((White|black|EVENT|Tour|Турнир|ЧЁРНЫЕ|белые|Соревнование|\\[|Ёлка|\u{a0}|\u{feff}|\u{2003}|Ä|ß|x|1\\.| |\t|:|-|\r|\n)){0,24}"
        ).unwrap()
    ) {
        let whole_way = text
            .split('\n')
            .any(|line| line_may_name(line.strip_suffix('\r').unwrap_or(line)));
        proptest::prop_assert_eq!(may_name_a_game(&text, &[]), whole_way, "{:?}", text);
    }

    /// The byte-wise fold of a whole text is the fold of each of its characters: Russian
    /// letters by their bytes, the rest by `fold_char`.
    #[test]
    fn folding_a_text_folds_each_character(
        text in "([\\PC]|[\u{400}-\u{4ff}]|[АЯЁёабпрсяİẞ]| |\n){0,40}"
    ) {
        let each: String = text.chars().map(fold_char).collect();
        proptest::prop_assert_eq!(fold(&text), each);
    }
}

/// The cheap test says yes to every line [`read`] takes a game header from, whatever its case,
/// blanks or script, and no to the usual lines of private mail.
#[test]
fn may_name_a_game_line_by_line() {
    for (line, yes) in [
        ("White: Petrov", true),
        ("  WHITE - Petrov", true),
        ("\tevent: Cup", true),
        ("\u{feff}Event: Cup", true),
        ("\u{a0}Black: Ivanov", true),
        ("Tournament: Cup", true),
        ("Турнир: Кубок", true),
        ("ЧЁРНЫЕ: Иванов", true),
        ("[Event \"Cup\"]", true),
        ("Whitehall is closed", false),
        ("The white house", false),
        ("Events this week", false),
        ("Бельё: стирка", false),
        ("", false),
        ("   ", false),
        ("12. e4 e5", false),
    ] {
        assert_eq!(may_name_a_game(line, &[]), yes, "{line:?}");
        let crlf = format!("hello\r\n{line}\r\nbye");
        assert_eq!(may_name_a_game(&crlf, &[]), yes, "{line:?} in CRLF text");
        assert_eq!(
            may_name_a_game("", &[line.to_owned()]),
            yes,
            "{line:?} in PGN"
        );
    }
}

/// [`plain_tokens`] as it was written first, one iterator adapter for each rule: the
/// reference for the one that tells a word by its first byte.
fn plain_tokens_by_adapters(plain: &str) -> Vec<&str> {
    plain
        .split_whitespace()
        .map(|token| token.trim_end_matches([',', ';']))
        .take_while(|token| !matches!(*token, "*" | "1-0" | "0-1" | "1/2-1/2" | "½-½"))
        .filter(|token| {
            !token.starts_with('$') && !matches!(*token, "..." | "…" | "e.p." | "ep" | "в.п.")
        })
        .filter_map(|token| {
            if !token.starts_with(|c: char| c.is_ascii_digit()) {
                return Some(token);
            }
            match strip_move_number(token) {
                Some((_, _, rest)) => Some(rest),
                None if token.len() <= 3 && token.bytes().all(|b| b.is_ascii_digit()) => None,
                None => Some(token),
            }
        })
        .filter(|token| !token.is_empty() && !token.bytes().all(|c| b"!?+#-".contains(&c)))
        .filter(|token| !is_remark(token))
        .collect()
}

proptest::proptest! {
    /// The record's tokens are the same as the adapters' reading gives, on texts made of
    /// every kind of word the rules single out, and of pieces of them.
    #[test]
    fn record_tokens_as_the_adapters_read_them(
        words in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(vec![
                    "*", "1-0", "0-1", "1/2-1/2", "½-½", "...", "…", "e.p.", "ep", "в.п.",
                    "$1", "$", "12", "12.", "12...", "3…", "5254", "17181", "1.e4", "2...Кf6",
                    "+", "!?", "#", "-", ",", ";,", "e4,", "Кр:e2;", "0-0-0", "O-O+", "e", "в",
                ])
                .prop_map(|w: &str| w.to_owned()),
                proptest::string::string_regex("[0-9.…,;$*½/e\\-+#!?pвп.a-hКрx]{1,6}").unwrap(),
            ],
            0..12,
        ),
        blanks in proptest::sample::select(vec![" ", "  ", "\t", "\u{a0}", " \n "]),
    ) {
        let text = words.join(blanks);
        proptest::prop_assert_eq!(
            plain_tokens(&text).collect::<Vec<_>>(),
            plain_tokens_by_adapters(&text),
            "{:?}",
            text
        );
    }
}

proptest::proptest! {
    /// The lines are `str::lines`'s, whatever the line ends.
    #[test]
    fn lines_as_str_lines_gives_them(
        text in proptest::string::string_regex("(a|Кр|\\n|\\r|\\r\\n| ){0,16}").unwrap(),
    ) {
        proptest::prop_assert_eq!(
            lines(&text).collect::<Vec<_>>(),
            text.lines().collect::<Vec<_>>(),
            "{:?}",
            text
        );
    }
}

proptest::proptest! {
    /// Trimming ASCII blanks by bytes first leaves what `str::trim` leaves, and a line is
    /// trimmed of blanks and byte-order marks as a search by characters would trim it.
    #[test]
    fn trims_as_a_search_by_characters_trims(
        text in proptest::string::string_regex(
            "([ \\t\\n\\r\\x0b\\x0c]|\\u{85}|\\u{a0}|\\u{2003}|\\u{3000}|\\u{feff}|a|Я|ё|\"|,){0,12}"
        ).unwrap(),
    ) {
        proptest::prop_assert_eq!(trim(&text), text.trim(), "{:?}", text);
        proptest::prop_assert_eq!(
            trim_line(&text),
            text.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}'),
            "{:?}",
            text
        );
    }
}

/// [`Index::starting`] as first written (the key searched for among the keys): the reference.
fn starting_searched<T: Copy>(index: &Index<T>, key: [u8; 2]) -> &[([u8; 2], &'static str, T)] {
    let k = usize::from(u16::from_be_bytes(key));
    if index.bits[k / 64] & (1 << (k % 64)) == 0 {
        return &[];
    }
    let i = index.keys[..index.keys.len() - 1].partition_point(|e| e.0 < key);
    &index.entries[index.keys[i].1..index.keys[i + 1].1]
}

#[test]
fn index_finds_each_key_by_its_rank_as_by_a_search() {
    let words = word_index();
    let labels = label_index();
    let mut keys: Vec<[u8; 2]> = (0..=u16::MAX).map(u16::to_be_bytes).collect();
    keys.extend(words.entries.iter().map(|e| e.0));
    for key in keys {
        let (a, b) = (words.starting(key), starting_searched(words, key));
        assert_eq!(a.len(), b.len(), "{key:?}");
        assert!(
            a.iter()
                .zip(b)
                .all(|(x, y)| x.0 == y.0 && x.1 == y.1 && x.2 == y.2)
        );
        let (a, b) = (labels.starting(key), starting_searched(labels, key));
        assert_eq!(a.len(), b.len(), "{key:?}");
        assert!(
            a.iter()
                .zip(b)
                .all(|(x, y)| x.0 == y.0 && x.1 == y.1 && x.2 == y.2)
        );
        // Every entry under a key starts with it, and none is left out.
        let all = words.entries.iter().filter(|e| e.0 == key).count();
        assert_eq!(words.starting(key).len(), all, "{key:?}");
    }
}

proptest::proptest! {
    /// The words split at blanks by bytes are `str::split_whitespace`'s, with blanks of
    /// every kind (ASCII's, Unicode's, and the characters whose first byte one of Unicode's
    /// blanks starts with) between and inside them.
    #[test]
    fn blank_split_as_split_whitespace(
        text in proptest::string::string_regex(
            "([a-h1-8.]|Кр|ё|½|…|—|\u{1c}|\u{1f}|\u{85}|\u{a0}|\u{a9}|\u{1680}|\u{1681}|\
             \u{2000}|\u{200a}|\u{200b}|\u{2028}|\u{202f}|\u{205f}|\u{3000}|\u{3001}|\
             \u{feff}| |\t|\n|\r|\u{b}|\u{c}){0,16}"
        ).unwrap(),
    ) {
        proptest::prop_assert_eq!(
            blank_split(&text).collect::<Vec<_>>(),
            text.split_whitespace().collect::<Vec<_>>(),
            "{:?}",
            text
        );
    }
}

/// [`Line::hits`] as first written (character by character, each word start looked up and
/// compared with each entry under its key): the reference.
fn hits_char_by_char(folded: &str) -> Vec<(Words, usize, usize)> {
    let index = word_index();
    let bytes = folded.as_bytes();
    let mut hits = Vec::new();
    let mut prev_letter = false;
    let mut at = 0;
    while at < bytes.len() {
        let (letter, len) = match bytes[at] {
            b if b.is_ascii() => (b.is_ascii_alphabetic(), 1),
            0xd0..=0xd3 => (true, 2),
            _ => {
                let c = folded[at..]
                    .chars()
                    .next()
                    .expect("a character starts here");
                (is_letter(c), c.len_utf8())
            }
        };
        if letter && !prev_letter {
            let Some(key) = first_two(&folded[at..]) else {
                break;
            };
            for &(_, word, (list, _)) in starting_searched(index, key) {
                let stem = WORDS.iter().any(|&(l, _, stem)| l == list && stem);
                let end = at + word.len();
                if bytes[at..].starts_with(word.as_bytes()) && (stem || ends_word(&folded[end..])) {
                    hits.push((list, at, end));
                }
            }
        }
        prev_letter = letter;
        at += len;
    }
    hits
}

/// Every word and label ccmail looks for, as pieces of generated text.
fn all_words() -> Vec<&'static str> {
    let mut words: Vec<&'static str> = WORDS
        .iter()
        .flat_map(|&(_, w, _)| w.iter().copied())
        .collect();
    words.extend(LABELS.iter().flat_map(|&(_, w)| w.iter().copied()));
    words
}

proptest::proptest! {
    /// The words found in a line are those the search character by character finds: in
    /// texts of the words themselves, their pieces and what may stand around them.
    #[test]
    fn hits_as_found_char_by_char(
        pieces in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(all_words()).prop_map(str::to_owned),
                proptest::sample::select(all_words())
                    .prop_flat_map(|w| {
                        let n = w.chars().count();
                        (proptest::strategy::Just(w), 0..=n)
                    })
                    .prop_map(|(w, n)| w.chars().take(n).collect::<String>()),
                proptest::string::string_regex(
                    "[ a-zа-яёé.:,\\-0-9\u{a0}\u{2003}ßǅꙁ]{0,4}"
                ).unwrap(),
            ],
            0..8,
        ),
    ) {
        let text: String = pieces.concat();
        let line = Line::new(&text);
        let hits: Vec<_> = line.hits().iter().map(|h| (h.list, h.at, h.end)).collect();
        proptest::prop_assert_eq!(hits, hits_char_by_char(line.folded()), "{:?}", text);
    }
}

#[test]
fn heads_read_the_first_four_bytes() {
    assert_eq!(head(b""), 0);
    assert_eq!(head(b"a"), u32::from(b'a'));
    assert_eq!(head(b"abcdef"), u32::from_le_bytes(*b"abcd"));
    assert_eq!(
        head("ход".as_bytes()),
        u32::from_le_bytes([0xd1, 0x85, 0xd0, 0xbe])
    );
}

proptest::proptest! {
    /// The first byte that is not ASCII is found eight at a time where a search byte by
    /// byte finds it, from any place.
    #[test]
    fn non_ascii_found_as_byte_by_byte(
        text in proptest::string::string_regex("(a|b c|\\.|Кр|ё|é|½|…|\u{10348}|\\r\\n){0,24}").unwrap(),
        from in 0usize..40,
    ) {
        let bytes = text.as_bytes();
        let want = bytes
            .get(from..)
            .and_then(|rest| rest.iter().position(|b| !b.is_ascii()))
            .map(|i| from + i);
        proptest::prop_assert_eq!(non_ascii(bytes, from), want, "{:?} {}", text, from);
    }
}

#[test]
fn hits_kept_in_a_handed_on_vector_are_the_line_s_own() {
    let before = Line::new("Итого дней: белые 32, черные 25");
    let line = Line::new("Ваш ход 15... 2635 отправлен: 18.03.2026");
    let fresh: Vec<_> = line.hits().iter().map(|h| (h.list, h.at, h.end)).collect();
    let line = Line::new("Ваш ход 15... 2635 отправлен: 18.03.2026");
    line.spare.set(before.hits().to_vec());
    let handed: Vec<_> = line.hits().iter().map(|h| (h.list, h.at, h.end)).collect();
    assert_eq!(handed, fresh);
    assert!(!fresh.is_empty());
}

mod pgn;
mod quotes;
mod records;
mod signatures;

/// The words a mail server is asked for: every label as written, and `чёрные` as Russian also
/// writes it, so that a server matching whole words (Gmail) finds them as one matching
/// substrings (Dovecot) does.
#[test]
fn every_game_header_label_is_one_of_the_words_in_either_spelling() {
    let words = game_header_words();
    assert_eq!(
        words.event,
        [
            "соревнование",
            "турнир",
            "tournament",
            "competition",
            "event"
        ]
    );
    assert_eq!(words.white, ["белые", "white"]);
    assert_eq!(words.black, ["черные", "чёрные", "black"]);
    // A server that matches whole words finds each label as written.
    for (labels, words) in [
        (labels::EVENT, &words.event),
        (labels::WHITE, &words.white),
        (labels::BLACK, &words.black),
    ] {
        for label in labels {
            assert!(words.iter().any(|w| w == label), "{label}");
        }
    }
}

/// The lines kept of a letter are the sender's own, a run of blank lines as one: a game
/// header, then 19,000 blank lines (under the cap), then the move keeps five lines, and the
/// letter is read through.
#[test]
fn blank_lines_are_kept_as_one() {
    let text = format!(
        "Event: Кубок клуба\nWhite: Иванов\nBlack: Петров\n{}My move: 1. e4\nПетров\n",
        "\n".repeat(19_000)
    );
    let folded = fold(&text);
    let kept: Vec<&str> = own_text(&text, &folded).iter().map(|l| l.text).collect();
    assert_eq!(
        kept,
        [
            "Event: Кубок клуба",
            "White: Иванов",
            "Black: Петров",
            "",
            "My move: 1. e4",
            "Петров"
        ]
    );
    let msg = signed(&text, "Sun, 01 Mar 2026 12:00:00 +0300");
    assert_eq!(msg.new_move_text.as_deref(), Some("e4"));
    assert_eq!(msg.too_large, None);
}

/// A text over the caps is not read: one `unreadable` problem says it is too large, in both
/// languages, and no move is taken from it.
#[test]
fn a_text_over_the_caps_is_too_large_and_not_read() {
    let lines = format!("My move: 1. e4\n{}", "\n".repeat(MAX_LINES));
    let long = format!("My move: 1. e4\n{}", "x".repeat(MAX_TEXT_BYTES));
    let pgn = [format!("1. e4 e5\n{}", "\n".repeat(MAX_LINES / 2 + 10))];
    let rows = [
        (lines.as_str(), &[][..], TooLarge::Lines { max: MAX_LINES }),
        (
            long.as_str(),
            &[][..],
            TooLarge::Text {
                bytes: (MAX_TEXT_BYTES + 15) as u64,
                max: MAX_TEXT_BYTES as u64,
            },
        ),
        (
            &lines[..lines.len() / 2],
            &pgn[..],
            TooLarge::Lines { max: MAX_LINES },
        ),
    ];
    for (text, pgn, why) in rows {
        let msg = read(text, pgn, &envelope("Sun, 01 Mar 2026 12:00:00 +0300"));
        assert_eq!(msg.too_large, Some(why));
        assert_eq!(msg.new_move_text, None);
        assert_eq!(msg.problems.len(), 1);
        assert_eq!(msg.problems[0].code, ProblemCode::Unreadable);
        assert!(msg.problems[0].detail.starts_with("too large to read: "));
        assert!(msg.problems[0].detail_ru.starts_with("слишком большое"));
    }
    assert_eq!(
        TooLarge::Lines { max: MAX_LINES }.words().0,
        "too large to read: its text has more than 20000 lines"
    );
    // Just under the caps, a letter is read.
    let under = format!("My move: 1. e4\nПетров\n{}", "\n".repeat(MAX_LINES - 3));
    let msg = read(&under, &[], &envelope("Sun, 01 Mar 2026 12:00:00 +0300"));
    assert_eq!(
        (msg.too_large, msg.new_move_text.as_deref()),
        (None, Some("e4"))
    );
}
