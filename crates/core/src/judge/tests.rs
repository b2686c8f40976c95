//! The judgment, row by row of RULES.md's "What a message is, and when ccmail acts on its
//! own": each kind handled as its clause says; a fine only where ccmail is certain.

use super::*;
use crate::message::{Envelope, read};
use chrono::DateTime;

const OPP: &str = "petrov@example.org";
const ARB: &str = "arbiter@example.org";

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

/// The moves of `sans` from the initial position.
fn moves(sans: &[&str]) -> Vec<Move> {
    let mut pos = Chess::default();
    sans.iter()
        .map(|s| {
            let m = notation::read_move(&pos, s).unwrap();
            pos.play_unchecked(m);
            m
        })
        .collect()
}

struct Setup {
    plies: Vec<Move>,
    sent: Vec<NaiveDate>,
    offer: Vec<Move>,
    draw_by: Option<Color>,
    status: Status,
    /// A friendly game: no arbiter.
    friendly: bool,
    profile: Profile,
}

/// We are White and have played `sans` (each sent a day after the last, from 2026-03-02).
fn game(sans: &[&str]) -> Setup {
    let plies = moves(sans);
    let sent = (0..plies.len())
        .map(|i| d("2026-03-02") + chrono::Days::new(i as u64))
        .collect();
    Setup {
        plies,
        sent,
        offer: Vec::new(),
        draw_by: None,
        status: Status::Active,
        friendly: false,
        profile: Profile::Article51,
    }
}

impl Setup {
    fn view(&self) -> GameView<'_> {
        GameView {
            me: Color::White,
            plies: &self.plies,
            sent: &self.sent,
            start: d("2026-03-01"),
            status: self.status,
            language: Language::Ru,
            notation: Notation::Numeric,
            opponent: OPP,
            arbiter: (!self.friendly).then_some(ARB),
            our_offer: &self.offer,
            rejected_until: None,
            draw_offered_by: self.draw_by,
            profile: self.profile,
        }
    }

    /// The verdict on `text` from `from`, dated `date` and received `received`.
    fn judge_from(&self, from: &str, text: &str, date: &str, received: &str) -> Verdict {
        self.verdict(from, text, (date, received), false)
    }

    /// The verdict on `text` from the opponent when the player applies it (`inbox accept`).
    fn judge_confirmed(&self, text: &str) -> Verdict {
        self.verdict(OPP, text, ("2026-03-05", "2026-03-05"), true)
    }

    fn verdict(
        &self,
        from: &str,
        text: &str,
        (date, received): (&str, &str),
        confirmed: bool,
    ) -> Verdict {
        let envelope = Envelope {
            from: Some(from.into()),
            from_name: None,
            subject: None,
            date: Some(DateTime::parse_from_rfc3339(&format!("{date}T10:00:00+03:00")).unwrap()),
            replies: true,
            automatic: false,
        };
        let msg = read(text, &[], &envelope);
        judge(
            &self.view(),
            &Letter {
                from,
                msg: &msg,
                date_sent: envelope.date_sent(),
                received: d(received),
                confirmed,
            },
        )
    }

    fn judge(&self, text: &str) -> Verdict {
        self.judge_from(OPP, text, "2026-03-05", "2026-03-05")
    }
}

fn actions(v: &Verdict) -> Vec<Action> {
    match v {
        Verdict::Record { actions, .. } => actions.clone(),
        other => panic!("not a record: {other:?}"),
    }
}

fn fault(v: &Verdict) -> PenaltyCause {
    match v {
        Verdict::Fault(f) => f.cause,
        other => panic!("not a fault: {other:?}"),
    }
}

/// The reason a message is held, in English.
fn held(v: &Verdict) -> &str {
    &held_said(v).en
}

fn held_said(v: &Verdict) -> &Said {
    match v {
        Verdict::Hold(why) => why,
        other => panic!("not held: {other:?}"),
    }
}

/// What a record says, in English and in Russian.
fn recorded(v: &Verdict) -> &Said {
    match v {
        Verdict::Record { summary, .. } => summary,
        other => panic!("not a record: {other:?}"),
    }
}

/// A play's summary in `language`, joined as the app shows it.
fn summary(p: &Play, language: Language) -> String {
    p.summary
        .iter()
        .map(|s| s.in_language(language))
        .collect::<Vec<_>>()
        .join("; ")
}

fn played(v: &Verdict) -> &Play {
    match v {
        Verdict::Play(p) => p,
        other => panic!("not played: {other:?}"),
    }
}

/// A move message of the partner's (Black) after our 1. e4, in the standard form.
fn move_message(record: &str, mine: &str) -> String {
    format!(
        "Турнир: Кубок\nСтарт: 01.03.2026\nБелые: Иванов\nЧерные: Петров\n\
         Ходы: {record}\nВаш ход 1. 5254 отправлен: 02.03.2026\nПолучен: 03.03.2026\n\
         Мой ход: {mine}\nОтправлен: 05.03.2026\nПетров Пётр\n"
    )
}

#[test]
fn a_good_move_is_played_with_its_dates() {
    let g = game(&["e4"]);
    let v = g.judge(&move_message("1. 5254", "1... 5755"));
    let p = played(&v);
    assert_eq!(p.moves, moves(&["e4", "e5"])[1..]);
    assert_eq!((p.received, p.sent), (d("2026-03-03"), d("2026-03-05")));
    assert_eq!(p.result, None);
}

/// A receipt date that cannot be true (51.2.3): our move arriving before we sent it, or
/// after the partner sent his answer. The most probable date, our send date, is taken, and
/// said in our next reply; the partner is charged the days from it.
#[test]
fn a_receipt_date_that_cannot_be_true_is_taken_as_our_send_date() {
    let g = game(&["e4"]); // e4 sent 2026-03-02; his answer is dated 2026-03-05
    for (stated, why) in [
        (
            "01.03.2026",
            "the receipt date 2026-03-01 of our move 1. 5254 is before it was sent; taken as 2026-03-02 (51.2.3)",
        ),
        (
            "07.03.2026",
            "the receipt date 2026-03-07 of our move 1. 5254 is after the answer to it was sent; taken as 2026-03-02 (51.2.3)",
        ),
    ] {
        let text = move_message("1. 5254", "1... 5755")
            .replace("Получен: 03.03.2026", &format!("Получен: {stated}"));
        let p = played(&g.judge(&text)).clone();
        assert_eq!(
            (p.received, p.sent),
            (d("2026-03-02"), d("2026-03-05")),
            "{stated}"
        );
        assert!(
            p.notes.iter().any(|n| n.en == why),
            "{stated}: {:?}",
            p.notes
        );
    }
    // A true one stands, with no note about it.
    let p = played(&g.judge(&move_message("1. 5254", "1... 5755"))).clone();
    assert_eq!(p.received, d("2026-03-03"));
}

/// Certain faults (51.3.3–5, 51.4.7): each rule broken on purpose.
#[test]
fn certain_faults_are_fined() {
    let g = game(&["e4"]);
    let rows = [
        (
            move_message("1. 5254", "1... 5855"),
            PenaltyCause::Impossible,
        ),
        (
            move_message("1. 5254", "1... 9685"),
            PenaltyCause::Illegible,
        ),
        (
            move_message("1. 5253", "1... 5755"),
            PenaltyCause::WrongRepetition,
        ),
        (move_message("1. 5254", ""), PenaltyCause::NoMove),
        // A move number and no move: an empty move line, not a move "1".
        (move_message("1. 5254", "1..."), PenaltyCause::NoMove),
    ];
    for (text, cause) in rows {
        assert_eq!(fault(&g.judge(&text)), cause, "{text}");
    }
    // Ambiguous: both black knights (b8 and f6) can go to d7.
    let g = game(&["e4", "Nf6", "Nc3", "d6", "Nf3"]);
    let text = "Ходы: 1. e4 Nf6 2. Nc3 d6 3. Nf3\nВаш ход 3. Nf3 отправлен: 06.03.2026\n\
                Получен: 07.03.2026\nМой ход: 3... Nd7\nОтправлен: 08.03.2026\n";
    let v = g.judge_from(OPP, text, "2026-03-08", "2026-03-08");
    assert_eq!(fault(&v), PenaltyCause::Ambiguous);
}

/// ccmail's doubt is held, never fined (RULES.md: "Whatever it could not make sense of …").
#[test]
fn doubt_is_held() {
    let g = game(&["e4"]);
    let rows = [
        // The record runs past our move with moves we did not play or offer.
        (
            move_message("1. 5254 5755 2. 7163", "2... 2836"),
            "moves after our move",
        ),
        // No move line at all.
        (
            "Ходы: 1. 5254\nВаш ход 1. 5254 отправлен: 02.03.2026\nПолучен: 03.03.2026\n"
                .to_owned(),
            "no move of the sender's",
        ),
        // The record can't be read through.
        (
            move_message("1. 5254 9999", "1... 5755"),
            "could not be read through",
        ),
        // Our move is not shown anywhere it could be read.
        (
            "Мой ход: 1... 5755\nОтправлен: 05.03.2026\n".to_owned(),
            "does not show our move",
        ),
    ];
    for (text, why) in rows {
        let v = g.judge(&text);
        assert!(held(&v).contains(why), "{text}\n{v:?}");
    }
}

#[test]
fn a_break_notice_and_a_break_end_are_recorded() {
    let g = game(&["e4"]);
    let v = g.judge("Беру перерыв с 10.03.2026 по 20.03.2026\nПетров");
    assert_eq!(
        actions(&v),
        [Action::Break(BreakNotice {
            from: d("2026-03-10"),
            to: d("2026-03-20")
        })]
    );
    let v = g.judge("Заканчиваю перерыв: играю с 15.03.2026\nПетров");
    assert_eq!(actions(&v), [Action::EndBreak(d("2026-03-15"))]);
    // Without a date: from the day it was sent.
    let v = g.judge("I am ending my break early.\nPetrov");
    assert_eq!(actions(&v), [Action::EndBreak(d("2026-03-05"))]);
}

/// A partner's break that starts before the letter was sent (51.7.2: in advance) or runs past
/// a year's 30 days (51.7.1) is not recorded on ccmail's word: the arbiter may have allowed it
/// (51.7.7), which only the player knows. Held, with or without a move; recorded once the
/// player applies the letter. The letters here are sent on 2026-03-05.
#[test]
fn a_late_or_long_break_is_held_until_the_player_applies_it() {
    let g = game(&["e4"]);
    let late = "Беру перерыв с 01.03.2026 по 20.03.2026\nПетров";
    let long = "Taking a break from 2026-03-10 to 2026-04-15\nPetrov";
    for (text, why) in [
        (
            late,
            "starts before the letter was sent (2026-03-05): 51.7.2",
        ),
        (long, "37 days: more than the 30 a year of 51.7.1"),
    ] {
        let v = g.judge(text);
        assert!(held(&v).contains(why), "{text}\n{v:?}");
        assert!(held(&v).ends_with("apply the letter with `ccmail inbox accept`; else dismiss it"));
    }
    assert!(
        held_said(&g.judge(late))
            .ru
            .contains("начинается раньше, чем отправлено письмо (05.03.2026)")
    );
    // A move message that carries such a break is held too: neither applied nor fined.
    let with_move = move_message("1. 5254", "1... 5755").replace(
        "Петров Пётр",
        "Беру перерыв с 01.03.2026 по 20.03.2026\nПетров Пётр",
    );
    assert!(held(&g.judge(&with_move)).contains("starts before the letter was sent"));
    // Applied by the player: recorded as written.
    assert_eq!(
        actions(&g.judge_confirmed(late)),
        [Action::Break(BreakNotice {
            from: d("2026-03-01"),
            to: d("2026-03-20")
        })]
    );
    assert!(matches!(g.judge_confirmed(&with_move), Verdict::Play(_)));
    // Under the postal profile a late notice is good from its own date (10.4.2): recorded,
    // the clock counts it from then.
    let postal = Setup {
        profile: Profile::Postal104,
        ..game(&["e4"])
    };
    assert_eq!(
        actions(&postal.judge(late)),
        [Action::Break(BreakNotice {
            from: d("2026-03-01"),
            to: d("2026-03-20")
        })]
    );
    assert!(held(&postal.judge(long)).contains("37 days"));
    // From the letter's own day, 30 days: recorded.
    assert_eq!(
        actions(&g.judge("Беру перерыв с 05.03.2026 по 03.04.2026\nПетров")),
        [Action::Break(BreakNotice {
            from: d("2026-03-05"),
            to: d("2026-04-03")
        })]
    );
}

/// A move line numbered as our move that does not read as theirs may be our own letter, sent
/// back or pasted: held, not fined. Numbered so but legal for them, it is their move, written
/// with the wrong number.
#[test]
fn a_move_numbered_as_ours_that_does_not_fit_is_held_not_fined() {
    let g = game(&["e4"]);
    let v = g.judge(&move_message("1. 5254", "2. 4244"));
    let why = held(&v);
    assert!(
        why.contains("numbered as White's move, which is ours"),
        "{why}"
    );
    let v = g.judge(&move_message("1. 5254", "1. 5755"));
    assert_eq!(played(&v).moves, moves(&["e4", "e5"])[1..]);
    // Numbered as theirs, the same impossible move is their fault.
    assert!(matches!(
        g.judge(&move_message("1. 5254", "1... 4244")),
        Verdict::Fault(_)
    ));
}

#[test]
fn an_address_change_from_the_address_on_file_records_the_new_address() {
    let g = game(&["e4"]);
    let text = "Мой новый адрес электронной почты: petrov@new.example.net (51.1.2)\nПетров";
    assert_eq!(
        actions(&g.judge(text)),
        [Action::NewAddress("petrov@new.example.net".into())]
    );
    // From another address: held, the address on file stays.
    let v = g.judge_from("someone@example.com", text, "2026-03-05", "2026-03-05");
    assert!(held(&v).contains("not the address on file"), "{v:?}");
    // The arbiter's address is never the opponent's.
    let text = "My new e-mail address: arbiter@example.org\nPetrov";
    assert!(held(&g.judge(text)).contains("arbiter"));
}

#[test]
fn the_arbiters_letters_are_held_for_the_player_and_never_change_the_opponent() {
    let g = game(&["e4"]);
    for text in [
        "Dear players, the first control falls at move 10.\nTournament director",
        "My new e-mail address: td@new.example.org\nTD",
        "The game Ivanov – Petrov is resumed.\nArbiter",
    ] {
        let v = g.judge_from(ARB, text, "2026-03-05", "2026-03-05");
        assert!(held(&v).contains("from the arbiter"), "{v:?}");
    }
}

#[test]
fn a_correction_request_is_shown_and_a_lost_move_is_sent_again() {
    let g = game(&["e4"]);
    let v = g.judge("Your move 1. 5254 can't be played, please correct it.\nPetrov");
    assert!(
        held(&v).contains("asks us to correct our move 1. 5254"),
        "{v:?}"
    );
    let v = g.judge("Ваш ход ко мне не пришёл, повторите, пожалуйста.\nПетров");
    assert_eq!(actions(&v), [Action::ResendOurLast]);
    // While it is our move there is no move of ours awaiting an answer: for the player.
    let g = game(&["e4", "e5"]);
    let v = g.judge("Ваш ход ко мне не пришёл, повторите, пожалуйста.\nПетров");
    held(&v);
}

#[test]
fn repeats_that_cross_and_repeats_that_show_a_loss() {
    // We answered 1... e5 with 2. Nf3 on 2026-03-04 (sent dates 02, 03, 04).
    let g = game(&["e4", "e5", "Nf3"]);
    let repeat = "Ходы: 1. 5254\nМой ход: 1... 5755\nПОВТОР хода от 03.03.2026\nПетров";
    // Sent on the day after ours: it crossed ours in the post.
    let v = g.judge_from(OPP, repeat, "2026-03-05", "2026-03-05");
    assert_eq!(actions(&v), []);
    // Sent ten days after ours: ours was lost.
    let v = g.judge_from(OPP, repeat, "2026-03-14", "2026-03-14");
    assert_eq!(actions(&v), [Action::ResendOurLast]);
    // A repeat of their move we have, while it is our move: our answer goes Cc (51.5.1).
    let g = game(&["e4", "e5"]);
    let v = g.judge(repeat);
    assert_eq!(actions(&v), [Action::CcAnswer]);
    // In a friendly game there is no arbiter to copy: the repeat is simply recorded.
    let friendly = Setup {
        friendly: true,
        ..game(&["e4", "e5"])
    };
    assert_eq!(actions(&friendly.judge(repeat)), []);
}

#[test]
fn in_a_friendly_game_the_address_that_is_nobodys_arbiter_is_the_partners_new_one() {
    let g = Setup {
        friendly: true,
        ..game(&["e4"])
    };
    let text = "My new e-mail address: arbiter@example.org\nPetrov";
    assert_eq!(
        actions(&g.judge(text)),
        [Action::NewAddress("arbiter@example.org".into())]
    );
}

#[test]
fn a_claim_suspends_the_game_and_notes_change_nothing() {
    let g = game(&["e4"]);
    let v = g.judge("Заявляю о просрочке времени (51.6): белые превысили контроль на 10-м ходу.");
    assert_eq!(actions(&v), [Action::Suspend]);
    let v = g.judge("Adjudication request (51.9.4): 0-1\nReasoning: the ending is lost.");
    assert_eq!(actions(&v), []);
    let v = g.judge("Спасибо, ход получил. Подумаю пару дней.\nПетров");
    assert_eq!(actions(&v), []);
    // A bare move with nothing of the 51.2 form around it: held, neither applied nor ignored.
    let letter = Letter {
        from: OPP,
        msg: &crate::message::MoveMessage {
            kind: MessageKind::Note,
            new_move_text: Some("e5".into()),
            ..Default::default()
        },
        date_sent: None,
        received: d("2026-03-05"),
        confirmed: false,
    };
    assert!(held(&judge(&g.view(), &letter)).contains("names the move \"e5\""));
}

#[test]
fn draws_resignations_and_finished_games() {
    let mut g = game(&["e4"]);
    assert!(held(&g.judge("Ничья принята.\nПетров")).contains("no draw offer"));
    g.draw_by = Some(Color::White);
    let p = played(&g.judge("Ничья принята.\nПетров")).clone();
    assert_eq!(p.result, Some(("1/2-1/2", Ending::Agreement)));
    let p = played(&g.judge("Сдаюсь.\nПетров")).clone();
    assert_eq!(p.result, Some(("1-0", Ending::Resignation)));
    g.status = Status::Finished;
    assert!(held(&g.judge(&move_message("1. 5254", "1... 5755"))).contains("finished"));
}

/// 51.3.8: the accepted moves of our variation, then the partner's reply; 51.3.9: with no
/// reply on an empty move line, a fault.
#[test]
fn an_accepted_variation_is_played_move_by_move() {
    let mut g = game(&["e4"]);
    // We offered 1... e5 2. Nf3 with 1. e4.
    g.offer = moves(&["e4", "e5", "Nf3"])[1..].to_vec();
    let text = move_message("1. 5254 5755 2. 7163", "2... 2836");
    let p = played(&g.judge(&text)).clone();
    assert_eq!(p.moves, moves(&["e4", "e5", "Nf3", "Nc6"])[1..]);
    assert_eq!((p.accepted, p.offer_followed), (2, 2));
    let text = move_message("1. 5254 5755 2. 7163", "");
    assert_eq!(fault(&g.judge(&text)), PenaltyCause::NoMove);
}

/// The accepted moves written where partners write them: on the move line before the reply,
/// or on a line of their own that says so. Numbered past the variation without its moves,
/// the move is held: which move the partner means is not certain.
#[test]
fn an_accepted_variation_written_outside_the_record() {
    let mut g = game(&["e4"]);
    g.offer = moves(&["e4", "e5", "Nf3"])[1..].to_vec();
    for (record, mine, extra) in [
        ("1. 5254", "1... 5755 2. 7163 2836", ""),
        ("1. 5254", "1... e5 2. Nf3 Nc6", ""),
        (
            "1. 5254",
            "2... 2836",
            "Принимаю вариант: 1... 5755 2. 7163\n",
        ),
        (
            "1. 5254",
            "2... Nc6",
            "Variation accepted: 1... e5 2. Nf3\n",
        ),
    ] {
        let text = move_message(record, mine).replace("Мой ход:", &format!("{extra}Мой ход:"));
        let p = played(&g.judge(&text)).clone();
        assert_eq!(
            p.moves,
            moves(&["e4", "e5", "Nf3", "Nc6"])[1..],
            "{mine} {extra}"
        );
        assert_eq!(p.accepted, 2, "{mine} {extra}");
    }
    // 2... Nc6 with no word of the variation: 1... Nc6 is legal too, and is not what he means.
    let v = g.judge(&move_message("1. 5254", "2... 2836"));
    assert!(
        held(&v).contains("numbered as after our variation"),
        "{v:?}"
    );
    // Numbered as due, it is his move, the variation declined.
    let p = played(&g.judge(&move_message("1. 5254", "1... 2836"))).clone();
    assert_eq!(p.moves, moves(&["e4", "Nc6"])[1..]);
}

/// What the judge says is said in Russian too, for a player whose interface speaks it.
#[test]
fn what_the_judge_says_is_said_in_russian_too() {
    let g = game(&["e4"]);
    // An applied move.
    let p = played(&g.judge(&move_message("1. 5254", "1... 5755"))).clone();
    assert_eq!(summary(&p, Language::En), "applied 1... e5 by Black");
    assert_eq!(summary(&p, Language::Ru), "применён ход чёрных 1... e5");
    // A move with a draw offer.
    let text = move_message("1. 5254", "1... 5755\nПредлагаю ничью.");
    let p = played(&g.judge(&text)).clone();
    assert_eq!(
        summary(&p, Language::En),
        "applied 1... e5 by Black; offers a draw"
    );
    assert_eq!(
        summary(&p, Language::Ru),
        "применён ход чёрных 1... e5; предлагает ничью"
    );
    // A resignation.
    let p = played(&g.judge("Сдаюсь.\nПетров")).clone();
    assert_eq!(summary(&p, Language::En), "Black resigns; result 1-0");
    assert_eq!(summary(&p, Language::Ru), "Чёрные сдаются; результат 1-0");
    // An impossible move in the record (e2-e5): held, saying where, in either language.
    let v = g.judge(&move_message("1. 5255", "1... 5755"));
    let why = held_said(&v);
    assert!(
        why.en.starts_with(
            "the move record could not be read through (move 1. 5255 (in the move record): "
        ),
        "{why:?}"
    );
    assert!(
        why.ru.starts_with(
            "запись ходов не удалось прочитать до конца (ход 1. 5255 в записи ходов: "
        ),
        "{why:?}"
    );
    // An impossible new move: the fault the app holds for the player, in either language.
    let v = g.judge(&move_message("1. 5254", "1... 5855"));
    let Verdict::Fault(f) = &v else {
        panic!("not a fault: {v:?}")
    };
    assert!(
        f.what.en.starts_with("the move 1... 5855: "),
        "{:?}",
        f.what
    );
    assert!(
        f.what.ru.starts_with("ход 1... 5855 невозможен (51.3.4): "),
        "{:?}",
        f.what
    );
    // A break, with its dates as Russian writes them.
    let v = g.judge("Беру перерыв с 10.03.2026 по 20.03.2026\nПетров");
    assert_eq!(
        recorded(&v).en,
        "Black takes a break from 2026-03-10 to 2026-03-20"
    );
    assert_eq!(
        recorded(&v).ru,
        "Чёрные берут перерыв с 10.03.2026 по 20.03.2026"
    );
    // A doubt: no draw offer of ours to accept.
    let v = g.judge("Ничья принята.\nПетров");
    assert_eq!(
        held_said(&v).ru,
        "в нём принимается ничья, но в этой партии мы ничью не предлагали"
    );
}
