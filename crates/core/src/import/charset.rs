//! The charset of a PGN file, found by what it holds.
//!
//! A PGN file says nothing of its charset. The standard's own is Latin-1; ChessBase writes a
//! Russian user's file in windows-1251; lichess, Scid and ccmail write UTF-8. Read with the
//! wrong one, a name comes out as `������` or `Ã¼`, and the game no longer matches the one
//! already in the store. So: text that is valid UTF-8 is UTF-8 (other charsets' letters beyond
//! ASCII almost never make valid UTF-8); otherwise each of the two single-byte charsets reads
//! the bytes, and the one that yields words wins. In windows-1251 a word is a run of Cyrillic
//! letters (`Петров`); the same bytes in Latin-1 are runs of accented letters with no plain one
//! among them (`Ïåòðîâ`). In Latin-1 a word has plain letters with an accented one among them
//! (`Müller`); in windows-1251 the same bytes mix the two alphabets (`Mьller`). A tie goes to
//! Latin-1, the standard's. The player can say which with `--encoding`.

use std::fmt;
use std::str::FromStr;

/// A charset a PGN file may be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    Utf8,
    Windows1251,
    Latin1,
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Charset::Utf8 => "utf-8",
            Charset::Windows1251 => "windows-1251",
            Charset::Latin1 => "latin-1",
        })
    }
}

/// A charset name ccmail does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown encoding {0:?}: utf-8, windows-1251 or latin-1")]
pub struct UnknownCharset(pub String);

impl FromStr for Charset {
    type Err = UnknownCharset;

    /// `utf-8`, `windows-1251` (`cp1251`) or `latin-1` (`iso-8859-1`), in any case, with or
    /// without the dash.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        match key.as_str() {
            "utf8" => Ok(Charset::Utf8),
            "windows1251" | "cp1251" => Ok(Charset::Windows1251),
            "latin1" | "iso88591" | "l1" => Ok(Charset::Latin1),
            _ => Err(UnknownCharset(s.to_owned())),
        }
    }
}

/// The charset `bytes` are written in, by what they hold.
pub fn detect(bytes: &[u8]) -> Charset {
    if std::str::from_utf8(bytes).is_ok() {
        return Charset::Utf8;
    }
    let cyrillic = words(&decode_as(bytes, Charset::Windows1251), |w| {
        w.iter().all(|c| is_cyrillic(*c))
    });
    let latin = words(&decode_as(bytes, Charset::Latin1), |w| {
        w.iter().any(char::is_ascii_alphabetic)
    });
    if cyrillic > latin {
        Charset::Windows1251
    } else {
        Charset::Latin1
    }
}

/// The text of `bytes` in `charset` (`None`: found by [`detect`]), and the charset read.
/// A byte that is not valid UTF-8 in a UTF-8 text becomes U+FFFD.
pub fn decode(bytes: &[u8], charset: Option<Charset>) -> (String, Charset) {
    let charset = charset.unwrap_or_else(|| detect(bytes));
    (decode_as(bytes, charset), charset)
}

fn decode_as(bytes: &[u8], charset: Charset) -> String {
    match charset {
        Charset::Utf8 => String::from_utf8_lossy(bytes).into_owned(),
        Charset::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
        Charset::Windows1251 => bytes.iter().map(|&b| windows_1251(b)).collect(),
    }
}

/// How many words beyond ASCII of `text` are words by `is_word`: a word is a run of letters
/// with at least one that is not ASCII.
fn words(text: &str, is_word: impl Fn(&[char]) -> bool) -> usize {
    let mut count = 0;
    let mut word: Vec<char> = Vec::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphabetic() {
            word.push(c);
            continue;
        }
        if word.iter().any(|c| !c.is_ascii()) && is_word(&word) {
            count += 1;
        }
        word.clear();
    }
    count
}

fn is_cyrillic(c: char) -> bool {
    matches!(c, '\u{400}'..='\u{4ff}')
}

/// windows-1251's character for byte `b`: ASCII below 0x80, А–я from 0xC0, and its own table
/// between (0x98 is unassigned: kept as U+0098, as WHATWG does).
fn windows_1251(b: u8) -> char {
    const HIGH: [u16; 64] = [
        0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409,
        0x2039, 0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
        0x2013, 0x2014, 0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0,
        0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB,
        0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6,
        0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
    ];
    let code = match b {
        0..=0x7f => u32::from(b),
        0x80..=0xbf => u32::from(HIGH[usize::from(b - 0x80)]),
        _ => 0x0410 + u32::from(b - 0xc0),
    };
    char::from_u32(code).unwrap_or('\u{fffd}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cp1251(text: &str) -> Vec<u8> {
        text.chars()
            .map(|c| {
                (0..=255u8)
                    .find(|&b| windows_1251(b) == c)
                    .expect("a windows-1251 character")
            })
            .collect()
    }

    fn latin1(text: &str) -> Vec<u8> {
        text.chars()
            .map(|c| u8::try_from(u32::from(c)).expect("a Latin-1 character"))
            .collect()
    }

    #[test]
    fn the_charset_is_the_one_that_yields_words() {
        let pgn = |white: &str, black: &str| {
            format!("[Event \"Cup\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 *\n")
        };
        let table: [(&str, Vec<u8>, Charset); 9] = [
            ("ASCII", pgn("Ivanov", "Petrov").into_bytes(), Charset::Utf8),
            (
                "UTF-8 Cyrillic",
                pgn("Иванов", "Петров").into_bytes(),
                Charset::Utf8,
            ),
            (
                "UTF-8 German",
                pgn("Müller", "Weiß").into_bytes(),
                Charset::Utf8,
            ),
            (
                "ChessBase Russian",
                cp1251(&pgn("Иванов, Иван", "Петров, Пётр")),
                Charset::Windows1251,
            ),
            (
                "one Cyrillic name",
                cp1251(&pgn("Ivanov", "Ёлкин")),
                Charset::Windows1251,
            ),
            (
                "Latin-1 German",
                latin1(&pgn("Müller, Jürgen", "Weiß")),
                Charset::Latin1,
            ),
            (
                "Latin-1 French",
                latin1(&pgn("Lévêque", "Frédéric")),
                Charset::Latin1,
            ),
            (
                "Latin-1 capitals",
                latin1(&pgn("ÖZTÜRK", "Çelik")),
                Charset::Latin1,
            ),
            (
                "a lone high byte",
                b"[Event \"\xa0\"]\n".to_vec(),
                Charset::Latin1,
            ),
        ];
        for (what, bytes, charset) in table {
            assert_eq!(detect(&bytes), charset, "{what}");
        }
    }

    #[test]
    fn each_charset_reads_its_own_names_back() {
        let text = "[White \"Петров, Пётр\"] № 5 «Кубок»";
        assert_eq!(
            decode(&cp1251(text), None),
            (text.to_owned(), Charset::Windows1251)
        );
        let text = "[White \"Müller\"]";
        assert_eq!(
            decode(&latin1(text), None),
            (text.to_owned(), Charset::Latin1)
        );
        // Told otherwise, the file is read as told.
        assert_eq!(
            decode(&latin1(text), Some(Charset::Windows1251)).0,
            "[White \"Mьller\"]"
        );
    }

    #[test]
    fn the_names_of_the_charsets() {
        for (name, charset) in [
            ("utf-8", Ok(Charset::Utf8)),
            ("UTF8", Ok(Charset::Utf8)),
            ("windows-1251", Ok(Charset::Windows1251)),
            ("cp1251", Ok(Charset::Windows1251)),
            ("latin-1", Ok(Charset::Latin1)),
            ("ISO-8859-1", Ok(Charset::Latin1)),
            ("koi8-r", Err(UnknownCharset("koi8-r".into()))),
        ] {
            assert_eq!(name.parse::<Charset>(), charset, "{name}");
        }
    }
}
