//! The command line of docs/cli.md. The derive below gives its structure; its help texts are
//! in the interface language, from `crates/cli/i18n/*/help.ftl` ([`command`]).

use std::path::PathBuf;

use clap::{Arg, ArgAction, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// The command line as the user gave it, in the interface language's help; a mistake in it
/// ends the process with clap's message in the same language (exit status 2).
pub fn parse() -> Cli {
    let mut matches = for_parsing()
        .try_get_matches()
        .unwrap_or_else(|e| exit_with(&e));
    Cli::from_arg_matches_mut(&mut matches)
        .unwrap_or_else(|e| exit_with(&e.format(&mut for_parsing())))
}

/// [`command`] built, as clap builds it to parse, with its `help` subcommands in the
/// interface's words: clap adds them when it builds the command. (The man page and the
/// completions take the command unbuilt: built, every command would list the global
/// options again.)
fn for_parsing() -> clap::Command {
    let mut cmd = with_notes(command());
    cmd.build();
    with_help_subcommand(cmd)
}

/// `cmd` and its subcommands with the notes clap would add in English after an argument's
/// help (the variable it may come from, the values it takes) written in the interface's
/// words instead. On the help screen only: the man page and the completions keep clap's.
fn with_notes(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(arg_with_notes).mut_subcommands(with_notes)
}

/// [`with_notes`] for one argument.
fn arg_with_notes(arg: Arg) -> Arg {
    let mut help = arg.get_help().map(ToString::to_string).unwrap_or_default();
    let mut arg = arg;
    if let Some(name) = arg.get_env().map(|n| n.to_string_lossy().into_owned()) {
        help.push(' ');
        help.push_str(&ccmail::t!("help-note-env", name = name));
        arg = arg.hide_env(true);
    }
    let values: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_owned())
        .collect();
    // A flag's own values (true, false) are not shown.
    if arg.get_action().takes_values() && !values.is_empty() && !arg.is_hide_possible_values_set() {
        help.push(' ');
        help.push_str(&ccmail::t!("help-note-values", values = values.join(", ")));
        arg = arg.hide_possible_values(true);
    }
    arg.help(help)
}

/// Ends the process on `e`: a help or a version as clap prints it, a mistake in the
/// interface's words where [`mistake_words`] has them.
fn exit_with(e: &clap::Error) -> ! {
    if let Some(words) = mistake_words(e) {
        eprint!("{words}");
        std::process::exit(2);
    }
    e.exit()
}

/// A mistake on the command line in the interface's words, laid out as clap lays out its
/// own: the error, its possible values, a tip, the usage and where to read more. `None` for
/// a help, a version and the kinds of mistake clap says itself.
fn mistake_words(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind as K, ContextValue, ErrorKind};
    let one = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        _ => None,
    };
    let many = |kind| match e.get(kind) {
        Some(ContextValue::Strings(list)) => list.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    };
    let message = match e.kind() {
        ErrorKind::UnknownArgument => {
            ccmail::t!("clap-unexpected-argument", arg = one(K::InvalidArg)?)
        }
        ErrorKind::InvalidSubcommand => {
            ccmail::t!(
                "clap-unrecognized-subcommand",
                name = one(K::InvalidSubcommand)?
            )
        }
        ErrorKind::InvalidValue => {
            let (value, arg) = (one(K::InvalidValue)?, one(K::InvalidArg)?);
            let mut message = ccmail::t!("clap-invalid-value", value = value, arg = arg);
            let valid = many(K::ValidValue);
            if !valid.is_empty() {
                let values = ccmail::t!("clap-possible-values", values = valid.join(", "));
                message.push_str(&format!("\n  {values}"));
            }
            message
        }
        ErrorKind::ValueValidation => ccmail::t!(
            "clap-invalid-value-because",
            value = one(K::InvalidValue)?,
            arg = one(K::InvalidArg)?,
            why = std::error::Error::source(e)?.to_string()
        ),
        ErrorKind::MissingRequiredArgument => {
            let mut message = ccmail::t!("clap-missing-required");
            for arg in many(K::InvalidArg) {
                message.push_str(&format!("\n  {arg}"));
            }
            message
        }
        ErrorKind::MissingSubcommand => {
            ccmail::t!("clap-missing-subcommand", name = one(K::InvalidSubcommand)?)
        }
        ErrorKind::ArgumentConflict => {
            let (arg, prior) = (one(K::InvalidArg)?, many(K::PriorArg));
            if prior == [arg.clone()] {
                ccmail::t!("clap-used-twice", arg = arg)
            } else {
                ccmail::t!("clap-conflict", arg = arg, other = prior.join(", "))
            }
        }
        _ => return None,
    };
    let mut out = ccmail::t!("clap-error", message = message);
    let quoted = |list: &[String]| {
        let list: Vec<String> = list.iter().map(|s| format!("'{s}'")).collect();
        list.join(", ")
    };
    let tips = [
        (K::SuggestedArg, many(K::SuggestedArg)),
        (K::SuggestedSubcommand, many(K::SuggestedSubcommand)),
        (K::SuggestedValue, many(K::SuggestedValue)),
    ];
    for (kind, list) in tips.iter().filter(|(_, list)| !list.is_empty()) {
        let (count, values) = (list.len(), quoted(list));
        let tip = match kind {
            K::SuggestedArg => ccmail::t!("clap-tip-argument", count = count, values = values),
            K::SuggestedSubcommand => {
                ccmail::t!("clap-tip-subcommand", count = count, values = values)
            }
            _ => ccmail::t!("clap-tip-value", count = count, values = values),
        };
        out.push_str(&format!("\n\n  {tip}"));
    }
    if let Some(usage) = one(K::Usage) {
        // clap's usage starts with its own English heading.
        let usage = usage.trim_start();
        let usage = usage.strip_prefix("Usage:").unwrap_or(usage).trim();
        let heading = ccmail::t!("help-heading-usage");
        out.push_str(&format!("\n\n{heading} {usage}"));
    }
    out.push_str(&format!("\n\n{}\n", ccmail::t!("clap-more-information")));
    Some(out)
}

/// The command line with its texts in the interface language: each command's about
/// (`about-game-new`; `about-game-new-long` where `--help` says more than `-h`) and each
/// argument's help (`help-game-new-event`) from the catalogue, clap's headings and its
/// `--help` and `--version` flags in the same language.
pub fn command() -> clap::Command {
    localized(Cli::command(), &[])
}

/// `cmd` and its subcommands with clap's `help` subcommand in the interface's words.
fn with_help_subcommand(cmd: clap::Command) -> clap::Command {
    cmd.mut_subcommands(|sub| {
        if sub.get_name() == "help" {
            sub.about(ccmail::t!("help-subcommand"))
                .mut_args(|arg| arg.help(ccmail::t!("help-subcommand-arg")))
        } else {
            with_help_subcommand(sub)
        }
    })
}

/// `cmd`, at `path` below ccmail itself, and its subcommands, with the catalogue's texts.
fn localized(cmd: clap::Command, path: &[String]) -> clap::Command {
    let texts = ccmail::i18n::current();
    let about = about_key(path);
    let long_about = format!("{about}-long");
    let mut cmd = cmd.about(texts.text(&about, &[]));
    // Both languages have the same keys (tests/i18n.rs): the same commands have a long text.
    if texts.has(&long_about) {
        cmd = cmd.long_about(texts.text(&long_about, &[]));
    }
    let template = help_template(&cmd);
    cmd.mut_args(|arg| {
        let help = texts.text(&help_key(path, arg.get_id().as_str()), &[]);
        arg.help(help)
    })
    .help_template(template)
    .defer(with_help_flags)
    .mut_subcommands(|sub| {
        let mut sub_path = path.to_vec();
        sub_path.push(sub.get_name().to_owned());
        localized(sub, &sub_path)
    })
}

/// The key of the about text of the command at `path`: `about-game-new`, `about-ccmail` for
/// ccmail itself.
fn about_key(path: &[String]) -> String {
    if path.is_empty() {
        "about-ccmail".to_owned()
    } else {
        format!("about-{}", path.join("-"))
    }
}

/// The key of the help text of the argument `id` of the command at `path`:
/// `help-game-new-attach-pgn`, `help-json` for one of ccmail itself.
fn help_key(path: &[String], id: &str) -> String {
    let mut key = String::from("help-");
    for name in path {
        key.push_str(name);
        key.push('-');
    }
    key.push_str(&id.replace('_', "-"));
    key
}

/// clap's own layout of a help (its default template), with the headings in the interface
/// language: the commands, the positional arguments and the options, those of them `cmd` has.
fn help_template(cmd: &clap::Command) -> String {
    let styles = cmd.get_styles();
    let (usage, header) = (styles.get_usage(), styles.get_header());
    let mut sections = Vec::new();
    if cmd.has_subcommands() {
        let heading = ccmail::t!("help-heading-commands");
        sections.push(format!("{header}{heading}{header:#}\n{{subcommands}}"));
    }
    if cmd.get_positionals().next().is_some() {
        let heading = ccmail::t!("help-heading-arguments");
        sections.push(format!("{header}{heading}{header:#}\n{{positionals}}"));
    }
    // Every command has options: --help at least.
    let heading = ccmail::t!("help-heading-options");
    sections.push(format!("{header}{heading}{header:#}\n{{options}}"));
    let heading = ccmail::t!("help-heading-usage");
    format!(
        "{{before-help}}{{about-with-newline}}\n{usage}{heading}{usage:#} {{usage}}\n\n{}{{after-help}}",
        sections.join("\n\n")
    )
}

/// clap's `--help` (and, on ccmail itself, `--version`) flag with the catalogue's words, in
/// place of clap's own. Run when clap builds the command (`Command::defer`), as clap adds its
/// own then: before, the command's arguments are its own only (the man page's sections).
fn with_help_flags(cmd: clap::Command) -> clap::Command {
    // Last in the list of options, as clap puts its own.
    const LAST: usize = 999;
    let help = Arg::new("help")
        .short('h')
        .long("help")
        .action(ArgAction::Help)
        .display_order(LAST);
    let help = if has_long_help(&cmd) {
        help.help(ccmail::t!("help-flag-help-more"))
            .long_help(ccmail::t!("help-flag-help-summary"))
    } else {
        help.help(ccmail::t!("help-flag-help"))
    };
    let has_version = cmd.get_version().is_some() || cmd.get_long_version().is_some();
    let cmd = cmd.disable_help_flag(true).arg(help);
    if !has_version {
        return cmd;
    }
    cmd.disable_version_flag(true).arg(
        Arg::new("version")
            .short('V')
            .long("version")
            .action(ArgAction::Version)
            .display_order(LAST)
            .help(ccmail::t!("help-flag-version")),
    )
}

/// Whether `--help` shows more than `-h` for `cmd`, as clap decides it for its own `--help`.
fn has_long_help(cmd: &clap::Command) -> bool {
    let long = |arg: &Arg| {
        !arg.is_hide_set()
            && (arg.get_long_help().is_some()
                || arg.is_hide_long_help_set()
                || arg.is_hide_short_help_set()
                || (!arg.is_hide_possible_values_set()
                    && arg
                        .get_possible_values()
                        .iter()
                        .any(|v| !v.is_hide_set() && v.get_help().is_some())))
    };
    cmd.get_long_about().is_some()
        || cmd.get_before_long_help().is_some()
        || cmd.get_after_long_help().is_some()
        || cmd.get_arguments().any(long)
}

// The help texts: help.ftl, under the keys `command` makes of the commands' and the
// arguments' names.
#[derive(Debug, Parser)]
#[command(name = "ccmail", version)]
pub struct Cli {
    #[arg(long, global = true, env = "CCMAIL_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    #[arg(long, global = true, env = "CCMAIL_NOW", value_name = "WHEN")]
    pub now: Option<String>,

    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Folders,
    #[command(subcommand)]
    Service(ServiceAction),
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },
    Manpage,
    Init,
    #[command(subcommand)]
    Game(GameCommand),
    Games {
        #[arg(long)]
        all: bool,
    },
    Outbox {
        #[arg(long)]
        all: bool,
    },
    Show {
        game: String,
    },
    Move(MoveArgs),
    #[command(group = clap::ArgGroup::new("what").required(true).args(["line", "clear"]))]
    Plan {
        game: String,
        #[arg(allow_hyphen_values = true)]
        line: Option<String>,
        #[arg(long)]
        clear: bool,
    },
    Resign {
        game: String,
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        yes: bool,
    },
    Reply,
    Apply {
        file: PathBuf,
        #[arg(long, value_name = "DATE")]
        received: Option<String>,
    },
    Inbox {
        #[command(subcommand)]
        action: Option<InboxCommand>,
    },
    Export {
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        game: Option<String>,
        #[arg(long, conflicts_with = "mbox")]
        pgn: bool,
        #[arg(long)]
        mbox: bool,
        #[arg(long, conflicts_with = "mbox")]
        all: bool,
        #[arg(long, requires = "all")]
        active: bool,
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
    #[command(subcommand)]
    Break(BreakCommand),
    Claim {
        game: String,
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        yes: bool,
    },
    Adjudicate(AdjudicateArgs),
    #[command(subcommand)]
    Address(AddressCommand),
    Parse {
        file: PathBuf,
    },
    Run {
        #[arg(long)]
        once: bool,
    },
    Check,
    #[command(subcommand)]
    Oauth2(Oauth2Command),
}

#[derive(Debug, Subcommand)]
pub enum Oauth2Command {
    Authorize {
        #[arg(long, conflicts_with = "smtp")]
        imap: bool,
        #[arg(long)]
        smtp: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum GameCommand {
    New(Box<NewGameArgs>),
    Import(Box<ImportArgs>),
    Decision {
        game: String,
        #[arg(long, conflicts_with = "resume", required_unless_present = "resume")]
        result: Option<String>,
        #[arg(long)]
        resume: bool,
    },
    Set(Box<SetArgs>),
    Delete {
        game: String,
        #[arg(long)]
        yes: bool,
    },
    Archive {
        game: String,
    },
}

#[derive(Debug, Args)]
pub struct SetArgs {
    pub game: String,
    #[arg(long, value_name = "EMAIL")]
    pub opponent: Option<String>,
    #[arg(long, value_name = "EMAIL|none")]
    pub arbiter: Option<String>,
    #[arg(long)]
    pub lang: Option<String>,
    #[arg(long)]
    pub notation: Option<String>,
    #[arg(long, value_name = "N/D")]
    pub control: Option<String>,
    #[arg(long)]
    pub rules: Option<String>,
    #[arg(long)]
    pub event: Option<String>,
    #[arg(long, value_name = "DATE")]
    pub start: Option<String>,
    #[arg(long, value_name = "DATE")]
    pub last_sent: Option<String>,
    #[arg(long, value_name = "on|off", value_parser = ["on", "off"])]
    pub attach_pgn: Option<String>,
}

#[derive(Debug, Args)]
pub struct NewGameArgs {
    #[arg(long)]
    pub event: String,
    #[arg(long, value_name = "DATE")]
    pub start: String,
    #[arg(long)]
    pub white: String,
    #[arg(long)]
    pub black: String,
    #[arg(long, value_name = "white|black")]
    pub color: String,
    #[arg(long, value_name = "EMAIL")]
    pub opponent: String,
    #[arg(long, value_name = "EMAIL")]
    pub arbiter: Option<String>,
    #[arg(long)]
    pub notation: Option<String>,
    #[arg(long)]
    pub lang: Option<String>,
    #[arg(long, value_name = "N/D")]
    pub control: Option<String>,
    #[arg(long)]
    pub rules: Option<String>,
    #[arg(long)]
    pub attach_pgn: bool,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    pub file: PathBuf,
    #[arg(long, value_name = "white|black")]
    pub color: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    pub opponent: Option<String>,
    #[arg(long, value_name = "EMAIL")]
    pub arbiter: Option<String>,
    #[arg(long)]
    pub event: Option<String>,
    #[arg(long, value_name = "DATE")]
    pub start: Option<String>,
    #[arg(long, value_name = "N/D")]
    pub control: Option<String>,
    #[arg(long)]
    pub rules: Option<String>,
    #[arg(long)]
    pub notation: Option<String>,
    #[arg(long)]
    pub lang: Option<String>,
    #[arg(long, value_name = "ENC")]
    pub encoding: Option<String>,
    #[arg(long, value_name = "DATE")]
    pub last_sent: Option<String>,
}

#[derive(Debug, Args)]
pub struct MoveArgs {
    pub game: String,
    #[arg(
        allow_hyphen_values = true,
        value_name = "MOVE",
        required_unless_present_any = ["accept_draw", "accept_variation"]
    )]
    pub mv: Option<String>,
    #[arg(long, value_name = "MOVES")]
    pub variation: Option<String>,
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true)]
    pub accept_variation: Option<Option<usize>>,
    #[arg(long)]
    pub offer_draw: bool,
    #[arg(long)]
    pub accept_draw: bool,
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    #[arg(long)]
    pub dry_run: bool,
    #[arg(long)]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct AdjudicateArgs {
    pub game: String,
    #[arg(long, value_name = "RESULT")]
    pub claim: String,
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    #[arg(long = "move", value_name = "MOVE", allow_hyphen_values = true)]
    pub mv: Option<String>,
    #[arg(long)]
    pub dry_run: bool,
    #[arg(long)]
    pub yes: bool,
}

// A shell `ccmail completions` writes for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

#[derive(Debug, Clone, Copy, Subcommand)]
pub enum ServiceAction {
    Install,
    Uninstall,
    Status,
}

#[derive(Debug, Subcommand)]
pub enum InboxCommand {
    Accept {
        message: i64,
        #[arg(long)]
        game: String,
        #[arg(long = "move", value_name = "MOVE")]
        by_eye: Option<String>,
        #[arg(long)]
        trust: bool,
        #[arg(long)]
        yes: bool,
    },
    Fine {
        message: i64,
        #[arg(long)]
        cause: String,
        #[arg(long)]
        game: Option<String>,
    },
    Dismiss {
        message: i64,
    },
}

#[derive(Debug, Subcommand)]
pub enum BreakCommand {
    Announce {
        #[arg(long, value_name = "DATE")]
        from: String,
        #[arg(long, value_name = "DATE")]
        to: String,
        #[arg(long)]
        dry_run: bool,
    },
    End {
        #[arg(long, value_name = "DATE")]
        on: Option<String>,
        #[arg(long)]
        dry_run: bool,
    },
    List,
}

#[derive(Debug, Subcommand)]
pub enum AddressCommand {
    Change {
        new_email: String,
        #[arg(long)]
        dry_run: bool,
    },
}

#[cfg(test)]
mod tests {
    use ccmail::i18n::{Catalogue, Lang};
    use clap::CommandFactory;

    /// Every argument and flag of every command, with the path of commands to it, that has
    /// no help text.
    fn without_help(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if arg
                .get_help()
                .is_none_or(|h| h.to_string().trim().is_empty())
            {
                out.push(format!("{path} {id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            if sub.get_about().is_none() {
                out.push(format!("{path} {} (the command)", sub.get_name()));
            }
            without_help(sub, &format!("{path} {}", sub.get_name()), out);
        }
    }

    #[test]
    fn every_argument_and_flag_has_help_text() {
        let cmd = super::command();
        cmd.clone().debug_assert();
        let mut missing = Vec::new();
        without_help(&cmd, "ccmail", &mut missing);
        assert_eq!(missing, Vec::<String>::new());
    }

    /// The keys of the texts of the command at `path` (`cmd`), of its arguments and of its
    /// subcommands'.
    fn keys_of(cmd: &clap::Command, path: &[String], out: &mut Vec<String>) {
        out.push(super::about_key(path));
        for arg in cmd.get_arguments() {
            out.push(super::help_key(path, arg.get_id().as_str()));
        }
        for sub in cmd.get_subcommands() {
            let mut sub_path = path.to_vec();
            sub_path.push(sub.get_name().to_owned());
            keys_of(sub, &sub_path, out);
        }
    }

    #[test]
    fn every_command_and_argument_has_its_text_in_both_languages() {
        let mut keys = Vec::new();
        keys_of(&super::Cli::command(), &[], &mut keys);
        let mut distinct = keys.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            keys.len(),
            "two texts under one key: {keys:?}"
        );
        for lang in Lang::ALL {
            let catalogue = Catalogue::new(lang);
            let missing: Vec<_> = keys
                .iter()
                .filter(|k| !catalogue.has(k) || catalogue.text(k, &[]).trim().is_empty())
                .collect();
            assert!(missing.is_empty(), "{lang:?} has no text for {missing:?}");
        }
    }
}
