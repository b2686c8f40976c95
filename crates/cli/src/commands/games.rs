//! `ccmail games [--all]`: the games, most urgent first.

use std::collections::HashMap;
use std::io::Write;

use ccmail::app::game::Game;
use ccmail::app::pgn::ending_words;
use ccmail::app::{in_two_halves, map_in_two_halves};
use ccmail::i18n;
use ccmail::term::shown;
use ccmail_core::clock::{self, ClockReport, Deadline, DeadlineKind};
use ccmail_store::{self as store, OutboxRow};
use chrono::NaiveDate;

use super::Ctx;
use super::show::{deadline_words, draw_words, problems, trouble_mail};

/// A game in the listing: its clock, its next open deadline and our days left.
type Row = (Game, ClockReport, Option<(NaiveDate, DeadlineKind)>, i64);

pub async fn run(ctx: &Ctx, all: bool) -> anyhow::Result<()> {
    let today = ctx.clock.today();
    let mut rows = load_rows(ctx, all, today).await?;
    sort_most_urgent(&mut rows);
    let held = count_held(ctx).await?;
    if ctx.json {
        return write_json(ctx, rows, &held).await;
    }
    // Failed for good, or waiting for another try after a failed one (a letter not tried yet
    // is in `ccmail outbox`).
    let failed: Vec<_> = store::unsent(&mut *ctx.store.conn().await?)
        .await?
        .into_iter()
        .filter(|o| o.state() != store::LetterState::Queued)
        .collect();
    let endings = endings_of(ctx, &rows).await?;
    let listing = Listing {
        today,
        held: &held,
        failed: &failed,
        endings: &endings,
        words: Words::new(),
    };
    super::write_out(|w| {
        if rows.is_empty() {
            writeln!(w, "{}", ccmail::t!("games-none"))?;
        }
        for row in &rows {
            write_game(w, row, &listing)?;
        }
        Ok(())
    })
}

/// Loads the games with their clocks and next open deadlines.
async fn load_rows(ctx: &Ctx, all: bool, today: NaiveDate) -> anyhow::Result<Vec<Row>> {
    let mut conn = ctx.store.conn().await?;
    let games = if ctx.json {
        Game::load_all(&mut conn, all).await?
    } else {
        // The listing needs the clock, not the positions.
        Game::load_all_dates(&mut conn, all).await?
    };
    drop(conn);
    // Each game's clock, a thousand games split over two threads (they take a few ms).
    let reports = |part: Vec<Game>| -> anyhow::Result<Vec<_>> {
        part.into_iter()
            .map(|g| {
                let report = g.report(today)?;
                let next = report.deadlines.first().map(|d| (d.date, d.kind));
                let left = report.clock.get(g.me).left;
                Ok((g, report, next, left))
            })
            .collect()
    };
    let mut rows = map_in_two_halves(games, reports)?;
    // The next deadline still open: a repeat already sent is met (only a game with a repeat
    // due by today can have sent one).
    // The repeats sent in every game, from one query rather than one a game.
    let mut sent: HashMap<String, Vec<NaiveDate>> = HashMap::new();
    for (game, date) in
        store::sent_dates_of_kind(&mut *ctx.store.conn().await?, store::StoredKind::REPEAT).await?
    {
        if let Some(day) = date.get(..10).and_then(|d| d.parse().ok()) {
            sent.entry(game).or_default().push(day);
        }
    }
    for (g, report, next, _) in &mut rows {
        let repeat_due = |d: &Deadline| d.kind == DeadlineKind::Repeat && d.date <= today;
        if report.deadlines.iter().any(repeat_due) {
            let sent = sent.get(g.id()).map_or(&[][..], Vec::as_slice);
            *next = clock::open_deadlines(&report.deadlines, sent)
                .first()
                .map(|d| (d.date, d.kind));
        }
    }
    Ok(rows)
}

/// Sorts the games most urgent first: our move before theirs, then the nearest deadline, then
/// our days left.
fn sort_most_urgent(rows: &mut [Row]) {
    rows.sort_by(|(a, _, a_next, a_left), (b, _, b_next, b_left)| {
        let key = |g: &Game, next: &Option<(NaiveDate, _)>, left| {
            (!g.my_turn(), next.map_or(NaiveDate::MAX, |n| n.0), left)
        };
        key(a, a_next, *a_left)
            .cmp(&key(b, b_next, *b_left))
            .then_with(|| a.id().cmp(b.id()))
    });
}

/// Counts each game's held messages: the listing points at them until they are settled.
async fn count_held(ctx: &Ctx) -> anyhow::Result<HashMap<String, usize>> {
    Ok(store::held(&mut *ctx.store.conn().await?)
        .await?
        .into_iter()
        .filter_map(|m| m.game_id)
        .fold(Default::default(), |mut count, id| {
            *count.entry(id).or_default() += 1;
            count
        }))
}

/// Writes the games as JSON, with the problems of those that may have some.
async fn write_json(
    ctx: &Ctx,
    rows: Vec<Row>,
    held: &HashMap<String, usize>,
) -> anyhow::Result<()> {
    // The held and unsent mail of every game from two queries, and each clock as computed.
    let trouble = trouble_mail(&mut *ctx.store.conn().await?).await?;
    let found: Vec<_> = rows
        .iter()
        .map(|(g, report, ..)| {
            if g.row.correction_due.is_some()
                || g.row.status != store::GameStatus::Active
                || held.contains_key(g.id())
                || trouble.contains_key(g.id())
                || g.last_sent_unknown()
            {
                problems(g, report, trouble.get(g.id()))
            } else {
                Vec::new()
            }
        })
        .collect();
    let games: Vec<_> = rows.iter().zip(&found).collect();
    let text = json_array(games, |((g, report, ..), problems)| {
        g.json_with(report, problems)
    })?;
    // The process ends after this: freeing every game and move one by one would cost
    // more than a tenth of the command (60,000 moves).
    std::mem::forget(rows);
    super::write_out(|w| text.write_to(w))
}

/// How each finished game ended, in words, where its deadline would be.
async fn endings_of(ctx: &Ctx, rows: &[Row]) -> anyhow::Result<HashMap<String, String>> {
    let mut endings = HashMap::new();
    let mut conn = ctx.store.conn().await?;
    for (g, report, ..) in rows.iter().filter(|(g, ..)| g.row.result.is_some()) {
        if let Some(words) = ending_words(&mut conn, g, report).await? {
            endings.insert(g.id().to_owned(), words);
        }
    }
    drop(conn);
    Ok(endings)
}

/// What the listing says of the games besides their rows.
struct Listing<'a> {
    today: NaiveDate,
    /// How many held messages each game has.
    held: &'a HashMap<String, usize>,
    /// The messages that could not be sent, or wait to go after a failed try.
    failed: &'a [OutboxRow],
    /// How each finished game ended.
    endings: &'a HashMap<String, String>,
    /// The words of every row, in the interface language.
    words: Words,
}

/// The words a row of the listing repeats, looked up once for all the games.
struct Words {
    white: String,
    black: String,
    /// The width of the colour column: the longer of `white` and `black`.
    color_width: usize,
    your_move: String,
    their_move: String,
    suspended: String,
    /// `move`, `left`, `W` and `B` of `move 12  …  left W 20 B 18`.
    move_: String,
    left: String,
    white_initial: String,
    black_initial: String,
}

impl Words {
    fn new() -> Words {
        let white = ccmail::t!("games-white");
        let black = ccmail::t!("games-black");
        let color_width = white.chars().count().max(black.chars().count());
        Words {
            white,
            black,
            color_width,
            your_move: ccmail::t!("games-your-move"),
            their_move: ccmail::t!("games-their-move"),
            suspended: ccmail::t!("games-suspended"),
            move_: ccmail::t!("games-move"),
            left: ccmail::t!("games-left"),
            white_initial: ccmail::t!("games-white-initial"),
            black_initial: ccmail::t!("games-black-initial"),
        }
    }
}

/// Writes a game's line, and under it its draw offer, held messages, silence and mail not
/// sent.
fn write_game(w: &mut dyn Write, row: &Row, listing: &Listing<'_>) -> std::io::Result<()> {
    let (g, report, next, _) = row;
    let r = &g.row;
    let words = &listing.words;
    let turn = match (&r.result, g.my_turn()) {
        (Some(res), _) => ccmail::t!("games-finished", result = res),
        (None, _) if r.status == store::GameStatus::Suspended => words.suspended.clone(),
        (None, true) => words.your_move.clone(),
        (None, false) => words.their_move.clone(),
    };
    let wc = &report.clock.white;
    let b = &report.clock.black;
    let deadline = next
        .map(|(date, kind)| {
            let kind = serde_json::to_value(kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            format!(
                "{} {}",
                i18n::date(date),
                deadline_words(&kind, g.arbiter().is_some())
            )
        })
        .or_else(|| listing.endings.get(g.id()).cloned())
        .unwrap_or_default();
    let color = if g.me.is_white() {
        &words.white
    } else {
        &words.black
    };
    // Each side's days left before its next control, the running move counted.
    writeln!(
        w,
        "{:<8} {:<24.24} {:<26.26} {:<cw$} {} {:>3}  {:<10}  {} {} {:>2} {} {:>2}  {}",
        r.id,
        shown(&r.event),
        shown(&r.opponent_email),
        color,
        words.move_,
        g.moves.len() / 2 + 1,
        turn,
        words.left,
        words.white_initial,
        wc.left,
        words.black_initial,
        b.left,
        deadline,
        cw = words.color_width,
    )?;
    if let Some(draw) = draw_words(g).filter(|_| g.is_active()) {
        writeln!(w, "         {draw}")?;
    }
    if let Some(n) = listing.held.get(g.id()) {
        writeln!(w, "         {}", ccmail::t!("games-held", count = *n))?;
    }
    if g.last_sent_unknown() {
        let words = ccmail::t!("show-last-sent-unknown", id = g.id());
        writeln!(w, "         {words}")?;
    }
    write_silence(w, g, report, listing.today)?;
    for o in listing
        .failed
        .iter()
        .filter(|o| o.game_id.as_deref() == Some(g.id()))
    {
        writeln!(w, "         {}", not_sent_words(o))?;
    }
    Ok(())
}

/// A letter of the game that failed for good, or waits to go after a failed try, in words.
fn not_sent_words(o: &OutboxRow) -> String {
    let subject = shown(o.subject.as_deref().unwrap_or("—"));
    let error = shown(o.last_error.as_deref().unwrap_or("—"));
    match o.state() {
        store::LetterState::Retrying => ccmail::t!(
            "games-waiting",
            subject = &*subject,
            count = o.attempts,
            error = &*error,
            next = super::show::minute_of(&o.next_attempt_at),
        ),
        _ => ccmail::t!("games-not-sent", subject = &*subject, error = &*error),
    }
}

/// 51.5.3: from day 30 without a move, says so (docs/rules.md: `games` warns from day 30).
fn write_silence(
    w: &mut dyn Write,
    g: &Game,
    report: &ClockReport,
    today: NaiveDate,
) -> std::io::Result<()> {
    if let Some(silence) = report
        .deadlines
        .iter()
        .find(|d| d.kind == DeadlineKind::Silence40)
    {
        let quiet = 40 - (silence.date - today).num_days();
        if quiet >= 30 && g.arbiter().is_none() {
            writeln!(
                w,
                "         {}",
                ccmail::t!("games-silence-friendly", count = quiet, date = silence.date)
            )?;
        } else if quiet >= 30 {
            writeln!(
                w,
                "         {}",
                ccmail::t!("games-silence", count = quiet, date = silence.date)
            )?;
        }
    }
    Ok(())
}

/// `items` as one JSON array of `json(item)`, and a newline. Each half is written on a thread
/// of its own (a thousand games are 6 MB of JSON, a third of `games --json`), into a `Vec`:
/// serde_json writes token by token, and a `Vec` takes those faster than a `BufWriter`.
fn json_array<T: Send, J: serde::Serialize>(
    items: Vec<T>,
    json: impl Fn(&T) -> J + Sync,
) -> serde_json::Result<JsonArray> {
    let write = |part: Vec<T>| -> serde_json::Result<Vec<u8>> {
        let mut text = Vec::with_capacity(part.len() * 1024);
        for (i, item) in part.iter().enumerate() {
            if i > 0 {
                text.push(b',');
            }
            serde_json::to_writer(&mut text, &json(item))?;
        }
        Ok(text)
    };
    let (first, second) = in_two_halves(items, write);
    Ok(JsonArray {
        first: first?,
        second: second?,
    })
}

/// A JSON array written in two halves, each its items joined by commas.
struct JsonArray {
    first: Vec<u8>,
    second: Vec<u8>,
}

impl JsonArray {
    /// The array and a newline. (The halves are written as they are, not joined first: that
    /// would copy 6 MB into fresh memory.)
    fn write_to(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        w.write_all(b"[")?;
        w.write_all(&self.first)?;
        if !self.first.is_empty() && !self.second.is_empty() {
            w.write_all(b",")?;
        }
        w.write_all(&self.second)?;
        w.write_all(b"]\n")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_json_array_is_serde_jsons_whatever_the_split() {
        for n in 0..6 {
            let items: Vec<serde_json::Value> = (0..n)
                .map(|i| serde_json::json!({"id": format!("g{i}"), "moves": [i, "é\"\n"]}))
                .collect();
            let mut want = serde_json::to_vec(&items).unwrap();
            want.push(b'\n');
            assert_eq!(
                String::from_utf8({
                    let mut text = Vec::new();
                    super::json_array(items.clone(), serde_json::Value::clone)
                        .unwrap()
                        .write_to(&mut text)
                        .unwrap();
                    text
                })
                .unwrap(),
                String::from_utf8(want).unwrap(),
                "{n} items"
            );
        }
    }
}
