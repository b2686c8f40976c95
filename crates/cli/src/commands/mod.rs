//! One module per subcommand.

mod parse;

use crate::cli::{Cli, Command};

pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Parse { file } => parse::run(&file, cli.json),
    }
}
