//! Mailbox addresses: `Name <local@domain>` and the older `local@domain (Name)`.
//!
//! Ours for **lenient decoding**: mailparse's `addrparse` refuses the whole header where
//! one mailbox is broken. A forgiving single-pass reader: address headers in real mail are
//! often slightly broken (an unquoted comma-free name with a dot, a missing
//! closing bracket, an encoded word inside quotes), and a chess partner's
//! address must still come out. Groups (`Team: a@x, b@y;`) give their members.

use std::borrow::Cow;
use std::fmt;

use super::header;
use super::note::MimeNote;

/// One mailbox: an optional display name (RFC 2047 words decoded) and the
/// address exactly as written (case kept). Compare addresses with
/// [`Address::same_mailbox`], never with `==` on `email`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    /// Display name, decoded; `None` when the header gives none.
    pub name: Option<String>,
    /// The address as written, without angle brackets.
    pub email: String,
}

impl Address {
    /// The address folded for comparison: surrounding blanks removed and
    /// lower-cased as a whole. Strictly the local part is case-sensitive, but no
    /// mail system a chess player meets treats it so, and partners do retype
    /// each other's addresses with different capitals.
    pub fn normalized_email(&self) -> String {
        normalize_email(&self.email)
    }

    /// Whether `self` and `other` are the same mailbox (names are ignored).
    pub fn same_mailbox(&self, other: &Address) -> bool {
        self.is_email(&other.email)
    }

    /// Whether this mailbox is the address `email` (compared normalized).
    pub fn is_email(&self, email: &str) -> bool {
        self.normalized_email() == normalize_email(email)
    }
}

/// Folds an address for comparison, as [`Address::normalized_email`] does.
pub fn normalize_email(email: &str) -> String {
    email
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_lowercase()
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name} <{}>", self.email),
            None => f.write_str(&self.email),
        }
    }
}

/// One mailbox being read. Its pieces are borrowed from the header value while each is one
/// run of it (`Name <addr>`: the name and the address are), and copied only when a second
/// run joins the first (a quoted name with text after the quote).
#[derive(Default)]
struct Entry<'v> {
    phrase: Cow<'v, str>,
    angle: Option<Cow<'v, str>>,
    comment: Cow<'v, str>,
}

/// Adds `text` (a piece of the header value) to `to`.
fn push<'v>(to: &mut Cow<'v, str>, text: &'v str) {
    if text.is_empty() {
        return;
    }
    if to.is_empty() {
        *to = Cow::Borrowed(text);
    } else {
        to.to_mut().push_str(text);
    }
}

impl Entry<'_> {
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
        let name = if is_tidy(&name) {
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

/// Whether the blanks of a name are already single spaces with none at the ends, as
/// [`Entry::finish`] leaves them: one pass over the name, rather than a test for each
/// (two of them searches).
fn is_tidy(name: &str) -> bool {
    let mut before = None;
    for c in name.chars() {
        if c.is_whitespace() && (c != ' ' || before.is_none_or(|b| b == ' ')) {
            return false;
        }
        before = Some(c);
    }
    before != Some(' ')
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
pub(crate) fn parse_list(value: &str, problems: &mut Vec<MimeNote>) -> Vec<Address> {
    let mut out = Vec::new();
    let mut entry = Entry::default();
    let mut state = State::Normal;
    let mut i = 0;
    while i < value.len() {
        let rest = &value[i..];
        if state == State::QuotedEscape {
            // The character after a backslash in quotes, whatever it is.
            let len = rest.chars().next().map_or(0, char::len_utf8);
            push(&mut entry.phrase, &rest[..len]);
            state = State::Quoted;
            i += len;
            continue;
        }
        // (A `match` a byte, not a search of a list of stops: that was a call to memchr
        // for every byte of the value.)
        let stop = |c: u8| match state {
            State::Normal => matches!(c, b'"' | b'(' | b'<' | b',' | b';' | b':'),
            State::Quoted | State::QuotedEscape => matches!(c, b'"' | b'\\'),
            State::Comment(_) => matches!(c, b'(' | b')'),
            State::Angle => c == b'>',
        };
        let run = rest.bytes().position(stop).unwrap_or(rest.len());
        let text = &rest[..run];
        match state {
            State::Normal | State::Quoted | State::QuotedEscape => push(&mut entry.phrase, text),
            State::Comment(_) => push(&mut entry.comment, text),
            State::Angle => {
                if let Some(a) = entry.angle.as_mut() {
                    push(a, text);
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
                entry.angle = Some(Cow::Borrowed(""));
                State::Angle
            }
            (State::Normal, b':') if entry.angle.is_none() && !entry.phrase.contains('@') => {
                // "Group name:" — the members follow.
                entry = Entry::default();
                State::Normal
            }
            (State::Normal, b':') => {
                push(&mut entry.phrase, &value[i - 1..i]);
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

#[cfg(test)]
mod tests;
