//! `ccmail export GAME [--pgn|--mbox] [-o FILE]`: the game as PGN with dates, or all its mail
//! as an mbox (51.1.3–4: the arbiter may ask for the correspondence).
//! `ccmail export --all [--active] [-o FILE]`: every game (or those not finished) as PGN in
//! one file, for a chess program's database.
//!
//! The mbox is the stored messages byte for byte (mboxrd: only `>*From ` lines get one more
//! `>`): evidence is not re-encoded (on a terminal it is shown as the other commands show
//! mail). The PGN's control and bidi characters are escaped as every command shows them. A file written with `-o` is created private (0600): it
//! holds the player's mail.
//!
//! With `--json`, each game is `{"id", "format", "output", "text"}`: `format` `pgn` or `mbox`;
//! the text itself (an mbox's bytes read as UTF-8, any other byte replaced), or `null` and the
//! file in `output` with `-o`. One object for a game, an array for `--all`.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use ccmail::app::game::Game;
use ccmail::app::pgn::pgn;
use ccmail::term::shown_lines;
use ccmail_mail::mbox;
use ccmail_store as store;

use super::Ctx;

pub async fn run(ctx: &Ctx, id: &str, mbox: bool, output: Option<PathBuf>) -> anyhow::Result<()> {
    let mut conn = ctx.store.conn().await?;
    let game = Game::load(&mut conn, id)
        .await?
        .with_context(|| ccmail::t!("export-no-game", id = id))?;
    let bytes = if mbox {
        let mut out = Vec::new();
        for m in store::game_messages(&mut conn, id).await? {
            let raw = store::raw(&mut conn, m.id).await?.unwrap_or_default();
            mbox_entry(
                &mut out,
                m.from_addr.as_deref(),
                m.date_header.as_deref(),
                &raw,
            );
        }
        // Evidence goes to a file or a pipe byte for byte; a terminal is sent nothing it
        // would act on.
        if output.is_none() && !ctx.json && std::io::stdout().is_terminal() {
            out = shown_lines(&String::from_utf8_lossy(&out))
                .into_owned()
                .into_bytes();
        }
        out
    } else {
        let text = pgn(&mut conn, &game, ctx.clock.today(), &ctx.me.email)
            .await
            .with_context(|| ccmail::t!("export-no-pgn", id = id))?;
        safe_pgn(text, ctx.json).into_bytes()
    };
    if ctx.json {
        let format = if mbox { "mbox" } else { "pgn" };
        let one = json(id, format, output.as_deref(), &bytes);
        if output.is_some() {
            write_out(output, &bytes)?;
        }
        println!("{one}");
        return Ok(());
    }
    write_out(output, &bytes)
}

/// One exported game as `--json` prints it.
fn json(id: &str, format: &str, output: Option<&Path>, bytes: &[u8]) -> serde_json::Value {
    let text = output.is_none().then(|| String::from_utf8_lossy(bytes));
    serde_json::json!({
        "id": id,
        "format": format,
        "output": output.map(|p| p.display().to_string()),
        "text": text,
    })
}

/// Every game (with `active`, those not finished) as PGN, in the order `games --all` lists
/// them; each game ends with a blank line.
pub async fn all(ctx: &Ctx, active: bool, output: Option<PathBuf>) -> anyhow::Result<()> {
    let mut conn = ctx.store.conn().await?;
    let games = Game::load_all(&mut conn, !active).await?;
    let mut text = String::new();
    let mut each = Vec::new();
    for game in &games {
        let one = pgn(&mut conn, game, ctx.clock.today(), &ctx.me.email)
            .await
            .with_context(|| ccmail::t!("export-no-pgn", id = game.id()))?;
        let one = safe_pgn(one, ctx.json);
        if ctx.json {
            each.push(json(game.id(), "pgn", output.as_deref(), one.as_bytes()));
        }
        text.push_str(&one);
    }
    if ctx.json {
        if output.is_some() {
            write_out(output, text.as_bytes())?;
        }
        println!("{}", serde_json::Value::Array(each));
        return Ok(());
    }
    write_out(output, text.as_bytes())
}

/// The PGN as written, its names and comments (which may quote the partner's letters) with
/// every control and bidi character in the visible form the other commands show
/// ([`shown_lines`]): a `U+202E` in a name must not turn a chess program's or a terminal's
/// line around. `--json` keeps the exact text, as every command's JSON does.
fn safe_pgn(text: String, json: bool) -> String {
    if json {
        return text;
    }
    match shown_lines(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(safe) => safe,
    }
}

/// Writes to `output` (created 0600 when it is new; an existing file keeps its mode, and may
/// be a pipe) or standard output.
fn write_out(output: Option<PathBuf>, bytes: &[u8]) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    match output {
        Some(path) => std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&path)
            .and_then(|mut file| file.write_all(bytes))
            .with_context(|| {
                let path = path.display().to_string();
                ccmail::t!("export-cannot-write", path = path)
            }),
        None => Ok(std::io::stdout().lock().write_all(bytes)?),
    }
}

/// One mboxrd entry: the `From ` line (the sender, the Date: in the sender's own time, as
/// mail clients write it), then the stored message.
fn mbox_entry(out: &mut Vec<u8>, from: Option<&str>, date: Option<&str>, raw: &[u8]) {
    let when = date
        .and_then(|d| chrono::DateTime::parse_from_rfc3339(d).ok())
        .map(|d| d.naive_local())
        .unwrap_or_default();
    mbox::write_entry(out, from.unwrap_or("MAILER-DAEMON"), when, raw);
}
