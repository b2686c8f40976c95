//! One module per subcommand, and the context they share.

mod address;
mod adjudicate;
mod apply;
mod breaks;
mod check;
mod claim;
mod completions;
mod export;
mod folders;
mod game_delete;
mod game_new;
mod game_set;
mod games;
mod import;
mod inbox;
mod init;
mod logging;
mod moves;
mod oauth2;
mod outbox;
mod parse;
mod plan;
mod reply;
mod run;
mod service;
mod show;

use std::path::PathBuf;

use anyhow::Context;
use ccmail::app::{Clock, Me};
use ccmail::config::{self, Config};
use ccmail::term::shown_lines;
use ccmail_store::Store;

use crate::cli::{Cli, Command, GameCommand};

/// A failure the command has reported in its own output (`check --json`): `main` exits 1 and
/// prints nothing more.
#[derive(Debug)]
pub struct Reported(pub String);

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Reported {}

/// What a command that works on the store needs.
pub struct Ctx {
    pub cfg: Config,
    pub store: Store,
    pub clock: Clock,
    pub me: Me,
    pub json: bool,
}

impl Ctx {
    async fn open(cli: &Cli) -> anyhow::Result<Ctx> {
        let path = config_path(cli);
        let cfg = config::load(&path)?;
        let tz = cfg.player.tz()?;
        let clock = Clock::new(cli.now.as_deref(), tz)?;
        let store = Store::open(&cfg.store.db).await?;
        let me = Me {
            name: cfg.player.name.clone(),
            surname: cfg.player.surname.clone(),
            email: cfg.player.email.trim().to_lowercase(),
            authserv_id: cfg.security.authserv_id.clone(),
        };
        Ok(Ctx {
            cfg,
            store,
            clock,
            me,
            json: cli.json,
        })
    }
}

/// Shows `preview` (as [`shown_lines`] makes it: it may quote mail) and asks; `true` to go
/// ahead. Without a terminal (or with `--yes`) it does not ask.
pub fn confirm(preview: &str, yes: bool, question: &str) -> anyhow::Result<bool> {
    use std::io::{BufRead, IsTerminal, Write};
    if yes || !std::io::stdin().is_terminal() {
        return Ok(true);
    }
    print!(
        "{}\n{question} {} ",
        shown_lines(preview),
        ccmail::t!("cmd-confirm-hint")
    );
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes" | "да" | "д"))
}

/// Before a message is sent: with `--dry-run` shows `preview` and goes no further; else asks
/// ([`confirm`]), and says so when the answer is no. `true` to go ahead.
pub fn go_ahead(preview: &str, dry_run: bool, yes: bool, question: &str) -> anyhow::Result<bool> {
    if dry_run {
        print!("{}", shown_lines(preview));
        return Ok(false);
    }
    if !confirm(preview, yes, question)? {
        println!("{}", ccmail::t!("cmd-not-sent"));
        return Ok(false);
    }
    Ok(true)
}

/// A core error in the interface's words.
pub fn words(e: &(dyn std::error::Error + 'static)) -> String {
    ccmail::app::errors::in_words(e).unwrap_or_else(|| e.to_string())
}

/// An address argument: one `@`, no blanks; `flag` names it in the error.
pub fn email_arg(flag: &str, email: &str) -> anyhow::Result<()> {
    if !email.contains('@') || email.contains(char::is_whitespace) {
        anyhow::bail!(
            "{}",
            ccmail::t!(
                "cmd-flag-not-email",
                flag = flag,
                email = format!("{email:?}")
            )
        );
    }
    Ok(())
}

/// A date argument: `YYYY-MM-DD` or `DD.MM.YYYY`; `flag` names it in the error.
pub fn date_arg(flag: &str, text: &str) -> anyhow::Result<chrono::NaiveDate> {
    ccmail_core::wording::parse_date(text).map_err(|e| anyhow::anyhow!("{flag} {}", words(&e)))
}

/// Writes to standard output through one buffer: a long listing goes out in a few writes, not
/// one per line. When the reader has gone away (`ccmail games | head`) it stops quietly, exit
/// 0, as `println!` does in this program.
pub fn write_out(
    f: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match f(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        result => Ok(result.with_context(|| ccmail::t!("cmd-writing-stdout"))?),
    }
}

/// The bytes of `file`, or of standard input for `-`; `what` names them in an error.
pub fn read_input(file: &std::path::Path, what: &str) -> anyhow::Result<Vec<u8>> {
    use std::io::Read;
    let mut raw = Vec::new();
    if file == std::path::Path::new("-") {
        std::io::stdin()
            .read_to_end(&mut raw)
            .with_context(|| ccmail::t!("cmd-read-stdin-failed", what = what))?;
    } else {
        raw = std::fs::read(file).with_context(|| {
            ccmail::t!(
                "cmd-open-failed",
                what = what,
                path = file.display().to_string()
            )
        })?;
    }
    Ok(raw)
}

pub fn config_path_of(ctx: &Ctx) -> &std::path::Path {
    &ctx.cfg.path
}

pub fn config_path(cli: &Cli) -> PathBuf {
    cli.config.clone().unwrap_or_else(config::default_path)
}

pub fn run(cli: Cli) -> anyhow::Result<()> {
    logging::init(matches!(cli.command, Command::Run { .. }));
    if let Command::Run { .. } = cli.command {
        run::no_dumps();
    }
    // The commands that need no config and no database.
    match &cli.command {
        Command::Parse { file } => return parse::run(file, cli.json),
        Command::Completions { shell } => return completions::completions(*shell),
        Command::Manpage => return completions::manpage(),
        Command::Service(action) => return service::run(*action, cli.config.as_deref()),
        _ => {}
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .with_context(|| ccmail::t!("cmd-runtime-failed"))?;
    runtime.block_on(run_async(cli))
}

async fn run_async(cli: Cli) -> anyhow::Result<()> {
    if let Command::Init = cli.command {
        return init::run(&cli).await;
    }
    if let Command::Check = cli.command {
        return check::run(&cli).await;
    }
    if let Command::Oauth2(cmd) = &cli.command {
        return oauth2::run(&cli, cmd).await;
    }
    if let Command::Folders = cli.command {
        return folders::run(&cli).await;
    }
    let ctx = Ctx::open(&cli).await?;
    // Commands that only look queue nothing: no need to tell a running daemon.
    let looks_only = matches!(
        cli.command,
        Command::Games { .. }
            | Command::Outbox { .. }
            | Command::Show { .. }
            | Command::Export { .. }
            | Command::Run { .. }
    );
    let result = match cli.command {
        Command::Game(GameCommand::New(args)) => game_new::run(&ctx, *args).await,
        Command::Game(GameCommand::Import(args)) => import::run(&ctx, *args).await,
        Command::Game(GameCommand::Decision {
            game,
            result,
            resume,
        }) => game_new::decision(&ctx, &game, result.as_deref(), resume).await,
        Command::Game(GameCommand::Set(args)) => game_set::run(&ctx, *args).await,
        Command::Game(GameCommand::Delete { game, yes }) => {
            game_delete::delete(&ctx, &game, yes).await
        }
        Command::Game(GameCommand::Archive { game }) => game_delete::archive(&ctx, &game).await,
        Command::Games { all } => games::run(&ctx, all).await,
        Command::Outbox { all } => outbox::run(&ctx, all).await,
        Command::Show { game } => show::run(&ctx, &game).await,
        Command::Move(args) => moves::run_move(&ctx, args).await,
        Command::Plan { game, line, .. } => plan::run(&ctx, &game, line.as_deref()).await,
        Command::Resign { game, dry_run, yes } => {
            moves::run_resign(&ctx, &game, dry_run, yes).await
        }
        Command::Reply => reply::run(&ctx).await,
        Command::Apply { file, received } => apply::run(&ctx, &file, received.as_deref()).await,
        Command::Inbox { action } => inbox::run(&ctx, action).await,
        Command::Export {
            game,
            mbox,
            all,
            active,
            output,
            ..
        } => match game {
            Some(game) if !all => export::run(&ctx, &game, mbox, output).await,
            _ => export::all(&ctx, active, output).await,
        },
        Command::Break(cmd) => breaks::run(&ctx, cmd).await,
        Command::Claim { game, dry_run, yes } => claim::run(&ctx, &game, dry_run, yes).await,
        Command::Adjudicate(args) => adjudicate::run(&ctx, &args).await,
        Command::Address(crate::cli::AddressCommand::Change { new_email, dry_run }) => {
            address::run(&ctx, &new_email, dry_run).await
        }
        Command::Run { once } => run::run(&ctx, once, cli.now.clone()).await,
        Command::Init
        | Command::Parse { .. }
        | Command::Check
        | Command::Folders
        | Command::Completions { .. }
        | Command::Manpage
        | Command::Service(_)
        | Command::Oauth2(_) => unreachable!("handled above"),
    };
    // Whatever a command queued, a running daemon looks at it now (it doesn't poll).
    if result.is_ok()
        && !looks_only
        && let Some(db) = ctx.store.path()
    {
        ccmail::app::daemon::nudge::nudge(db);
    }
    ctx.store.close().await;
    result
}
