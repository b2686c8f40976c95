//! Which mail is chess mail: the daemon stores and applies only that, and leaves the player's
//! private mail alone (not stored, not touched).
//!
//! The rule is conservative, in this order:
//!
//! 1. mail from the player's own address is not (what ccmail sends is stored when it is sent);
//! 2. mail from the opponent or the arbiter of one of the player's games (any status) is;
//! 3. mail that answers a message of a game (In-Reply-To or one of the last 100 References
//!    names it) is;
//! 4. mail in which ccmail's reader finds a game header (the event, or both surnames) **and**
//!    a move (the record or a new move) is: a partner writing from a new address (51.1.2);
//! 5. nothing else is.

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};

use ccmail_core::message;
use ccmail_mail::mime::{self, Decoded};
use ccmail_store::{self as store, SqliteConnection, Store};

use crate::app::Me;
use crate::incoming::{self, Incoming};

// not the interface's: why mail is passed over, for the debug log
const NOTHING: &str = "no game's correspondent, thread, or header with a move";
// not the interface's: why mail is passed over, for the debug log
const OWN: &str = "from our own address";
// not the interface's: why mail is passed over, for the debug log
const CORRESPONDENT: &str = "from an opponent or arbiter of a game";

/// How much of a large message is decoded to decide whether it is chess mail (see
/// [`Filter::pre`]).
pub const HEAD: usize = 64 * 1024;

/// What [`Filter::pre`] could tell without the store.
#[derive(Debug)]
pub enum Pre {
    Decided(Checked),
    /// The message answers these Message-IDs: chess mail if one is a game's, else `otherwise`.
    Thread {
        ids: Vec<String>,
        otherwise: Checked,
    },
}

/// What a message's headers and the start of its text say ([`Filter::look`]).
enum Look {
    /// From the player's own address (rule 1).
    Own,
    /// From a game's opponent or arbiter (rule 2).
    Correspondent,
    /// A line could give the reader a game header (rule 4, to be read through); `ids`: the
    /// Message-IDs it answers (rule 3).
    MayName { ids: Vec<String> },
    /// None of that; chess mail only if it answers a game's message (rule 3).
    Nothing { ids: Vec<String> },
}

/// What a message's headers say before its body is fetched ([`Filter::sift`]).
#[derive(Debug, PartialEq, Eq)]
pub enum Sift {
    /// Not chess mail, whatever its body holds.
    Not(&'static str),
    /// Its body is needed: it may be chess mail by its sender, or the headers can't tell.
    Body,
    /// It answers these Message-IDs: its body is needed if one is a game's; if none is, as
    /// [`Sift::Content`].
    Thread(Vec<String>),
    /// Chess mail only if its text names a game (rule 4).
    Content,
}

/// `otherwise`, unless the message answers one of `ids` and the store says that is a game's.
fn thread(ids: Vec<String>, otherwise: Checked) -> Pre {
    if ids.is_empty() {
        Pre::Decided(otherwise)
    } else {
        Pre::Thread { ids, otherwise }
    }
}

/// A message checked: chess mail comes with the move reader's reading of it (for `apply`,
/// which then need not read it again).
#[derive(Debug)]
pub enum Checked {
    Chess(&'static str, Box<Incoming>),
    NotChess(&'static str),
}

impl Checked {
    pub fn is_chess(&self) -> bool {
        matches!(self, Checked::Chess(..))
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
        Ok(Filter::new(&games, me))
    }

    /// The opponents and arbiters of these games (all of the store's, whatever their status).
    pub fn new(games: &[store::GameRow], me: &Me) -> Filter {
        let correspondents = games
            .iter()
            .flat_map(|g| [&g.opponent_email, &g.arbiter_email])
            .map(|a| a.trim().to_lowercase())
            // A friendly game's arbiter is an empty address: nobody's.
            .filter(|a| !a.is_empty())
            .collect();
        Filter {
            me: me.email.trim().to_lowercase(),
            correspondents,
        }
    }

    /// Reads `raw` and says whether it is chess mail: [`Filter::pre`], then
    /// [`Filter::decide`].
    pub async fn check(&self, store: &Store, raw: &[u8]) -> anyhow::Result<Checked> {
        let pre = self.pre(raw);
        self.decide(&mut *store.conn().await?, raw, pre).await
    }

    /// What can be told without the store: rules 1, 2 and 4. It costs CPU only, so the
    /// daemon runs it off its main thread, a batch at a time. A message the reader fails on
    /// (it should never panic; if it does, the daemon must not die on the same mail at every
    /// start) is not chess mail.
    ///
    /// Only the first [`HEAD`] bytes of a message are decoded to begin with
    /// ([`mime::decode_head`]): the headers, and the start of the text, where a game header
    /// stands (rule 4). The whole is decoded when that can't tell (a PGN part further on, no
    /// text in the head) and for chess mail, which is then read by the move reader. The move
    /// reader, which costs far more than the MIME decoding, runs only on mail from a
    /// correspondent or where a line could give it a game header
    /// ([`message::may_name_a_game`]): the player's other mail is not read through.
    pub fn pre(&self, raw: &[u8]) -> Pre {
        catch_unwind(AssertUnwindSafe(|| self.pre_unguarded(raw))).unwrap_or_else(|_| {
            tracing::error!("{}", crate::t!("daemon-reader-failed"));
            // not the interface's: why mail is passed over, for the debug log
            Pre::Decided(Checked::NotChess("the reader failed on it"))
        })
    }

    fn pre_unguarded(&self, raw: &[u8]) -> Pre {
        let (head, is_whole) = match mime::decode_head(raw, HEAD) {
            Some(head) => (head, raw.len() <= HEAD),
            None => (mime::decode(raw), true),
        };
        let Ok(head) = head else {
            // not the interface's: why mail is passed over, for the debug log
            return Pre::Decided(Checked::NotChess("not a mail message"));
        };
        // Chess mail is read whole: decoded again unless the head was all of it.
        let read_whole = |head: Decoded| {
            let whole = if is_whole {
                Ok(head)
            } else {
                mime::decode(raw)
            };
            whole.map(|d| Box::new(incoming::read_decoded(d)))
        };
        match self.look(&head) {
            Look::Own => Pre::Decided(Checked::NotChess(OWN)),
            Look::Correspondent => Pre::Decided(
                // not the interface's: why mail is passed over, for the debug log
                read_whole(head).map_or(Checked::NotChess("not a mail message"), |incoming| {
                    Checked::Chess(CORRESPONDENT, incoming)
                }),
            ),
            Look::MayName { ids } => thread(
                ids,
                // not the interface's: why mail is passed over, for the debug log
                read_whole(head).map_or(Checked::NotChess("not a mail message"), Self::by_content),
            ),
            Look::Nothing { ids } => thread(ids, Checked::NotChess(NOTHING)),
        }
    }

    /// What a message's headers and the start of its text say (rules 1, 2 and 4's first test).
    fn look(&self, head: &Decoded) -> Look {
        let ids = match self.by_headers(head) {
            Ok(look) => return look,
            Err(ids) => ids,
        };
        if message::may_name_a_game(&head.text, &head.pgn) {
            Look::MayName { ids }
        } else {
            Look::Nothing { ids }
        }
    }

    /// Rules 1 and 2 by the From address; otherwise the Message-IDs the message answers
    /// (rule 3), for the rest of the look.
    fn by_headers(&self, head: &Decoded) -> Result<Look, Vec<String>> {
        let from = head.from.as_ref().map(|a| a.normalized_email());
        if from.as_deref() == Some(self.me.as_str()) {
            return Ok(Look::Own);
        }
        if from.is_some_and(|f| self.correspondents.contains(&f)) {
            return Ok(Look::Correspondent);
        }
        Err(head.answers().into_iter().map(str::to_owned).collect())
    }

    /// The header fields [`Filter::sift`] reads, all that the server is asked for before a
    /// message's body (IMAP `BODY.PEEK[HEADER.FIELDS (…)]`): who wrote it, and what it
    /// answers.
    pub const SIFT_FIELDS: [&str; 3] = ["From", "In-Reply-To", "References"];

    /// What a message's headers alone say of it, before its body is fetched: the same rules
    /// as [`Filter::pre`], as far as headers tell them. `header` is a header block, or only
    /// its [`Filter::SIFT_FIELDS`], which say the same. Mail from the player (rule 1) is
    /// settled; mail from a correspondent (rule 2), or whose headers can't be read here, needs
    /// its body; mail that answers a message (rule 3) needs the store; the rest can be chess
    /// mail only by its content (rule 4).
    pub fn sift(&self, header: &[u8]) -> Sift {
        if header.trim_ascii().is_empty() {
            // None of the fields: no sender, answering nothing. (Decoding an empty block
            // would fail as mail without headers.)
            return Sift::Content;
        }
        let Some(Ok(head)) = catch_unwind(AssertUnwindSafe(|| mime::decode(header))).ok() else {
            return Sift::Body;
        };
        match self.by_headers(&head) {
            Ok(Look::Own) => Sift::Not(OWN),
            Ok(_) => Sift::Body,
            Err(ids) if ids.is_empty() => Sift::Content,
            Err(ids) => Sift::Thread(ids),
        }
    }

    /// What the mail server is asked to find in the text of mail that can be chess mail only
    /// by its content (rule 4): a game header, that is an event label, or White's and Black's
    /// (`[Event …]` PGN tags included) — every message the reader takes a game header from,
    /// and some others, whose bodies are then fetched and read as any other's.
    pub fn content_query() -> Vec<Vec<Vec<String>>> {
        let words = message::game_header_words();
        vec![vec![words.event], vec![words.white, words.black]]
    }

    /// For a message larger than [`HEAD`] of which only the first [`HEAD`] bytes were fetched
    /// (`pgn_part`: the server says a part of it may carry PGN): `Some` when those bytes
    /// settle it as [`Filter::pre`] on the whole message would — mail that is not chess mail,
    /// or that is unless it answers a game's message ([`Pre::Thread`], which the caller asks
    /// the store, [`Filter::in_a_games_thread`]). `None` when the whole message must be
    /// fetched and looked at: it may be chess mail, or the head can't tell.
    pub fn settled_by_head(&self, head: &[u8], pgn_part: bool) -> Option<Pre> {
        if pgn_part {
            return None;
        }
        // A panic here (there should be none) leaves the message to `pre`, which is guarded.
        catch_unwind(AssertUnwindSafe(|| {
            let Ok(decoded) = mime::decode_cut(head)? else {
                // The header block is within the head, and that is what fails a message.
                // not the interface's: why mail is passed over, for the debug log
                return Some(Pre::Decided(Checked::NotChess("not a mail message")));
            };
            match self.look(&decoded) {
                Look::Own => Some(Pre::Decided(Checked::NotChess(OWN))),
                Look::Correspondent | Look::MayName { .. } => None,
                Look::Nothing { ids } => Some(thread(ids, Checked::NotChess(NOTHING))),
            }
        }))
        .unwrap_or(None)
    }

    /// Whether one of these Message-IDs (a message's [`Decoded::answers`]) is a message of a
    /// game: one query.
    pub async fn in_a_games_thread(
        conn: &mut SqliteConnection,
        ids: &[String],
    ) -> anyhow::Result<bool> {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        Ok(!store::games_of_message_ids(conn, &ids).await?.is_empty())
    }

    /// Rule 3, the thread: what [`Filter::pre`] left to the store.
    pub async fn decide(
        &self,
        conn: &mut SqliteConnection,
        raw: &[u8],
        pre: Pre,
    ) -> anyhow::Result<Checked> {
        let (ids, otherwise) = match pre {
            Pre::Decided(checked) => return Ok(checked),
            Pre::Thread { ids, otherwise } => (ids, otherwise),
        };
        if Self::in_a_games_thread(conn, &ids).await? {
            // not the interface's: why mail is passed over, for the debug log
            let why = "answers a message of a game";
            return Ok(match otherwise {
                Checked::Chess(_, incoming) => Checked::Chess(why, incoming),
                Checked::NotChess(_) => Checked::Chess(why, Box::new(incoming::read(raw))),
            });
        }
        Ok(otherwise)
    }

    /// Rule 4: a game header and a move; or a message too large to read whose start may name
    /// a game, held for the player to see.
    fn by_content(incoming: Box<Incoming>) -> Checked {
        let msg = &incoming.message;
        // Its start may name a game, and it is too large to read: held, for the player to see.
        if msg.too_large.is_some() {
            // not the interface's: why it is chess mail, for the debug log
            return Checked::Chess("may name a game, too large to read", incoming);
        }
        let h = &msg.header;
        let named = h.event.is_some() || (h.white.is_some() && h.black.is_some());
        let moved = msg.new_move_text.is_some() || !msg.moves.is_empty();
        if named && moved {
            // not the interface's: why mail is passed over, for the debug log
            Checked::Chess("a game header and a move", incoming)
        } else {
            Checked::NotChess(NOTHING)
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
            ..Default::default()
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
            status: store::GameStatus::Finished,
            result: Some("1-0".into()),
            ..GameRow::new(
                "g1",
                "2026-03-01".parse().unwrap(),
                "2026-03-01T12:00:00+03:00",
            )
        };
        store::insert_game(&mut c, &game).await.unwrap();
        let ours = NewMessage {
            direction: store::Direction::Out,
            message_id: Some("ccmail.g1.1.abc@example.org"),
            raw: b"our move",
            game_id: Some("g1"),
            kind: store::StoredKind::MOVE,
            status: store::MessageStatus::Sent,
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

    /// Mail from an unknown address, `text` and then a photo larger than [`HEAD`], and then
    /// maybe a PGN file.
    fn with_photo(text: &str, pgn: Option<&str>) -> Vec<u8> {
        with_photo_from("someone@new.example.org", "", text, pgn)
    }

    /// [`with_photo`] from `from`, with `extra` header fields.
    fn with_photo_from(from: &str, extra: &str, text: &str, pgn: Option<&str>) -> Vec<u8> {
        let photo = "QUJDRA==\r\n".repeat(HEAD / 5);
        let mut m = format!(
            "From: <{from}>\r\nTo: <ivanov@example.org>\r\nSubject: hi\r\n{extra}\
             Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
             --b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n\
             --b\r\nContent-Type: image/jpeg\r\nContent-Transfer-Encoding: base64\r\n\r\n{photo}"
        );
        if let Some(pgn) = pgn {
            m.push_str(&format!(
                "--b\r\nContent-Type: application/octet-stream; name=\"game.pgn\"\r\n\r\n{pgn}\r\n"
            ));
        }
        m.push_str("--b--\r\n");
        m.into_bytes()
    }

    /// Rule 4 on mail larger than the head the filter decodes first: the game header at the
    /// top of the text, or in a PGN file after a large attachment, is found; the chess mail
    /// comes with its whole reading.
    #[tokio::test]
    async fn large_mail_is_looked_at_by_its_head_and_read_whole_when_chess() {
        let store = store_with_a_game().await;
        let filter = Filter::load(&store, &me()).await.unwrap();
        let pgn = "[Event \"Кубок клуба 2026\"]\r\n[White \"Иванов\"]\r\n[Black \"Петров\"]\r\n\r\n1. e4 *";
        let cases = [
            ("a move above a photo", with_photo(STANDARD, None), true),
            (
                "a note above a photo",
                with_photo("Holiday photos!", None),
                false,
            ),
            (
                "a PGN file after a photo",
                with_photo("My move is in the file.", Some(pgn)),
                true,
            ),
        ];
        for (what, raw, chess) in cases {
            assert!(raw.len() > HEAD, "{what}");
            let checked = filter.check(&store, &raw).await.unwrap();
            assert_eq!(checked.is_chess(), chess, "{what}: {checked:?}");
            if let Checked::Chess(_, incoming) = checked {
                // Read whole: the PGN file after the photo is there.
                let pgn = &incoming.decoded.as_ref().unwrap().pgn;
                assert_eq!(pgn.len(), usize::from(what.contains("PGN")), "{what}");
                assert_eq!(incoming.message.header.white.as_deref(), Some("Иванов"));
            }
        }
    }

    /// What a verdict says, for comparing two.
    fn verdict(pre: &Pre) -> String {
        let said = |c: &Checked| match c {
            Checked::NotChess(why) => format!("not chess: {why}"),
            Checked::Chess(why, _) => format!("chess: {why}"),
        };
        match pre {
            Pre::Decided(checked) => said(checked),
            Pre::Thread { ids, otherwise } => format!("thread {ids:?}, else {}", said(otherwise)),
        }
    }

    /// The first [`HEAD`] bytes of a large message, fetched alone, settle only mail that is not
    /// chess mail (or is only if it answers a game's message), and settle it exactly as
    /// [`Filter::pre`] does on the whole; all else is fetched whole.
    #[tokio::test]
    async fn a_head_settles_only_what_the_whole_message_would() {
        let store = store_with_a_game().await;
        let filter = Filter::load(&store, &me()).await.unwrap();
        let pgn = "[Event \"Кубок клуба 2026\"]\r\n[White \"Иванов\"]\r\n[Black \"Петров\"]\r\n\r\n1. e4 *";
        let reply = "In-Reply-To: <ccmail.g1.1.abc@example.org>\r\n";
        // What it is, the message, whether a part may carry PGN, settled by the head?
        let cases = [
            (
                "a note above a photo",
                with_photo("Holiday photos!", None),
                false,
                true,
            ),
            (
                "a note above a photo, answering something",
                with_photo_from("someone@new.example.org", reply, "Photos!", None),
                false,
                true,
            ),
            (
                "our own photos",
                with_photo_from("ivanov@example.org", "", STANDARD, None),
                false,
                true,
            ),
            (
                "a move above a photo",
                with_photo(STANDARD, None),
                false,
                false,
            ),
            (
                "the opponent's photos",
                with_photo_from("petrov@example.org", "", "Photos!", None),
                false,
                false,
            ),
            (
                "a PGN file after a photo",
                with_photo("My move is in the file.", Some(pgn)),
                true,
                false,
            ),
            (
                "no text before the photo",
                with_photo_from("someone@new.example.org", "", "", None),
                false,
                false,
            ),
        ];
        for (what, raw, pgn_part, settled) in cases {
            assert!(raw.len() > HEAD, "{what}");
            let by_head = filter.settled_by_head(&raw[..HEAD], pgn_part);
            assert_eq!(by_head.is_some(), settled, "{what}: {by_head:?}");
            if let Some(by_head) = by_head {
                assert!(!verdict(&by_head).starts_with("chess"), "{what}");
                assert_eq!(verdict(&by_head), verdict(&filter.pre(&raw)), "{what}");
            }
        }
    }

    /// The fields the server is asked for before a body say of a message what its whole
    /// header block says: the other fields (a delivery trace, a signature, a Sender or
    /// Reply-To, a subject with a game's words) change nothing. Each case is a whole header
    /// block, and what a server answers for `BODY[HEADER.FIELDS (FROM IN-REPLY-TO
    /// REFERENCES)]` of it.
    #[tokio::test]
    async fn the_fields_asked_for_say_what_the_whole_header_says() {
        let store = store_with_a_game().await;
        let filter = Filter::load(&store, &me()).await.unwrap();
        let trace = "Received: from mx.example.org by imap.example.org;\r\n\
                     Mon, 2 Mar 2026 10:00:00 +0300\r\n\
                     DKIM-Signature: v=1; a=rsa-sha256; d=example.org; s=s1;\r\n b=AAAA\r\n";
        let game = "ccmail.g1.1.abc@example.org";
        let ids = |v: &[&str]| Sift::Thread(v.iter().map(|s| (*s).to_owned()).collect());
        let cases = [
            (
                "a stranger writing as the player's Sender, with a correspondent's Reply-To",
                format!(
                    "{trace}From: <someone@new.example.org>\r\n\
                     Sender: <ivanov@example.org>\r\nReply-To: <petrov@example.org>\r\n\
                     Subject: Кубок клуба 2026\r\n\r\n"
                ),
                "From: <someone@new.example.org>\r\n\r\n".to_owned(),
                Sift::Content,
            ),
            (
                "the opponent, through a provider",
                format!("{trace}From: Petrov <PETROV@example.org>\r\nSubject: hi\r\n\r\n"),
                "From: Petrov <PETROV@example.org>\r\n\r\n".to_owned(),
                Sift::Body,
            ),
            (
                "the player, the name encoded",
                format!(
                    "{trace}From: =?UTF-8?B?0JjQstCw0L3QvtCy?= <ivanov@example.org>\r\n\
                     To: <petrov@example.org>\r\n\r\n"
                ),
                "From: =?UTF-8?B?0JjQstCw0L3QvtCy?= <ivanov@example.org>\r\n\r\n".to_owned(),
                Sift::Not(OWN),
            ),
            (
                "a stranger answering a game's message, the References folded",
                format!(
                    "From: <someone@new.example.org>\r\nSubject: Re: move\r\n\
                     In-Reply-To: <{game}>\r\nMessage-ID: <x@new.example.org>\r\n\
                     References: <first@example.org>\r\n <{game}>\r\n{trace}\r\n"
                ),
                format!(
                    "From: <someone@new.example.org>\r\nIn-Reply-To: <{game}>\r\n\
                     References: <first@example.org>\r\n <{game}>\r\n\r\n"
                ),
                ids(&[game, game, "first@example.org"]),
            ),
            (
                "no sender, answering nothing",
                format!("{trace}Subject: Кубок клуба 2026\r\n\r\n"),
                "\r\n".to_owned(),
                Sift::Content,
            ),
        ];
        for (what, whole, fields, sift) in cases {
            assert_eq!(
                filter.sift(whole.as_bytes()),
                sift,
                "{what}: the whole block"
            );
            assert_eq!(filter.sift(fields.as_bytes()), sift, "{what}: the fields");
        }
    }
}
