//! The mail for the daemon's benchmarks (first sync, latency, footprint), which `benches/python/daemon.py`
//! puts on the test servers and times: a player's store with 200 active games, and
//!
//! - `mail-N/`: a mailbox of N messages, a tenth of them the opponents' move messages across
//!   the 200 games (each game's first move, then the opponent's repeats of it), the rest
//!   ordinary mail of realistic sizes (short notes, newsletters in text and HTML, now and
//!   then an attachment of 20–300 KB), each under the headers a provider writes above mail it
//!   delivers (its hops, signatures, stamps: 3–4.5 KB); `mail-N/index.tsv` lists the files with the
//!   INTERNALDATE each is to be stored with;
//! - `live/`: the first move of each game, to be sent by SMTP to a running daemon;
//! - `store-match.db` and `match-N/`: the same, but the player's 500 games are all against one
//!   address (a team match's captain), each with an event of its own (`Bench Match 2026,
//!   board NNN`), and the N-message mailbox's moves are the captain's, one per board: what
//!   matching a message to its game costs when it can't go by the address alone.
//!
//! `CCMAIL_BENCH_OUT=DIR CCMAIL_BENCH_MESSAGES=1000,5000 cargo bench --bench mailbox`
//! (`DIR/store.db` is the player's store; the player is Black in every game, the opponent of
//! game `gNNN` is `oppNNN@example.org`).

use std::fmt::Write as _;
use std::path::Path;

use ccmail_core::message::{self, Language, Outgoing, Signature, Totals};
use ccmail_core::notation::Notation;
use ccmail_store::{GameRow, Store};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use shakmaty::{Chess, Position};

const GAMES: usize = 200;
const EVENT: &str = "Bench Cup 2026";
/// The games against one address, and that address.
const BOARDS: usize = 500;
const CAPTAIN: &str = "captain@example.org";
const PLAYER: &str = "white@example.test";

/// A fixed-seed generator (the same mail at every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }
}

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

fn opponent(game: usize) -> String {
    format!("opp{game:03}@example.org")
}

/// Board `n`'s event in the match against [`CAPTAIN`].
fn board(n: usize) -> String {
    format!("Bench Match 2026, board {n:03}")
}

/// Who plays game `i` of the mailbox: its opponent's address and the event.
#[derive(Clone, Copy)]
enum Games {
    /// [`GAMES`] games, each against an opponent of its own, all in one event.
    Cup,
    /// [`BOARDS`] games against [`CAPTAIN`], each its own event.
    Match,
}

impl Games {
    fn count(self) -> usize {
        match self {
            Games::Cup => GAMES,
            Games::Match => BOARDS,
        }
    }

    fn opponent(self, i: usize) -> String {
        match self {
            Games::Cup => opponent(i),
            Games::Match => CAPTAIN.into(),
        }
    }

    fn event(self, i: usize) -> String {
        match self {
            Games::Cup => EVENT.into(),
            Games::Match => board(i),
        }
    }
}

async fn fill_store(db: &Path, games: Games) {
    let _ = std::fs::remove_file(db);
    let store = Store::open(db).await.unwrap();
    let mut tx = store.begin().await.unwrap();
    for i in 0..games.count() {
        let row = GameRow {
            event: games.event(i),
            white: "Белов".into(),
            black: "Чернов".into(),
            my_color: "black".into(),
            opponent_email: games.opponent(i),
            arbiter_email: "arbiter@example.org".into(),
            ..GameRow::new(
                &format!("g{i:03}"),
                day("2026-02-01"),
                "2026-02-01T09:00:00+03:00",
            )
        };
        ccmail_store::insert_game(&mut tx, &row).await.unwrap();
    }
    tx.commit().await.unwrap();
    store.close().await;
}

/// The opponent's (White's) first move in `game`, or its `repeat`-th repeat, as sent at `at`.
fn move_message(games: Games, game: usize, repeat: usize, at: NaiveDateTime) -> Vec<u8> {
    let pos = Chess::default();
    let legal = pos.legal_moves();
    let first = legal[game % legal.len()];
    let sent = at.date();
    let o = Outgoing {
        language: if game.is_multiple_of(2) {
            Language::Ru
        } else {
            Language::En
        },
        notation: Notation::ALL[game % Notation::ALL.len()],
        event: games.event(game),
        start: day("2026-02-01"),
        white: "Белов".into(),
        black: "Чернов".into(),
        moves: vec![],
        partner: None,
        my_move: Some(first),
        variation: vec![],
        draw_offer: false,
        draw_accept: false,
        resign: false,
        break_notice: None,
        repeat_of: (repeat > 0).then(|| day("2026-02-01")),
        notes: vec![],
        sent,
        move_days: 1,
        totals: Totals { white: 1, black: 0 },
        signature: Signature {
            name: "Белов Борис".into(),
            email: Some(games.opponent(game)),
        },
    };
    format!(
        "From: Boris Belov <{from}>\r\nTo: <{PLAYER}>\r\nDate: {date}\r\n\
         Message-ID: <bench.g{game:03}.{repeat}@example.org>\r\n\
         Subject: {event}: game {game}, move 1\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}",
        from = games.opponent(game),
        event = games.event(game),
        date = at.format("%a, %d %b %Y %H:%M:%S +0000"),
        body = message::write(&o).replace('\n', "\r\n"),
    )
    .into_bytes()
}

const WORDS: &[&str] = &[
    "the",
    "meeting",
    "tomorrow",
    "report",
    "please",
    "find",
    "attached",
    "regards",
    "thanks",
    "project",
    "weekend",
    "dinner",
    "photos",
    "invoice",
    "schedule",
    "update",
    "приветствую",
    "встреча",
    "завтра",
    "спасибо",
    "отчёт",
    "новости",
    "неделя",
    "проект",
    "письмо",
    "цена",
];

fn words(rng: &mut Lcg, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 16);
    let mut line = 0;
    while s.len() < bytes {
        let w = WORDS[rng.below(WORDS.len())];
        s.push_str(w);
        line += w.len() + 1;
        if line > 70 {
            s.push_str("\r\n");
            line = 0;
        } else {
            s.push(' ');
        }
    }
    s.push_str("\r\n");
    s
}

fn base64(rng: &mut Lcg, bytes: usize) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes * 4 / 3 + bytes / 38);
    for i in 0..bytes * 4 / 3 {
        s.push(ABC[rng.below(64)] as char);
        if (i + 1).is_multiple_of(76) {
            s.push_str("\r\n");
        }
    }
    s.push_str("\r\n");
    s
}

/// `n` characters of base64, folded as a signature header's are.
fn signature(rng: &mut Lcg, n: usize) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(n + n / 20);
    for i in 0..n {
        if i % 70 == 0 {
            s.push_str("\r\n\t");
        }
        s.push(ABC[rng.below(64)] as char);
    }
    s
}

/// What a mail provider writes above a message it delivers (3.0–4.5 KB, as at Gmail): the
/// hops' `Received` lines, the sender's DKIM signature, the ARC set of a forwarding hop, the
/// provider's own stamps, and the envelope sender (`Return-Path`, the sender's own address
/// where a person wrote). The fields ccmail's first look reads are not among them.
fn delivery_trace(rng: &mut Lcg, at: NaiveDateTime, envelope: &str) -> String {
    let date = at.format("%a, %d %b %Y %H:%M:%S +0000");
    let mut t = format!("Delivered-To: {PLAYER}\r\n");
    for hop in 0..2 + rng.below(3) {
        let _ = write!(
            t,
            "Received: from mail{hop}.relay.example.net (mail{hop}.relay.example.net \
             [192.0.2.{}])\r\n        by mx.provider.example with ESMTPS id {}\r\n        \
             for <{PLAYER}>\r\n        (version=TLS1_3 cipher=TLS_AES_256_GCM_SHA384 bits=256);\r\n        \
             {date}\r\n",
            rng.below(250),
            signature(rng, 24).replace("\r\n\t", ""),
        );
    }
    let _ = write!(
        t,
        "ARC-Seal: i=1; a=rsa-sha256; t=1772400000; cv=none; d=provider.example; s=arc-2026;\r\n\tb={}\r\n\
         ARC-Message-Signature: i=1; a=rsa-sha256; c=relaxed/relaxed; d=provider.example;\r\n\
         \ts=arc-2026; h=to:subject:message-id:date:from:mime-version:dkim-signature;\r\n\
         \tbh={}=;\r\n\tb={}\r\n\
         ARC-Authentication-Results: i=1; mx.provider.example;\r\n\
         \tdkim=pass header.i=@example.org header.s=s1 header.b=AbCdEf12;\r\n\
         \tspf=pass (provider.example: domain of bounce@example.org designates 192.0.2.7 as\r\n\
         \tpermitted sender) smtp.mailfrom=bounce@example.org;\r\n\
         \tdmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org\r\n\
         Return-Path: <{envelope}>\r\n\
         DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.org; s=s1;\r\n\
         \th=to:subject:message-id:date:from:mime-version:from:to:cc:subject:date\r\n\
         \t:message-id:reply-to;\r\n\tbh={}=;\r\n\tb={}\r\n\
         X-Google-Smtp-Source: {}\r\nX-Received: by 2002:a05:6000:1:b0:3 with SMTP id {};\r\n\
         \t{date}\r\nX-Gm-Message-State: {}\r\n",
        signature(rng, 340),
        signature(rng, 43).trim_start(),
        signature(rng, 340),
        signature(rng, 43).trim_start(),
        signature(rng, 340),
        signature(rng, 88).replace("\r\n\t", ""),
        signature(rng, 20).replace("\r\n\t", ""),
        signature(rng, 140).replace("\r\n\t", ""),
    );
    t
}

/// Ordinary mail number `n`: 65 % short notes (0.5–4 KB), 28 % newsletters in text and HTML
/// (6–40 KB), 7 % with an attachment (20–300 KB).
fn ordinary(rng: &mut Lcg, n: usize, at: NaiveDateTime) -> Vec<u8> {
    let senders = [
        "mom@example.org",
        "news@shop.example.com",
        "boss@work.example.net",
        "friend@example.org",
        "noreply@bank.example.com",
        "list@club.example.org",
    ];
    let from = senders[rng.below(senders.len())];
    let mut m = format!(
        "From: <{from}>\r\nTo: <{PLAYER}>\r\nDate: {}\r\nMessage-ID: <ord.{n}@example.org>\r\n\
         Subject: {}\r\nMIME-Version: 1.0\r\n",
        at.format("%a, %d %b %Y %H:%M:%S +0000"),
        words(rng, 30).trim_end(),
    );
    let kind = rng.below(100);
    if kind < 65 {
        let size = 500 + rng.below(3500);
        let _ = write!(
            m,
            "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
            words(rng, size)
        );
    } else if kind < 93 {
        let size = 3000 + rng.below(17000);
        let text = words(rng, size);
        let _ = write!(
            m,
            "Content-Type: multipart/alternative; boundary=\"b{n}\"\r\n\r\n--b{n}\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
             {text}--b{n}\r\nContent-Type: text/html; charset=utf-8\r\n\
             Content-Transfer-Encoding: 8bit\r\n\r\n<html><body><p>{}</p></body></html>\r\n--b{n}--\r\n",
            text.replace("\r\n", "</p>\r\n<p>")
        );
    } else {
        let size = 20_000 + rng.below(280_000);
        let _ = write!(
            m,
            "Content-Type: multipart/mixed; boundary=\"b{n}\"\r\n\r\n--b{n}\r\n\
             Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
             {}--b{n}\r\nContent-Type: application/pdf; name=\"doc{n}.pdf\"\r\n\
             Content-Disposition: attachment; filename=\"doc{n}.pdf\"\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n{}--b{n}--\r\n",
            words(rng, 400),
            base64(rng, size)
        );
    }
    m.into_bytes()
}

/// A mailbox of `total` messages in `dir`: every tenth a move message. The ordinary mail is
/// the same whoever the games are against.
fn mailbox(dir: &Path, total: usize, games: Games) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = Lcg(total as u64);
    let start = day("2026-02-02").and_hms_opt(0, 0, 0).unwrap();
    let step = Duration::seconds(20 * 86_400 / total as i64);
    let mut index = String::new();
    let mut moves = 0;
    for n in 0..total {
        let at = start + step * n as i32;
        let (envelope, message) = if n % 10 == 9 {
            let (game, repeat) = (moves % games.count(), moves / games.count());
            moves += 1;
            (games.opponent(game), move_message(games, game, repeat, at))
        } else {
            (format!("bounce+{n}@example.org"), ordinary(&mut rng, n, at))
        };
        let mut raw = delivery_trace(&mut rng, at, &envelope).into_bytes();
        raw.extend(message);
        let name = format!("{n:05}.eml");
        std::fs::write(dir.join(&name), raw).unwrap();
        let _ = writeln!(index, "{name}\t{}", at.format("%d-%b-%Y %H:%M:%S +0000"));
    }
    std::fs::write(dir.join("index.tsv"), index).unwrap();
}

fn main() {
    let out = std::env::var_os("CCMAIL_BENCH_OUT").expect("CCMAIL_BENCH_OUT=DIR");
    let out = Path::new(&out);
    std::fs::create_dir_all(out).unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(fill_store(&out.join("store.db"), Games::Cup));
    runtime.block_on(fill_store(&out.join("store-match.db"), Games::Match));
    let sizes = std::env::var("CCMAIL_BENCH_MESSAGES").unwrap_or_else(|_| "1000,5000".into());
    for total in sizes
        .split(',')
        .filter_map(|s| s.trim().parse::<usize>().ok())
    {
        mailbox(&out.join(format!("mail-{total}")), total, Games::Cup);
    }
    // The match: as large as the largest mailbox.
    let largest = sizes
        .split(',')
        .filter_map(|s| s.trim().parse::<usize>().ok())
        .max()
        .unwrap_or(5000);
    mailbox(&out.join(format!("match-{largest}")), largest, Games::Match);
    let live = out.join("live");
    let _ = std::fs::remove_dir_all(&live);
    std::fs::create_dir_all(&live).unwrap();
    let at = day("2026-03-02").and_hms_opt(9, 0, 0).unwrap();
    for game in 0..GAMES {
        std::fs::write(
            live.join(format!("{game:03}.eml")),
            move_message(Games::Cup, game, 0, at),
        )
        .unwrap();
    }
    println!("wrote the player's store and the mail to {}", out.display());
}
