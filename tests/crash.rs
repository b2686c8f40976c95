//! Crash safety: the daemon killed with SIGKILL (`kill -9`) at random moments while it applies
//! hundreds of incoming moves across many games and while its outbox sends hundreds of
//! replies, restarted each time — at least 50 times. Afterwards every move is applied exactly
//! once on both sides, every queued message was sent, and a message that reached the partner
//! twice (the daemon was killed after the server took it, before it recorded that) carries the
//! same Message-ID both times, so the partner's ccmail ignored the second.
//!
//! The moments are drawn from a seeded generator; the seed is printed
//! (`CCMAIL_CRASH_SEED=N` repeats a run). `CCMAIL_CRASH_GAMES` (default 50) and
//! `CCMAIL_CRASH_ROUNDS` (move pairs per game, default 4, at most 10) make a longer run.

mod support;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use support::{Player, create_mailboxes, messages, servers, unique};

const ARBITER: &str = "arbiter@example.test";
const NOW: &str = "2026-03-02";
/// The daemon's own debug lines (a message read again, an item sent again), nothing from sqlx.
const LOG: &str = "info,ccmail=debug";
/// The line: a Ruy Lopez, White (the daemon's player) first.
const LINE: [&str; 20] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O", "h3", "Nb8", "d4", "Nbd7",
];

/// xorshift64*: a seeded source of the kill moments.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `lo..=hi`.
    fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name}={v:?}")))
        .unwrap_or(default)
}

/// What the killer saw.
#[derive(Debug, Default)]
struct Kills {
    /// Daemons killed with SIGKILL.
    kills: usize,
    /// …of which had applied, sent or re-read something before the kill (were at work).
    at_work: usize,
    /// Items a killed daemon had in hand, sent again after the restart.
    resent: usize,
    /// Messages a killed daemon had applied but not yet recorded as read, read again.
    read_again: usize,
}

/// The counts in the database of `p`: moves, outbox items, items not sent yet.
fn counts(p: &Player) -> (usize, usize, usize) {
    support::block_on(async {
        let store = ccmail_store::Store::open(&p.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        let moves = ccmail_store::all_moves(&mut c, true).await.unwrap().len();
        let unsent = ccmail_store::unsent(&mut c).await.unwrap().len();
        let outbox: i64 = sqlx_count(&mut c, "SELECT count(*) FROM outbox").await;
        drop(c);
        store.close().await;
        (moves, usize::try_from(outbox).unwrap(), unsent)
    })
}

async fn sqlx_count(c: &mut ccmail_store::SqliteConnection, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql).fetch_one(c).await.unwrap()
}

/// Waits until `done` holds, checking every 100 ms, at most `limit`.
fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn kill_9_at_random_moments_loses_nothing_and_applies_nothing_twice() {
    let Some(s) = servers() else { return };
    let games = env_number("CCMAIL_CRASH_GAMES", 50) as usize;
    let rounds = env_number("CCMAIL_CRASH_ROUNDS", 4).min(10) as usize;
    let seed = env_number(
        "CCMAIL_CRASH_SEED",
        u64::from(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos(),
        ) | 1,
    );
    eprintln!(
        "crash safety: seed {seed} (CCMAIL_CRASH_SEED={seed} repeats it), {games} games, \
         {rounds} move pairs each"
    );
    let tag = unique("crash");
    create_mailboxes(
        &s,
        &["white@example.test", "black@example.test", ARBITER],
        &tag,
    );
    let arbiter = support::mail::detail_address(ARBITER, &tag);
    // The daemon's player (White) and the partner (Black), who answers by hand.
    let me = Player::new(&s, "Белов Борис", "Белов", "white@example.test", &tag, "");
    let partner = Player::new(
        &s,
        "Чернов Чеслав",
        "Чернов",
        "black@example.test",
        &tag,
        "",
    );
    // The player's own `ccmail move` only queues (no [smtp]): the daemon sends.
    let queue_only = me.config_without_smtp();

    let mut pairs = Vec::new();
    for i in 0..games {
        let event = format!("Crash Cup {i:03}");
        let new = |p: &Player, color: &str, opponent: &Player| {
            p.new_game_in(&event, "2026-03-01", color, opponent, &arbiter, &[])
        };
        pairs.push((new(&me, "white", &partner), new(&partner, "black", &me)));
    }

    // The killer: starts the daemon, kills it at a random moment, again and again.
    let stop = AtomicBool::new(false);
    let kills = Arc::new(Mutex::new(Kills::default()));
    let started = Instant::now();
    /// Stops the killer however the test ends (an assertion failing in a phase included).
    struct Done<'a>(&'a AtomicBool);
    impl Drop for Done<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    std::thread::scope(|scope| {
        let killer = scope.spawn(|| {
            let mut rng = Rng(seed);
            while !stop.load(Ordering::SeqCst) {
                let mut d = me.spawn(&["--now", NOW, "run"], LOG);
                std::thread::sleep(Duration::from_millis(rng.between(30, 600)));
                d.kill();
                let log = d.log();
                let mut k = kills.lock().unwrap();
                k.kills += 1;
                let resent = log.matches("left in flight by a sender").count();
                let read_again = log.matches("was already stored; nothing changed").count();
                if resent + read_again > 0 || log.contains("applied ") || log.contains(" sent ") {
                    k.at_work += 1;
                }
                k.resent += resent;
                k.read_again += read_again;
            }
        });
        let done = Done(&stop);
        for round in 0..rounds {
            let (mine, theirs) = (LINE[2 * round], LINE[2 * round + 1]);
            eprintln!(
                "round {round}: {:.0} s, {} kills so far",
                started.elapsed().as_secs_f64(),
                kills.lock().unwrap().kills
            );
            // Our moves: queued by `ccmail move` while the daemon runs (and dies), sent by it.
            for (g, _) in &pairs {
                let out = me
                    .command(&["--now", NOW, "move", g, mine, "--yes"])
                    .env("CCMAIL_CONFIG", &queue_only)
                    .output()
                    .unwrap();
                let text = String::from_utf8_lossy(&out.stdout);
                assert!(
                    out.status.success() && text.starts_with("queued:"),
                    "move {g} {mine}: {text}{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            let want = (round + 1) * games;
            wait_until("our moves sent", Duration::from_secs(300), || {
                let (_, outbox, unsent) = counts(&me);
                outbox == want && unsent == 0
            });
            // The partner reads them and answers each.
            wait_until("the partner got our moves", Duration::from_secs(60), || {
                partner.ok(&["--now", NOW, "run", "--once"]);
                counts(&partner).0 == (2 * round + 1) * games
            });
            for (_, g) in &pairs {
                let out = partner.ok(&["--now", NOW, "move", g, theirs, "--yes"]);
                assert!(out.starts_with("sent:"), "{out}");
            }
            // The daemon applies them, dying all the while.
            wait_until(
                "the partner's moves applied",
                Duration::from_secs(300),
                || counts(&me).0 == (2 * round + 2) * games,
            );
        }
        // At least 50 kills in all.
        wait_until("50 kills", Duration::from_secs(120), || {
            kills.lock().unwrap().kills >= 50
        });
        drop(done);
        killer.join().unwrap();
    });
    let elapsed = started.elapsed();
    // A last quiet pass: nothing is left to do.
    me.ok(&["--now", NOW, "run", "--once"]);
    partner.ok(&["--now", NOW, "run", "--once"]);

    // Every move exactly once, the same on both sides.
    let plies: Vec<&str> = LINE[..2 * rounds].to_vec();
    for (mine, theirs) in &pairs {
        for (p, g) in [(&me, mine), (&partner, theirs)] {
            let shown = p.json(&["--now", NOW, "show", g]);
            let sans: Vec<&str> = shown["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["san"].as_str().unwrap())
                .collect();
            assert_eq!(sans, plies, "game {g}");
        }
    }
    // Every queued message sent; nothing held on either side.
    let (moves, outbox, unsent) = counts(&me);
    assert_eq!(
        (moves, outbox, unsent),
        (2 * rounds * games, rounds * games, 0)
    );
    for p in [&me, &partner] {
        let held = p.json(&["inbox"]);
        assert_eq!(held, serde_json::json!([]), "nothing held");
    }
    // What reached the partner: each of our messages at least once, nothing else, and a
    // message that came twice came with its Message-ID.
    let ours: HashSet<String> = support::block_on(async {
        let store = ccmail_store::Store::open(&me.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        let mut ids = HashSet::new();
        for (g, _) in &pairs {
            for m in ccmail_store::game_messages(&mut c, g).await.unwrap() {
                if m.direction == ccmail_store::Direction::Out {
                    ids.insert(m.message_id.unwrap());
                }
            }
        }
        ids
    });
    assert_eq!(ours.len(), rounds * games);
    let arrived = messages(&s, "black@example.test", &tag);
    let mut times: HashMap<String, usize> = HashMap::new();
    for m in &arrived {
        let id = support::message_id(&m.raw);
        assert!(ours.contains(&id), "{id} is not one of ours");
        *times.entry(id).or_default() += 1;
    }
    assert_eq!(times.len(), ours.len(), "every message arrived");
    let twice = arrived.len() - times.len();
    // Our side read each of the partner's messages once or again after a kill: never applied
    // twice (the move lists above), each stored once.
    let incoming = support::block_on(async {
        let store = ccmail_store::Store::open(&me.db()).await.unwrap();
        let mut c = store.conn().await.unwrap();
        let mut n = 0;
        for (g, _) in &pairs {
            let all = ccmail_store::game_messages(&mut c, g).await.unwrap();
            n += all
                .iter()
                .filter(|m| m.direction == ccmail_store::Direction::In)
                .count();
        }
        n
    });
    assert_eq!(
        incoming,
        rounds * games,
        "each incoming message stored once"
    );
    let k = kills.lock().unwrap();
    assert!(k.kills >= 50, "{k:?}");
    eprintln!(
        "crash safety: seed {seed}: {} kill -9 in {:.0} s ({} while at work); {} partner moves \
         applied by the daemon, {} messages sent by it; {} sends cut by a kill sent again, {} \
         messages read again after a kill; {} messages reached the partner twice, each with the \
         same Message-ID; lost: 0, applied twice: 0",
        k.kills,
        elapsed.as_secs_f64(),
        k.at_work,
        rounds * games,
        rounds * games,
        k.resent,
        k.read_again,
        twice,
    );
}
