//! Asking the server which messages hold some words (`UID SEARCH … BODY …`), so that the
//! caller need not download a message to learn that it does not.
//!
//! The words may be non-ASCII (Russian labels): they go as UTF-8 literals after `CHARSET
//! UTF-8`. Where the server takes non-synchronizing literals (LITERAL+, or LITERAL- for
//! literals of up to 4 KB, which a word always is) the command goes in one write; otherwise
//! each literal waits for the server's `+` go-ahead, one round trip each. How a server
//! matches is its own affair: RFC 3501 asks for a case-insensitive substring of the decoded
//! text; Dovecot decodes the transfer encodings and charsets of every part and folds case
//! with i;unicode-casemap. A server that can't do it answers NO or BAD, and the caller must
//! then do without ([`ImapError::Protocol`]).

use super::answer::{Answer, Reader};
use super::fetch::uid_set;
use super::stream::timed;
use super::{Doing, Imap, ImapError};
use async_imap::types::UnsolicitedResponse;
use tokio::io::AsyncWriteExt;

/// What [`Imap::search_text`] looks for: a message matches when it matches one of the
/// alternatives; an alternative, when its text holds one word of each of its sets.
pub type TextQuery = [Vec<Vec<String>>];

/// One piece of a command: text as it is, or a string sent as a literal.
enum Piece {
    Text(String),
    Literal(String),
}

impl Imap {
    /// The UIDs among `uids` of the messages whose text (any part, decoded by the server)
    /// holds what `query` asks for, in UID order. Nothing is fetched; no flag changes.
    pub async fn search_text(
        &mut self,
        uids: &[u32],
        query: &TextQuery,
    ) -> Result<Vec<u32>, ImapError> {
        let mut sorted = uids.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.is_empty() || query.is_empty() {
            return Ok(Vec::new());
        }
        let pieces = pieces(
            &format!("UID SEARCH CHARSET UTF-8 UID {} ", uid_set(&sorted)),
            query,
        );
        let mut found = self.search(&pieces).await?;
        found.retain(|u| sorted.binary_search(u).is_ok());
        found.sort_unstable();
        found.dedup();
        Ok(found)
    }

    /// Sends a UID SEARCH made of `pieces` and reads its `* SEARCH` answers. The session is
    /// taken out of `self` meanwhile: a failure half-way drops it.
    async fn search(&mut self, pieces: &[Piece]) -> Result<Vec<u32>, ImapError> {
        let plus = self.literal_plus;
        let lines = lines(pieces, plus);
        let shown = command_shown(pieces);
        let io = |source| ImapError::Io {
            context: Doing::Command(shown.clone()),
            source,
        };
        let mut session = self.take_session()?;
        let limit = self.timeout;
        let (found, counts, end) = async {
            let (first, rest) = lines.split_first().expect("a command has a first line");
            let tag = timed(limit, &shown, async {
                session
                    .run_command(first)
                    .await
                    .map_err(|e| ImapError::from_imap(&shown, e))
            })
            .await?;
            let (mut found, mut counts) = (Vec::new(), Vec::new());
            let mut rest = rest.iter();
            let end = loop {
                let mut reader = Reader::new(session.get_mut()).quiet(limit);
                let answer = reader.next(&tag.0).await.map_err(io)?;
                let leftover = reader.leftover().to_vec();
                session.get_mut().unread(&leftover);
                match answer {
                    Answer::Continue => {
                        let Some(line) = rest.next() else {
                            return Err(io(std::io::Error::new(
                                std::io::ErrorKind::InvalidData,
                                "a go-ahead for a literal not announced",
                            )));
                        };
                        let stream = session.get_mut();
                        let sent = async {
                            stream.write_all(line.as_bytes()).await?;
                            stream.write_all(b"\r\n").await?;
                            stream.flush().await
                        };
                        timed(limit, &shown, async { sent.await.map_err(io) }).await?;
                    }
                    Answer::Search(uids) => found.extend(uids),
                    Answer::Exists(n) => counts.push(UnsolicitedResponse::Exists(n)),
                    Answer::Expunge => counts.push(UnsolicitedResponse::Expunge(0)),
                    Answer::Done { ok, text } => break (ok, text),
                    Answer::Fetch(_) | Answer::Bye(_) | Answer::Other => {}
                }
            };
            Ok((found, counts, end))
        }
        .await?;
        self.give_back(session, &counts, end, &shown)?;
        Ok(found)
    }
}

/// The command: `start`, then the query, each word a literal.
fn pieces(start: &str, query: &TextQuery) -> Vec<Piece> {
    let mut pieces = vec![Piece::Text(start.to_owned())];
    any_of(query, &mut pieces, |alternative, pieces| {
        pieces.push(Piece::Text("(".into()));
        for (i, words) in alternative.iter().enumerate() {
            if i > 0 {
                pieces.push(Piece::Text(" ".into()));
            }
            any_of(words, pieces, |word, pieces| {
                pieces.push(Piece::Text("BODY ".into()));
                pieces.push(Piece::Literal(word.clone()));
            });
        }
        pieces.push(Piece::Text(")".into()));
    });
    pieces
}

/// `OR a OR b c` for the items: IMAP's OR takes two keys.
fn any_of<T>(items: &[T], pieces: &mut Vec<Piece>, mut each: impl FnMut(&T, &mut Vec<Piece>)) {
    let last = items.len().saturating_sub(1);
    for (i, item) in items.iter().enumerate() {
        if i < last {
            pieces.push(Piece::Text("OR ".into()));
        }
        each(item, pieces);
        if i < last {
            pieces.push(Piece::Text(" ".into()));
        }
    }
}

/// The command's lines: with non-synchronizing literals (`plus`) one line; otherwise a new
/// line after each literal's announcement, sent once the server says go ahead.
fn lines(pieces: &[Piece], plus: bool) -> Vec<String> {
    let mut lines = vec![String::new()];
    for piece in pieces {
        let line = lines.last_mut().expect("one line at least");
        match piece {
            Piece::Text(text) => line.push_str(text),
            Piece::Literal(word) if plus => {
                line.push_str(&format!("{{{}+}}\r\n{word}", word.len()));
            }
            Piece::Literal(word) => {
                line.push_str(&format!("{{{}}}", word.len()));
                lines.push(word.clone());
            }
        }
    }
    lines
}

/// The command for logs and errors: the words in quotes.
fn command_shown(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(text) => text.clone(),
            Piece::Literal(word) => format!("{word:?}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query() -> Vec<Vec<Vec<String>>> {
        let words = |w: &[&str]| w.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        vec![
            vec![words(&["event", "турнир"])],
            vec![words(&["white"]), words(&["black", "черные"])],
        ]
    }

    #[test]
    fn the_words_go_as_literals_in_nested_ors() {
        assert_eq!(
            command_shown(&pieces("S ", &query())),
            "S OR (OR BODY \"event\" BODY \"турнир\") (BODY \"white\" OR BODY \"black\" BODY \"черные\")"
        );
        // One line with LITERAL+; a line after each literal without it. Lengths in bytes.
        assert_eq!(
            lines(&pieces("S ", &query()), true),
            [
                "S OR (OR BODY {5+}\r\nevent BODY {12+}\r\nтурнир) (BODY {5+}\r\nwhite OR BODY {5+}\r\nblack BODY {12+}\r\nчерные)"
            ]
        );
        assert_eq!(
            lines(&pieces("S ", &query()), false),
            [
                "S OR (OR BODY {5}",
                "event BODY {12}",
                "турнир) (BODY {5}",
                "white OR BODY {5}",
                "black BODY {12}",
                "черные)"
            ]
        );
    }
}
