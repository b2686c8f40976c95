//! Reader throughput: `ccmail parse`'s path (MIME decoding, then the move-message reader) in
//! messages per second on one core, for the shared samples, the project's fixtures and
//! generated 40- and 80-move messages in every notation.
//!
//! `cargo bench --bench parse` (release build). Prints one line per set. With
//! `CCMAIL_BENCH_DUMP=DIR` it also writes every set to `DIR/NN/*.eml` (the set's name in
//! `DIR/NN/name`), for the Python baseline (`benches/python/parse_baseline.py`) to read the
//! very same messages, and in `DIR/NN/ccmail-read` the files ccmail reads through (see
//! [`read_through`]). With `CCMAIL_BENCH_BOTH=DIR` (such a folder, after
//! `parse_baseline.py --both DIR` has written `DIR/NN/both-read`, the files both sides read
//! through) each set that Python does not read whole also gets a row of only those messages,
//! "NAME, both read": the same work on both sides. With `CCMAIL_BENCH_EACH=1` it also prints
//! each message's own rate.
//!
//! Each row is: the set's name, its messages, messages a second, and how many ccmail read
//! through.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use ccmail_core::message::{self, Language, Outgoing, PartnerMove, ProblemCode, Signature, Totals};
use ccmail_core::notation::Notation;
use chrono::NaiveDate;
use shakmaty::{Chess, Move, Position};

/// A game of `plies` moves of fixed-seed random legal play (restarting if it ends early).
fn game(seed: u64, plies: usize) -> Vec<Move> {
    let mut state = seed;
    loop {
        let mut pos = Chess::default();
        let mut moves = Vec::new();
        while moves.len() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = legal[(state >> 33) as usize % legal.len()];
            pos.play_unchecked(m);
            moves.push(m);
        }
        if moves.len() == plies {
            return moves;
        }
    }
}

/// A standard-form message (RFC 5322) with `moves` moves before the sender's, in `notation`.
fn generated(moves: usize, notation: Notation, seed: u64) -> Vec<u8> {
    let game = game(seed, moves * 2 + 1);
    let d = |s: &str| s.parse::<NaiveDate>().unwrap();
    let o = Outgoing {
        language: if seed.is_multiple_of(2) {
            Language::Ru
        } else {
            Language::En
        },
        notation,
        event: "Кубок Волги 2026".into(),
        start: d("2026-01-14"),
        white: "Смирнов".into(),
        black: "Кузнецов".into(),
        moves: game[..moves * 2].to_vec(),
        partner: Some(PartnerMove {
            sent: d("2026-03-18"),
            received: d("2026-03-18"),
            accepted: 0,
        }),
        my_move: Some(game[moves * 2]),
        variation: vec![],
        draw_offer: false,
        draw_accept: false,
        resign: false,
        break_notice: None,
        repeat_of: None,
        notes: vec![],
        sent: d("2026-03-20"),
        move_days: 2,
        totals: Totals {
            white: 32,
            black: 25,
        },
        signature: Signature {
            name: "Смирнов Андрей".into(),
            email: Some("a.smirnov@example.org".into()),
        },
    };
    format!(
        "From: a.smirnov@example.org\r\nTo: k@example.net\r\nDate: Fri, 20 Mar 2026 22:55:00 +0300\r\n\
         Subject: move\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        message::write(&o).replace('\n', "\r\n")
    )
    .into_bytes()
}

fn emls(dir: &Path) -> Vec<Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    files.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Messages per second over `set`, run for about `budget`.
///
/// With `CCMAIL_BENCH_ROUNDS=N` each set runs exactly N rounds instead: for instruction
/// counts under `valgrind --tool=callgrind`, which do not depend on the machine's load.
fn throughput(set: &[Vec<u8>], budget: Duration) -> f64 {
    if let Some(rounds) = std::env::var("CCMAIL_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
    {
        let start = Instant::now();
        for _ in 0..rounds {
            for raw in set {
                black_box(ccmail::incoming::read_raw(black_box(raw)));
            }
        }
        return (rounds * set.len() as u64) as f64 / start.elapsed().as_secs_f64();
    }
    for raw in set {
        black_box(ccmail::incoming::read_raw(raw));
    }
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < budget {
        for raw in set {
            black_box(ccmail::incoming::read_raw(black_box(raw)));
        }
        n += set.len() as u64;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// The shared samples: `../shared/samples` from the checkout, or from the folder holding it
/// (a git worktree one level further down).
fn shared_samples(root: &Path) -> std::path::PathBuf {
    root.ancestors()
        .skip(1)
        .map(|a| a.join("shared/samples"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| root.join("../shared/samples"))
}

/// Whether ccmail reads a message through, as the Python baseline counts it for itself: it
/// finds moves (a record or a new move), and every one of them is legible, unambiguous and
/// legal.
fn read_through(raw: &[u8]) -> bool {
    let (_, msg, _) = ccmail::incoming::read_raw(raw);
    let moves = !msg.moves.is_empty() || msg.new_move.is_some();
    moves
        && !msg.problems.iter().any(|p| {
            matches!(
                p.code,
                ProblemCode::IllegibleMove
                    | ProblemCode::AmbiguousMove
                    | ProblemCode::ImpossibleMove
                    | ProblemCode::Unreadable
            )
        })
}

/// The file name a set's `j`th message is dumped under.
fn eml_name(j: usize) -> String {
    format!("{j:03}.eml")
}

/// Writes each set to `dir/NN/`, the set's name in `dir/NN/name` and the files ccmail reads
/// through in `dir/NN/ccmail-read`, one name a line.
fn dump(dir: &Path, sets: &[(String, Vec<Vec<u8>>)]) {
    for (i, (name, set)) in sets.iter().enumerate() {
        let sub = dir.join(format!("{i:02}"));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join("name"), name).unwrap();
        let mut read = String::new();
        for (j, raw) in set.iter().enumerate() {
            std::fs::write(sub.join(eml_name(j)), raw).unwrap();
            if read_through(raw) {
                read.push_str(&eml_name(j));
                read.push('\n');
            }
        }
        std::fs::write(sub.join("ccmail-read"), read).unwrap();
    }
}

/// The messages of the set called `name` that both sides read through, from the
/// `both-read` list in `dir` (see the module's text): `None` when there is no list, or it
/// holds none or the whole set (the set's own row is that already).
fn both_read(dir: &Path, name: &str, set: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let sub = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| std::fs::read_to_string(p.join("name")).is_ok_and(|n| n == name))?;
    let list = std::fs::read_to_string(sub.join("both-read")).ok()?;
    let both: Vec<Vec<u8>> = (0..set.len())
        .filter(|&j| list.lines().any(|l| l == eml_name(j)))
        .map(|j| set[j].clone())
        .collect();
    (!both.is_empty() && both.len() < set.len()).then_some(both)
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let budget = Duration::from_millis(
        std::env::var("CCMAIL_BENCH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1500),
    );
    let mut sets: Vec<(String, Vec<Vec<u8>>)> = vec![
        ("shared samples".into(), emls(&shared_samples(root))),
        (
            "own fixtures".into(),
            emls(&root.join("tests/fixtures/messages")),
        ),
    ];
    let only = std::env::var("CCMAIL_BENCH_SET").unwrap_or_default();
    let both_dir = std::env::var_os("CCMAIL_BENCH_BOTH");
    // A set is wanted for itself, or for its row of the messages both sides read through.
    let wanted = |name: &str| {
        name.contains(&only) || (both_dir.is_some() && format!("{name}, both read").contains(&only))
    };
    for moves in [40, 80] {
        for notation in Notation::ALL {
            let name = format!("{moves}-move, {notation}");
            // Only the sets asked for are generated: a profile of one set shows that set.
            if !wanted(&name) {
                continue;
            }
            let set = (0..20)
                .map(|seed| generated(moves, notation, seed))
                .collect();
            sets.push((name, set));
        }
    }
    sets.retain(|(n, s)| !s.is_empty() && wanted(n));
    if let Some(dir) = std::env::var_os("CCMAIL_BENCH_DUMP") {
        dump(Path::new(&dir), &sets);
    }
    if let Some(dir) = &both_dir {
        sets = sets
            .into_iter()
            .flat_map(|(name, set)| {
                let both = both_read(Path::new(dir), &name, &set)
                    .map(|both| (format!("{name}, both read"), both));
                std::iter::once((name, set)).chain(both)
            })
            .collect();
        sets.retain(|(n, _)| n.contains(&only));
    }
    println!(
        "{:<32} {:>9} {:>14} {:>13}",
        "set", "messages", "messages/s", "read through"
    );
    // With CCMAIL_BENCH_EACH=1, each message of a set on a line of its own as well: which
    // message costs what.
    let each = std::env::var_os("CCMAIL_BENCH_EACH").is_some();
    for (name, set) in &sets {
        let read = set.iter().filter(|raw| read_through(raw)).count();
        println!(
            "{name:<32} {:>9} {:>14.0} {read:>13}",
            set.len(),
            throughput(set, budget)
        );
        if each {
            for (i, raw) in set.iter().enumerate() {
                let one = std::slice::from_ref(raw);
                println!(
                    "  {i:>3} {:>5} bytes {:>14.0}",
                    raw.len(),
                    throughput(one, budget)
                );
            }
        }
    }
}
