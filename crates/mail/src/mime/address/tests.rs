use super::*;

fn one(value: &str) -> (Option<String>, String) {
    let mut list = parse_list(value, &mut Vec::new());
    assert_eq!(list.len(), 1, "{value}");
    let a = list.remove(0);
    (a.name, a.email)
}

fn named(name: &str, email: &str) -> (Option<String>, String) {
    (Some(name.to_owned()), email.to_owned())
}

/// [`parse_list`] as it was first written, every piece copied into strings: the
/// reference for the one that borrows them.
mod first {
    use super::super::{Address, MimeNote, header};

    #[derive(Default)]
    struct Entry {
        phrase: String,
        angle: Option<String>,
        comment: String,
    }

    impl Entry {
        fn finish(self, problems: &mut Vec<MimeNote>) -> Option<Address> {
            let comment = self.comment.trim();
            let (email, name) = match self.angle {
                Some(angle) => {
                    // Drop an obsolete source route: <@relay:user@host>.
                    let email = angle.rsplit(':').next().unwrap_or("").trim().to_owned();
                    let phrase = header::decode_words(self.phrase.trim(), problems);
                    let name = if phrase.trim().is_empty() {
                        comment.to_owned()
                    } else {
                        phrase
                    };
                    (email, name)
                }
                None => {
                    let mut words = self.phrase.split_whitespace();
                    let email = match words.clone().find(|w| w.contains('@')) {
                        Some(w) => w.to_owned(),
                        None => words.by_ref().collect(),
                    };
                    (email, header::decode_words(comment, problems))
                }
            };
            if email.is_empty() {
                return None;
            }
            // Blanks made one space, and none at the ends (most names have no others).
            let tidy = !name.starts_with(char::is_whitespace)
                && !name.ends_with(char::is_whitespace)
                && !name.contains("  ")
                && !name.contains(|c: char| c.is_whitespace() && c != ' ');
            let name = if tidy {
                name
            } else {
                name.split_whitespace().collect::<Vec<_>>().join(" ")
            };
            Some(Address {
                name: (!name.is_empty()).then_some(name),
                email,
            })
        }
    }

    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Normal,
        Quoted,
        QuotedEscape,
        Comment(usize),
        Angle,
    }

    /// Reads every mailbox of an unfolded address header value.
    ///
    /// It goes from one character that matters in the current state (a quote, a bracket, a
    /// comma, …; all ASCII) to the next, and takes the text between as one piece.
    pub(super) fn parse_list(value: &str, problems: &mut Vec<MimeNote>) -> Vec<Address> {
        let mut out = Vec::new();
        let mut entry = Entry::default();
        let mut state = State::Normal;
        let mut i = 0;
        while i < value.len() {
            let rest = &value[i..];
            if state == State::QuotedEscape {
                // The character after a backslash in quotes, whatever it is.
                let c = rest.chars().next().unwrap_or_default();
                entry.phrase.push(c);
                state = State::Quoted;
                i += c.len_utf8();
                continue;
            }
            let stops: &[u8] = match state {
                State::Normal => b"\"(<,;:",
                State::Quoted | State::QuotedEscape => b"\"\\",
                State::Comment(_) => b"()",
                State::Angle => b">",
            };
            let run = rest
                .bytes()
                .position(|c| stops.contains(&c))
                .unwrap_or(rest.len());
            let text = &rest[..run];
            match state {
                State::Normal | State::Quoted | State::QuotedEscape => entry.phrase.push_str(text),
                State::Comment(_) => entry.comment.push_str(text),
                State::Angle => {
                    if let Some(a) = entry.angle.as_mut() {
                        a.push_str(text);
                    }
                }
            }
            i += run;
            let Some(&c) = value.as_bytes().get(i) else {
                break;
            };
            i += 1;
            state = match (state, c) {
                (State::Normal, b'"') => State::Quoted,
                (State::Normal, b'(') => State::Comment(1),
                (State::Normal, b'<') => {
                    entry.angle = Some(String::new());
                    State::Angle
                }
                (State::Normal, b':') if entry.angle.is_none() && !entry.phrase.contains('@') => {
                    // "Group name:" — the members follow.
                    entry = Entry::default();
                    State::Normal
                }
                (State::Normal, b':') => {
                    entry.phrase.push(':');
                    State::Normal
                }
                (State::Normal, _) => {
                    out.extend(std::mem::take(&mut entry).finish(problems));
                    State::Normal
                }
                (State::Quoted | State::QuotedEscape, b'"') => State::Normal,
                (State::Quoted | State::QuotedEscape, _) => State::QuotedEscape,
                (State::Comment(d), b'(') => State::Comment(d + 1),
                (State::Comment(1), _) => State::Normal,
                (State::Comment(d), _) => State::Comment(d - 1),
                (State::Angle, _) => State::Normal,
            };
        }
        if state != State::Normal {
            problems.push(MimeNote::UnclosedAddress {
                value: value.to_owned(),
            });
        }
        out.extend(entry.finish(problems));
        out
    }
}

/// What [`is_tidy`] stands for, a test for each thing that makes a name untidy.
fn tidy_as_first_written(name: &str) -> bool {
    !name.starts_with(char::is_whitespace)
        && !name.ends_with(char::is_whitespace)
        && !name.contains("  ")
        && !name.contains(|c: char| c.is_whitespace() && c != ' ')
}

proptest::proptest! {
    /// One pass tells a tidy name as the four tests did: names of letters, spaces,
    /// tabs, line ends and the blanks of Unicode, at the ends and between.
    #[test]
    fn tidy_as_four_tests(name in "( |\t|\n|\u{a0}|\u{2003}|\u{3000}|J|П|\\.){0,8}") {
        proptest::prop_assert_eq!(is_tidy(&name), tidy_as_first_written(&name), "{:?}", name);
    }
}

proptest::proptest! {
    /// Borrowed pieces read as copied ones do, on values made of what address headers
    /// are made of: names plain, quoted (with escapes) and encoded, brackets, comments
    /// (nested), groups, source routes, lists, and the broken forms of each.
    #[test]
    fn lists_as_first_written(
        value in "(Jonas|Bergmann| |  |\t|\"|\\\\|\\(|\\)|<|>|,|;|:|@|j@x\\.org|<a@b>|=\\?utf-8\\?q\\?=D0=9F\\?=|=\\?koi8-r\\?b\\?88/M\\?=|П|\\.){0,14}"
    ) {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let got = parse_list(&value, &mut ours);
        let want = first::parse_list(&value, &mut theirs);
        proptest::prop_assert_eq!((got, ours), (want, theirs), "{:?}", value);
    }
}

#[test]
fn forms() {
    assert_eq!(
        one("Jonas Bergmann <jonas@example.org>"),
        named("Jonas Bergmann", "jonas@example.org")
    );
    assert_eq!(
        one("\"Bergmann, Jonas\" <j@x.org>"),
        named("Bergmann, Jonas", "j@x.org")
    );
    assert_eq!(one("j@x.org (Jonas B.)"), named("Jonas B.", "j@x.org"));
    assert_eq!(one("  J@X.org "), (None, "J@X.org".to_owned()));
    assert_eq!(
        one("John Smith john@x.org"),
        (None, "john@x.org".to_owned())
    );
    assert_eq!(
        one("=?KOI8-R?B?88/Mz9fYo9c=?= <s@p.net>"),
        named("Соловьёв", "s@p.net")
    );
    assert_eq!(
        one("\"=?utf-8?q?=D0=9F?=\" <s@p.net>"),
        named("П", "s@p.net")
    );
    assert_eq!(one("<@relay.net:u@h.org>"), (None, "u@h.org".to_owned()));
    assert_eq!(
        one("Dr. J. Smith <s@x.org>"),
        named("Dr. J. Smith", "s@x.org")
    );
}

#[test]
fn lists_and_groups() {
    let list = parse_list("a@x, \"B\" <b@y>; Team: c@z, d@w;", &mut Vec::new());
    let emails: Vec<_> = list.iter().map(|a| a.email.as_str()).collect();
    assert_eq!(emails, ["a@x", "b@y", "c@z", "d@w"]);
    assert!(parse_list("undisclosed-recipients:;", &mut Vec::new()).is_empty());
}

#[test]
fn unterminated_is_noted() {
    let mut problems = Vec::new();
    let list = parse_list("Name <a@b", &mut problems);
    assert_eq!(list[0].email, "a@b");
    assert_eq!(problems.len(), 1);
}

#[test]
fn comparison() {
    let a = Address {
        name: None,
        email: "A.Smirnov@Mail.Example.org".into(),
    };
    let b = Address {
        name: Some("x".into()),
        email: " a.smirnov@mail.example.org".into(),
    };
    assert!(a.same_mailbox(&b));
    assert!(a.is_email("<a.smirnov@MAIL.example.org>"));
    assert_eq!(a.normalized_email(), "a.smirnov@mail.example.org");
    assert_eq!(a.to_string(), "A.Smirnov@Mail.Example.org");
}
