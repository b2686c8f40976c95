//! Text from mail, made harmless to show on a terminal.
//!
//! A partner's Subject, address, move text and notes, a server's error text and everything
//! quoting them are whatever the sender wrote, and a terminal obeys what it is sent: an
//! encoded-word in a Subject can carry ESC sequences that clear the screen, set the window
//! title or hide the text after them, and a bidi override (U+202E) makes text read backwards.
//! So every human-readable output that shows such text passes it through [`shown`] (a field
//! of one line: a subject, an address, a name, a reason) or [`shown_lines`] (a message or a
//! preview shown whole), where it becomes the text itself again. This is the one place that
//! decides what a terminal may be sent of it.
//!
//! The forms are `less`'s: a C0 control character or DEL in caret notation (ESC as `^[`,
//! BEL as `^G`, DEL as `^?`), so no CSI or OSC sequence survives; any other character that
//! is not text — a C1 control (U+0080–U+009F, U+009B being a one-byte CSI), a bidi control,
//! a zero-width or other invisible format character (general category Cf), a line or
//! paragraph separator — as `<U+202E>`. In one line, a line break shows as `^J` or `^M` and
//! a tab as a space; in [`shown_lines`], `\n`, `\r\n` and tabs are kept. Ordinary text,
//! Cyrillic and all, comes back as it was, borrowed.
//!
//! It is for display only: the store keeps every byte as it came, the `--json` outputs give
//! the exact text (JSON escapes control characters itself), and the hooks' environment
//! variables are not a terminal and stay exact.

use std::borrow::Cow;
use std::fmt::Write;

use icu_properties::CodePointMapData;
use icu_properties::props::GeneralCategory;

/// A field of one line (a subject, an address, a name, a reason), as it may be shown: line
/// breaks and every character that could drive the terminal in a visible form.
pub fn shown(text: &str) -> Cow<'_, str> {
    escaped(text, false)
}

/// Text of several lines (a message, a preview) as it may be shown: as [`shown`], but `\n`,
/// `\r\n` and tabs are kept.
pub fn shown_lines(text: &str) -> Cow<'_, str> {
    escaped(text, true)
}

fn escaped(text: &str, lines: bool) -> Cow<'_, str> {
    let mut out = String::new();
    // The end of what was copied (or stood for) so far: 0 while nothing changed.
    let mut copied = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let kept = match c {
            ' '..='~' => true,
            '\n' | '\t' => lines,
            '\r' => lines && chars.peek().is_some_and(|&(_, next)| next == '\n'),
            c if c.is_ascii() => false,
            c => !hidden(c),
        };
        if kept {
            continue;
        }
        if copied == 0 {
            out.reserve(text.len() + 8);
        }
        out.push_str(&text[copied..at]);
        copied = at + c.len_utf8();
        match c {
            '\t' => out.push(' '),
            // `^@` … `^_` and `^?`: the character with bit 6 flipped.
            '\0'..='\x1f' | '\x7f' => {
                out.push('^');
                out.push(char::from(c as u8 ^ 0x40));
            }
            c => {
                let _ = write!(out, "<U+{:04X}>", u32::from(c));
            }
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Whether a character beyond ASCII is not text to show but something a terminal acts on
/// or shows as nothing: C1 controls, bidi controls, format characters, line and paragraph
/// separators.
fn hidden(c: char) -> bool {
    // Named here as well as by category: these must never pass, whatever Unicode version
    // the category data is of (U+2065 is unassigned, kept for such characters).
    let named = matches!(
        c,
        '\u{80}'..='\u{9f}'
            | '\u{61c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2069}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
    );
    named
        || matches!(
            CodePointMapData::<GeneralCategory>::new().get(c),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_each_form_shows() {
        // (text, in one line, in several lines)
        let table = [
            ("", "", ""),
            (
                "Кубок клуба 2026: 1. e4",
                "Кубок клуба 2026: 1. e4",
                "Кубок клуба 2026: 1. e4",
            ),
            (
                "Ёлкин — Пётр «Ладья» ♔ 𝄞 é",
                "Ёлкин — Пётр «Ладья» ♔ 𝄞 é",
                "Ёлкин — Пётр «Ладья» ♔ 𝄞 é",
            ),
            // OSC (window title), CSI (clear screen, hidden text): no ESC survives.
            ("\x1b]0;pwned\x07", "^[]0;pwned^G", "^[]0;pwned^G"),
            (
                "a\x1b[2J\x1b[8mhidden",
                "a^[[2J^[[8mhidden",
                "a^[[2J^[[8mhidden",
            ),
            (
                "\0\x01\x08\x0b\x0c\x1f\x7f",
                "^@^A^H^K^L^_^?",
                "^@^A^H^K^L^_^?",
            ),
            // Line breaks and tabs: shown in one line, kept in several.
            ("a\nb", "a^Jb", "a\nb"),
            ("a\r\nb", "a^M^Jb", "a\r\nb"),
            ("over\rwritten", "over^Mwritten", "over^Mwritten"),
            ("a\tb", "a b", "a\tb"),
            // C1 controls: U+009B is a CSI of one character, U+0085 a line break.
            ("\u{9b}2J", "<U+009B>2J", "<U+009B>2J"),
            (
                "a\u{85}b\u{80}\u{9f}",
                "a<U+0085>b<U+0080><U+009F>",
                "a<U+0085>b<U+0080><U+009F>",
            ),
            // Bidi controls and invisible format characters.
            ("\u{202e}4e 1", "<U+202E>4e 1", "<U+202E>4e 1"),
            (
                "\u{202a}\u{202b}\u{202c}\u{202d}\u{61c}",
                "<U+202A><U+202B><U+202C><U+202D><U+061C>",
                "<U+202A><U+202B><U+202C><U+202D><U+061C>",
            ),
            (
                "\u{2066}x\u{2069}\u{2067}\u{2068}",
                "<U+2066>x<U+2069><U+2067><U+2068>",
                "<U+2066>x<U+2069><U+2067><U+2068>",
            ),
            (
                "a\u{200b}b\u{200c}\u{200d}\u{200e}\u{200f}",
                "a<U+200B>b<U+200C><U+200D><U+200E><U+200F>",
                "a<U+200B>b<U+200C><U+200D><U+200E><U+200F>",
            ),
            (
                "\u{2060}\u{2065}\u{feff}",
                "<U+2060><U+2065><U+FEFF>",
                "<U+2060><U+2065><U+FEFF>",
            ),
            (
                "\u{fff9}\u{fffa}\u{fffb}",
                "<U+FFF9><U+FFFA><U+FFFB>",
                "<U+FFF9><U+FFFA><U+FFFB>",
            ),
            // Format characters by category: soft hyphen, Mongolian vowel separator, a tag.
            (
                "\u{ad}\u{180e}\u{e0041}",
                "<U+00AD><U+180E><U+E0041>",
                "<U+00AD><U+180E><U+E0041>",
            ),
            (
                "a\u{2028}b\u{2029}",
                "a<U+2028>b<U+2029>",
                "a<U+2028>b<U+2029>",
            ),
        ];
        for (text, line, lines) in table {
            assert_eq!(shown(text), line, "{text:?} in one line");
            assert_eq!(shown_lines(text), lines, "{text:?} in several lines");
        }
    }

    #[test]
    fn text_with_nothing_to_show_otherwise_is_borrowed() {
        for text in [
            "",
            "Кубок клуба 2026: Иванов – Петров, 12... Nf6",
            "The partner's note: спасибо! ♘ ²",
        ] {
            assert!(matches!(shown(text), Cow::Borrowed(_)), "{text}");
            assert!(matches!(shown_lines(text), Cow::Borrowed(_)), "{text}");
        }
        assert!(matches!(shown_lines("a\r\nb\tc\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn what_is_shown_shows_nothing_else_and_stays_as_it_is() {
        let hostile = "\x1b]0;pwned\x07\x1b[2J\u{9b}8m\u{202e}\r\n\tКубок\u{200b}";
        for once in [shown(hostile), shown_lines(hostile)] {
            assert!(
                once.chars()
                    .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t')),
                "{once:?}"
            );
            assert!(
                !once.contains(['\u{202e}', '\u{200b}', '\u{9b}']),
                "{once:?}"
            );
            assert_eq!(shown_lines(&once), once, "shown twice is shown once");
        }
        assert_eq!(
            shown(&shown(hostile)),
            shown(hostile),
            "shown twice is shown once"
        );
    }
}
