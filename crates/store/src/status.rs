//! The statuses of games, messages and outbox items, a message's direction and the kind of
//! an extra period: the closed
//! sets the schema's CHECK constraints name (migrations/0001), as types. sqlx converts them to
//! and from the stored text at the SQL boundary, so the app compares variants, never strings;
//! `as_str` (and `Display`) give the same words back for the JSON and the screen.

use std::fmt;

/// Where a game stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum GameStatus {
    #[default]
    Active,
    /// A time-forfeit claim awaits the arbiter (51.8).
    Suspended,
    Finished,
}

/// What was done with a stored message. (The default only fills a `MessageRow::default()`.)
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum MessageStatus {
    /// Incoming, and its move or answer went into the game.
    #[default]
    Applied,
    /// Incoming, and kept for the player to look at (unknown sender, no game, unreadable).
    Held,
    /// A held message the player set aside.
    Dismissed,
    /// Incoming, taken as information only (a repetition, a confirmation).
    Info,
    /// Outgoing, waiting in the outbox.
    Queued,
    /// Outgoing, taken by the server.
    Sent,
}

/// Where an outbox item stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum OutboxStatus {
    #[default]
    Queued,
    Sent,
    /// A permanent failure: kept, shown, not retried.
    Failed,
}

/// Why a player was given extra time (51.3.4: the days a correction request or a rejected
/// message cost the one who had to wait).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum ExtraPeriodKind {
    /// We asked the partner to correct a faulty move: the days until the answer.
    CorrectionRequest,
    /// A message of the partner's was rejected.
    RejectedMessage,
}

/// Which way a stored message went.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, sqlx::Type)]
#[sqlx(rename_all = "snake_case")]
pub enum Direction {
    /// Received. (The default only fills a `MessageRow::default()`.)
    #[default]
    In,
    /// Ours, sent or to be sent.
    Out,
}

impl GameStatus {
    pub const ALL: [GameStatus; 3] = [Self::Active, Self::Suspended, Self::Finished];

    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Suspended => "suspended",
            Self::Finished => "finished",
        }
    }
}

impl MessageStatus {
    pub const ALL: [MessageStatus; 6] = [
        Self::Applied,
        Self::Held,
        Self::Dismissed,
        Self::Info,
        Self::Queued,
        Self::Sent,
    ];

    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::Held => "held",
            Self::Dismissed => "dismissed",
            Self::Info => "info",
            Self::Queued => "queued",
            Self::Sent => "sent",
        }
    }
}

impl Direction {
    pub const ALL: [Direction; 2] = [Self::In, Self::Out];

    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::In => "in",
            Self::Out => "out",
        }
    }
}

impl OutboxStatus {
    pub const ALL: [OutboxStatus; 3] = [Self::Queued, Self::Sent, Self::Failed];

    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Sent => "sent",
            Self::Failed => "failed",
        }
    }
}

impl ExtraPeriodKind {
    pub const ALL: [ExtraPeriodKind; 2] = [Self::CorrectionRequest, Self::RejectedMessage];

    /// The stored word.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CorrectionRequest => "correction_request",
            Self::RejectedMessage => "rejected_message",
        }
    }
}

macro_rules! display_as_str {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    )*};
}

display_as_str!(
    GameStatus,
    MessageStatus,
    OutboxStatus,
    Direction,
    ExtraPeriodKind
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each status is stored as the word `as_str` gives (the words of the schema's CHECK
    /// constraints), and read back as itself.
    #[tokio::test]
    async fn statuses_round_trip_through_their_stored_words() {
        let store = crate::Store::memory().await.unwrap();
        let mut conn = store.conn().await.unwrap();
        // Each type's words, bound and read back as text and as the type.
        macro_rules! round_trip {
            ($($t:ty),*) => {$(
                for s in <$t>::ALL {
                    let (text, back): (String, $t) = sqlx::query_as("SELECT ?1, ?1")
                        .bind(s)
                        .fetch_one(&mut *conn)
                        .await
                        .unwrap();
                    assert_eq!((text.as_str(), back), (s.as_str(), s));
                    assert_eq!(s.to_string(), s.as_str());
                }
            )*};
        }
        round_trip!(
            GameStatus,
            MessageStatus,
            Direction,
            OutboxStatus,
            ExtraPeriodKind
        );
    }

    /// A word outside the set is an error, not a default.
    #[tokio::test]
    async fn an_unknown_word_is_an_error() {
        let store = crate::Store::memory().await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let r: Result<(GameStatus,), _> = sqlx::query_as("SELECT 'paused'")
            .fetch_one(&mut *conn)
            .await;
        assert!(r.is_err());
    }
}
