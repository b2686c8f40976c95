//! `ccmail export --mbox` is evidence (51.1.3–4): the stored messages byte for byte, only
//! mboxrd's quoting added (a line beginning with `>*From ` gets one more `>`). A partner's
//! windows-1251 letter in 8-bit, with body lines that begin with `From ` and `>From `, comes
//! out as it came in, and `game import` reads the file back to the same bytes. Files written
//! with `-o` are private: they hold the player's mail.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{Player, cup_game};

/// windows-1251 of Russian text: ASCII as it is, А–я from 0xC0, Ё and ё.
fn cp1251(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| match c {
            c if c.is_ascii() => c as u8,
            'Ё' => 0xA8,
            'ё' => 0xB8,
            'А'..='я' => 0xC0 + (c as u32 - 'А' as u32) as u8,
            _ => panic!("{c:?} is not in this table"),
        })
        .collect()
}

/// Petrov's letter `n` in the Russian form, in windows-1251, 8-bit, CRLF.
fn letter(n: usize, record: &str, ours: &str, our_sent: &str, day: &str, mine: &str) -> Vec<u8> {
    cp1251(&format!(
        "From: Petrov <petrov@example.org>\r\nTo: ivanov@example.org\r\n\
         Date: {day} Mar 2026 21:00:00 +0300\r\nMessage-ID: <petrov.{n}@example.org>\r\n\
         Subject: Kubok kluba 2026\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=windows-1251\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
         Турнир: Кубок клуба 2026\r\nСтарт: 01.03.2026\r\nБелые: Иванов\r\nЧерные: Петров\r\n\
         Ходы: {record}\r\nВаш ход {ours} отправлен: {our_sent}\r\nПолучен: {day}.03.2026\r\n\
         Мой ход: {mine}\r\nОтправлен: {day}.03.2026\r\n\r\n\
         From Петрова с приветом: ёлки зелёные\r\n>From the archive, old games\r\n"
    ))
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// The messages of an mboxrd file, un-quoted: a `From ` line starts one, the blank line
/// before it (and at the end) is the file's, and `>+From ` loses one `>`.
fn unquote(mbox: &[u8]) -> Vec<Vec<u8>> {
    let mut messages: Vec<Vec<u8>> = Vec::new();
    for line in mbox.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b"From ") {
            if let Some(last) = messages.last_mut() {
                assert_eq!(last.pop(), Some(b'\n'), "no blank line before a From line");
            }
            messages.push(Vec::new());
            continue;
        }
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        let line = if quotes > 0 && line[quotes..].starts_with(b"From ") {
            &line[1..]
        } else {
            line
        };
        messages
            .last_mut()
            .expect("a From line first")
            .extend_from_slice(line);
    }
    if let Some(last) = messages.last_mut() {
        assert_eq!(last.pop(), Some(b'\n'), "no blank line at the end");
    }
    messages
}

/// Every stored message of `game`, raw, in the order of the store.
fn stored(p: &Player, game: &str) -> Vec<Vec<u8>> {
    let db = p.home.path().join("ccmail.db");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let store = ccmail_store::Store::open(&db).await.unwrap();
            let mut conn = store.conn().await.unwrap();
            let raws: Vec<Vec<u8>> =
                sqlx::query_scalar("SELECT raw FROM messages WHERE game_id = ? ORDER BY id")
                    .bind(game)
                    .fetch_all(&mut *conn)
                    .await
                    .unwrap();
            drop(conn);
            store.close().await;
            raws
        })
}

fn apply(me: &Player, name: &str, raw: &[u8], day: &str) {
    let path = me.home.path().join(name);
    std::fs::write(&path, raw).unwrap();
    let out = me.ok(&[
        "--now",
        day,
        "apply",
        path.to_str().unwrap(),
        "--received",
        day,
    ]);
    assert!(out.contains("applied"), "{out}");
}

#[test]
fn the_mbox_is_the_stored_mail_byte_for_byte_and_private() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = cup_game(&me, "white", "petrov@example.org", &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let first = letter(1, "1. e4", "1. e4", "02.03.2026", "03", "1... e5");
    apply(&me, "m1.eml", &first, "2026-03-03");
    me.ok(&["--now", "2026-03-04", "move", &id, "Nf3"]);
    let second = letter(
        2,
        "1. e4 e5 2. Nf3",
        "2. Nf3",
        "04.03.2026",
        "05",
        "2... Nc6",
    );
    apply(&me, "m2.eml", &second, "2026-03-05");

    let raws = stored(&me, &id);
    assert_eq!(raws.len(), 4, "two letters each way");
    assert!(raws.contains(&first) && raws.contains(&second));

    let file = me.home.path().join("game.mbox");
    me.ok(&["export", &id, "--mbox", "-o", file.to_str().unwrap()]);
    assert_eq!(mode(&file), 0o600);
    let mbox = std::fs::read(&file).unwrap();
    assert_eq!(unquote(&mbox), raws);
    // mboxrd's quoting, at the byte level, in the partner's own charset.
    let quoted = |text: &str| {
        let line = cp1251(&format!("\r\n{text}\r\n"));
        mbox.windows(line.len()).any(|w| w == line)
    };
    assert!(quoted(">From Петрова с приветом: ёлки зелёные"));
    assert!(quoted(">>From the archive, old games"));
    // Standard output has the same bytes.
    let out = me.run(&["export", &id, "--mbox"]);
    assert!(out.status.success());
    assert_eq!(out.stdout, mbox);

    // The other formats are private too.
    for args in [&["export", &id, "--pgn"][..], &["export", "--all"]] {
        let file = me.home.path().join(format!("{}.pgn", args.len()));
        let mut args = args.to_vec();
        args.extend(["-o", file.to_str().unwrap()]);
        me.ok(&args);
        assert_eq!(mode(&file), 0o600, "{args:?}");
    }

    // `game import` reads the file back: the same game, the same bytes.
    let fresh = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let out = fresh.ok(&[
        "game",
        "import",
        file_str(&file),
        "--arbiter",
        "arbiter@example.org",
    ]);
    let imported = out.trim();
    let show = |p: &Player, g: &str| p.json(&["--now", "2026-03-06", "show", g])["moves"].clone();
    assert_eq!(show(&fresh, imported), show(&me, &id));
    assert_eq!(stored(&fresh, imported), raws);
}

fn file_str(path: &Path) -> &str {
    path.to_str().unwrap()
}
