//! ccmail: e-mail correspondence chess, Article 51. See `ccmail --help`.
//!
//! `main` only parses the command line, runs the command and turns an error into the
//! one-paragraph message and exit status of cli.md (0 success, 1 failure, 2 usage).

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match commands::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("ccmail: {err:#}");
            ExitCode::from(1)
        }
    }
}
