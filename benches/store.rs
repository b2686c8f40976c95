//! `games` and `show` with 1,000 games and 60,000 moves in the store (the limit: under 100 ms
//! each; see benches/README.md), timed as the user runs them: the release binary, process start
//! included. `cargo bench --bench store`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use ccmail_store::{GameRow, MoveRow, Store};
use chrono::{Days, NaiveDate};
use shakmaty::{CastlingMode, Chess, Position};

const GAMES: usize = 1_000;
const PLIES: usize = 60;

fn game_row(i: usize, start: NaiveDate) -> GameRow {
    GameRow {
        event: format!("Кубок Волги 2026, группа {}", i % 20),
        white: "Смирнов".into(),
        black: format!("Кузнецов{i}"),
        my_color: if i.is_multiple_of(2) {
            "white"
        } else {
            "black"
        }
        .into(),
        opponent_email: format!("opp{i}@example.org"),
        arbiter_email: "arbiter@example.org".into(),
        ..GameRow::new(
            &format!("g{i:04}"),
            start,
            &format!("2026-01-01T00:00:{:02}+00:00 {i:04}", i % 60),
        )
    }
}

async fn fill(db: &Path) {
    let store = Store::open(db).await.unwrap();
    let start: NaiveDate = "2025-06-01".parse().unwrap();
    let mut seed = 7u64;
    for i in 0..GAMES {
        let mut tx = store.begin().await.unwrap();
        ccmail_store::insert_game(&mut tx, &game_row(i, start))
            .await
            .unwrap();
        let mut pos = Chess::default();
        let mut day = start;
        for ply in 1..=PLIES {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = legal[(seed >> 33) as usize % legal.len()];
            let san = shakmaty::san::San::from_move(&pos, m).to_string();
            let received = day + Days::new(1);
            day = received + Days::new(seed % 3);
            let row = MoveRow {
                game_id: format!("g{i:04}"),
                ply: ply as i64,
                uci: m.to_uci(CastlingMode::Standard).to_string(),
                san,
                received,
                sent: day,
                message: None,
            };
            ccmail_store::insert_move(&mut tx, &row).await.unwrap();
            pos.play_unchecked(m);
        }
        tx.commit().await.unwrap();
    }
    store.close().await;
}

fn median_run(config: &Path, args: &[&str]) -> Duration {
    let mut times: Vec<Duration> = (0..11)
        .map(|_| {
            let start = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_ccmail"))
                .args(args)
                .env("CCMAIL_CONFIG", config)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // CCMAIL_BENCH_DIR keeps the filled store for profiling (`valgrind ccmail games`).
    let dir = tempfile::tempdir().unwrap();
    let dir_path = std::env::var_os("CCMAIL_BENCH_DIR")
        .map_or_else(|| dir.path().to_owned(), std::path::PathBuf::from);
    std::fs::create_dir_all(&dir_path).unwrap();
    let _ = std::fs::remove_file(dir_path.join("ccmail.db"));
    let dir = (dir, dir_path);
    let db = dir.1.join("ccmail.db");
    let config = dir.1.join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[player]\nname = \"Смирнов Андрей\"\nsurname = \"Смирнов\"\nemail = \"me@example.org\"\n\
             timezone = \"Europe/Moscow\"\n[store]\npath = \"{}\"\n",
            db.display()
        ),
    )
    .unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let t = Instant::now();
    runtime.block_on(fill(&db));
    eprintln!(
        "filled {GAMES} games × {PLIES} plies in {:.1} s",
        t.elapsed().as_secs_f64()
    );
    println!(
        "{:<36} {:>10} {:>8}",
        "command (1,000 games, 60,000 moves)", "median", "target"
    );
    for args in [
        &["--now", "2026-06-01", "games"][..],
        &["--now", "2026-06-01", "--json", "games"],
        &["--now", "2026-06-01", "show", "g0500"],
        &["--now", "2026-06-01", "--json", "show", "g0500"],
    ] {
        let d = median_run(&config, args);
        println!(
            "{:<36} {:>7.1} ms {:>8}",
            args[2..].join(" "),
            d.as_secs_f64() * 1000.0,
            "100 ms"
        );
    }
}
