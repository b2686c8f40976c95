use chrono::NaiveDate;
use shakmaty::Color::{Black, White};

use super::*;
use crate::clock::PenaltyCause;
use crate::message::{Envelope, read};

fn d(text: &str) -> NaiveDate {
    text.parse().expect("a date")
}

const CHESSBASE: &str = include_str!("../../../../tests/fixtures/import/chessbase.pgn");

#[test]
fn a_chessbase_game_with_ccsnt_dates() {
    let games = from_pgn(CHESSBASE).expect("reads");
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.event.as_deref(), Some("ICCF Email 2026"));
    assert_eq!(g.start, Some(d("2026-03-01")));
    assert_eq!(g.control, Control::new(10, 60).ok());
    assert_eq!(g.moves.len(), 4, "the variation is not the main line");
    assert_eq!(
        g.dates[1].sent,
        Some(d("2026-03-04")),
        "a time after the comma"
    );
    assert_eq!(g.color_of("PETROV@example.org", ""), Some(Black));
    assert_eq!(g.email_of(White), Some("ivanov@example.org"));
    let h = g.history(d("2026-03-01"));
    assert_eq!(h.carried, None, "every ply is dated");
    // 51.2.3: a receipt date not given is the previous move's send date.
    let dates: Vec<_> = h.plies.iter().map(|p| (p.received, p.sent)).collect();
    assert_eq!(
        dates,
        vec![
            (d("2026-03-01"), d("2026-03-02")),
            (d("2026-03-02"), d("2026-03-04")),
            (d("2026-03-04"), d("2026-03-06")),
            (d("2026-03-06"), d("2026-03-09")),
        ]
    );
}

#[test]
fn ccmail_s_own_comments_give_the_receipt_dates() {
    let text = "[Event \"Cup\"]\n[Date \"2026.03.01\"]\n[White \"A\"]\n[Black \"B\"]\n\
                [Result \"*\"]\n\n1. e4 {[%ccsnt 2026.03.02] [%ccrcv 2026.03.01] [%ccdays 1]} \
                e5 {[%ccsnt 2026.03.05] [%ccrcv 2026.03.03] [%ccdays 2]} *\n";
    let g = &from_pgn(text).unwrap()[0];
    assert_eq!(
        g.dates[1],
        PlyDates {
            received: Some(d("2026-03-03")),
            sent: Some(d("2026-03-05"))
        }
    );
}

#[test]
fn ccmail_s_earlier_export_comments_are_read_too() {
    let text = "[Event \"Cup\"]\n[Date \"2026.03.01\"]\n[TimeControl \"10/60d\"]\n\n\
                1. e4 {received 2026-03-01, sent\n2026-03-02, 1 day(s)} *\n";
    let g = &from_pgn(text).unwrap()[0];
    assert_eq!(g.dates[0].sent, Some(d("2026-03-02")));
    assert_eq!(g.control, Control::new(10, 60).ok());
}

#[test]
fn a_lichess_game_has_no_dates_and_says_so() {
    let text = "[Event \"Casual correspondence game\"]\n[Site \"https://lichess.org/abcdefgh\"]\n\
                [Date \"2026.02.11\"]\n[White \"ivanov\"]\n[Black \"petrov\"]\n[Result \"*\"]\n\
                [TimeControl \"-\"]\n\n1. d4 { [%clk 72:00:00] } 1... Nf6 { [%clk 71:59:58] } \
                2. c4 { [%clk 71:10:00] } *\n";
    let g = &from_pgn(text).unwrap()[0];
    assert_eq!((g.moves.len(), g.control), (3, None));
    assert_eq!(g.color_of("x@y", "Petrov"), Some(Black), "by the name");
    let h = g.history(d("2026-02-11"));
    assert_eq!(
        h.carried,
        Some(Carried {
            through: 3,
            white: 0,
            black: 0
        })
    );
    assert_eq!(h.notes.len(), 1, "{:?}", h.notes);
}

#[test]
fn several_games_tags_on_one_line_escapes_and_nags() {
    let text = "% an escape line\n[Event \"One\"] [White \"A\"] [Black \"B\"]\n\n\
                1. e4 $2 e5 ; a comment to the end of the line\n2. Nf3 1-0\n\n\
                [Event \"Two\"]\n\n1. d4 d5 2. c4 *\n";
    let games = from_pgn(text).unwrap();
    let counts: Vec<_> = games
        .iter()
        .map(|g| (g.event.clone(), g.moves.len()))
        .collect();
    assert_eq!(
        counts,
        vec![(Some("One".into()), 3), (Some("Two".into()), 3)]
    );
    assert_eq!(games[0].result, None, "no Result tag");
}

#[test]
fn a_broken_pgn_is_refused_in_words() {
    let text = "[Event \"Cup\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Ke3 *\n";
    let err = from_pgn(text).unwrap_err().to_string();
    assert!(err.contains("game 1") && err.contains("Ke3"), "{err}");
}

#[test]
fn time_controls() {
    assert_eq!(time_control("10/5184000"), Control::new(10, 60).ok());
    assert_eq!(time_control("10/60d"), Control::new(10, 60).ok());
    assert_eq!(time_control("40/9000"), None, "not whole days");
    assert_eq!(time_control("180+2"), None);
}

const HAND_WRITTEN: &str = "Привет!\n\n\
Турнир: Кубок клуба 2026\nСтарт: 01.03.2026\nБелые: Иванов\nЧерные: Петров\n\
Ходы: 1. 3234 7776 2. 4243 6765 3. 5253 5756 4. 4185 7866 5. 5142 6678 6. 2113 6824 \
7. 4232 1715 8. 5354 5857 9. 5455 7886 10. 1321 4868 11. 8541 3736 12. 7152 1514 13. 3142 1815 \
14. 4253 1555 15. 5331 2446 16. 7274 5535 17. 1213 6564 18. 5244 2816 19. 8171 6848 \
20. 4436\nВаш ход 20. 4436 отправлен: 20.06.2026\nПолучен: 22.06.2026\n\
Мой ход: 20... 5767\nОтправлен: 24.06.2026\nВремя на ход: 2\n\
Итого дней: белые 41, черные 38\n\nПетров Пётр <petrov@example.org>\n";

fn envelope(from: &str) -> Envelope {
    Envelope {
        from: Some(from.into()),
        ..Envelope::default()
    }
}

#[test]
fn a_partner_s_hand_written_message_at_move_20() {
    let env = envelope("petrov@example.org");
    let msg = read(HAND_WRITTEN, &[], &env);
    assert!(msg.problems.is_empty(), "{:?}", msg.problems);
    let letter = Letter {
        envelope: &env,
        message: &msg,
        arrived: Some(d("2026-06-25")),
        cc: vec!["arbiter@example.org".into()],
        text: "",
    };
    let g = from_letters(&[letter], "ivanov@example.org").expect("a game");
    assert_eq!(g.moves.len(), 40);
    assert_eq!(g.color_of("ivanov@example.org", "Иванов"), Some(White));
    assert_eq!(g.email_of(Black), Some("petrov@example.org"));
    assert_eq!(g.last_received, Some(d("2026-06-25")));
    assert_eq!(g.cc, vec!["arbiter@example.org".to_owned()]);
    assert_eq!(
        g.dates[38].sent,
        Some(d("2026-06-20")),
        "our move's confirmed date"
    );
    let h = g.history(d("2026-03-01"));
    assert_eq!(
        h.carried,
        Some(Carried {
            through: 40,
            white: 41,
            black: 38
        })
    );
    assert_eq!(
        (h.plies[39].received, h.plies[39].sent),
        (d("2026-06-22"), d("2026-06-24"))
    );
}

#[test]
fn every_message_of_an_mbox_gives_its_dates() {
    let form =
        |record: &str, your: &str, (your_sent, received): (&str, &str), mine: &str, sent: &str| {
            format!(
                "Турнир: Кубок\nСтарт: 01.03.2026\nБелые: Иванов\nЧерные: Петров\n\
             Ходы: {record}\nВаш ход {your} отправлен: {your_sent}\nПолучен: {received}\n\
             Мой ход: {mine}\nОтправлен: {sent}\n"
            )
        };
    let me = envelope("ivanov@example.org");
    let him = envelope("petrov@example.org");
    let texts = [
        (&me, "Турнир: Кубок\nСтарт: 01.03.2026\nБелые: Иванов\nЧерные: Петров\nМой ход: 1. 5254\nОтправлен: 02.03.2026\n".to_owned(), None),
        (&him, form("1. 5254", "1. 5254", ("02.03.2026", "03.03.2026"), "1... 5755", "04.03.2026"), Some("2026-03-05")),
        (&me, form("1. 5254 5755", "1... 5755", ("04.03.2026", "05.03.2026"), "2. 7163", "07.03.2026"), None),
    ];
    let read_all: Vec<_> = texts
        .iter()
        .map(|(env, text, _)| read(text, &[], env))
        .collect();
    let letters: Vec<_> = texts
        .iter()
        .zip(&read_all)
        .map(|((env, _, arrived), m)| Letter {
            envelope: env,
            message: m,
            arrived: arrived.map(d),
            cc: vec![],
            text: "",
        })
        .collect();
    let g = from_letters(&letters, "ivanov@example.org").unwrap();
    assert_eq!(g.moves.len(), 3);
    let h = g.history(d("2026-03-01"));
    assert_eq!(h.carried, None, "every ply dated by some message");
    let dates: Vec<_> = h.plies.iter().map(|p| (p.received, p.sent)).collect();
    assert_eq!(
        dates,
        vec![
            (d("2026-03-01"), d("2026-03-02")),
            (d("2026-03-03"), d("2026-03-04")),
            (d("2026-03-05"), d("2026-03-07")),
        ]
    );
    assert_eq!(g.last_received, None, "the last message is ours");
}

#[test]
fn ccmail_s_penalties_come_back_from_its_pgn() {
    let pgn = "[Event \"Cup\"]\n[White \"A\"]\n[Black \"B\"]\n\n1. e4 {[%ccsnt 2026.03.02]} \
               c5 {[%ccsnt 2026.03.04] [%ccpen black 2 wrong_repetition] [%ccpen white 1 \
               late_repeat] [%ccpen black 2 no_such_cause]} *\n";
    let g = &from_pgn(pgn).expect("reads")[0];
    let pens: Vec<_> = g
        .penalties
        .iter()
        .map(|p| (p.player, p.days, p.cause, p.ply))
        .collect();
    assert_eq!(
        pens,
        vec![
            (Black, 2, PenaltyCause::WrongRepetition, 2),
            (White, 1, PenaltyCause::LateRepeat, 2),
        ],
        "a cause this version does not know is left out"
    );
}
