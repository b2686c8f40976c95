//! `ccmail export --all` as chess programs read it: 200 games made with random legal moves
//! (a fixed seed; pawns pushed often, so promotions come up), dated, some with a variation,
//! some finished, written by the real binary and read back by python-chess and pgn-extract.
//! With `CI=true` a missing python3 `chess` module or pgn-extract fails the test.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use ccmail_store::{self as store, GameRow, MoveRow, VariationRow};
use chrono::{Days, NaiveDate};
use common::{Player, required_tool};
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move, Position, Role};

/// xorshift64*: the same games on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// Up to `max` random legal moves from `pos`: a promotion whenever there is one, a pawn move
/// every other time there is one.
fn random_line(rng: &mut Rng, pos: &Chess, max: usize) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut line = Vec::new();
    while line.len() < max {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let promotions: Vec<Move> = legal.iter().filter(|m| m.is_promotion()).copied().collect();
        let pawns: Vec<Move> = legal
            .iter()
            .filter(|m| m.role() == Role::Pawn)
            .copied()
            .collect();
        let pick = if !promotions.is_empty() {
            promotions[rng.below(promotions.len())]
        } else if !pawns.is_empty() && rng.below(2) == 0 {
            pawns[rng.below(pawns.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        pos = pos.play(pick).unwrap();
        line.push(pick);
    }
    line
}

fn uci(m: Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// What the test knows of a game it made.
struct Made {
    plies: usize,
    finished: bool,
    /// Variations written in parentheses (one leaving the played line).
    ravs: usize,
    promotions: usize,
}

/// Stores game `i`: its moves with dates, maybe a variation, maybe a result.
async fn make_game(conn: &mut store::SqliteConnection, rng: &mut Rng, i: usize) -> Made {
    let id = format!("g{i:03}");
    let start = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap() + Days::new((i % 90) as u64);
    let length = rng.below(160);
    let plies = random_line(rng, &Chess::default(), length);
    let end = plies
        .iter()
        .fold(Chess::default(), |p, &m| p.play(m).unwrap());
    let finished = i.is_multiple_of(3) || end.is_game_over();
    let result = finished.then(|| match end.outcome().known() {
        Some(o) => o.to_string(),
        None => ["1-0", "0-1", "1/2-1/2"][rng.below(3)].to_owned(),
    });
    let row = GameRow {
        event: format!("Турнир {i}"),
        white: "Иванов Иван Иванович".into(),
        black: "Petrov, Piotr".into(),
        my_color: if i.is_multiple_of(2) {
            "white"
        } else {
            "black"
        }
        .into(),
        opponent_email: "partner@example.org".into(),
        arbiter_email: "arbiter@example.org".into(),
        status: if finished {
            store::GameStatus::Finished
        } else {
            store::GameStatus::Active
        },
        result,
        ..GameRow::new(&id, start, "2026-01-01T00:00:00Z")
    };
    store::insert_game(conn, &row).await.unwrap();
    let mut pos = Chess::default();
    let mut received = start;
    for (n, &m) in plies.iter().enumerate() {
        let sent = received + Days::new(rng.below(3) as u64);
        let san = SanPlus::from_move(pos.clone(), m).to_string();
        let mv = MoveRow {
            game_id: id.clone(),
            ply: n as i64 + 1,
            uci: uci(m),
            san,
            received,
            sent,
            message: None,
        };
        store::insert_move(conn, &mv).await.unwrap();
        pos = pos.play(m).unwrap();
        received = sent + Days::new(1 + rng.below(4) as u64);
    }
    let mut ravs = 0;
    let offer = |with: usize, moves: Vec<Move>| VariationRow {
        id: 0,
        game_id: id.clone(),
        proposed_by: if with % 2 == 1 { "white" } else { "black" }.into(),
        proposed_with: with as i64,
        moves: moves.into_iter().map(uci).collect::<Vec<_>>().join(" "),
        accepted_through: None,
    };
    let mut variations = Vec::new();
    if i.is_multiple_of(4) && plies.len() >= 4 {
        // Branching from the played line: a first move other than the one played.
        let k = 1 + rng.below(plies.len() - 2);
        let at = plies[..k]
            .iter()
            .fold(Chess::default(), |p, &m| p.play(m).unwrap());
        let other: Vec<Move> = at
            .legal_moves()
            .into_iter()
            .filter(|&m| m != plies[k])
            .collect();
        if !other.is_empty() {
            let first = other[rng.below(other.len())];
            let mut line = vec![first];
            line.extend(random_line(rng, &at.clone().play(first).unwrap(), 3));
            variations.push(offer(k, line));
            ravs += 1;
        }
    }
    if i % 5 == 1 && !finished {
        // Offered with the last move: a comment after it, not a variation.
        variations.push(offer(plies.len(), random_line(rng, &end, 2)));
    }
    for v in &variations {
        store::insert_variation(conn, v).await.unwrap();
    }
    Made {
        plies: plies.len(),
        finished,
        ravs,
        promotions: plies.iter().filter(|m| m.is_promotion()).count(),
    }
}

/// 200 games in the player's store, by event name.
fn make_games(me: &Player) -> HashMap<String, Made> {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let db = store::Store::open(&me.home.path().join("ccmail.db"))
            .await
            .unwrap();
        let mut tx = db.begin().await.unwrap();
        let mut rng = Rng(0x5EED_CC0A_11C0_FFEE);
        let mut made = HashMap::new();
        for i in 0..200 {
            made.insert(format!("Турнир {i}"), make_game(&mut tx, &mut rng, i).await);
        }
        tx.commit().await.unwrap();
        db.close().await;
        made
    })
}

fn pgn_extract() -> Option<PathBuf> {
    let on_path = Command::new("pgn-extract").arg("-h").output().is_ok();
    let games = Path::new("/usr/games/pgn-extract");
    if on_path {
        Some("pgn-extract".into())
    } else {
        games.exists().then(|| games.to_owned())
    }
}

fn python_chess() -> bool {
    Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn two_hundred_games_read_back_in_python_chess_and_pgn_extract() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let made = make_games(&me);
    assert!(made.values().map(|m| m.promotions).sum::<usize>() >= 20);
    assert!(made.values().filter(|m| m.ravs > 0).count() >= 20);
    let file = me.home.path().join("all.pgn");
    let path = file.to_str().unwrap();
    me.ok(&["--now", "2026-12-01", "export", "--all", "-o", path]);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.matches("\n[Event ").count() + 1, 200);
    assert!(text.contains("=Q"), "promotions are written");
    assert!(text.contains("[Termination \"unterminated\"]"));
    assert!(text.contains("[Termination \"adjudication\"]"));
    assert!(text.contains("{Variation offered: "));
    // One game alone is the same text as in the file of all.
    let one = me.ok(&["--now", "2026-12-01", "export", "g004", "--pgn"]);
    assert!(text.contains(&one), "{one}");
    // Only the games not finished with --active.
    let active = me.ok(&["--now", "2026-12-01", "export", "--all", "--active"]);
    assert_eq!(
        active.matches("[Event ").count(),
        made.values().filter(|m| !m.finished).count()
    );
    assert!(!active.contains("[Termination \"adjudication\"]"));

    if required_tool(
        "python3 with the chess module (pip install chess)",
        python_chess(),
    ) {
        let script = common::root().join("tests/pgn_check.py");
        let out = Command::new("python3")
            .arg(&script)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines = String::from_utf8(out.stdout).unwrap();
        let mut seen = 0;
        for line in lines.lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let event = v["event"].as_str().unwrap();
            let m = &made[event];
            assert_eq!(v["errors"], serde_json::json!([]), "{event}");
            assert_eq!(v["plies"], m.plies, "{event}");
            assert_eq!(v["variations"], m.ravs, "{event}");
            assert!(v.get("time_control_error").is_none(), "{event}: {v}");
            if let Some(tc) = v.get("time_control") {
                let parts: Vec<(u64, f64)> = tc
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| (p[0].as_u64().unwrap(), p[1].as_f64().unwrap()))
                    .collect();
                assert_eq!(parts, [(10, 5_184_000.0)], "{event}");
            }
            seen += 1;
        }
        assert_eq!(seen, 200);
    }

    if required_tool(
        "pgn-extract (apt-get install pgn-extract)",
        pgn_extract().is_some(),
    ) {
        let tool = pgn_extract().unwrap();
        let report = Command::new(&tool).args(["-r", path]).output().unwrap();
        let said = String::from_utf8_lossy(&report.stderr).into_owned()
            + &String::from_utf8_lossy(&report.stdout);
        assert!(said.contains("200 games matched out of 200."), "{said}");
        let silent = Command::new(&tool)
            .args(["-s", "-r", path])
            .output()
            .unwrap();
        let errors = String::from_utf8_lossy(&silent.stderr).into_owned()
            + &String::from_utf8_lossy(&silent.stdout);
        assert_eq!(errors.trim(), "", "pgn-extract found errors");
    }
}

#[test]
fn ccmail_parse_reads_every_move_of_its_own_export() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let made = make_games(&me);
    let i = (0..200)
        .find(|i| {
            let m = &made[&format!("Турнир {i}")];
            m.ravs > 0 && m.plies >= 20
        })
        .unwrap();
    let id = format!("g{i:03}");
    let pgn = me.ok(&["--now", "2026-12-01", "export", &id, "--pgn"]);
    assert!(
        pgn.contains("} ("),
        "a dated comment, then a variation: {pgn}"
    );
    let eml = format!(
        "From: partner@example.org\r\nTo: ivanov@example.org\r\nSubject: {id}\r\n\
         Date: Tue, 01 Dec 2026 10:00:00 +0300\r\nMessage-ID: <pgn.{id}@example.org>\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{}",
        pgn.replace('\n', "\r\n")
    );
    let file = me.home.path().join("export.eml");
    std::fs::write(&file, eml).unwrap();
    let read: serde_json::Value =
        serde_json::from_str(&me.ok(&["parse", "--json", file.to_str().unwrap()])).unwrap();
    let mut sans: Vec<String> = read["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    sans.extend(read["new_move"].as_str().map(str::to_owned));
    let shown = me.json(&["--now", "2026-12-01", "show", &id]);
    let played: Vec<String> = shown["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            m["san"]
                .as_str()
                .unwrap()
                .trim_end_matches(['+', '#'])
                .to_owned()
        })
        .collect();
    let sans: Vec<String> = sans
        .iter()
        .map(|s| s.trim_end_matches(['+', '#']).to_owned())
        .collect();
    assert_eq!(sans, played, "{read}");
}
