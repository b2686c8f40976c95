//! What a stored message is: the `kind` column of `messages`, as a type.
//!
//! An incoming message is stored with the kind the reader found (cli.md's names, the core's
//! [`MessageKind`]); one of ours with the kind of letter it is (a move, a resignation, a
//! repeat, a correction request, the game's PGN …). Some words are both (`move`, `repeat`,
//! `claim`, `adjudication`): the direction tells them apart. A word this version does not know
//! — from a database a later version wrote — reads as [`StoredKind::Unknown`], kept as
//! written, rather than failing every listing that meets it.

use std::fmt;

use ccmail_core::message::MessageKind;
use sqlx::encode::IsNull;
use sqlx::sqlite::{SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Sqlite, Type};

/// The kind of a stored message, in or out: one variant a stored word. (The default only fills
/// a `MessageRow::default()`.)
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub enum StoredKind {
    /// A move message, received or ours (51.2).
    Move,
    /// A repeat of an earlier move, received or ours (51.5.1).
    Repeat,
    /// Received: a draw accepted, without a move.
    DrawAccept,
    /// Received: a resignation without a move.
    Resignation,
    /// Received: a break announced (51.7.2).
    BreakNotice,
    /// Received: a break ended early (51.7.3).
    BreakEnd,
    /// Received: a new address (51.1.2).
    AddressChange,
    /// Received: a request to correct or repeat our move (51.3.4, 51.5.2).
    CorrectionRequest,
    /// A time-forfeit claim or its copy, received or ours (51.6).
    Claim,
    /// An adjudication package or its copy, received or ours (51.9.4).
    Adjudication,
    /// Received: anything else written about a game.
    Note,
    /// Received: not about a game at all.
    #[default]
    Other,
    /// Ours: a move message that resigns.
    Resign,
    /// Ours: a draw accepted, without a move.
    Draw,
    /// Ours: a correction request (51.3.4).
    Correction,
    /// Ours: the finished game's PGN, to the arbiter (51.9.1).
    Pgn,
    /// Ours: a break taken or ended (51.7.2–3).
    Break,
    /// Ours: our new address (51.1.2).
    Address,
    /// A word this version does not know, as written.
    Unknown(String),
}

/// Every kind but [`StoredKind::Unknown`], with its word.
const WORDS: [(StoredKind, &str); 18] = [
    (StoredKind::Move, "move"),
    (StoredKind::Repeat, "repeat"),
    (StoredKind::DrawAccept, "draw_accept"),
    (StoredKind::Resignation, "resignation"),
    (StoredKind::BreakNotice, "break_notice"),
    (StoredKind::BreakEnd, "break_end"),
    (StoredKind::AddressChange, "address_change"),
    (StoredKind::CorrectionRequest, "correction_request"),
    (StoredKind::Claim, "claim"),
    (StoredKind::Adjudication, "adjudication"),
    (StoredKind::Note, "note"),
    (StoredKind::Other, "other"),
    (StoredKind::Resign, "resign"),
    (StoredKind::Draw, "draw"),
    (StoredKind::Correction, "correction"),
    (StoredKind::Pgn, "pgn"),
    (StoredKind::Break, "break"),
    (StoredKind::Address, "address"),
];

impl StoredKind {
    /// The stored word.
    pub fn as_str(&self) -> &str {
        match self {
            StoredKind::Unknown(word) => word,
            known => WORDS
                .iter()
                .find(|(k, _)| k == known)
                .map_or("", |(_, word)| word),
        }
    }

    /// The kind stored as `word`.
    pub fn from_word(word: &str) -> StoredKind {
        WORDS
            .iter()
            .find(|(_, w)| *w == word)
            .map_or_else(|| StoredKind::Unknown(word.to_owned()), |(k, _)| k.clone())
    }

    /// Whether one of ours of this kind carries a move of ours, or ours again: in a game with
    /// `attach_pgn` on, each has the game so far attached (message-form.md).
    pub fn carries_our_move(&self) -> bool {
        matches!(
            self,
            StoredKind::Move
                | StoredKind::Resign
                | StoredKind::Draw
                | StoredKind::Repeat
                | StoredKind::Correction
        )
    }
}

/// A received message's kind, as the reader found it: cli.md's names are the stored words.
impl From<MessageKind> for StoredKind {
    fn from(kind: MessageKind) -> Self {
        StoredKind::from_word(kind.as_str())
    }
}

impl fmt::Display for StoredKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Type<Sqlite> for StoredKind {
    fn type_info() -> SqliteTypeInfo {
        <str as Type<Sqlite>>::type_info()
    }

    fn compatible(ty: &SqliteTypeInfo) -> bool {
        <str as Type<Sqlite>>::compatible(ty)
    }
}

impl<'q> Encode<'q, Sqlite> for StoredKind {
    fn encode_by_ref(
        &self,
        buf: &mut <Sqlite as sqlx::Database>::ArgumentBuffer,
    ) -> Result<IsNull, sqlx::error::BoxDynError> {
        <String as Encode<'q, Sqlite>>::encode(self.as_str().to_owned(), buf)
    }
}

impl<'r> Decode<'r, Sqlite> for StoredKind {
    fn decode(value: SqliteValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
        let word = <&str as Decode<'r, Sqlite>>::decode(value)?;
        Ok(StoredKind::from_word(word))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind is stored as its word and read back as itself; a word this version does not
    /// know reads back as written; every kind the reader finds has a word of its own.
    #[tokio::test]
    async fn kinds_round_trip_through_their_stored_words() {
        let store = crate::Store::memory().await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let unknown = StoredKind::Unknown("telegram".into());
        for kind in WORDS.iter().map(|(k, _)| k).chain([&unknown]) {
            let (text, back): (String, StoredKind) = sqlx::query_as("SELECT ?1, ?1")
                .bind(kind)
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            assert_eq!((text.as_str(), &back), (kind.as_str(), kind));
            assert_eq!(kind.to_string(), kind.as_str());
        }
        for name in [
            "move",
            "repeat",
            "draw_accept",
            "resignation",
            "break_notice",
            "break_end",
            "address_change",
            "correction_request",
            "claim",
            "adjudication",
            "note",
            "other",
        ] {
            let kind = MessageKind::from_name(name).unwrap();
            assert_eq!(StoredKind::from(kind).as_str(), name);
        }
    }
}
