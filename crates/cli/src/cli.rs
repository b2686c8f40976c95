//! The command line of cli.md. Each subcommand's doc comment is its `--help`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// E-mail correspondence chess: reads partners' move messages, keeps both clocks the way the
/// rules count days, and answers in the standard form.
#[derive(Debug, Parser)]
#[command(name = "ccmail", version, about)]
pub struct Cli {
    /// The config file [default: $XDG_CONFIG_HOME/ccmail/config.toml].
    #[arg(long, global = true, env = "CCMAIL_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// The clock for everything: YYYY-MM-DD (noon local time) or RFC 3339.
    #[arg(long, global = true, env = "CCMAIL_NOW", value_name = "WHEN")]
    pub now: Option<String>,

    /// Machine-readable output on stdout.
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read one RFC 5322 message file and print what ccmail reads from it.
    ///
    /// Needs no config and no database. Moves are replayed from the initial position. A file
    /// that is not a mail message still exits 0, with the problem `unreadable`.
    Parse {
        /// The message file, or `-` for standard input.
        file: PathBuf,
    },
}
