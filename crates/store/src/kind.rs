//! What a stored message is: the `kind` column of `messages`, as a type.
//!
//! A message is stored with what it is, in cli.md's words: the core's [`MessageKind`] as the
//! reader finds it in a partner's message, and as ccmail writes it in one of ours (a move, a
//! repeat, a claim, an adjudication package). A few letters of ours have words of their own
//! ([`Letter`]). A word this version does not know — from a database a later version wrote —
//! reads as [`StoredKind::Unknown`], kept as written, rather than failing every listing that
//! meets it.

use std::fmt;

use ccmail_core::message::MessageKind;
use sqlx::encode::IsNull;
use sqlx::sqlite::{SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Sqlite, Type};

/// The kind of a stored message, in or out. (The default only fills a
/// `MessageRow::default()`.)
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StoredKind {
    /// What the message is, in the reader's words; for ours, what we wrote.
    Is(MessageKind),
    /// A letter of ours with a word of its own.
    Ours(Letter),
    /// A word this version does not know, as written.
    Unknown(String),
}

/// The letters of ours stored under words the reader does not use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Letter {
    /// A move message that resigns.
    Resign,
    /// A draw accepted, without a move.
    Draw,
    /// A correction request (51.3.4).
    Correction,
    /// The finished game's PGN, to the arbiter (51.9.1).
    Pgn,
    /// A break taken or ended (51.7.2–3).
    Break,
    /// Our new address (51.1.2).
    Address,
}

impl Letter {
    pub const ALL: [Letter; 6] = [
        Letter::Resign,
        Letter::Draw,
        Letter::Correction,
        Letter::Pgn,
        Letter::Break,
        Letter::Address,
    ];

    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Letter::Resign => "resign",
            Letter::Draw => "draw",
            Letter::Correction => "correction",
            Letter::Pgn => "pgn",
            Letter::Break => "break",
            Letter::Address => "address",
        }
    }
}

impl StoredKind {
    pub const MOVE: StoredKind = StoredKind::Is(MessageKind::Move);
    pub const REPEAT: StoredKind = StoredKind::Is(MessageKind::Repeat);
    pub const CLAIM: StoredKind = StoredKind::Is(MessageKind::Claim);
    pub const ADJUDICATION: StoredKind = StoredKind::Is(MessageKind::Adjudication);
    pub const RESIGN: StoredKind = StoredKind::Ours(Letter::Resign);
    pub const DRAW: StoredKind = StoredKind::Ours(Letter::Draw);
    pub const CORRECTION: StoredKind = StoredKind::Ours(Letter::Correction);
    pub const PGN: StoredKind = StoredKind::Ours(Letter::Pgn);
    pub const BREAK: StoredKind = StoredKind::Ours(Letter::Break);
    pub const ADDRESS: StoredKind = StoredKind::Ours(Letter::Address);

    /// The stored word.
    pub fn as_str(&self) -> &str {
        match self {
            StoredKind::Is(kind) => kind.as_str(),
            StoredKind::Ours(letter) => letter.as_str(),
            StoredKind::Unknown(word) => word,
        }
    }

    /// The kind stored as `word`.
    pub fn from_word(word: &str) -> StoredKind {
        if let Some(kind) = MessageKind::from_name(word) {
            return StoredKind::Is(kind);
        }
        match Letter::ALL.into_iter().find(|l| l.as_str() == word) {
            Some(letter) => StoredKind::Ours(letter),
            None => StoredKind::Unknown(word.to_owned()),
        }
    }

    /// Whether one of ours of this kind carries a move of ours, or ours again: in a game with
    /// `attach_pgn` on, each has the game so far attached (message-form.md).
    pub fn carries_our_move(&self) -> bool {
        matches!(
            self,
            StoredKind::Is(MessageKind::Move | MessageKind::Repeat)
                | StoredKind::Ours(Letter::Resign | Letter::Draw | Letter::Correction)
        )
    }
}

impl From<MessageKind> for StoredKind {
    fn from(kind: MessageKind) -> Self {
        StoredKind::Is(kind)
    }
}

impl Default for StoredKind {
    fn default() -> Self {
        StoredKind::Is(MessageKind::Other)
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
    /// know reads back as written.
    #[tokio::test]
    async fn kinds_round_trip_through_their_stored_words() {
        let store = crate::Store::memory().await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let read = MessageKind::ALL.map(StoredKind::Is);
        let ours = Letter::ALL.map(StoredKind::Ours);
        let unknown = StoredKind::Unknown("telegram".into());
        for kind in read.iter().chain(&ours).chain([&unknown]) {
            let (text, back): (String, StoredKind) = sqlx::query_as("SELECT ?1, ?1")
                .bind(kind)
                .fetch_one(&mut *conn)
                .await
                .unwrap();
            assert_eq!((text.as_str(), &back), (kind.as_str(), kind));
            assert_eq!(kind.to_string(), kind.as_str());
        }
        // No letter of ours takes a word the reader uses.
        for letter in Letter::ALL {
            assert_eq!(MessageKind::from_name(letter.as_str()), None, "{letter:?}");
        }
    }
}
