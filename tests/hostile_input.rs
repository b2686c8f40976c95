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
    eprintln!("{runs} truncated or byte-flipped messages read, none panicked");
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
        // Unreadable, or mail that is nothing to do with a game: never a move, never a fault.
        let nothing = msg.kind == ccmail_core::message::MessageKind::Other
            && msg.new_move.is_none()
            && msg
                .problems
                .iter()
                .all(|p| !ccmail_core::judge::is_move_fault(p.code));
        assert!(
            !msg.problems.is_empty() || nothing,
            "{raw:?} gave no problem and is not other"
        );
        assert_eq!(
            msg.kind,
            ccmail_core::message::MessageKind::Other,
            "{raw:?}"
        );
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

/// The big and deep shapes (10 MB of quoted-printable, 10 MB on one line, a million lines, a
/// million blank lines, a game header above 5 MB of blank lines, 10,000 nested multiparts),
/// made in memory.
fn shape(which: &str) -> Vec<u8> {
    let head = "From: petrov@example.org\r\nTo: ivanov@example.org\r\nSubject: Кубок\r\n";
    match which {
        // 10 MB of quoted-printable text with moves in it.
        "10 MB quoted-printable" => {
            let mut raw = format!(
                "{head}Content-Type: text/plain; charset=utf-8\r\n\
                 Content-Transfer-Encoding: quoted-printable\r\n\r\n"
            )
            .into_bytes();
            let line = b"12. e4 e5 =D0=9C=D0=BE=D0=B9 =D1=85=D0=BE=D0=B4: 13. Nf3 soft=\r\n";
            while raw.len() < 10 << 20 {
                raw.extend_from_slice(line);
            }
            raw
        }
        // 10 MB on one line, no line break at all.
        "10 MB on one line" => {
            let mut raw = format!("{head}\r\n").into_bytes();
            while raw.len() < 10 << 20 {
                raw.extend_from_slice(b"1. e4 e5 2. Nf3 Nc6 ");
            }
            raw
        }
        "1,000,000 lines" => {
            let mut raw = format!("{head}\r\n").into_bytes();
            for i in 0..1_000_000 {
                raw.extend_from_slice(if i % 2 == 0 {
                    b"e4\r\n"
                } else {
                    b"> 1...e5\r\n"
                });
            }
            raw
        }
        // A million blank lines after the move: the reader looks past blank lines for a
        // quote's header block only after a line that may start one.
        "1,000,000 blank lines" => {
            let mut raw = format!("{head}\r\nMy move: 1. e4\r\n").into_bytes();
            for _ in 0..1_000_000 {
                raw.extend_from_slice(b"\r\n");
            }
            raw
        }
        // A stranger's game header, then 5 MB of blank lines: the reader once kept ~100 bytes
        // a line of it, 547 MB in all; now the text is over its caps and not read.
        "a game header and 5 MB of blank lines" => {
            let mut raw = format!(
                "{head}\r\nEvent: Кубок\r\nWhite: Иванов\r\nBlack: Петров\r\n\r\n1. e4\r\n"
            )
            .into_bytes();
            raw.resize(raw.len() + (5 << 20), b'\n');
            raw
        }
        "10,000 nested multiparts" => {
            let mut raw = head.as_bytes().to_vec();
            for i in 0..10_000 {
                raw.extend_from_slice(
                    format!("Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n")
                        .as_bytes(),
                );
            }
            raw.extend_from_slice(b"Content-Type: text/plain\r\n\r\nMy move: 1. e4\r\n");
            for i in (0..10_000).rev() {
                raw.extend_from_slice(format!("--b{i}--\r\n").as_bytes());
            }
            raw
        }
        other => panic!("no shape {other:?}"),
    }
}

const SHAPES: [&str; 6] = [
    "10 MB quoted-printable",
    "10 MB on one line",
    "1,000,000 lines",
    "1,000,000 blank lines",
    "a game header and 5 MB of blank lines",
    "10,000 nested multiparts",
];

/// A line of `/proc/self/status`, in kB.
fn status_kb(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(key)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The whole reader (MIME, then the move-message reader, as `ccmail parse` and the daemon
/// run it) on each big or deep shape, each in a fresh process of its own, so that the peak
/// memory measured (VmHWM) is that one message's: under 40 times the message's size plus
/// 64 MB, and under 120 s (loose: a debug build on a shared 2-core machine reads the 10 MB
/// single line of moves in about 45 s, linearly — 1, 2, 4 MB took 4, 9, 18 s; the limit is
/// there to catch quadratic work, which on these sizes takes hours).
#[test]
fn big_and_deep_messages_take_bounded_time_and_memory() {
    if let Ok(which) = std::env::var("CCMAIL_HOSTILE_SHAPE") {
        let raw = shape(&which);
        let before = status_kb("VmHWM:");
        let start = std::time::Instant::now();
        let (_, msg, _) = ccmail::incoming::read_raw(&raw);
        let took = start.elapsed();
        println!(
            "SHAPE {} {} {} {} {}",
            raw.len(),
            before,
            status_kb("VmHWM:"),
            took.as_millis(),
            msg.problems.len()
        );
        return;
    }
    for which in SHAPES {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "big_and_deep_messages_take_bounded_time_and_memory",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("CCMAIL_HOSTILE_SHAPE", which)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{which}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = text
            .lines()
            .find_map(|l| l.split_once("SHAPE ").map(|(_, rest)| rest))
            .unwrap_or_else(|| panic!("{which}: {text}"));
        let n: Vec<u64> = line.split(' ').map(|x| x.parse().unwrap()).collect();
        let (size, before_kb, peak_kb, ms) = (n[0], n[1], n[2], n[3]);
        eprintln!(
            "{which}: {size} bytes read in {ms} ms, peak memory {} MB (before: {} MB)",
            peak_kb / 1024,
            before_kb / 1024
        );
        assert!(ms < 120_000, "{which}: {ms} ms");
        assert!(
            peak_kb * 1024 < 40 * size + (64 << 20),
            "{which}: peak {peak_kb} kB for {size} bytes"
        );
    }
}
