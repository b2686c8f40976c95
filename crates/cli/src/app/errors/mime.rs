//! The MIME decoder's notes (ccmail-mail's [`MimeNote`]) in the interface's words.
//!
//! Each note's English is its `Display`, byte for byte; what comes from the message (a date,
//! a header's name, a charset label, a boundary) passes through as it is, quoted where the
//! English quotes it.

use ccmail_mail::mime::{MimeNote, ReadAs, Whose};

use crate::i18n::{Arg, Catalogue};

/// `note` in `c`'s words.
pub(super) fn words(note: &MimeNote, c: &Catalogue) -> String {
    let whose = |w: &Whose| ("whose", Arg::Text(whose(w, c)));
    match note {
        MimeNote::BadDate { value } => c.text("mime-bad-date", &[("value", quoted(value))]),
        MimeNote::BadReceivedDate { value } => {
            c.text("mime-bad-received-date", &[("value", quoted(value))])
        }
        MimeNote::RawHeaderBytes { field } => {
            c.text("mime-raw-header-bytes", &[("field", field.as_str().into())])
        }
        MimeNote::UnclosedAddress { value } => {
            c.text("mime-unclosed-address", &[("value", quoted(value))])
        }
        MimeNote::TooDeep { max } => c.text("mime-too-deep", &[("max", (*max).into())]),
        MimeNote::TooManyParts { max } => c.text("mime-too-many-parts", &[("max", (*max).into())]),
        MimeNote::NoBoundary { mimetype } => {
            c.text("mime-no-boundary", &[("type", mimetype.as_str().into())])
        }
        MimeNote::NoPartFound { mimetype, boundary } => c.text(
            "mime-no-part-found",
            &[
                ("type", mimetype.as_str().into()),
                ("boundary", quoted(boundary)),
            ],
        ),
        MimeNote::NoClosingBoundary { mimetype } => c.text(
            "mime-no-closing-boundary",
            &[("type", mimetype.as_str().into())],
        ),
        MimeNote::TextFromAttachment => c.text("mime-text-from-attachment", &[]),
        MimeNote::NoText => c.text("mime-no-text", &[]),
        MimeNote::BrokenBase64 { whose: w } => c.text("mime-broken-base64", &[whose(w)]),
        MimeNote::UnknownEncoding { whose: w, encoding } => c.text(
            "mime-unknown-encoding",
            &[whose(w), ("encoding", quoted(encoding))],
        ),
        MimeNote::NoCharset { whose: w } => c.text("mime-no-charset", &[whose(w)]),
        MimeNote::EightBit {
            whose: w,
            label,
            read_as,
        } => c.text(
            "mime-eight-bit",
            &[
                whose(w),
                ("label", label.as_str().into()),
                ("read_as", read(*read_as)),
            ],
        ),
        MimeNote::InvalidBytes { whose: w, label } => c.text(
            "mime-invalid-bytes",
            &[whose(w), ("label", label.as_str().into())],
        ),
        MimeNote::UnknownCharset {
            whose: w,
            label,
            read_as,
        } => c.text(
            "mime-unknown-charset",
            &[
                whose(w),
                ("label", quoted(label)),
                ("read_as", read(*read_as)),
            ],
        ),
    }
}

/// Which text a note is about, in `c`'s words.
fn whose(w: &Whose, c: &Catalogue) -> String {
    match w {
        Whose::Body => c.text("mime-whose-body", &[]),
        Whose::Part(mimetype) => c.text("mime-whose-part", &[("type", mimetype.as_str().into())]),
        Whose::EncodedWord => c.text("mime-whose-word", &[]),
    }
}

/// The catalogue's selector for how the text was read.
fn read(read_as: ReadAs) -> Arg {
    match read_as {
        ReadAs::Utf8 => "utf8".into(),
        ReadAs::Windows1251 => "windows-1251".into(),
    }
}

/// A value from the message, quoted as the note's English quotes it.
fn quoted(text: &str) -> Arg {
    Arg::Text(format!("{text:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// One note of each kind, and each way a charset guess ends.
    fn samples() -> Vec<MimeNote> {
        let part = || Whose::Part("text/html".to_owned());
        vec![
            MimeNote::BadDate {
                value: "the day after tomorrow".into(),
            },
            MimeNote::BadReceivedDate {
                value: "not a \"date\"".into(),
            },
            MimeNote::RawHeaderBytes {
                field: "Subject".into(),
            },
            MimeNote::UnclosedAddress {
                value: "Name <a@b".into(),
            },
            MimeNote::TooDeep {
                max: ccmail_mail::mime::MAX_DEPTH,
            },
            MimeNote::TooManyParts {
                max: ccmail_mail::mime::MAX_PARTS,
            },
            MimeNote::TooManyParts { max: 21 },
            MimeNote::NoBoundary {
                mimetype: "multipart/mixed".into(),
            },
            MimeNote::NoPartFound {
                mimetype: "multipart/mixed".into(),
                boundary: "b1".into(),
            },
            MimeNote::NoClosingBoundary {
                mimetype: "multipart/alternative".into(),
            },
            MimeNote::TextFromAttachment,
            MimeNote::NoText,
            MimeNote::BrokenBase64 { whose: Whose::Body },
            MimeNote::UnknownEncoding {
                whose: part(),
                encoding: "x-uuencode".into(),
            },
            MimeNote::NoCharset { whose: Whose::Body },
            MimeNote::EightBit {
                whose: Whose::EncodedWord,
                label: "us-ascii".into(),
                read_as: ReadAs::Utf8,
            },
            MimeNote::EightBit {
                whose: part(),
                label: "us-ascii".into(),
                read_as: ReadAs::Windows1251,
            },
            MimeNote::InvalidBytes {
                whose: Whose::Body,
                label: "utf-8".into(),
            },
            MimeNote::UnknownCharset {
                whose: Whose::Body,
                label: "x-martian".into(),
                read_as: ReadAs::Utf8,
            },
            MimeNote::UnknownCharset {
                whose: part(),
                label: "x-martian".into(),
                read_as: ReadAs::Windows1251,
            },
        ]
    }

    #[test]
    fn english_is_the_notes_own() {
        let c = Catalogue::new(Lang::En);
        for note in samples() {
            assert_eq!(words(&note, &c), note.to_string());
        }
    }

    #[test]
    fn russian_has_every_note() {
        let c = Catalogue::new(Lang::Ru);
        for note in samples() {
            let text = words(&note, &c);
            assert!(!text.contains("mime-"), "{text}");
            assert!(text.chars().any(|ch| ('а'..='я').contains(&ch)), "{text}");
        }
    }

    #[test]
    fn russian_words() {
        let c = Catalogue::new(Lang::Ru);
        let w = |n: MimeNote| words(&n, &c);
        assert_eq!(
            w(MimeNote::BadDate {
                value: "tomorrow".into()
            }),
            "не удалось прочитать дату в заголовке Date: \"tomorrow\""
        );
        assert_eq!(
            w(MimeNote::TooDeep { max: 50 }),
            "части MIME вложены глубже 50 уровней; более глубокие части не прочитаны"
        );
        assert_eq!(
            w(MimeNote::TooManyParts { max: 21 }),
            "в письме больше 21 части MIME; остальные не прочитаны"
        );
        assert_eq!(
            w(MimeNote::UnknownCharset {
                whose: Whose::Part("text/plain".into()),
                label: "x-martian".into(),
                read_as: ReadAs::Windows1251,
            }),
            "часть text/plain: неизвестная кодировка \"x-martian\"; \
             это не UTF-8, поэтому прочитано как windows-1251"
        );
        assert_eq!(
            w(MimeNote::BrokenBase64 { whose: Whose::Body }),
            "текст письма: base64 повреждён; расшифровано столько, сколько удалось"
        );
    }
}
