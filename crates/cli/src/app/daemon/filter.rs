//! Which mail is chess mail: the daemon stores and applies only that, and leaves the player's
//! private mail alone (not stored, not touched).
//!
//! The rule is conservative, in this order:
//!
//! 1. mail from the player's own address is not (what ccmail sends is stored when it is sent);
//! 2. mail from the opponent or the arbiter of one of the player's games (any status) is;
//! 3. mail that answers a message of a game (In-Reply-To or References names it) is;
//! 4. mail in which ccmail's reader finds a game header (the event, or both surnames) **and**
//!    a move (the record or a new move) is: a partner writing from a new address (51.1.2);
//! 5. nothing else is.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use ccmail_core::message;
use ccmail_mail::mime::{self, Decoded};
use ccmail_store::{self as store, Store};

use crate::app::Me;
use crate::incoming::{self, Incoming};

const NOTHING: &str = "no game's correspondent, thread, or header with a move";

/// What the filter made of a message, with the reason in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Chess(&'static str),
    NotChess(&'static str),
}

impl Verdict {
    pub fn is_chess(self) -> bool {
        matches!(self, Verdict::Chess(_))
    }
}

/// The filter for one pass: the player's address and their correspondents'.
#[derive(Debug, Clone)]
pub struct Filter {
    me: String,
    correspondents: HashSet<String>,
}

impl Filter {
    /// The opponents and arbiters of every game in the store.
    pub async fn load(store: &Store, me: &Me) -> anyhow::Result<Filter> {
        let games = store::games(&mut *store.conn().await?, true).await?;
        let correspondents = games
            .iter()
            .flat_map(|g| [&g.opponent_email, &g.arbiter_email])
            .map(|a| a.trim().to_lowercase())
            .collect();
        Ok(Filter {
            me: me.email.trim().to_lowercase(),
            correspondents,
        })
    }

    /// Reads `raw` and says whether it is chess mail. A message the reader fails on (it
    /// should never panic; if it does, the daemon must not die on the same mail at every
    /// start) is not.
    ///
    /// Most mail is decided by its headers (rules 1–3). The move reader, which costs far more
    /// than the MIME decoding, runs only on mail where a line could give it a game header
    /// (rule 4; [`message::may_name_a_game`]): the player's other mail is not read through.
    pub async fn check(&self, store: &Store, raw: &[u8]) -> anyhow::Result<Verdict> {
        let Ok(decoded) = catch_unwind(AssertUnwindSafe(|| mime::decode(raw))) else {
            tracing::error!("the reader failed on a message; it is left alone");
            return Ok(Verdict::NotChess("the reader failed on it"));
        };
        let Ok(decoded) = decoded else {
            return Ok(Verdict::NotChess("not a mail message"));
        };
        if let Some(verdict) = self.by_headers(store, &decoded).await? {
            return Ok(verdict);
        }
        if !message::may_name_a_game(&decoded.text, &decoded.pgn) {
            return Ok(Verdict::NotChess(NOTHING));
        }
        let Ok(incoming) = catch_unwind(AssertUnwindSafe(|| incoming::read_decoded(decoded)))
        else {
            tracing::error!("the reader failed on a message; it is left alone");
            return Ok(Verdict::NotChess("the reader failed on it"));
        };
        Ok(Self::by_content(&incoming))
    }

    /// Rules 1–3: the sender, and the thread.
    async fn by_headers(
        &self,
        store: &Store,
        decoded: &Decoded,
    ) -> anyhow::Result<Option<Verdict>> {
        let from = decoded.from.as_ref().map(|a| a.normalized_email());
        if from.as_deref() == Some(self.me.as_str()) {
            return Ok(Some(Verdict::NotChess("from our own address")));
        }
        if from.is_some_and(|f| self.correspondents.contains(&f)) {
            return Ok(Some(Verdict::Chess(
                "from an opponent or arbiter of a game",
            )));
        }
        let mut ids = decoded
            .in_reply_to
            .iter()
            .chain(&decoded.references)
            .peekable();
        if ids.peek().is_none() {
            return Ok(None);
        }
        let mut conn = store.conn().await?;
        for id in ids {
            if store::game_of_message_id(&mut conn, id).await?.is_some() {
                return Ok(Some(Verdict::Chess("answers a message of a game")));
            }
        }
        Ok(None)
    }

    /// Rule 4: a game header and a move.
    fn by_content(incoming: &Incoming) -> Verdict {
        let msg = &incoming.message;
        let h = &msg.header;
        let named = h.event.is_some() || (h.white.is_some() && h.black.is_some());
        let moved = msg.new_move_text.is_some() || !msg.moves.is_empty();
        if named && moved {
            Verdict::Chess("a game header and a move")
        } else {
            Verdict::NotChess(NOTHING)
        }
    }
}

#[cfg(test)]
mod tests {
    use ccmail_store::{GameRow, NewMessage};

    use super::*;

    fn me() -> Me {
        Me {
            name: "Иванов Иван".into(),
            surname: "Иванов".into(),
            email: "ivanov@example.org".into(),
        }
    }

    async fn store_with_a_game() -> Store {
        let store = Store::memory().await.unwrap();
        let mut c = store.conn().await.unwrap();
        let game = GameRow {
            event: "Кубок клуба 2026".into(),
            white: "Иванов".into(),
            black: "Петров".into(),
            my_color: "white".into(),
            opponent_email: "petrov@example.org".into(),
            arbiter_email: "arbiter@example.org".into(),
            status: "finished".into(),
            result: Some("1-0".into()),
            ..GameRow::new(
                "g1",
                "2026-03-01".parse().unwrap(),
                "2026-03-01T12:00:00+03:00",
            )
        };
        store::insert_game(&mut c, &game).await.unwrap();
        let ours = NewMessage {
            direction: "out",
            message_id: Some("ccmail.g1.1.abc@example.org"),
            raw: b"our move",
            game_id: Some("g1"),
            kind: "move",
            status: "sent",
            created_at: "2026-03-01T12:00:00+03:00",
            ..NewMessage::default()
        };
        store::insert_message(&mut c, &ours).await.unwrap();
        drop(c);
        store
    }

    fn mail(from: &str, extra: &str, body: &str) -> Vec<u8> {
        format!(
            "From: <{from}>\r\nTo: <ivanov@example.org>\r\nSubject: hello\r\n\
             Date: Sun, 01 Mar 2026 12:00:00 +0300\r\nMessage-ID: <{}@x>\r\n{extra}\
             Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
            body.len()
        )
        .into_bytes()
    }

    const STANDARD: &str = "Event: Кубок клуба 2026\r\nStart: 01.03.2026\r\n\
        White: Иванов\r\nBlack: Петров\r\n\r\n1. 5254\r\n";

    /// Rule 4's cheap test never turns away mail the reader finds a game header in: every
    /// fixture and shared sample that has one passes it; private mail does not.
    #[test]
    fn the_cheap_test_lets_every_game_header_through() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let shared = root.ancestors().skip(1).map(|a| a.join("shared/samples"));
        let dirs = std::iter::once(root.join("tests/fixtures/messages")).chain(shared);
        let mut named = 0;
        for dir in dirs.filter(|d| d.is_dir()) {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|x| x != "eml") {
                    continue;
                }
                let Ok(decoded) = mime::decode(&std::fs::read(&path).unwrap()) else {
                    continue;
                };
                let h = incoming::read_decoded(decoded.clone()).message.header;
                if h.event.is_some() || (h.white.is_some() && h.black.is_some()) {
                    named += 1;
                    let passes = message::may_name_a_game(&decoded.text, &decoded.pgn);
                    assert!(passes, "{}", path.display());
                }
            }
        }
        assert!(named >= 20, "only {named} messages with a game header");
        for private in [
            "Dinner on Sunday? Bring the e4 cable.\nWine or tea? White or black?\n",
            "Hello,\n\n> Event: birthday (a quoted line)\nsee you\n",
        ] {
            assert!(!message::may_name_a_game(private, &[]), "{private}");
        }
    }

    #[tokio::test]
    async fn the_rule_table() {
        let store = store_with_a_game().await;
        let filter = Filter::load(&store, &me()).await.unwrap();
        let cases: [(&str, Vec<u8>, bool); 8] = [
            (
                "private mail",
                mail(
                    "mom@example.org",
                    "",
                    "Dinner on Sunday? Bring the e4 cable.",
                ),
                false,
            ),
            (
                "private mail with an Event: line but no move",
                mail(
                    "mom@example.org",
                    "",
                    "Event: birthday. White wine or black tea?",
                ),
                false,
            ),
            (
                "the opponent of a finished game",
                mail("Petrov@Example.org", "", "Thanks for the game!"),
                true,
            ),
            (
                "the arbiter",
                mail("arbiter@example.org", "", "Round 2 starts on Monday."),
                true,
            ),
            (
                "a reply in a game's thread",
                mail(
                    "someone@else.org",
                    "In-Reply-To: <ccmail.g1.1.abc@example.org>\r\n",
                    "I am Petrov's new address.",
                ),
                true,
            ),
            (
                "a standard-form move from an unknown address",
                mail("petrov@new.example.org", "", STANDARD),
                true,
            ),
            (
                "our own address",
                mail("ivanov@example.org", "", STANDARD),
                false,
            ),
            ("not mail at all", b"\x00\x01 binary junk".to_vec(), false),
        ];
        for (what, raw, chess) in cases {
            let v = filter.check(&store, &raw).await.unwrap();
            assert_eq!(v.is_chess(), chess, "{what}: {v:?}");
        }
    }
}
