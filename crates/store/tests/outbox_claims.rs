//! What the daemon adds to the outbox and the messages: one sender per attempt (claims),
//! retrying at once when the server is back, and the record of copies kept in Sent.

use ccmail_store::*;

async fn open() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("ccmail.db")).await.unwrap();
    (dir, store)
}

/// A queued message going out, due at `at`; returns (message id, outbox id).
async fn queued(c: &mut SqliteConnection, mid: &str, at: &str) -> (i64, i64) {
    let m = NewMessage {
        direction: Direction::Out,
        message_id: Some(mid),
        raw: mid.as_bytes(),
        kind: StoredKind::MOVE,
        status: MessageStatus::Queued,
        created_at: at,
        ..NewMessage::default()
    };
    let id = insert_message(c, &m).await.unwrap().id();
    let item = enqueue(c, id, "me@x", &["you@x".into()], at).await.unwrap();
    (id, item)
}

const T0: &str = "2026-03-01T10:00:00+03:00";
const T1: &str = "2026-03-01T10:01:00+03:00";
const LEASE: &str = "2026-03-01T10:10:00+03:00";

#[tokio::test]
async fn an_item_is_claimed_by_one_sender_only() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let (_, item) = queued(&mut c, "a@x", T0).await;
    // Not due yet: nobody can take it.
    assert!(
        !claim(&mut c, item, "2026-03-01T09:00:00+03:00", LEASE)
            .await
            .unwrap()
    );
    // Two senders read it as due; the first claim wins, the second finds it taken.
    assert_eq!(due(&mut c, T0).await.unwrap().len(), 1);
    assert!(claim(&mut c, item, T0, LEASE).await.unwrap());
    assert!(!claim(&mut c, item, T0, LEASE).await.unwrap());
    assert!(due(&mut c, T1).await.unwrap().is_empty(), "leased");
    // A sender that died holding it: due again when the lease is over.
    assert_eq!(due(&mut c, LEASE).await.unwrap().len(), 1);
    // Sent: nobody can claim it any more.
    mark_sent(&mut c, item, T1).await.unwrap();
    assert!(!claim(&mut c, item, LEASE, LEASE).await.unwrap());
}

#[tokio::test]
async fn retry_now_makes_failed_attempts_due_but_not_items_in_flight() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let (_, waiting) = queued(&mut c, "a@x", T0).await;
    let (_, in_flight) = queued(&mut c, "b@x", T0).await;
    let (_, fresh) = queued(&mut c, "c@x", T1).await;
    assert!(claim(&mut c, waiting, T0, LEASE).await.unwrap());
    mark_retry(
        &mut c,
        waiting,
        "2026-03-01T11:00:00+03:00",
        "connection refused",
    )
    .await
    .unwrap();
    assert!(claim(&mut c, in_flight, T0, LEASE).await.unwrap());
    assert!(due(&mut c, T1).await.unwrap().iter().all(|i| i.id == fresh));

    assert_eq!(retry_now(&mut c, T1).await.unwrap(), 1);
    let ids: Vec<i64> = due(&mut c, T1)
        .await
        .unwrap()
        .iter()
        .map(|i| i.id)
        .collect();
    assert_eq!(ids, [waiting, fresh]);
    // A claim clears the error: the item is in flight again, not waiting.
    assert!(claim(&mut c, waiting, T1, LEASE).await.unwrap());
    assert_eq!(retry_now(&mut c, T1).await.unwrap(), 0);
}

#[tokio::test]
async fn sent_messages_are_copied_once() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let (a, item_a) = queued(&mut c, "a@x", T0).await;
    let (_b, _item_b) = queued(&mut c, "b@x", T0).await;
    assert!(
        uncopied(&mut c).await.unwrap().is_empty(),
        "nothing sent yet"
    );
    mark_sent(&mut c, item_a, T1).await.unwrap();
    let todo = uncopied(&mut c).await.unwrap();
    assert_eq!(
        todo,
        [SentCopy {
            message: a,
            raw: b"a@x".to_vec()
        }]
    );
    set_copied(&mut c, a, "Sent").await.unwrap();
    assert!(uncopied(&mut c).await.unwrap().is_empty());
    // Mail in is never a copy to make.
    let m = NewMessage {
        direction: Direction::In,
        raw: b"theirs",
        kind: StoredKind::MOVE,
        status: MessageStatus::Applied,
        created_at: T0,
        ..NewMessage::default()
    };
    insert_message(&mut c, &m).await.unwrap();
    assert!(uncopied(&mut c).await.unwrap().is_empty());
}

#[tokio::test]
async fn an_item_left_in_flight_is_released_and_keeps_its_bytes() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let (_, died) = queued(&mut c, "a@x", T0).await;
    let (_, done) = queued(&mut c, "b@x", T0).await;
    let (_, waiting) = queued(&mut c, "c@x", T0).await;
    assert!(claim(&mut c, died, T0, LEASE).await.unwrap());
    assert!(claim(&mut c, done, T0, LEASE).await.unwrap());
    mark_sent(&mut c, done, T1).await.unwrap();
    assert!(claim(&mut c, waiting, T0, LEASE).await.unwrap());
    mark_retry(&mut c, waiting, LEASE, "451 try later")
        .await
        .unwrap();
    // The sender of `died` was killed with it in hand: only that one is released, due now,
    // with the same message (so the same Message-ID).
    assert!(due(&mut c, T1).await.unwrap().is_empty());
    assert_eq!(release_orphans(&mut c, T1).await.unwrap(), [died]);
    let again = due(&mut c, T1).await.unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!((again[0].id, again[0].raw.as_slice()), (died, &b"a@x"[..]));
    assert!(release_orphans(&mut c, T1).await.unwrap().is_empty());
}
