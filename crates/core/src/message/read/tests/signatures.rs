//! The signature is the sender's name line (after `-- ` when there is one), never a client's
//! footer.

use super::*;

const FORM: &str = "Мой ход: 1. 5254\nОтправлен: 06.10.2026\n\n";

fn signature_of(text: &str) -> Option<Signature> {
    read(text, &[], &envelope("Tue, 6 Oct 2026 10:00:00 +0300")).signature
}

#[test]
fn client_footers_are_not_the_signature() {
    for footer in [
        "Sent from my iPhone",
        "Отправлено с iPhone",
        "Отправлено из мобильной Почты Mail.ru",
        "Sent from Mail.ru app for Android",
        "-- \nYandex.Mail",
        "-- \nОтправлено из мобильной Яндекс Почты",
        "Get Outlook for Android",
        "Sent with Proton Mail secure email.",
    ] {
        let text = format!("{FORM}Иван Петров\n\n{footer}\n");
        let sig = signature_of(&text);
        assert_eq!(
            sig.as_ref().map(|s| s.name.as_str()),
            Some("Иван Петров"),
            "{footer:?}"
        );
        assert_eq!(sig.unwrap().email.as_deref(), Some("partner@example.org"));
        let text = format!("{FORM}Иван Петров <ivan@example.org>\n\n{footer}\n");
        assert_eq!(
            signature_of(&text).and_then(|s| s.email),
            Some("ivan@example.org".into()),
            "{footer:?}"
        );
    }
}

#[test]
fn the_name_after_the_signature_dash_is_the_signature() {
    let text = format!("{FORM}Всего доброго!\n-- \nИван Петров\nШахклуб Ладья, Тверь\n");
    let sig = signature_of(&text);
    assert_eq!(sig.map(|s| s.name), Some("Иван Петров".into()));
    // A footer after the name block is passed over there too.
    let text = format!("{FORM}-- \nИван Петров\n\nSent from my iPhone\n");
    assert_eq!(
        signature_of(&text).map(|s| s.name),
        Some("Иван Петров".into())
    );
}
