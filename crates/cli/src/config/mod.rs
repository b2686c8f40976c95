//! The config file (docs/config.md): where it is, what it may say, and the checked
//! [`Config`] the commands get from it.
//!
//! The file is TOML with seven sections, `[player]`, `[store]`, `[imap]`, `[smtp]`,
//! `[hooks]`, `[security]` and `[defaults]`; their keys are listed once, in `schema.rs`, and shown with their defaults
//! in `config/ccmail.example.toml`, which is also the starter file `ccmail init` writes.
//!
//! Loading is strict, because a config mistake otherwise shows up weeks later as a missed
//! deadline: an unknown key or section, a value of the wrong kind and a missing required key
//! are all errors that name the key and the file (and, for a typo, the key that was probably
//! meant). Nothing is looked up on the network or run at load time: a password is only fetched
//! when a command that talks to a mail server calls [`Imap::password`] or [`Smtp::password`].
//!
//! Passwords never appear in `Debug` output or in an error; neither does a `password_cmd`,
//! which may contain one.

mod env;
mod error;
mod language;
pub mod literal;
mod oauth2;
mod read;
mod schema;
mod secret;
mod starter;

use std::fmt;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use zeroize::Zeroizing;

pub use error::{Error, ErrorKind};
pub use language::interface_language;
pub use oauth2::{Refresh, TokenSource};
pub use starter::{starter, write_starter, write_starter_text};

use secret::PasswordSource;

/// A loaded and checked config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The file it was read from, as it was given.
    pub path: PathBuf,
    pub player: Player,
    pub store: StorePaths,
    /// The incoming mail server; `None` when the file has no `[imap]`.
    pub imap: Option<Imap>,
    /// The outgoing mail server; `None` when the file has no `[smtp]`.
    pub smtp: Option<Smtp>,
    pub defaults: Defaults,
    pub hooks: Hooks,
    pub security: SenderChecks,
}

/// `[security]`: how senders are verified.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SenderChecks {
    /// The player's own mail server's id in `Authentication-Results` (lower case): only its
    /// verdict is trusted. `None`: senders are checked by address and envelope only.
    pub authserv_id: Option<String>,
}

/// `[player]`: who the user is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The name signed under the user's moves, surname first ("Петров Пётр").
    pub name: String,
    /// The surname written in game headers ("Петров").
    pub surname: String,
    /// The address the user plays from.
    pub email: String,
    /// An IANA time zone name, checked: the configured one, else the system's.
    pub timezone: String,
    /// ccmail's own interface language, if the file sets it (else the locale's).
    pub language: Option<crate::i18n::Lang>,
}

impl Player {
    /// The time zone the user's own dates are counted in.
    pub fn tz(&self) -> anyhow::Result<chrono_tz::Tz> {
        self.timezone.parse().map_err(|_| {
            anyhow::anyhow!(crate::t!(
                "config-unknown-zone",
                zone = format!("{:?}", self.timezone)
            ))
        })
    }
}

/// `[store]`: where ccmail keeps its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorePaths {
    /// The SQLite database file: `[store] path`, else `$XDG_DATA_HOME/ccmail/ccmail.db`
    /// (`$HOME/.local/share/ccmail/ccmail.db` without `XDG_DATA_HOME`).
    pub db: PathBuf,
}

/// `[imap]`: the server the partners' moves arrive at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imap {
    pub host: String,
    /// `port`, else 993 with TLS and 143 otherwise.
    pub port: u16,
    /// `security`, else TLS: plain is never chosen unless written.
    pub security: Security,
    pub username: String,
    /// The folder moves arrive in; default `INBOX`.
    pub mailbox: String,
    /// A CA certificate (PEM) to trust besides the built-in roots. Not checked at load time.
    pub ca_file: Option<PathBuf>,
    /// The first run also reads the mail already in [`Imap::mailbox`] from this date on.
    /// `None`: no date was configured.
    pub first_sync_since: Option<NaiveDate>,
    /// The folder a copy of each sent message is appended to; `None`: no copy is kept.
    pub sent_mailbox: Option<String>,
    /// OAuth2 instead of a password: where the access token comes from.
    pub oauth2: Option<TokenSource>,
    /// `None` exactly when [`Imap::oauth2`] is set.
    password: Option<PasswordSource>,
}

impl Imap {
    /// The login password, fetched now: `password_cmd` is run (with `sh -c`, standard error
    /// shown to the user, one final newline removed from what it prints), `password_env` is
    /// read from the environment, `password` is returned as written. The errors name the key
    /// and the file, never the password or what the command printed.
    pub fn password(&self) -> anyhow::Result<Zeroizing<String>> {
        match &self.password {
            Some(source) => Ok(source.fetch()?),
            None => Err(secret::oauth2_not_password("imap").into()),
        }
    }
}

/// `[smtp]`: the server ccmail sends through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Smtp {
    pub host: String,
    /// `port`, else 465 with TLS, 587 with STARTTLS, 25 with plain.
    pub port: u16,
    /// `security`, else TLS: plain is never chosen unless written.
    pub security: Security,
    /// The login name; `None`: the server is used without logging in. A password is
    /// configured exactly when a username is.
    pub username: Option<String>,
    /// A CA certificate (PEM) to trust besides the built-in roots. Not checked at load time.
    pub ca_file: Option<PathBuf>,
    /// OAuth2 instead of a password (with [`Smtp::username`]).
    pub oauth2: Option<TokenSource>,
    password: Option<PasswordSource>,
}

impl Smtp {
    /// The login password, fetched now, as for [`Imap::password`]. An error when
    /// [`Smtp::username`] is `None` (then there is nothing to log in with).
    pub fn password(&self) -> anyhow::Result<Zeroizing<String>> {
        match (&self.password, &self.oauth2) {
            (Some(source), _) => Ok(source.fetch()?),
            (None, Some(_)) => Err(secret::oauth2_not_password("smtp").into()),
            (None, None) => Err(secret::no_smtp_login().into()),
        }
    }
}

/// How a mail connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Security {
    /// TLS from the first byte (IMAPS, SMTPS). The default.
    Tls,
    /// A plain connection upgraded with STARTTLS before logging in.
    StartTls,
    /// No encryption at all: only when the config says so.
    Plain,
}

impl Security {
    /// The config's name: `tls`, `starttls` or `plain`.
    pub fn as_str(self) -> &'static str {
        match self {
            Security::Tls => "tls",
            Security::StartTls => "starttls",
            Security::Plain => "plain",
        }
    }

    /// The IMAP port when the config gives none: 993 for TLS, else 143.
    pub fn default_imap_port(self) -> u16 {
        match self {
            Security::Tls => 993,
            Security::StartTls | Security::Plain => 143,
        }
    }

    /// The SMTP port when the config gives none: 465 for TLS, 587 for STARTTLS, 25 plain.
    pub fn default_smtp_port(self) -> u16 {
        match self {
            Security::Tls => 465,
            Security::StartTls => 587,
            Security::Plain => 25,
        }
    }
}

impl fmt::Display for Security {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `[defaults]`: what `ccmail game new` uses for a flag that is not given. Each value is
/// checked and in its canonical text form, ready for the parsers of `ccmail-core`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defaults {
    /// `ru` or `en`; default `ru`.
    pub language: String,
    /// `numeric`, `san` or `san-ru`; default `numeric`.
    pub notation: String,
    /// `MOVES/DAYS`, both at least 1; default `10/60`.
    pub control: String,
    /// `article51` or `postal104`; default `article51`.
    pub rules: String,
    /// Whether a new game's move messages carry the game so far as a PGN attachment (for a
    /// partner on Scid, cmail or ChessBase); default `false`.
    pub attach_pgn: bool,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            language: "ru".into(),
            notation: "numeric".into(),
            control: "10/60".into(),
            rules: "article51".into(),
            attach_pgn: false,
        }
    }
}

/// Runs `command` (`sh -c`, standard input closed, standard error shown to the user) for the
/// secret it prints (`SECTION.KEY` of the config `file`: a token, a client secret), one final
/// newline removed. The error names the key and the file, never what the command printed.
pub fn run_secret(
    section: &'static str,
    key: &str,
    file: &Path,
    command: &str,
) -> Result<Zeroizing<String>, Error> {
    let source = PasswordSource::new(
        section,
        file.to_path_buf(),
        secret::How::Command(Zeroizing::new(command.to_owned())),
    );
    source.run(key, command)
}

/// `[hooks]`: commands the daemon runs when something happens, each a program and its
/// arguments, run without a shell (empty: none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hooks {
    /// A partner's move was applied.
    pub on_move: Vec<String>,
    /// A message was held for the player.
    pub on_held: Vec<String>,
    /// A deadline is within `deadline_days`: once a day per deadline.
    pub on_deadline: Vec<String>,
    /// A message of ours was sent.
    pub on_sent: Vec<String>,
    /// The daemon met an error it logs at error level.
    pub on_error: Vec<String>,
    /// How near a deadline is for `on_deadline`, in days; default 3.
    pub deadline_days: u32,
    /// How long a hook may run before it is stopped, in seconds; default 30.
    pub timeout_secs: u32,
}

impl Default for Hooks {
    fn default() -> Self {
        Hooks {
            on_move: Vec::new(),
            on_held: Vec::new(),
            on_deadline: Vec::new(),
            on_sent: Vec::new(),
            on_error: Vec::new(),
            deadline_days: 3,
            timeout_secs: 30,
        }
    }
}

/// Where the config file is when `--config` and `CCMAIL_CONFIG` don't say:
/// `$XDG_CONFIG_HOME/ccmail/config.toml`, else `$HOME/.config/ccmail/config.toml`. An
/// `XDG_CONFIG_HOME` that is empty or relative is ignored, as the XDG spec says.
pub fn default_path() -> PathBuf {
    env::default_config_path(&env::process)
}

/// Reads and checks the config file at `path`.
///
/// The error (an [`Error`]; its [`ErrorKind`] tells a missing file from a wrong one) is one
/// line that names the file and, for a wrong key or value, the key and what is allowed.
pub fn load(path: &Path) -> anyhow::Result<Config> {
    Ok(read::load(path, &env::process)?)
}

#[cfg(test)]
mod tests;
