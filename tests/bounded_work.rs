//! One letter must not stop the daemon, on the real test mail servers: letters too large to
//! read ahead of the partner's move are held as too large, stored once, and the move behind
//! them is applied; a letter whose applying fails is held unread after two failed tries, and
//! the move behind it is applied.

mod support;

use support::{Player, create_mailboxes, servers, unique};

const ARBITER: &str = "arbiter@example.test";
/// How much of a message over the daemon's cap is fetched and stored: its head.
const HEAD: usize = 64 * 1024;
/// The daemon's cap on a message fetched whole.
const MAX_MESSAGE_BYTES: usize = 8 << 20;

/// White and Black, each watching a fresh mailbox `TAG` of their own login, and White's game
/// against Black with White's 1. e4 read by Black: Black's game id.
fn players(s: &support::Servers, tag: &str) -> (Player, Player, String, String) {
    create_mailboxes(
        s,
        &["white@example.test", "black@example.test", ARBITER],
        tag,
    );
    let extra = "first_sync_since = 2026-02-01";
    let white = Player::new(s, "Белов Борис", "Белов", "white@example.test", tag, extra);
    let black = Player::new(
        s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        tag,
        extra,
    );
    let arbiter = support::mail::detail_address(ARBITER, tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter, &[]);
    white.ok(&["--now", "2026-03-01", "move", &wg, "e4", "--yes"]);
    black.ok(&["--now", "2026-03-02", "run", "--once"]);
    (white, black, wg, bg)
}

/// A letter from `from` to `to`: `text` (the standard form's first lines), then `blank` bytes
/// of empty lines (CRLF, as the server keeps them).
fn with_blank_lines(from: &str, to: &str, id: &str, text: &str, blank: usize) -> Vec<u8> {
    let mut raw = format!(
        "From: <{from}>\r\nTo: <{to}>\r\nSubject: {id}\r\n\
         Date: Mon, 02 Mar 2026 09:00:00 +0300\r\nMessage-ID: <{id}@example.org>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{text}"
    )
    .into_bytes();
    raw.extend_from_slice(&b"\r\n".repeat(blank / 2));
    raw
}

/// The subjects of the letters `player` sent or queued: whatever ccmail wrote.
fn written(player: &Player) -> Vec<String> {
    support::block_on(async {
        let store = ccmail_store::Store::open(&player.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let out: Vec<(String,)> = sqlx::query_as(
            "SELECT COALESCE(subject, '') FROM messages WHERE direction = 'out' ORDER BY id",
        )
        .fetch_all(&mut *conn)
        .await
        .unwrap();
        out.into_iter().map(|(s,)| s).collect()
    })
}

/// The stored row and raw bytes of the incoming message `raw`.
fn stored(player: &Player, raw: &[u8]) -> (ccmail_store::MessageRow, Vec<u8>) {
    let mid = support::message_id(raw);
    support::block_on(async {
        let store = ccmail_store::Store::open(&player.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        let id = ccmail_store::find_by_message_id(&mut conn, ccmail_store::Direction::In, &mid)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("{mid} was not kept"));
        let row = ccmail_store::message(&mut conn, id).await.unwrap().unwrap();
        let kept = ccmail_store::raw(&mut conn, id).await.unwrap().unwrap();
        (row, kept)
    })
}

/// Ahead of the partner's move in the mailbox, two letters too large to read: a stranger's
/// game header and move above 3 MB of blank lines (fetched, its text part over the reader's
/// cap), and one from the partner's address of 9 MB (over the daemon's cap: only its head is
/// fetched). Both are held as too large, each stored once by its first 64 KB (the whole stays
/// in the mailbox), the move behind them is applied, and the UID has moved on: the next pass
/// reads nothing again.
#[test]
fn letters_too_large_are_held_and_the_move_behind_them_is_applied() {
    let Some(s) = servers() else { return };
    let tag = unique("toolarge");
    let (white, black, wg, bg) = players(&s, &tag);
    let login = "white@example.test";
    let header = "Event: Daemon Cup 2026\r\nWhite: Белов\r\nBlack: Чернов\r\n\r\n";
    let stranger = with_blank_lines(
        "chess.fan@example.org",
        &white.email,
        &format!("blank.{tag}"),
        &format!("{header}1. e2-e4 e7-e5\r\n"),
        3 << 20,
    );
    let partner = with_blank_lines(
        &black.email,
        &white.email,
        &format!("huge.{tag}"),
        &format!("{header}1. e2-e4 Nc6\r\n"),
        9 << 20,
    );
    assert!(partner.len() > MAX_MESSAGE_BYTES);
    support::append(&s, login, &tag, &stranger, &[], None);
    support::append(&s, login, &tag, &partner, &[], None);
    // The partner's real move arrives after them.
    black.ok(&["--now", "2026-03-02", "move", &bg, "e5", "--yes"]);

    let (ok, log) = white.run_once_logged("2026-03-03");
    assert!(ok, "{log}");
    let shown = white.json(&["--now", "2026-03-03", "show", &wg]);
    assert_eq!(shown["moves"][1]["san"], "e5", "{shown}");

    let (row, kept) = stored(&white, &stranger);
    assert_eq!(row.status, ccmail_store::MessageStatus::Held, "{row:?}");
    let reason = row.reason.clone().unwrap_or_default();
    assert_eq!(
        reason,
        format!(
            "unreadable: too large to read: a text part is {} bytes long, more than the {} \
             ccmail reads",
            stranger.len() - stranger.windows(4).position(|w| w == b"\r\n\r\n").unwrap() - 4,
            2 << 20
        )
    );
    assert!(kept == stranger[..HEAD], "{} bytes kept", kept.len());

    let (row, kept) = stored(&white, &partner);
    assert_eq!(row.status, ccmail_store::MessageStatus::Held, "{row:?}");
    assert_eq!(
        row.reason.as_deref(),
        Some(
            format!(
                "unreadable: too large to read: the message is {} bytes long, more than the \
                 {MAX_MESSAGE_BYTES} ccmail reads",
                partner.len()
            )
            .as_str()
        )
    );
    assert!(kept == partner[..HEAD], "{} bytes kept", kept.len());

    let inbox = white.ok(&["--now", "2026-03-03", "inbox"]);
    assert_eq!(inbox.matches("too large to read").count(), 2, "{inbox}");
    // Nothing was written about them: no correction request, no fine; only our 1. e4.
    assert_eq!(written(&white).len(), 1, "{:?}", written(&white));
    // The UID has moved on: nothing is read again, nothing held twice.
    let (ok, again) = white.run_once_logged("2026-03-04");
    assert!(ok, "{again}");
    assert!(!again.contains("held as message"), "{again}");
    assert!(!again.contains("chess mail"), "{again}");
}

/// A letter whose applying fails (here the store refuses it: a trigger of the test's own) is
/// tried twice, each pass failing on it with its error, and then held unread, its error
/// said; the partner's move behind it is applied on that third pass, and not before.
#[test]
fn a_letter_that_fails_twice_is_held_and_the_move_behind_it_is_applied() {
    let Some(s) = servers() else { return };
    let tag = unique("tries");
    let (white, black, wg, bg) = players(&s, &tag);
    let login = "white@example.test";
    let poison = format!(
        "From: <{from}>\r\nTo: <{to}>\r\nSubject: poison\r\n\
         Date: Mon, 02 Mar 2026 09:00:00 +0300\r\nMessage-ID: <poison.{tag}@example.org>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\nHello, how are you?\r\n",
        from = black.email,
        to = white.email
    )
    .into_bytes();
    support::append(&s, login, &tag, &poison, &[], None);
    black.ok(&["--now", "2026-03-02", "move", &bg, "e5", "--yes"]);
    // The store fails whenever the letter's status is set: as it is applied or held by the
    // reader. Storing it (the first insert) still works.
    support::block_on(async {
        let store = ccmail_store::Store::open(&white.db()).await.unwrap();
        let mut conn = store.conn().await.unwrap();
        sqlx::query(
            "CREATE TRIGGER poison BEFORE UPDATE ON messages WHEN NEW.subject = 'poison' \
             BEGIN SELECT RAISE(ABORT, 'the test refuses this letter'); END",
        )
        .execute(&mut *conn)
        .await
        .unwrap();
    });
    let moves = || white.json(&["--now", "2026-03-03", "show", &wg])["moves"].clone();
    for try_ in 1..=2 {
        let (ok, log) = white.run_once_logged("2026-03-03");
        assert!(!ok, "try {try_}: {log}");
        assert!(log.contains("the test refuses this letter"), "{log}");
        assert_eq!(moves().as_array().unwrap().len(), 1, "try {try_}");
    }
    let (ok, log) = white.run_once_logged("2026-03-03");
    assert!(ok, "{log}");
    assert_eq!(moves()[1]["san"], "e5");
    let (row, kept) = stored(&white, &poison);
    assert_eq!(row.status, ccmail_store::MessageStatus::Held, "{row:?}");
    let reason = row.reason.unwrap_or_default();
    assert!(
        reason.starts_with("not read: it failed 2 tries (")
            && reason.contains("the test refuses this letter")
            && reason.ends_with("); the whole message stays in the mailbox"),
        "{reason}"
    );
    assert!(kept == poison);
    assert_eq!(written(&white).len(), 1, "{:?}", written(&white));
    // Moved on: the next pass reads nothing again.
    let (ok, again) = white.run_once_logged("2026-03-04");
    assert!(ok, "{again}");
    assert!(!again.contains("held as message"), "{again}");
}
