//! The store against a real SQLite file: every query, deduplication, the outbox, sync state,
//! the file's mode, WAL, two writers at once, and the migration path.

use ccmail_store::*;
use chrono::NaiveDate;

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn game(id: &str, opponent: &str) -> GameRow {
    GameRow {
        event: "Кубок Волги 2026".into(),
        white: "Смирнов".into(),
        black: "Кузнецов".into(),
        my_color: "white".into(),
        opponent_email: opponent.into(),
        arbiter_email: "arbiter@example.org".into(),
        ..GameRow::new(
            id,
            d("2026-01-14"),
            &format!("2026-01-14T12:00:00+03:00#{id}"),
        )
    }
}

async fn open() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("sub/ccmail.db"))
        .await
        .unwrap();
    (dir, store)
}

#[tokio::test]
async fn file_is_private_and_in_wal_mode() {
    let (dir, store) = open().await;
    let path = dir.path().join("sub/ccmail.db");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let mut conn = store.conn().await.unwrap();
    let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(journal, "wal");
    let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(fk, 1);
}

#[tokio::test]
async fn games_moves_and_variations() {
    let (_dir, store) = open().await;
    let mut tx = store.begin().await.unwrap();
    insert_game(&mut tx, &game("g1", "kuz@example.net"))
        .await
        .unwrap();
    insert_game(&mut tx, &game("g2", "other@example.net"))
        .await
        .unwrap();
    for (ply, uci, san) in [(1, "e2e4", "e4"), (2, "e7e5", "e5")] {
        let m = MoveRow {
            game_id: "g1".into(),
            ply,
            uci: uci.into(),
            san: san.into(),
            received: d("2026-01-14"),
            sent: d("2026-01-15"),
            message: None,
        };
        insert_move(&mut tx, &m).await.unwrap();
    }
    tx.commit().await.unwrap();

    let mut c = store.conn().await.unwrap();
    assert_eq!(
        game("g1", "kuz@example.net"),
        games::game_row(&mut c, "g1").await
    );
    set_move_received(&mut c, "g1", 2, d("2026-01-16"))
        .await
        .unwrap();
    let ms = moves(&mut c, "g1").await.unwrap();
    assert_eq!(
        ms.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(),
        ["e4", "e5"]
    );
    assert_eq!(ms[1].received, d("2026-01-16"));
    assert_eq!(all_moves(&mut c, false).await.unwrap().len(), 2);
    let full = games_with_moves(&mut c, false, false).await.unwrap();
    let dates = games_with_moves(&mut c, false, true).await.unwrap();
    // g1 has its two moves, g2 none; the record follows the update of ply 2 above.
    assert_eq!(
        full.iter()
            .map(|(g, m)| (g.id.as_str(), m.len()))
            .collect::<Vec<_>>(),
        [("g1", 2), ("g2", 0)]
    );
    assert_eq!(
        full[0].1,
        moves(&mut c, "g1")
            .await
            .unwrap()
            .into_iter()
            .map(|m| MoveRow { message: None, ..m })
            .collect::<Vec<_>>()
    );
    assert_eq!(
        (
            dates[0].1[1].uci.as_str(),
            dates[0].1[1].game_id.as_str(),
            dates[0].1[1].received,
            dates[0].1[1].sent
        ),
        ("", "", d("2026-01-16"), d("2026-01-15"))
    );
    // The record is the moves table's, whatever order the moves were written in.
    let mut tx = store.begin().await.unwrap();
    for ply in [4, 3] {
        let m = MoveRow {
            game_id: "g2".into(),
            ply,
            uci: "g1f3".into(),
            san: "Nf3".into(),
            received: d("2026-02-01"),
            sent: d("2026-02-02"),
            message: None,
        };
        insert_move(&mut tx, &m).await.unwrap();
    }
    tx.commit().await.unwrap();
    let full = games_with_moves(&mut c, false, false).await.unwrap();
    assert_eq!(full[1].1.iter().map(|m| m.ply).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(unpack_record("g", "1 e2e4 e4 2026-01-14", false), None);
    let swapped = "2 e7e5 e5 2026-01-14 2026-01-15\n1 e2e4 e4 2026-01-14 2026-01-15";
    let plies = |r: Vec<MoveRow>| r.iter().map(|m| m.ply).collect::<Vec<_>>();
    assert_eq!(plies(unpack_record("g", swapped, false).unwrap()), [1, 2]);
    let twice = "1 e2e4 e4 2026-01-14 2026-01-15\n1 e2e4 e4 2026-01-14 2026-01-15";
    assert_eq!(unpack_record("g", twice, false), None);
    // The schema stays readable by SQLite before 3.44 (Debian 12's sqlite3, Python's
    // sqlite3 module): no `group_concat(… ORDER BY …)` in the triggers.
    let schema: Vec<String> =
        sqlx::query_scalar("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")
            .fetch_all(&mut *c)
            .await
            .unwrap();
    assert!(
        schema.iter().all(|s| !s.contains("char(10) ORDER BY")),
        "{schema:?}"
    );

    set_status(&mut c, "g2", "finished", Some("1-0"))
        .await
        .unwrap();
    assert_eq!(games(&mut c, false).await.unwrap().len(), 1);
    assert_eq!(games(&mut c, true).await.unwrap().len(), 2);
    assert_eq!(
        games_with(&mut c, "kuz@example.net").await.unwrap()[0]
            .game
            .id,
        "g1"
    );
    set_draw_offer(&mut c, "g1", Some("black")).await.unwrap();
    set_correction_due(&mut c, "g1", Some(d("2026-02-01")))
        .await
        .unwrap();
    set_opponent_email(&mut c, "g1", "new@example.net")
        .await
        .unwrap();
    set_awaited_received(&mut c, "g1", Some(d("2026-02-02")))
        .await
        .unwrap();
    set_reply_notes(&mut c, "g1", "a\nb", true).await.unwrap();
    let g = ccmail_store::game(&mut c, "g1").await.unwrap().unwrap();
    assert_eq!(g.draw_offered_by.as_deref(), Some("black"));
    assert_eq!(g.correction_due, Some(d("2026-02-01")));
    assert_eq!(g.opponent_email, "new@example.net");
    assert_eq!(g.awaited_received, Some(d("2026-02-02")));
    assert_eq!(
        (g.reply_notes.as_str(), g.answer_cc_arbiter),
        ("a\nb", true)
    );
    // A note is added on a line of its own; Cc the arbiter, once asked, stays asked.
    set_reply_notes(&mut c, "g1", "", false).await.unwrap();
    for (note, cc, notes, cc_after) in [
        ("a", false, "a", false),
        ("b", true, "a\nb", true),
        ("c", false, "a\nb\nc", true),
    ] {
        assert!(add_reply_note(&mut c, "g1", note, cc).await.unwrap());
        let g = ccmail_store::game(&mut c, "g1").await.unwrap().unwrap();
        assert_eq!(
            (g.reply_notes.as_str(), g.answer_cc_arbiter),
            (notes, cc_after)
        );
    }
    assert!(!add_reply_note(&mut c, "g9", "a", false).await.unwrap());

    let v = VariationRow {
        id: 0,
        game_id: "g1".into(),
        proposed_by: "white".into(),
        proposed_with: 3,
        moves: "b8c6 f1b5".into(),
        accepted_through: None,
    };
    let id = insert_variation(&mut c, &v).await.unwrap();
    accept_variation(&mut c, id, 4).await.unwrap();
    assert_eq!(
        variations(&mut c, "g1").await.unwrap()[0].accepted_through,
        Some(4)
    );
}

mod games {
    pub async fn game_row(
        c: &mut ccmail_store::SqliteConnection,
        id: &str,
    ) -> ccmail_store::GameRow {
        ccmail_store::game(c, id).await.unwrap().unwrap()
    }
}

fn incoming<'a>(raw: &'a [u8], mid: Option<&'a str>) -> NewMessage<'a> {
    NewMessage {
        direction: "in",
        message_id: mid,
        raw,
        kind: "move",
        status: "held",
        reason: Some("no game matches"),
        created_at: "2026-03-01T10:00:00+00:00",
        ..NewMessage::default()
    }
}

#[tokio::test]
async fn messages_are_stored_once() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let a = insert_message(&mut c, &incoming(b"raw one", Some("a@x")))
        .await
        .unwrap();
    assert!(matches!(a, Inserted::New(_)));
    // Same Message-ID, other bytes (a re-sent copy): the same message.
    assert_eq!(
        insert_message(&mut c, &incoming(b"raw two", Some("a@x")))
            .await
            .unwrap(),
        Inserted::Duplicate(a.id())
    );
    // No Message-ID: the bytes decide.
    let b = insert_message(&mut c, &incoming(b"no id", None))
        .await
        .unwrap();
    assert_eq!(
        insert_message(&mut c, &incoming(b"no id", None))
            .await
            .unwrap(),
        Inserted::Duplicate(b.id())
    );
    // The same id going out is another message.
    let mut out = incoming(b"raw one", Some("a@x"));
    out.direction = "out";
    assert!(matches!(
        insert_message(&mut c, &out).await.unwrap(),
        Inserted::New(_)
    ));

    assert_eq!(raw(&mut c, a.id()).await.unwrap().unwrap(), b"raw one");
    assert_eq!(held(&mut c).await.unwrap().len(), 3);
    insert_game(&mut c, &game("g1", "kuz@example.net"))
        .await
        .unwrap();
    set_message_status(&mut c, a.id(), "applied", None, Some("g1"))
        .await
        .unwrap();
    let row = message(&mut c, a.id()).await.unwrap().unwrap();
    assert_eq!(
        (row.status.as_str(), row.game_id.as_deref(), row.reason),
        ("applied", Some("g1"), None)
    );
    assert_eq!(game_messages(&mut c, "g1").await.unwrap().len(), 1);
    assert_eq!(thread_ids(&mut c, "g1").await.unwrap(), ["a@x"]);
    assert_eq!(
        game_of_message_id(&mut c, "a@x").await.unwrap().as_deref(),
        Some("g1")
    );
    assert_eq!(held(&mut c).await.unwrap().len(), 2);
}

/// A game's thread (what its next message names in In-Reply-To and References) is its
/// messages out and those in that were applied or taken as information: never one held
/// (from another address, 51.1.2, or a forged sender), nor one dismissed.
#[tokio::test]
async fn held_messages_are_never_in_a_games_thread() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    insert_game(&mut c, &game("g1", "kuz@example.net"))
        .await
        .unwrap();
    insert_game(&mut c, &game("g2", "other@example.net"))
        .await
        .unwrap();
    let rows = [
        ("out", "sent", Some("g1")),
        ("in", "applied", Some("g1")),
        ("in", "held", Some("g1")),
        ("in", "info", Some("g1")),
        ("in", "dismissed", Some("g1")),
        ("out", "queued", Some("g1")),
        ("in", "applied", Some("g2")),
        ("in", "held", None),
    ];
    let mut ids = Vec::new();
    for (n, (direction, status, game_id)) in rows.into_iter().enumerate() {
        let mid = format!("m{n}@x");
        let raw = format!("raw {n}");
        let m = NewMessage {
            direction,
            message_id: Some(&mid),
            raw: raw.as_bytes(),
            game_id,
            kind: "move",
            status,
            created_at: "2026-03-01T10:00:00+00:00",
            ..NewMessage::default()
        };
        ids.push(insert_message(&mut c, &m).await.unwrap().id());
    }
    assert_eq!(
        thread_ids(&mut c, "g1").await.unwrap(),
        ["m0@x", "m1@x", "m3@x", "m5@x"]
    );
    // Accepted by the player, the held message joins the thread in its place.
    set_message_status(&mut c, ids[2], "applied", None, Some("g1"))
        .await
        .unwrap();
    assert_eq!(
        thread_ids(&mut c, "g1").await.unwrap(),
        ["m0@x", "m1@x", "m2@x", "m3@x", "m5@x"]
    );
}

/// `apply`'s one look for a duplicate: either direction, by Message-ID or by bytes; an
/// incoming message first, and the one with the Message-ID before one with the same bytes.
/// `insert_incoming` stores a message only when that look finds nothing, and otherwise says
/// what it found.
#[tokio::test]
async fn a_duplicate_is_found_in_or_out_by_id_or_bytes() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let mut out = incoming(b"ours", Some("ours@x"));
    out.direction = "out";
    let new = |i: Inserted| match i {
        Inserted::New(id) => id,
        Inserted::Duplicate(id) => panic!("{id} found"),
    };
    let ours = new(insert_message(&mut c, &out).await.unwrap());
    let theirs = new(insert_incoming(&mut c, &incoming(b"theirs", Some("t@x")))
        .await
        .unwrap());
    let bytes = new(insert_incoming(&mut c, &incoming(b"ours again", None))
        .await
        .unwrap());
    let found = async |c: &mut SqliteConnection, mid: Option<&str>, raw: &[u8]| {
        find_in_or_out(c, mid, raw).await.unwrap()
    };
    assert_eq!(found(&mut c, Some("ours@x"), b"other").await, Some(ours));
    assert_eq!(found(&mut c, None, b"ours").await, Some(ours));
    assert_eq!(found(&mut c, Some("t@x"), b"ours").await, Some(theirs));
    assert_eq!(
        found(&mut c, Some("new@x"), b"ours again").await,
        Some(bytes)
    );
    assert_eq!(
        found(&mut c, Some("ours@x"), b"ours again").await,
        Some(bytes)
    );
    assert_eq!(found(&mut c, None, b"new").await, None);
    assert_eq!(found(&mut c, Some("new@x"), b"new").await, None);

    let count = async |c: &mut SqliteConnection| -> i64 {
        sqlx::query_scalar("SELECT count(*) FROM messages")
            .fetch_one(c)
            .await
            .unwrap()
    };
    for (mid, raw, was) in [
        (Some("ours@x"), &b"other"[..], ours),
        (None, b"ours", ours),
        (Some("t@x"), b"ours", theirs),
        (Some("ours@x"), b"ours again", bytes),
    ] {
        let again = insert_incoming(&mut c, &incoming(raw, mid)).await.unwrap();
        assert_eq!(again, Inserted::Duplicate(was), "{mid:?}");
    }
    assert_eq!(count(&mut c).await, 3, "nothing written for a duplicate");
    let fresh = new(insert_incoming(&mut c, &incoming(b"new", Some("new@x")))
        .await
        .unwrap());
    assert_eq!(found(&mut c, Some("new@x"), b"x").await, Some(fresh));
    // Within one direction only, `insert_message` stores what the other direction has.
    let mut echo = incoming(b"ours", Some("ours@x"));
    echo.direction = "in";
    assert!(matches!(
        insert_message(&mut c, &echo).await.unwrap(),
        Inserted::New(_)
    ));
}

#[tokio::test]
async fn outbox_retries_keep_the_message() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    let mut m = incoming(b"our move", Some("ccmail.1@example.org"));
    m.direction = "out";
    m.status = "queued";
    let id = insert_message(&mut c, &m).await.unwrap().id();
    let item = enqueue(
        &mut c,
        id,
        "me@example.org",
        &["a@x".into(), "arb@x".into()],
        "2026-03-01T10:00:00Z",
    )
    .await
    .unwrap();
    assert!(
        due(&mut c, "2026-03-01T09:59:59Z")
            .await
            .unwrap()
            .is_empty()
    );
    let due_now = due(&mut c, "2026-03-01T10:00:00Z").await.unwrap();
    assert_eq!(due_now[0].recipients, "a@x,arb@x");
    assert_eq!(due_now[0].raw, b"our move");
    mark_retry(&mut c, item, "2026-03-01T10:05:00Z", "451 try later")
        .await
        .unwrap();
    assert!(
        due(&mut c, "2026-03-01T10:01:00Z")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        unsent(&mut c).await.unwrap()[0].last_error.as_deref(),
        Some("451 try later")
    );
    let again = due(&mut c, "2026-03-01T10:05:00Z").await.unwrap();
    assert_eq!((again[0].message, again[0].attempts), (id, 1));
    mark_sent(&mut c, item, "2026-03-01T10:05:01Z")
        .await
        .unwrap();
    assert!(unsent(&mut c).await.unwrap().is_empty());
    assert_eq!(message(&mut c, id).await.unwrap().unwrap().status, "sent");
    let second = NewMessage {
        message_id: Some("2@x"),
        raw: b"our other move",
        ..m.clone()
    };
    let second = insert_message(&mut c, &second).await.unwrap().id();
    let item2 = enqueue(
        &mut c,
        second,
        "me@x",
        &["nobody@x".into()],
        "2026-03-01T10:00:00Z",
    )
    .await
    .unwrap();
    mark_failed(&mut c, item2, "550 no such user")
        .await
        .unwrap();
    let failed = unsent(&mut c).await.unwrap();
    assert_eq!(
        (failed[0].status.as_str(), failed[0].attempts),
        ("failed", 1)
    );
    assert!(
        due(&mut c, "2027-01-01T00:00:00Z")
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn breaks_penalties_extras_and_sync_state() {
    let (_dir, store) = open().await;
    let mut c = store.conn().await.unwrap();
    insert_game(&mut c, &game("g1", "kuz@example.net"))
        .await
        .unwrap();
    let b = BreakRow {
        id: 0,
        game_id: None,
        from_date: d("2026-10-10"),
        to_date: d("2026-10-25"),
        notice_date: None,
        ended_on: None,
        created_at: "x".into(),
    };
    let id = insert_break(&mut c, &b).await.unwrap();
    insert_break(
        &mut c,
        &BreakRow {
            game_id: Some("g1".into()),
            notice_date: Some(d("2026-06-01")),
            ..b.clone()
        },
    )
    .await
    .unwrap();
    end_break(&mut c, id, d("2026-10-20")).await.unwrap();
    assert_eq!(
        my_breaks(&mut c).await.unwrap()[0].ended_on,
        Some(d("2026-10-20"))
    );
    assert_eq!(
        game_breaks(&mut c, "g1").await.unwrap()[0].notice_date,
        Some(d("2026-06-01"))
    );
    // Both kinds of break (and the rest attached to the game) in one query: each by start
    // date; another game's break is in neither.
    insert_game(&mut c, &game("g2", "other@example.net"))
        .await
        .unwrap();
    for (game, from) in [
        (Some("g2"), "2026-01-05"),
        (Some("g1"), "2026-02-01"),
        (None, "2026-03-01"),
    ] {
        let row = BreakRow {
            game_id: game.map(Into::into),
            from_date: d(from),
            ..b.clone()
        };
        insert_break(&mut c, &row).await.unwrap();
    }
    let Attached {
        partner_breaks: partner,
        my_breaks: mine,
        ..
    } = attached(&mut c, "g1").await.unwrap();
    let starts = |rows: &[BreakRow]| {
        rows.iter()
            .map(|r| r.from_date.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(starts(&partner), ["2026-02-01", "2026-10-10"]);
    assert_eq!(starts(&mine), ["2026-03-01", "2026-10-10"]);
    assert_eq!(partner, game_breaks(&mut c, "g1").await.unwrap());
    assert_eq!(mine, my_breaks(&mut c).await.unwrap());

    let p = PenaltyRow {
        id: 0,
        game_id: "g1".into(),
        player: "black".into(),
        days: 2,
        cause: "wrong_repetition".into(),
        ply: 8,
        message: None,
        created_at: "x".into(),
    };
    insert_penalty(&mut c, &p).await.unwrap();
    assert_eq!(penalties(&mut c, "g1").await.unwrap()[0].days, 2);
    let e = ExtraRow {
        id: 0,
        game_id: "g1".into(),
        player: "white".into(),
        from_date: d("2026-03-01"),
        to_date: d("2026-03-05"),
        kind: "correction_request".into(),
        fault: Some("impossible".into()),
        ply: 8,
    };
    insert_extra(&mut c, &e).await.unwrap();
    assert_eq!(
        extras(&mut c, "g1").await.unwrap()[0].to_date,
        d("2026-03-05")
    );
    // Everything attached to a game in one query is what each kind's own query reads: two of
    // each, in their order, and none of another game's.
    let message = insert_message(&mut c, &incoming(b"a faulty move", None))
        .await
        .unwrap()
        .id();
    for g in ["g1", "g2"] {
        let penalty = PenaltyRow {
            game_id: g.into(),
            ply: 3,
            message: Some(message),
            ..p.clone()
        };
        insert_penalty(&mut c, &penalty).await.unwrap();
        let extra = ExtraRow {
            game_id: g.into(),
            fault: None,
            ..e.clone()
        };
        insert_extra(&mut c, &extra).await.unwrap();
        for (with, through) in [(12, Some(14)), (6, None)] {
            let v = VariationRow {
                id: 0,
                game_id: g.into(),
                proposed_by: "white".into(),
                proposed_with: with,
                moves: "e2e4 e7e5".into(),
                accepted_through: through,
            };
            insert_variation(&mut c, &v).await.unwrap();
        }
    }
    let a = attached(&mut c, "g1").await.unwrap();
    assert_eq!(
        a,
        Attached {
            partner_breaks: game_breaks(&mut c, "g1").await.unwrap(),
            my_breaks: my_breaks(&mut c).await.unwrap(),
            penalties: penalties(&mut c, "g1").await.unwrap(),
            extras: extras(&mut c, "g1").await.unwrap(),
            variations: variations(&mut c, "g1").await.unwrap(),
        }
    );
    let lens = [a.penalties.len(), a.extras.len(), a.variations.len()];
    assert_eq!(lens, [2, 2, 2]);
    assert_eq!(a.variations[0].proposed_with, 6);
    assert_eq!(attached(&mut c, "none").await.unwrap().partner_breaks, []);

    assert_eq!(sync_state(&mut c, "INBOX").await.unwrap(), None);
    let s = SyncState {
        uid_validity: 7,
        last_uid: 41,
    };
    set_sync_state(&mut c, "INBOX", s, "now").await.unwrap();
    set_sync_state(&mut c, "INBOX", SyncState { last_uid: 42, ..s }, "later")
        .await
        .unwrap();
    assert_eq!(
        sync_state(&mut c, "INBOX").await.unwrap(),
        Some(SyncState {
            uid_validity: 7,
            last_uid: 42
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_writing_at_once_never_see_a_lock_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ccmail.db");
    let a = Store::open(&path).await.unwrap();
    let b = Store::open(&path).await.unwrap();
    let writer = |store: Store, side: &'static str| {
        tokio::spawn(async move {
            for i in 0..100 {
                // A read, then a write, in one transaction: the shape of applying a message.
                let mut tx = store.begin().await.unwrap();
                let raw = format!("{side} {i}");
                held(&mut tx).await.unwrap();
                insert_message(&mut tx, &incoming(raw.as_bytes(), None))
                    .await
                    .unwrap();
                tx.commit().await.unwrap();
            }
        })
    };
    let (x, y) = (writer(a.clone(), "a"), writer(b, "b"));
    x.await.unwrap();
    y.await.unwrap();
    let mut c = a.conn().await.unwrap();
    assert_eq!(held(&mut c).await.unwrap().len(), 200);
}

#[tokio::test]
async fn the_database_of_every_migration_upgrades_to_the_latest() {
    let versions: Vec<i64> = MIGRATOR.iter().map(|m| m.version).collect();
    assert!(!versions.is_empty());
    for &v in &versions {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        let url = format!("sqlite://{}?mode=rwc", path.display());
        let pool = sqlx::SqlitePool::connect(&url).await.unwrap();
        MIGRATOR.run_to(v, &pool).await.unwrap();
        // Data written by that version: a game (every version has games), in the columns of
        // the first version.
        let mut c = pool.acquire().await.unwrap();
        sqlx::query(
            "INSERT INTO games (id, event, start_date, white, black, my_color, \
             opponent_email, arbiter_email, rules, control_moves, control_days, notation, \
             language, created_at) VALUES ('old', 'Кубок', '2026-01-14', 'Смирнов', \
             'Кузнецов', 'white', 'o@x', '', 'article51', 10, 60, 'numeric', 'ru', \
             '2026-01-14T12:00:00+03:00')",
        )
        .execute(&mut *c)
        .await
        .unwrap();
        let m = MoveRow {
            game_id: "old".into(),
            ply: 1,
            uci: "d2d4".into(),
            san: "d4".into(),
            received: d("2026-01-14"),
            sent: d("2026-01-15"),
            message: None,
        };
        insert_move(&mut c, &m).await.unwrap();
        drop(c);
        pool.close().await;
        // Opening it brings it to the latest version, keeping the data.
        let store = Store::open(&path).await.unwrap();
        let mut c = store.conn().await.unwrap();
        let latest: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
            .fetch_one(&mut *c)
            .await
            .unwrap();
        assert_eq!(latest, *versions.last().unwrap());
        assert_eq!(
            ccmail_store::game(&mut c, "old")
                .await
                .unwrap()
                .unwrap()
                .opponent_email,
            "o@x"
        );
        let listed = games_with_moves(&mut c, false, false).await.unwrap();
        assert_eq!(listed[0].1, [m], "version {v}");
        // 0006: an older game carries no PGN attachment until it is turned on.
        assert!(!listed[0].0.attach_pgn, "version {v}");
        assert!(set_attach_pgn(&mut c, "old", true).await.unwrap());
        assert!(
            ccmail_store::game(&mut c, "old")
                .await
                .unwrap()
                .unwrap()
                .attach_pgn
        );
        assert!(!set_attach_pgn(&mut c, "none", true).await.unwrap());
    }
}

#[test]
fn content_hash_is_sha256() {
    assert_eq!(
        content_hash(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[tokio::test]
async fn a_correspondents_games_are_found_by_an_index_not_by_reading_every_game() {
    let store = Store::memory().await.unwrap();
    let mut c = store.conn().await.unwrap();
    // games_with's lookup: by the opponent's address, oldest first.
    let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "EXPLAIN QUERY PLAN SELECT id, record FROM games WHERE opponent_email = ? \
         ORDER BY created_at",
    )
    .bind("o@x")
    .fetch_all(&mut *c)
    .await
    .unwrap();
    let steps: Vec<&str> = plan.iter().map(|p| p.3.as_str()).collect();
    assert_eq!(
        steps,
        ["SEARCH games USING INDEX games_by_opponent (opponent_email=?)"]
    );
}

/// A thread's lookup (In-Reply-To, References) probes the Message-ID index: its cost does not
/// grow with the mail stored.
#[tokio::test]
async fn a_message_id_is_looked_up_by_its_index() {
    let (_dir, store) = open().await;
    let mut conn = store.conn().await.unwrap();
    let plan: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "EXPLAIN QUERY PLAN SELECT game_id FROM messages WHERE direction IN ('in', 'out') \
         AND message_id = ? AND game_id IS NOT NULL LIMIT 1",
    )
    .bind("x@example.org")
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    let said: Vec<&str> = plan.iter().map(|(.., d)| d.as_str()).collect();
    assert!(
        said.iter()
            .any(|d| d.contains("USING INDEX messages_by_id")),
        "{said:?}"
    );
    assert_eq!(
        game_of_message_id(&mut conn, "x@example.org")
            .await
            .unwrap(),
        None
    );
}
