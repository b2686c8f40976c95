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
