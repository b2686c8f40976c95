//! No input makes the reader panic: truncated and byte-flipped versions of every sample and
//! fixture go through the same path as `ccmail parse` (MIME, then the move-message reader).

mod common;

use std::path::PathBuf;

fn inputs() -> Vec<PathBuf> {
    let mut files = common::emls(&common::fixtures());
    if let Some(dir) = common::shared_samples() {
        files.extend(common::emls(&dir));
    }
    files
}

#[test]
fn truncated_and_byte_flipped_messages_never_panic() {
    let mut runs = 0;
    for file in inputs() {
        let raw = std::fs::read(&file).unwrap();
        // Every prefix at a stride small enough to cut inside headers, words and moves.
        let stride = (raw.len() / 150).max(1);
        for cut in (0..raw.len()).step_by(stride) {
            let _ = ccmail::incoming::read_raw(&raw[..cut]);
            runs += 1;
        }
        // Bytes flipped at a fixed-seed spread of positions, one and several at a time.
        let mut seed = raw.len() as u64 | 1;
        for round in 0..200 {
            let mut bytes = raw.clone();
            for _ in 0..1 + round % 4 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed % bytes.len() as u64) as usize;
                bytes[at] ^= (seed >> 32) as u8 | 1;
            }
            let _ = ccmail::incoming::read_raw(&bytes);
            runs += 1;
        }
    }
    assert!(runs > 5_000, "only {runs} inputs");
}

#[test]
fn garbage_is_unreadable_not_a_crash() {
    for raw in [
        &b""[..],
        b"\x00\x01\x02",
        b"\xff\xfe\xfd\xfc",
        b"Subject: \xd0\n\n\xd0\xd0",
    ] {
        let (_, msg, _) = ccmail::incoming::read_raw(raw);
        assert!(!msg.problems.is_empty(), "{raw:?} gave no problem");
    }
}

#[test]
fn cr_lf_and_control_characters_never_reach_a_header() {
    // The player's own name (from the config, TOML escapes), the event and the surnames (from
    // the command line): each with a line break that would start a header of its own.
    let me = common::Player::new(
        "Иванов\\r\\nBcc: spy1@evil.example\\u0007 Иван",
        "Иванов",
        "ivanov@example.org",
    );
    let id = me
        .ok(&[
            "game",
            "new",
            "--event",
            "Кубок\r\nBcc: spy2@evil.example",
            "--start",
            "2026-03-01",
            "--white",
            "Иванов\nX-Injected: 1",
            "--black",
            "Петров\r\nReply-To: spy3@evil.example\u{1b}[31m",
            "--color",
            "white",
            "--opponent",
            "petrov@example.org",
            "--arbiter",
            "arbiter@example.org",
        ])
        .trim()
        .to_owned();
    let out = me.ok(&["--now", "2026-03-02", "move", &id, "e4", "--dry-run"]);
    let me_too = me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    let mbox = me.ok(&["export", &id, "--mbox"]);
    for text in [&out, &mbox] {
        let head = text
            .split("\n\n")
            .next()
            .unwrap_or_default()
            .replace('\r', "");
        assert!(head.contains("Subject:"), "{text}");
        for line in head.lines() {
            for bad in ["Bcc:", "X-Injected:", "Reply-To:"] {
                assert!(!line.starts_with(bad), "{bad} became a header:\n{text}");
            }
            assert!(
                !line.chars().any(|c| c.is_control() && c != '\t'),
                "a control character in a header line: {line:?}"
            );
        }
    }
    assert!(me_too.starts_with("queued:"), "{me_too}");
}
