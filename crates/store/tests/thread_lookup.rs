//! The Message-IDs a message names in In-Reply-To and References are looked up in one query,
//! however many there are: each reference once cost a query of its own inside the write
//! transaction, and a message with 600,000 of them held the player's own command for 20 s.
//!
//! The statements are counted as sqlx reports them (one `sqlx::query` event each, from the
//! connection's worker thread): a subscriber of this test binary's own, so that nothing else
//! runs beside it.

use std::sync::Mutex;

use ccmail_store::*;
use chrono::NaiveDate;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// The text of every statement sqlx ran.
static STATEMENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Statements;

impl Subscriber for Statements {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target() == "sqlx::query"
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        struct Text(String);
        impl Visit for Text {
            fn record_str(&mut self, field: &Field, value: &str) {
                if matches!(field.name(), "summary" | "db.statement") {
                    self.0.push_str(value);
                    self.0.push(' ');
                }
            }
            fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
                self.record_str(field, &format!("{value:?}"));
            }
        }
        let mut text = Text(String::new());
        event.record(&mut text);
        STATEMENTS.lock().unwrap().push(text.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// How many statements `f` ran that read the messages table.
async fn statements<T>(f: impl Future<Output = T>) -> (T, usize) {
    STATEMENTS.lock().unwrap().clear();
    let out = f.await;
    let n = STATEMENTS
        .lock()
        .unwrap()
        .iter()
        .filter(|s| s.contains("FROM messages"))
        .count();
    (out, n)
}

fn game(id: &str) -> GameRow {
    GameRow {
        event: "Кубок Волги 2026".into(),
        white: "Смирнов".into(),
        black: "Кузнецов".into(),
        my_color: "white".into(),
        opponent_email: format!("{id}@example.net"),
        arbiter_email: "arbiter@example.org".into(),
        ..GameRow::new(
            id,
            NaiveDate::from_ymd_opt(2026, 1, 14).unwrap(),
            &format!("2026-01-14T12:00:00+03:00#{id}"),
        )
    }
}

#[tokio::test]
async fn the_ids_of_a_thread_are_looked_up_in_one_query() {
    tracing::subscriber::set_global_default(Statements).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("ccmail.db")).await.unwrap();
    let mut c = store.conn().await.unwrap();
    for g in ["g1", "g2"] {
        insert_game(&mut c, &game(g)).await.unwrap();
    }
    let rows = [
        (Direction::Out, "ours.1@x", Some("g1")),
        (Direction::In, "theirs.1@x", Some("g1")),
        (Direction::Out, "ours.2@x", Some("g2")),
        (Direction::In, "stray@x", None),
    ];
    for (n, (direction, mid, game_id)) in rows.into_iter().enumerate() {
        let raw = format!("raw {n}");
        let m = NewMessage {
            direction,
            message_id: Some(mid),
            raw: raw.as_bytes(),
            game_id,
            kind: StoredKind::MOVE,
            status: if direction == Direction::Out {
                MessageStatus::Sent
            } else {
                MessageStatus::Applied
            },
            created_at: "2026-03-01T10:00:00+00:00",
            ..NewMessage::default()
        };
        insert_message(&mut c, &m).await.unwrap();
    }

    // The counter sees sqlx's statements at all.
    let (_, n) = statements(async {
        for _ in 0..3 {
            held(&mut c).await.unwrap();
        }
    })
    .await;
    assert_eq!(n, 3);

    // A thousand ids (a message's In-Reply-To and References, the newest first): one query;
    // the games in the order of the ids that name them, each once; unknown ids and a message
    // of no game name nothing.
    let mut ids: Vec<String> = (0..1_000).map(|n| format!("unknown.{n}@x")).collect();
    ids[10] = "ours.2@x".into();
    ids[20] = "theirs.1@x".into();
    ids[30] = "stray@x".into();
    ids[40] = "ours.1@x".into();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let (games, n) = statements(games_of_message_ids(&mut c, &ids)).await;
    assert_eq!(games.unwrap(), ["g2", "g1"]);
    assert_eq!(n, 1, "{:#?}", STATEMENTS.lock().unwrap());
    // And SQLite searches the Message-ID index for them rather than reading it all.
    let sql = STATEMENTS.lock().unwrap()[0].clone();
    // The summary, then the whole statement.
    let sql = &sql[sql.rfind("SELECT").unwrap()..].trim();
    let mut plan = sqlx::query_as::<_, (i64, i64, i64, String)>(sqlx::AssertSqlSafe(format!(
        "EXPLAIN QUERY PLAN {sql}"
    )));
    for id in &ids {
        plan = plan.bind(*id);
    }
    let plan = plan.fetch_all(&mut *c).await.unwrap();
    assert!(
        plan.iter()
            .any(|(.., step)| step.starts_with("SEARCH messages USING INDEX messages_by_id")),
        "{plan:?}"
    );

    let (games, n) = statements(games_of_message_ids(&mut c, &["stray@x"])).await;
    assert!(games.unwrap().is_empty());
    assert_eq!(n, 1);
    let (games, n) = statements(games_of_message_ids(&mut c, &[])).await;
    assert!(games.unwrap().is_empty());
    assert_eq!(n, 0);
}
