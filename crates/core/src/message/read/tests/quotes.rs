//! Quoted mail in each common client's style is not the new message (message-form.md,
//! "layout"): the new form above or below the quote, and the quote holding an older form
//! whose record and move would spoil the new one if they were read.

use super::*;

/// The new message: the record up to 2. Nf3, Black's new move 2... Nc6, a short sign-off.
const NEW: &str = "\
Ходы: 1. 5254 5755 2. 7163
Мой ход: 2... 2836
Отправлен: 06.10.2026

Иван Петров
";

/// The partner's older message, as the quote carries it.
const OLD: &str = "\
Ходы: 1. 4244
Мой ход: 1... 4745
Отправлен: 05.10.2026

Пётр Сидоров <petr@example.org>";

/// `OLD` with `prefix` before each line.
fn quoted(prefix: &str) -> String {
    OLD.lines().map(|l| format!("{prefix}{l}\n")).collect()
}

/// Whether the message read is `NEW` alone, in words when it is not.
fn check_new_only(name: &str, text: &str) {
    let msg = read(text, &[], &envelope("Tue, 6 Oct 2026 10:00:00 +0300"));
    assert_eq!(sans(&msg.moves), ["e4", "e5", "Nf3"], "{name}:\n{text}");
    assert_eq!(
        msg.new_move
            .map(|m| notation::san(&msg.position_before(), m)),
        Some("Nc6".into()),
        "{name}:\n{text}"
    );
    assert_eq!(msg.sent, Some(d("2026-10-06")), "{name}");
    assert_eq!(
        msg.signature.as_ref().map(|s| s.name.as_str()),
        Some("Иван Петров"),
        "{name}:\n{text}"
    );
    assert!(
        !msg.has(ProblemCode::ImpossibleMove) && !msg.has(ProblemCode::IllegibleMove),
        "{name}: {:?}",
        msg.problems
    );
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn quotes_of_every_client_are_not_the_new_message() {
    let outlook_en = format!(
        "________________________________\nFrom: Пётр Сидоров <petr@example.org>\n\
         Sent: Monday, October 5, 2026 10:00 AM\nTo: Иван Петров <ivan@example.org>\n\
         Subject: Кубок 2026\n\n{OLD}\n"
    );
    let outlook_ru = format!(
        "________________________________\nОт: Пётр Сидоров <petr@example.org>\n\
         Отправлено: 5 октября 2026 г. 10:00\nКому: Иван Петров <ivan@example.org>\n\
         Тема: Кубок 2026\n\n{OLD}\n"
    );
    let above: Vec<(&str, String)> = vec![
        ("'>' lines", format!("\n{}", quoted("> "))),
        (
            "Gmail",
            format!(
                "\nOn Mon, 5 Oct 2026 at 10:00, Пётр Сидоров <petr@example.org> wrote:\n\n{}",
                quoted("> ")
            ),
        ),
        (
            "Gmail, the attribution wrapped",
            format!(
                "\nOn Mon, 5 Oct 2026 at 10:00, Пётр Сидоров <petr@example.org>\nwrote:\n\n{}",
                quoted("> ")
            ),
        ),
        (
            "Thunderbird",
            format!("\n05.10.2026 10:00, Пётр Сидоров пишет:\n{}", quoted("> ")),
        ),
        (
            "Thunderbird, the attribution wrapped",
            format!(
                "\n05.10.2026 10:00, Пётр Сидоров <petr@example.org>\nпишет:\n{}",
                quoted("> ")
            ),
        ),
        (
            "Apple Mail",
            format!(
                "\nOn 5 Oct 2026, at 10:00, Пётр Сидоров <petr@example.org> wrote:\n\n{}",
                quoted("> ")
            ),
        ),
        (
            "Yandex",
            format!(
                "\n05.10.2026, 10:00, \"Пётр Сидоров\" <petr@example.org>:\n{}",
                quoted("> ")
            ),
        ),
        (
            "Mail.ru",
            format!(
                "\nПонедельник, 5 октября 2026, 10:00 +03:00 от Пётр Сидоров <petr@example.org>:\n{}",
                quoted("> ")
            ),
        ),
        (
            "Mutt",
            format!(
                "\n* Пётр Сидоров <petr@example.org> [2026-10-05 10:00]:\n{}",
                quoted("> ")
            ),
        ),
        (
            "The Bat!, Russian",
            format!(
                "\nВы писали 5 октября 2026 г., 10:00:05:\n\n{} ИП>\n",
                quoted("ПС> ")
            ),
        ),
        (
            "The Bat!, English",
            format!(
                "\nYou wrote on 5 October 2026, 10:00:05:\n\n{}",
                quoted("AB> ")
            ),
        ),
        (
            "Outlook, Original Message",
            format!(
                "\n-----Original Message-----\nFrom: Пётр Сидоров <petr@example.org>\n\
                 Sent: Monday, October 5, 2026 10:00 AM\n\n{OLD}\n"
            ),
        ),
        (
            "Outlook, Исходное сообщение",
            format!(
                "\n-----Исходное сообщение-----\nОт: Пётр Сидоров <petr@example.org>\n\
                 Отправлено: 5 октября 2026 г. 10:00\n\n{OLD}\n"
            ),
        ),
        ("Outlook's rule, English", format!("\n{outlook_en}")),
        ("Outlook's rule, Russian", format!("\n{outlook_ru}")),
        (
            "a quoted attribution",
            format!(
                "\n> On Mon, 5 Oct 2026 at 10:00, Пётр Сидоров <petr@example.org> wrote:\n{}",
                quoted("> > ")
            ),
        ),
    ];
    for (name, quote) in &above {
        check_new_only(name, &format!("{NEW}{quote}"));
    }
}

#[test]
fn a_reply_below_the_quote_is_the_new_message() {
    let below = [
        (
            "Gmail",
            format!(
                "On Mon, 5 Oct 2026 at 10:00, Пётр Сидоров <petr@example.org> wrote:\n{}\n",
                quoted("> ")
            ),
        ),
        (
            "The Bat!",
            format!(
                "Вы писали 5 октября 2026 г., 10:00:05:\n\n{}\n",
                quoted("ПС> ")
            ),
        ),
        (
            "Mail.ru, wrapped",
            format!(
                "Понедельник, 5 октября 2026, 10:00 +03:00 от Пётр Сидоров\n<petr@example.org>:\n{}\n",
                quoted("> ")
            ),
        ),
    ];
    for (name, quote) in &below {
        check_new_only(name, &format!("{quote}{NEW}"));
    }
}
