//! The first read of a mailbox around midnight, on the real test servers (Dovecot, in UTC):
//! every partner's letter that arrived since the game's start is looked at once, whatever the
//! zones of the player and the server.
//!
//! IMAP's `SEARCH SINCE` compares the date of a message's INTERNALDATE in the server's zone,
//! not the player's. A player in UTC+14 (Kiritimati) whose game starts on 1 March gets the
//! partner's first moves of 1 March before 14:00 local time filed by the server under 28
//! February; a search `SINCE 1-Mar-2026` leaves them out, and the first read then records
//! their UIDs as read: the moves never arrive. A player in UTC−11 (Pago Pago) sits on the
//! other side of the server's midnight. Each test first checks that the server does so: its
//! `SEARCH SINCE` finds only the letters of its own 1 March.
//!
//! Each letter is the partner's genuine first move of a game of its own, sent once by the
//! partner's ccmail, then APPENDed to the player's mailbox with the INTERNALDATE of the row:
//! the tests pass at any hour of the real clock. What the player sees is each game's moves
//! after one `ccmail run --once`.

mod support;

use support::{Player, create_mailboxes, messages, servers, unique};

const ARBITER: &str = "arbiter@example.test";

/// The partner's letter of one game: when it arrived (INTERNALDATE, RFC 3339), and whether
/// the player's first read applies its move.
struct Letter {
    arrived: &'static str,
    applied: bool,
}

/// The player (Black), in `zone`, has a game for each letter, all starting on 1 March 2026
/// (created at `created`); the partner (White, in Kiritimati) opens each with 1. e4, whose
/// letter arrives as the row says; the player's first `run --once` (at `now`) reads them.
fn first_read(zone: &str, created: &str, now: &str, letters: &[Letter]) {
    let Some(s) = servers() else { return };
    let tag = unique("midnight");
    // The partner's letters land in `tag` and are copied, with their dates, to `inbox`.
    let inbox = format!("{tag}-in");
    let logins = ["white@example.test", "black@example.test", ARBITER];
    create_mailboxes(&s, &logins, &tag);
    create_mailboxes(&s, &["black@example.test"], &inbox);
    let arbiter = support::mail::detail_address(ARBITER, &tag);
    let white = Player::new(&s, "Белов Борис", "Белов", "white@example.test", &tag, "");
    let black = Player::new(
        &s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        &tag,
        "",
    );
    edit_config(
        &white,
        "timezone = \"Europe/Moscow\"",
        "timezone = \"Pacific/Kiritimati\"",
    );
    edit_config(
        &black,
        "timezone = \"Europe/Moscow\"",
        &format!("timezone = \"{zone}\""),
    );
    edit_config(
        &black,
        &format!("mailbox = \"{tag}\""),
        &format!("mailbox = \"{inbox}\""),
    );

    let mut games = Vec::new();
    for (i, _) in letters.iter().enumerate() {
        let event = format!("Midnight Cup {i}");
        // White, in Kiritimati, sends as 1 March begins there (10:01 UTC on 28 February):
        // before every letter the player reads arrives.
        let white_now = "2026-03-01T00:01:00+14:00";
        let wg = white.new_game_in(&event, white_now, "white", &black, &arbiter, &[]);
        let bg = black.new_game_in(&event, created, "black", &white, &arbiter, &[]);
        white.ok(&["--now", white_now, "move", &wg, "e4", "--yes"]);
        games.push(bg);
    }
    let sent = messages(&s, "black@example.test", &tag);
    assert_eq!(sent.len(), letters.len());
    for (m, letter) in sent.iter().zip(letters) {
        support::append(
            &s,
            "black@example.test",
            &inbox,
            &m.raw,
            &[],
            Some(letter.arrived),
        );
    }

    the_server_counts_days_in_its_own_zone(&s, &inbox, letters);

    let (ok, log) = black.run_once_logged(now);
    assert!(ok, "{log}");
    for (bg, letter) in games.iter().zip(letters) {
        let shown = black.json(&["--now", now, "show", bg]);
        let sans = sans(&shown);
        let want: &[&str] = if letter.applied { &["e4"] } else { &[] };
        assert_eq!(
            sans, want,
            "the letter that arrived {}:\n{log}",
            letter.arrived
        );
    }
    let applied = letters.iter().filter(|l| l.applied).count();
    assert_eq!(log.matches("applied 1. e4 by").count(), applied, "{log}");
    // A second read looks at nothing again: what was passed over stays passed over, and
    // nothing is applied twice.
    let (ok, again_log) = black.run_once_logged(now);
    assert!(ok, "{again_log}");
    assert!(!again_log.contains("applied"), "{again_log}");
}

/// Dovecot keeps a message's arrival as an instant and writes its INTERNALDATE in its own
/// zone, whatever offset the APPEND gave; its `SEARCH SINCE 1-Mar-2026` finds the letters of
/// 1 March in that zone, and so leaves out some the player received on 1 March.
fn the_server_counts_days_in_its_own_zone(s: &support::Servers, inbox: &str, letters: &[Letter]) {
    let stored = messages(s, "black@example.test", inbox);
    let zone = *stored[0].internal_date.offset();
    let start = chrono::NaiveDate::from_ymd_opt(2026, 3, 1).unwrap();
    let mut want = Vec::new();
    for (m, letter) in stored.iter().zip(letters) {
        let arrived = chrono::DateTime::parse_from_rfc3339(letter.arrived).unwrap();
        assert_eq!(m.internal_date, arrived, "the same instant");
        assert_eq!(
            *m.internal_date.offset(),
            zone,
            "written in the server's zone"
        );
        if arrived.with_timezone(&zone).date_naive() >= start {
            want.push(m.uid);
        }
    }
    let found = support::block_on(async {
        let mut cfg = s.imap("black@example.test", ccmail_mail::imap::Security::Plain);
        cfg.mailbox = inbox.into();
        let mut imap = ccmail_mail::imap::Imap::connect(&cfg).await.unwrap();
        let found = imap.uids_since(0, Some(start)).await.unwrap();
        imap.logout().await;
        found
    });
    assert_eq!(found, want, "SEARCH SINCE 1-Mar-2026, the server in {zone}");
    assert!(found.len() < letters.iter().filter(|l| l.applied).count());
}

/// Replaces the line `from` of the player's config with `to`.
fn edit_config(player: &Player, from: &str, to: &str) {
    let config = std::fs::read_to_string(player.config()).unwrap();
    assert!(config.contains(from), "{from:?} in\n{config}");
    std::fs::write(player.config(), config.replacen(from, to, 1)).unwrap();
}

/// The moves of a `show --json`, in SAN.
fn sans(shown: &serde_json::Value) -> Vec<String> {
    shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_owned())
        .collect()
}

/// Kiritimati (UTC+14): 1 March begins at 10:00 UTC on 28 February, and the server's 1 March
/// at 14:00 local time. A search `SINCE 1-Mar-2026` finds only the last letter.
#[test]
fn a_player_in_utc_plus_14_gets_every_move_since_their_midnight() {
    first_read(
        "Pacific/Kiritimati",
        "2026-02-28T12:00:00+14:00",
        "2026-03-02T12:00:00+14:00",
        &[
            // The evening before the start, local time: before the game.
            Letter {
                arrived: "2026-02-28T23:50:00+14:00",
                applied: false,
            },
            // Just after the player's midnight: the server's 28 February, 10:30.
            Letter {
                arrived: "2026-03-01T00:30:00+14:00",
                applied: true,
            },
            // Just before the server's midnight.
            Letter {
                arrived: "2026-03-01T13:50:00+14:00",
                applied: true,
            },
            // After both midnights.
            Letter {
                arrived: "2026-03-01T14:10:00+14:00",
                applied: true,
            },
        ],
    );
}

/// Pago Pago (UTC−11): the server's 1 March begins at 13:00 on 28 February, local time, and
/// the player's 11 hours later. Mail is passed over only when it arrived before 1 March
/// began anywhere (10:00 UTC on 28 February, 23:00 on 27 February in Pago Pago): the partner,
/// far to the east, may count the start date from there.
#[test]
fn a_player_in_utc_minus_11_gets_every_move_since_the_start_date_began() {
    first_read(
        "Pacific/Pago_Pago",
        "2026-02-27T12:00:00-11:00",
        "2026-03-02T12:00:00-11:00",
        &[
            // Before 1 March began anywhere.
            Letter {
                arrived: "2026-02-27T22:50:00-11:00",
                applied: false,
            },
            // Once it began in Kiritimati: 28 February, 10:10 UTC.
            Letter {
                arrived: "2026-02-27T23:10:00-11:00",
                applied: true,
            },
            // Just before the server's midnight.
            Letter {
                arrived: "2026-02-28T12:50:00-11:00",
                applied: true,
            },
            // Between the server's midnight and the player's.
            Letter {
                arrived: "2026-02-28T23:30:00-11:00",
                applied: true,
            },
            // After both.
            Letter {
                arrived: "2026-03-01T00:30:00-11:00",
                applied: true,
            },
        ],
    );
}
