//! `ccmail reply`: the terminal prompt. A player sits down once a day with a dozen games; this
//! walks them through the games where they are to move, most urgent first (fewest days left
//! before the next control, then the nearest deadline), after announcing held messages.
//!
//! For each game: the screen ([`screen`]: board from the player's side, last moves with
//! dates, both clocks, deadlines, what the partner said beyond the move — [`news`]), then a
//! line ([`ccmail::app::prompt::input`]: a move in any notation with its variation, draw
//! offer, note; `accept`, `resign`, `skip`, `quit`, `help`, …). A move is checked against
//! the position at once; a wrong one is explained with what was probably meant. Then the
//! exact message (To, Cc, Subject, body) and confirm, edit or cancel.
//!
//! A confirmed message goes through `moves::queue_and_send`, the same step as `ccmail move`:
//! into the outbox in one transaction, refused if the game changed since the preview, and
//! sent at once when `[smtp]` is configured — whether or not the daemon runs (the item is
//! marked sent, so the daemon never sends it twice); without `[smtp]` it stays queued.
//!
//! It needs a terminal on standard input and output, and refuses clearly without one.

mod helper;
mod news;
mod screen;

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::{Context, bail};
use ccmail::app::compose::{self, Request};
use ccmail::app::game::Game;
use ccmail::app::prompt::{self, Input, input::unparse};
use ccmail::term::shown_lines;
use ccmail_store as store;
use chrono::NaiveDate;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Config, Editor};
use shakmaty::Position;

use super::Ctx;
use super::moves::queue_and_send;
use super::show::deadline_words;
use helper::MoveHelper;
use screen::{Style, View, WIDTH, move_number, wrap};

type Ed = Editor<MoveHelper, DefaultHistory>;

pub async fn run(ctx: &Ctx) -> anyhow::Result<()> {
    refuse_without_terminal()?;
    if ctx.json {
        bail!("{}", ccmail::t!("prompt-no-json"));
    }
    let style = Style::detect();
    let (queue, waiting) = queue(ctx).await?;
    announce_held(ctx, style).await?;
    let today = ctx.clock.today();
    // The games waiting for the partner, after the count of ours: `; 2 more await replies`.
    let others = match (queue.is_empty(), waiting) {
        (_, 0) => String::new(),
        (true, n) => ccmail::t!("prompt-others-waiting", count = n),
        (false, n) => ccmail::t!("prompt-others-more", count = n),
    };
    match queue.len() {
        0 => {
            println!(
                "{}",
                ccmail::t!("prompt-nothing-to-answer", today = today, others = others)
            );
            return Ok(());
        }
        n => println!(
            "{}",
            ccmail::t!(
                "prompt-games-to-answer",
                today = today,
                count = n,
                others = others
            )
        ),
    }
    println!("{}", ccmail::t!("prompt-type-your-move"));
    let mut ed = editor(style)?;
    let history = history_file(ctx);
    if let Some(path) = &history {
        let _ = ed.load_history(path);
    }
    let mut tally = Tally::default();
    for (i, id) in queue.iter().enumerate() {
        let turn = Turn {
            ctx,
            style,
            index: i + 1,
            total: queue.len(),
            id,
        };
        match turn.play(&mut ed).await? {
            Done::Sent => tally.sent += 1,
            Done::Skipped => tally.skipped += 1,
            Done::Gone => {}
            Done::Quit => {
                tally.left = queue.len() - i;
                break;
            }
        }
    }
    if let Some(path) = &history {
        let _ = ed.save_history(path);
    }
    println!("{}", tally.words());
    Ok(())
}

/// Refuses to draw without a terminal on standard input and output.
fn refuse_without_terminal() -> anyhow::Result<()> {
    let why = match (
        std::io::stdin().is_terminal(),
        std::io::stdout().is_terminal(),
    ) {
        (true, true) => return Ok(()),
        (false, true) => ccmail::t!("prompt-no-terminal-stdin"),
        (true, false) => ccmail::t!("prompt-no-terminal-stdout"),
        (false, false) => ccmail::t!("prompt-no-terminal-either"),
    };
    bail!("{why}")
}

/// The games where the player is to move, most urgent first, and how many others wait.
async fn queue(ctx: &Ctx) -> anyhow::Result<(Vec<String>, usize)> {
    let today = ctx.clock.today();
    let games = Game::load_all(&mut *ctx.store.conn().await?, false).await?;
    let mut mine = Vec::new();
    let mut waiting = 0;
    for g in games {
        if !g.my_turn() {
            waiting += usize::from(g.is_active());
            continue;
        }
        let report = g.report(today)?;
        let left = report.clock.get(g.me).left;
        let next = report.deadlines.first().map_or(NaiveDate::MAX, |d| d.date);
        mine.push((left, next, g.id().to_owned()));
    }
    mine.sort();
    Ok((mine.into_iter().map(|(.., id)| id).collect(), waiting))
}

/// Held messages first: they are not applied to any game until the player looks at them.
async fn announce_held(ctx: &Ctx, style: Style) -> anyhow::Result<()> {
    let held = store::held(&mut *ctx.store.conn().await?).await?;
    if held.is_empty() {
        return Ok(());
    }
    let head = ccmail::t!("prompt-held-head", count = held.len());
    println!("{}", style.yellow(&head));
    for m in held.iter().take(5) {
        let line = format!(
            "  {:>4}  {}: {}",
            m.id,
            m.from_addr
                .clone()
                .unwrap_or_else(|| ccmail::t!("prompt-held-no-sender")),
            m.reason
                .clone()
                .unwrap_or_else(|| ccmail::t!("prompt-held-no-reason"))
        );
        println!("{}", screen::fit(&line, WIDTH));
    }
    if held.len() > 5 {
        println!(
            "  {}",
            ccmail::t!("prompt-held-more", count = held.len() - 5)
        );
    }
    println!();
    Ok(())
}

fn editor(style: Style) -> anyhow::Result<Ed> {
    let config = Config::builder()
        .auto_add_history(false)
        .history_ignore_dups(true)?
        .max_history_size(500)?
        .completion_type(CompletionType::List)
        .build();
    let mut ed: Ed = Editor::with_config(config).context(ccmail::t!("prompt-no-line-editing"))?;
    ed.set_helper(Some(MoveHelper {
        pos: None,
        colour: style.colour,
    }));
    Ok(ed)
}

/// The prompt's history, beside the database.
fn history_file(ctx: &Ctx) -> Option<PathBuf> {
    let dir = ctx.cfg.store.db.parent()?;
    Some(dir.join("reply-history.txt"))
}

#[derive(Debug, Default)]
struct Tally {
    sent: usize,
    skipped: usize,
    left: usize,
}

impl Tally {
    fn words(&self) -> String {
        match self.left {
            0 => ccmail::t!("prompt-done", sent = self.sent, skipped = self.skipped),
            n => ccmail::t!(
                "prompt-done-stopped",
                sent = self.sent,
                skipped = self.skipped,
                count = n
            ),
        }
    }
}

/// How one game's turn ended.
enum Done {
    Sent,
    Skipped,
    /// No longer the player's move (mail came in meanwhile).
    Gone,
    Quit,
}

/// What the confirmation question came to.
enum Answer {
    Sent,
    /// Back to the game's prompt; `true` when the screen should be drawn again.
    Back(bool),
}

/// One game's turn at the prompt.
struct Turn<'a> {
    ctx: &'a Ctx,
    style: Style,
    index: usize,
    total: usize,
    id: &'a str,
}

impl Turn<'_> {
    async fn load(&self) -> anyhow::Result<Option<Game>> {
        let game = Game::load(&mut *self.ctx.store.conn().await?, self.id).await?;
        Ok(game.filter(Game::my_turn))
    }

    async fn play(&self, ed: &mut Ed) -> anyhow::Result<Done> {
        'screen: loop {
            let Some(game) = self.load().await? else {
                println!(
                    "{}",
                    ccmail::t!("prompt-no-longer-your-move", game = self.id)
                );
                return Ok(Done::Gone);
            };
            self.draw(&game).await?;
            if let Some(h) = ed.helper_mut() {
                h.pos = Some(game.position());
            }
            let prompt = format!("{} {}> ", self.id, move_number(&game.position()));
            loop {
                let line = match ed.readline(&prompt) {
                    Ok(line) => line,
                    Err(ReadlineError::Interrupted | ReadlineError::Eof) => return Ok(Done::Quit),
                    Err(e) => return Err(e).with_context(|| ccmail::t!("prompt-reading-line")),
                };
                if !line.trim().is_empty() {
                    let _ = ed.add_history_entry(line.trim());
                }
                match prompt::parse(&line) {
                    Input::Nothing => {}
                    Input::Help => print!("{}", prompt::help()),
                    Input::Skip => return Ok(Done::Skipped),
                    Input::Quit => return Ok(Done::Quit),
                    Input::Board => continue 'screen,
                    Input::Moves => print!("{}", all_moves(&game)),
                    Input::Wrong(why) => self.error(&why),
                    Input::Send(req) => match self.confirm(ed, &game, req, &prompt).await? {
                        Answer::Sent => return Ok(Done::Sent),
                        Answer::Back(true) => continue 'screen,
                        Answer::Back(false) => {}
                    },
                }
            }
        }
    }

    async fn draw(&self, game: &Game) -> anyhow::Result<()> {
        let today = self.ctx.clock.today();
        let report = game.report(today)?;
        let deadlines = report
            .deadlines
            .iter()
            .map(|d| {
                let kind = serde_json::to_value(d.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                (
                    d.date,
                    deadline_words(&kind, game.arbiter().is_some()).to_string(),
                )
            })
            .collect();
        let view = View {
            game,
            report: &report,
            today,
            index: self.index,
            total: self.total,
            deadlines,
            news: news::news(self.ctx, game, &report).await?,
        };
        println!();
        print!("{}", screen::render(&view, self.style));
        Ok(())
    }

    fn error(&self, why: &str) {
        for line in wrap(why, WIDTH, "  ") {
            println!("{}", self.style.red(&line));
        }
    }

    /// Composes the message, shows it exactly, and asks: send, edit or cancel.
    async fn confirm(
        &self,
        ed: &mut Ed,
        game: &Game,
        mut req: Request,
        prompt: &str,
    ) -> anyhow::Result<Answer> {
        loop {
            let thread = store::thread_ids(&mut *self.ctx.store.conn().await?, self.id).await?;
            let draft = match compose::draft(game, &self.ctx.me, &self.ctx.clock, &req, &thread) {
                Ok(d) => d,
                Err(e) => {
                    self.error(&format!("{e:#}"));
                    return Ok(Answer::Back(false));
                }
            };
            println!();
            println!("{}", self.style.dim(&"─".repeat(WIDTH)));
            print!("{}", shown_lines(&draft.preview()));
            println!("{}", self.style.dim(&"─".repeat(WIDTH)));
            // The question ends in a blank, where the answer is typed.
            let question = format!(
                "{} ",
                if req.resign {
                    ccmail::t!("prompt-confirm-resign")
                } else {
                    ccmail::t!("prompt-confirm-send")
                }
            );
            let helper_pos = ed.helper_mut().and_then(|h| h.pos.take());
            let answer = loop {
                let answer = match ed.readline(&question) {
                    Ok(a) => a.trim().to_lowercase(),
                    Err(ReadlineError::Interrupted | ReadlineError::Eof) => "c".to_owned(),
                    Err(e) => return Err(e).with_context(|| ccmail::t!("prompt-reading-answer")),
                };
                let yes = if req.resign {
                    matches!(answer.as_str(), "yes" | "да")
                } else {
                    matches!(answer.as_str(), "y" | "yes" | "s" | "send" | "д" | "да")
                };
                match answer.as_str() {
                    _ if yes => break Some(true),
                    "e" | "edit" => break None,
                    "c" | "cancel" | "n" | "no" | "н" | "нет" => break Some(false),
                    _ if req.resign => println!("{}", ccmail::t!("prompt-confirm-resign-again")),
                    _ => println!("{}", ccmail::t!("prompt-confirm-send-again")),
                }
            };
            if let Some(h) = ed.helper_mut() {
                h.pos = helper_pos;
            }
            match answer {
                Some(true) => {
                    let Err(e) = queue_and_send(self.ctx, self.id, &req, Some(&draft)).await else {
                        return Ok(Answer::Sent);
                    };
                    self.error(&format!("{e:#}"));
                    // Sending can fail after the message was stored: then it is queued.
                    let mid = draft.mail.message_id.as_str();
                    let mut conn = self.ctx.store.conn().await?;
                    if store::find_by_message_id(&mut conn, store::Direction::Out, mid)
                        .await?
                        .is_some()
                    {
                        println!("{}", ccmail::t!("prompt-stored-for-later"));
                        return Ok(Answer::Sent);
                    }
                    return Ok(Answer::Back(true));
                }
                Some(false) => {
                    println!("{}", self.style.green(&ccmail::t!("prompt-cancelled")));
                    return Ok(Answer::Back(true));
                }
                None => match self.edit(ed, &req, prompt)? {
                    Some(next) => req = next,
                    None => return Ok(Answer::Back(false)),
                },
            }
        }
    }

    /// The line again, to change; `None` when it no longer asks for a message.
    fn edit(&self, ed: &mut Ed, req: &Request, prompt: &str) -> anyhow::Result<Option<Request>> {
        let mut text = unparse(req);
        loop {
            let line = match ed.readline_with_initial(prompt, (&text, "")) {
                Ok(line) => line,
                Err(ReadlineError::Interrupted | ReadlineError::Eof) => return Ok(None),
                Err(e) => return Err(e).with_context(|| ccmail::t!("prompt-reading-line")),
            };
            let _ = ed.add_history_entry(line.trim());
            match prompt::parse(&line) {
                Input::Send(next) => return Ok(Some(next)),
                Input::Wrong(why) => {
                    self.error(&why);
                    text = line;
                }
                _ => {
                    println!("{}", ccmail::t!("prompt-not-a-message"));
                    return Ok(None);
                }
            }
        }
    }
}

/// Every move of the game with its dates, one ply a line.
fn all_moves(game: &Game) -> String {
    let mut pos = shakmaty::Chess::default();
    let mut s = String::new();
    if game.plies.is_empty() {
        s.push_str(&format!("{}\n", ccmail::t!("prompt-no-moves")));
    }
    for (&m, row) in game.plies.iter().zip(&game.moves) {
        let text = screen::written(game, &pos, m);
        s.push_str(&format!(
            "{:>6} {:<18} {}\n",
            move_number(&pos),
            text,
            ccmail::t!(
                "prompt-move-dates",
                received = row.received,
                sent = row.sent
            )
        ));
        // legal: the game's plies, replayed by uci_move (checked) from the start
        pos.play_unchecked(m);
    }
    s
}
