//! ccmail: e-mail correspondence chess, Article 51. See `ccmail --help`.
//!
//! `main` only parses the command line, runs the command and turns an error into the
//! one-paragraph message and exit status of docs/cli.md (0 success, 1 failure, 2 usage); with
//! `--json` the message is `{"error": "…"}` on standard output.

// The daemon's signals, the store's file modes and the systemd unit are Unix's.
#[cfg(not(unix))]
compile_error!(
    // not the interface's: the compiler's and a panic's text
    "ccmail builds for Unix (Linux, the BSDs, macOS) only: its daemon stops on SIGTERM, keeps \
     the config's secrets at mode 0600 and wakes through a Unix socket beside the database, \
     none of which this system has"
);

mod cli;
mod commands;

use std::process::ExitCode;

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    // The interface language first: the help and the errors are in it.
    let args: Vec<_> = std::env::args_os().collect();
    ccmail::i18n::choose(ccmail::config::interface_language(&args, &|name| {
        std::env::var_os(name)
    }));
    let args = cli::parse();
    let json = args.json;
    match commands::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        // The command has said why on standard output already (`check --json`).
        Err(err) if err.is::<commands::Reported>() => ExitCode::from(1),
        Err(err) => {
            // Each cause once: the mail crate's errors already quote their source.
            let words = ccmail::app::daemon::words(&err);
            if json {
                println!("{}", serde_json::json!({ "error": words }));
            } else {
                // The words may quote mail or a server: shown, not obeyed.
                eprintln!("ccmail: {}", ccmail::term::shown_lines(&words));
            }
            ExitCode::from(1)
        }
    }
}

/// `ccmail show GAME | head`: when the reader goes away, stop quietly (exit 0) instead of
/// panicking in `println!`. Every other panic keeps the default report.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        // not the interface's: the compiler's and a panic's text
        if text.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
