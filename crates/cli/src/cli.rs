//! The command line of docs/cli.md. Each subcommand's doc comment is its `--help`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// E-mail correspondence chess: reads partners' move messages, keeps both clocks the way the
/// rules count days, and answers in the standard form.
#[derive(Debug, Parser)]
#[command(name = "ccmail", version, about)]
pub struct Cli {
    /// The config file [default: $XDG_CONFIG_HOME/ccmail/config.toml].
    #[arg(long, global = true, env = "CCMAIL_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,

    /// The clock for everything: YYYY-MM-DD or DD.MM.YYYY (noon local time), or an RFC 3339
    /// time.
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
    /// The IMAP server's folders, named as people read them, with which one is `mailbox` and
    /// which `sent_mailbox`.
    ///
    /// Folder names in the config are written as you see them here, in any language
    /// ("Отправленные"); ccmail converts them to IMAP's modified UTF-7 on the wire. `--json`: an
    /// array of the names.
    Folders,
    /// The systemd user unit that keeps `ccmail run` going across logins and reboots.
    #[command(subcommand)]
    Service(ServiceAction),
    /// The shell completion script, on standard output.
    ///
    /// bash: `ccmail completions bash > ~/.local/share/bash-completion/completions/ccmail`;
    /// zsh: into a folder of your $fpath as `_ccmail`; fish:
    /// `ccmail completions fish > ~/.config/fish/completions/ccmail.fish`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: Shell,
    },
    /// The man page, ccmail(1), in roff on standard output (`ccmail manpage | man -l -`).
    Manpage,
    /// Write a commented starter config (if none exists) and create or migrate the database.
    ///
    /// Safe to run twice: an existing config is never overwritten.
    Init,
    /// Games: `ccmail game new …` creates one.
    #[command(subcommand)]
    Game(GameCommand),
    /// Active games (all with --all), most urgent first.
    Games {
        /// Finished games too.
        #[arg(long)]
        all: bool,
    },
    /// A game: the board from your side, the moves with dates and days, both clocks, the
    /// deadlines and any problems.
    Show {
        /// The game's id.
        game: String,
    },
    /// Play your move: compose the standard-form message and send it (or queue it).
    Move(MoveArgs),
    /// Your plan: private conditional replies, never sent to the partner.
    ///
    /// LINE is your partner's expected move, your reply, the next expected move, your reply,
    /// … in any notation (move numbers may be written). When the partner's move is the one
    /// expected, the daemon sends your planned reply at once in the standard form and the
    /// plan moves on; any other move, or a draw offer with it, ends the plan and leaves the
    /// move to you. `show` lists it.
    #[command(group = clap::ArgGroup::new("what").required(true).args(["line", "clear"]))]
    Plan {
        /// The game's id.
        game: String,
        /// The plan: their expected move, your reply, … (e.g. "2. Nf3 Nc6 3. Bb5 a6").
        #[arg(allow_hyphen_values = true)]
        line: Option<String>,
        /// Drop the plan.
        #[arg(long)]
        clear: bool,
    },
    /// Resign the game: sends the resignation; the game ends 1-0 / 0-1.
    Resign {
        /// The game's id.
        game: String,
        /// Print the message and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Don't ask for confirmation on a terminal.
        #[arg(long)]
        yes: bool,
    },
    /// The interactive prompt: walks the games where you are to move, most urgent first.
    ///
    /// For each game: the board from your side, the last moves with dates, both clocks,
    /// deadlines and what the partner's last message said; then your move in any notation
    /// (with a variation, a draw offer, a note), the exact message, and send / edit /
    /// cancel. `help` at the prompt lists the commands. Needs a terminal.
    Reply,
    /// Process one saved message exactly as the daemon would (`-` reads standard input).
    Apply {
        /// The message file, or `-`.
        file: PathBuf,
        /// Its receipt date, YYYY-MM-DD or DD.MM.YYYY, or an RFC 3339 time [default: the
        /// topmost Received: header, else today].
        #[arg(long, value_name = "DATE")]
        received: Option<String>,
    },
    /// Held messages (unknown sender, no matching game, unreadable), with the reason.
    Inbox {
        #[command(subcommand)]
        action: Option<InboxCommand>,
    },
    /// The game as PGN (with dates), or all its mail as an mbox; with `--all`, every game
    /// as PGN in one file.
    Export {
        /// The game (not with `--all`).
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        game: Option<String>,
        /// PGN (the default).
        #[arg(long, conflicts_with = "mbox")]
        pgn: bool,
        /// Every message of the game, in and out, as an mbox.
        #[arg(long)]
        mbox: bool,
        /// Every game as PGN, one after another, separated by a blank line.
        #[arg(long, conflicts_with = "mbox")]
        all: bool,
        /// With `--all`: only the games not finished.
        #[arg(long, requires = "all")]
        active: bool,
        /// Write to FILE instead of standard output.
        #[arg(short = 'o', long = "output", value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Your breaks (51.7; 10.4 in postal104 games): announce, end early, list.
    #[command(subcommand)]
    Break(BreakCommand),
    /// Draft (and after confirmation send) a time-forfeit claim to the arbiter, Cc the
    /// opponent (51.6); the game is suspended until the decision.
    Claim {
        /// The game's id.
        game: String,
        /// Print the claim and change nothing.
        #[arg(long)]
        dry_run: bool,
        /// Don't ask for confirmation on a terminal.
        #[arg(long)]
        yes: bool,
    },
    /// Build (and after confirmation send) the adjudication package of 51.9.4 to the arbiter.
    Adjudicate(AdjudicateArgs),
    /// Your e-mail address (51.1.2).
    #[command(subcommand)]
    Address(AddressCommand),
    /// Read one RFC 5322 message file and print what ccmail reads from it.
    ///
    /// Needs no config and no database. Moves are replayed from the initial position. A file
    /// that is not a mail message still exits 0, with the problem `unreadable`.
    Parse {
        /// The message file, or `-` for standard input.
        file: PathBuf,
    },
    /// The daemon: watch the mailbox (IMAP IDLE, polling where IDLE is missing), apply the
    /// moves that arrive, send what is due.
    ///
    /// Only chess mail is read into ccmail (mail from a game's opponent or arbiter, replies in
    /// a game's thread, messages with a game header and a move); the mailbox itself is never
    /// changed. Stops cleanly on SIGINT/SIGTERM after the message in hand. Logs go to standard
    /// error; RUST_LOG sets the level (default info).
    Run {
        /// One full pass (read, apply, send), then exit.
        #[arg(long)]
        once: bool,
    },
    /// Check the setup: read the config, open the database, log in to IMAP and SMTP, and say
    /// how each step went. Exits 1 if any failed.
    Check,
    /// OAuth2 logins: `ccmail oauth2 authorize` runs the first consent.
    #[command(subcommand)]
    Oauth2(Oauth2Command),
}

#[derive(Debug, Subcommand)]
pub enum Oauth2Command {
    /// The first consent for [imap.oauth2] (and [smtp.oauth2]): prints the URL to open, waits
    /// for the browser's redirect to 127.0.0.1, and stores the refresh token in the token file
    /// (mode 0600). Without a flag, every section with an [*.oauth2] table.
    Authorize {
        /// Only [imap.oauth2].
        #[arg(long, conflicts_with = "smtp")]
        imap: bool,
        /// Only [smtp.oauth2].
        #[arg(long)]
        smtp: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum GameCommand {
    /// Create a game; prints its id.
    New(Box<NewGameArgs>),
    /// Bring in games already under way: a PGN file (one game or many), a partner's last
    /// message (.eml) or an mbox of a game's mail. Prints the id of each game.
    Import(Box<ImportArgs>),
    /// Record the arbiter's decision on a suspended game (51.6 claim, 51.9.4 adjudication):
    /// the result, or that play resumes. The 14-day protest window (51.6) starts that day.
    Decision {
        /// The game's id.
        game: String,
        /// The result the arbiter gave: 1-0, 0-1 or 1/2-1/2.
        #[arg(long, conflicts_with = "resume", required_unless_present = "resume")]
        result: Option<String>,
        /// The claim was rejected: play goes on.
        #[arg(long)]
        resume: bool,
    },
    /// Change a game's settings: whether its move messages carry a PGN attachment.
    Set {
        /// The game's id.
        game: String,
        /// Attach the game so far as a PGN file to each move message from now on.
        #[arg(long, value_name = "on|off", value_parser = ["on", "off"])]
        attach_pgn: String,
    },
}

#[derive(Debug, Args)]
pub struct NewGameArgs {
    /// The competition's name (51.2.2).
    #[arg(long)]
    pub event: String,
    /// Its official start date, YYYY-MM-DD or DD.MM.YYYY (51.4.5).
    #[arg(long, value_name = "DATE")]
    pub start: String,
    /// White's surname.
    #[arg(long)]
    pub white: String,
    /// Black's surname.
    #[arg(long)]
    pub black: String,
    /// Your colour: white or black.
    #[arg(long, value_name = "white|black")]
    pub color: String,
    /// The opponent's e-mail address.
    #[arg(long, value_name = "EMAIL")]
    pub opponent: String,
    /// The arbiter's e-mail address; without it the game is a friendly one: nothing is
    /// copied to an arbiter, and the chores that need one say so instead.
    #[arg(long, value_name = "EMAIL")]
    pub arbiter: Option<String>,
    /// numeric, san or san-ru [default: the config's].
    #[arg(long)]
    pub notation: Option<String>,
    /// ru or en [default: the config's].
    #[arg(long)]
    pub lang: Option<String>,
    /// Time control, N moves / D days [default: the config's, else 10/60].
    #[arg(long, value_name = "N/D")]
    pub control: Option<String>,
    /// article51 or postal104 [default: the config's].
    #[arg(long)]
    pub rules: Option<String>,
    /// Attach the game so far as a PGN file to each move message, for a partner on Scid,
    /// cmail or ChessBase [default: the config's, else off].
    #[arg(long)]
    pub attach_pgn: bool,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file, or - for standard input.
    pub file: PathBuf,
    /// Your colour, where the file does not say (WhiteNA/BlackNA, your name, who sent what).
    #[arg(long, value_name = "white|black")]
    pub color: Option<String>,
    /// The opponent's e-mail address, where the file does not give it.
    #[arg(long, value_name = "EMAIL")]
    pub opponent: Option<String>,
    /// The arbiter's e-mail address [default: the address the last message was copied to;
    /// none: a friendly game].
    #[arg(long, value_name = "EMAIL")]
    pub arbiter: Option<String>,
    /// The competition's name, where the file does not give it.
    #[arg(long)]
    pub event: Option<String>,
    /// The official start date, YYYY-MM-DD or DD.MM.YYYY, where the file does not give it.
    #[arg(long, value_name = "DATE")]
    pub start: Option<String>,
    /// Time control, N moves / D days [default: the file's, else the config's].
    #[arg(long, value_name = "N/D")]
    pub control: Option<String>,
    /// article51 or postal104 [default: the config's].
    #[arg(long)]
    pub rules: Option<String>,
    /// numeric, san or san-ru [default: the config's].
    #[arg(long)]
    pub notation: Option<String>,
    /// ru or en [default: the config's].
    #[arg(long)]
    pub lang: Option<String>,
}

#[derive(Debug, Args)]
pub struct MoveArgs {
    /// The game's id.
    pub game: String,
    /// Your move, in any notation ccmail reads (5254, e4, Кf3, e2-e4, e2e4). With
    /// --accept-variation, your reply after the accepted moves. May be left out with
    /// --accept-draw, or when the accepted part of a variation ends with your own move.
    #[arg(
        allow_hyphen_values = true,
        value_name = "MOVE",
        required_unless_present_any = ["accept_draw", "accept_variation"]
    )]
    pub mv: Option<String>,
    /// A conditional continuation: the partner's reply, yours, … (51.3.7).
    #[arg(long, value_name = "MOVES")]
    pub variation: Option<String>,
    /// Accept the variation your partner offered (51.3.7): all of it, or its first N
    /// half-moves; the message repeats them, then gives MOVE, your reply (51.3.8). When the
    /// accepted part ends with your own move, that move is the reply: leave MOVE out.
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true)]
    pub accept_variation: Option<Option<usize>>,
    /// Offer a draw with the move.
    #[arg(long)]
    pub offer_draw: bool,
    /// Accept the opponent's draw offer.
    #[arg(long)]
    pub accept_draw: bool,
    /// A note for the partner, sent under `Замечания:`/`Notes:`.
    #[arg(long, value_name = "TEXT")]
    pub note: Option<String>,
    /// Print the message and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Don't ask for confirmation on a terminal.
    #[arg(long)]
    pub yes: bool,
}

#[derive(Debug, Args)]
pub struct AdjudicateArgs {
    /// The game's id.
    pub game: String,
    /// The result claimed: 1-0, 0-1 or 1/2-1/2.
    #[arg(long, value_name = "RESULT")]
    pub claim: String,
    /// The reasoning (analysis may support it).
    #[arg(long, value_name = "TEXT")]
    pub reason: String,
    /// The sealed move, when it is your move: it counts as made.
    #[arg(long = "move", value_name = "MOVE", allow_hyphen_values = true)]
    pub mv: Option<String>,
    /// Print the package and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Don't ask for confirmation on a terminal.
    #[arg(long)]
    pub yes: bool,
}

/// A shell `ccmail completions` writes for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// What `ccmail service` does with the systemd user unit.
#[derive(Debug, Clone, Copy, Subcommand)]
pub enum ServiceAction {
    /// Write the unit to ~/.config/systemd/user/ (running this ccmail, with --config when
    /// given), then enable and start it; without systemd, say what to do instead.
    Install,
    /// Stop and disable the unit, and remove it.
    Uninstall,
    /// Whether the unit is installed, and its state.
    Status,
}

#[derive(Debug, Subcommand)]
pub enum InboxCommand {
    /// Apply a held message to a game (accepting its sender as the opponent's address, unless
    /// the sender is the game's arbiter).
    Accept {
        /// The message number shown by `ccmail inbox`.
        message: i64,
        /// The game it belongs to.
        #[arg(long)]
        game: String,
        /// The partner's move as you read it in the message (any notation): the message is
        /// applied with this move, and its record taken as ours.
        #[arg(long = "move", value_name = "MOVE")]
        by_eye: Option<String>,
        /// Also trust the sender's address in this game from now on, without verification
        /// (for a partner whose provider does not sign its mail).
        #[arg(long)]
        trust: bool,
        /// Don't ask before the sender becomes the game's opponent address.
        #[arg(long)]
        yes: bool,
    },
    /// Fine the partner two days for a fault you found in a held message (51.4.7); a
    /// correction request goes out as for a fault ccmail finds itself (51.3.4).
    Fine {
        /// The message number shown by `ccmail inbox`.
        message: i64,
        /// What was wrong: illegible, ambiguous, impossible, no-move or wrong-repetition.
        #[arg(long)]
        cause: String,
        /// The game, when the message was not matched to one.
        #[arg(long)]
        game: Option<String>,
    },
    /// Put a held message aside for good (it stays stored).
    Dismiss {
        /// The message number shown by `ccmail inbox`.
        message: i64,
    },
}

#[derive(Debug, Subcommand)]
pub enum BreakCommand {
    /// Announce a break: checks the yearly allowance and notifies every opponent with an
    /// active game and the arbiter ("беру перерыв с … по …").
    Announce {
        /// The first day of the break, YYYY-MM-DD or DD.MM.YYYY.
        #[arg(long, value_name = "DATE")]
        from: String,
        /// The last day of the break (included), YYYY-MM-DD or DD.MM.YYYY.
        #[arg(long, value_name = "DATE")]
        to: String,
        /// Print the notices and change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// End the current (or next) break early: play again from --on (default: today); the
    /// days not taken go back to the allowance.
    End {
        /// The first day of play again, YYYY-MM-DD or DD.MM.YYYY [default: today].
        #[arg(long, value_name = "DATE")]
        on: Option<String>,
        /// Print the notices and change nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Your breaks and the days left this year.
    List,
}

#[derive(Debug, Subcommand)]
pub enum AddressCommand {
    /// Tell every active opponent and arbiter your new address (51.1.2); then set
    /// `[player] email` in the config.
    Change {
        /// Your new e-mail address.
        new_email: String,
        /// Print the notices and change nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[cfg(test)]
mod tests {
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
        let cmd = super::Cli::command();
        cmd.clone().debug_assert();
        let mut missing = Vec::new();
        without_help(&cmd, "ccmail", &mut missing);
        assert_eq!(missing, Vec::<String>::new());
    }
}
