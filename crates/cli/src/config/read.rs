//! From the file's text to a checked [`Config`].
//!
//! The TOML is read into a plain table first and walked by hand rather than through serde, so
//! that each error can say exactly which key is wrong, in which file, and what it may be. The
//! names are checked for the whole file before any value (in `schema.rs`): a misspelt key is
//! reported as misspelt, not as the required key that is then missing.

use std::path::{Path, PathBuf};

use ccmail_core::clock::{Control, Profile};
use ccmail_core::message::Language;
use ccmail_core::notation::Notation;
use chrono::NaiveDate;
use toml::{Table, Value};

use super::env::{self, Env, ExpandError};
use super::error::{Error, ErrorKind};
use super::oauth2;
use super::schema::check_names;
use super::secret::{How, PasswordSource};
use super::{Config, Defaults, Hooks, Imap, Player, Security, SenderChecks, Smtp, StorePaths};

/// Keys whose values no error repeats: they hold a password or a command that may print one.
const SECRET: &[&str] = &[
    "password",
    "password_cmd",
    "oauth2_token_cmd",
    "client_secret_cmd",
    "refresh_token_cmd",
];

/// The three password keys, at most one of which may be given.
const PASSWORD_KEYS: [&str; 3] = ["password_cmd", "password_env", "password"];

/// What a value must be, for the error when it is not. Worded only then, in the interface
/// language: a file that loads asks for no text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum What {
    NonEmpty,
    Host,
    Email,
    Zone,
    Security,
    /// A whole number from the first to the second.
    Number(u32, u32),
    Date,
    Path,
    EnvName,
    Bool,
    Command,
    Url,
    /// A section `[NAME]`.
    Section(String),
    Language,
    Notation,
    Control,
    Rules,
}

/// A port: a whole number from 1 to 65535.
pub(super) const PORT: What = What::Number(1, 65535);

impl What {
    fn text(&self) -> String {
        match self {
            What::NonEmpty => crate::t!("config-what-non-empty"),
            What::Host => crate::t!("config-what-host"),
            What::Email => crate::t!("config-what-email"),
            What::Zone => crate::t!("config-what-zone"),
            What::Security => crate::t!("config-what-security"),
            What::Number(min, max) => crate::t!("config-what-number", min = *min, max = *max),
            What::Date => crate::t!("config-what-date"),
            What::Path => crate::t!("config-what-path"),
            What::EnvName => crate::t!("config-what-env-name"),
            What::Bool => crate::t!("config-what-bool"),
            What::Command => crate::t!("config-what-command"),
            What::Url => crate::t!("config-what-url"),
            What::Section(name) => crate::t!("config-what-section", section = name),
            What::Language => crate::t!("config-what-language"),
            What::Notation => crate::t!("config-what-notation"),
            What::Control => crate::t!("config-what-control"),
            What::Rules => crate::t!("config-what-rules"),
        }
    }
}

/// Reads, parses and checks the file at `path`; `env` is the environment to take defaults
/// from.
pub(super) fn load(path: &Path, env: Env) -> Result<Config, Error> {
    let text = read_text(path)?;
    let doc = parse(path, &text)?;
    check_names(path, &doc)?;
    let file = File {
        path,
        dir: dir_of(path),
        env,
    };
    let player = player(&file.section(&doc, "player"))?;
    let store = store(&file.section(&doc, "store"))?;
    let imap = imap(&file.section(&doc, "imap"))?;
    let smtp = smtp(&file.section(&doc, "smtp"))?;
    let defaults = defaults(&file.section(&doc, "defaults"))?;
    let hooks = hooks(&file.section(&doc, "hooks"))?;
    let security = SenderChecks {
        authserv_id: file.section(&doc, "security").parse(
            "authserv_id",
            What::Host,
            authserv_id,
        )?,
    };
    Ok(Config {
        path: path.to_path_buf(),
        player,
        store,
        imap,
        smtp,
        defaults,
        hooks,
        security,
    })
}

fn read_text(path: &Path) -> Result<String, Error> {
    let file = path.display().to_string();
    std::fs::read_to_string(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => Error::new(
            ErrorKind::NotFound,
            crate::t!("config-not-found", file = file),
        ),
        std::io::ErrorKind::InvalidData => Error::new(
            ErrorKind::Unreadable,
            crate::t!("config-not-utf8", file = file),
        ),
        _ => Error::new(
            ErrorKind::Unreadable,
            crate::t!("config-unreadable", file = file, error = err.to_string()),
        ),
    })
}

/// Parses the TOML. The error gives toml's message with the line and column, but not toml's
/// quote of the line, which may hold a password.
fn parse(path: &Path, text: &str) -> Result<Table, Error> {
    text.parse::<Table>().map_err(|err| {
        let message = err.message().trim_end();
        let file = path.display().to_string();
        let words = match err.span() {
            Some(span) => {
                let (line, column) = line_column(text, span.start);
                crate::t!(
                    "config-syntax-at",
                    file = file,
                    line = line,
                    column = column,
                    message = message
                )
            }
            None => crate::t!("config-syntax", file = file, message = message),
        };
        Error::new(ErrorKind::Syntax, words)
    })
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}

/// The directory relative paths in the file are taken from.
fn dir_of(path: &Path) -> PathBuf {
    std::path::absolute(path)
        .ok()
        .and_then(|path| path.parent().map(Path::to_path_buf))
        .unwrap_or_default()
}

/// "`key` must be `what`, not `value` (in FILE)"; a secret's value is left out.
pub(super) fn not(key: &str, what: &What, value: &Value, path: &Path) -> String {
    let file = path.display().to_string();
    let what = what.text();
    let last = key.rsplit('.').next().unwrap_or(key);
    if SECRET.contains(&last) {
        return crate::t!("config-must-be", key = key, what = what, file = file);
    }
    let shown = match value {
        Value::String(s) => format!("{s:?}"),
        Value::Integer(n) => n.to_string(),
        Value::Float(x) => x.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(dt) => dt.to_string(),
        Value::Array(_) => {
            return crate::t!(
                "config-must-be-not-list",
                key = key,
                what = what,
                file = file
            );
        }
        Value::Table(_) => {
            return crate::t!(
                "config-must-be-not-table",
                key = key,
                what = what,
                file = file
            );
        }
    };
    crate::t!(
        "config-must-be-not",
        key = key,
        what = what,
        value = shown,
        file = file
    )
}

/// The file being read, for the sections' errors and paths.
pub(super) struct File<'a> {
    pub(super) path: &'a Path,
    dir: PathBuf,
    pub(super) env: Env<'a>,
}

impl<'a> File<'a> {
    fn section(&'a self, doc: &'a Table, name: &'static str) -> Section<'a> {
        Section {
            name,
            table: doc.get(name).and_then(Value::as_table),
            file: self,
        }
    }
}

/// One section of the file (`table` is `None` when the file has none), with readers for its
/// keys that check the value and word the error.
pub(super) struct Section<'a> {
    pub(super) name: &'static str,
    pub(super) table: Option<&'a Table>,
    pub(super) file: &'a File<'a>,
}

impl<'a> Section<'a> {
    /// The sub-section `[NAME.KEY]` (`[imap.oauth2]`), named `name`.
    fn sub(&self, key: &str, name: &'static str) -> Section<'a> {
        Section {
            name,
            table: self
                .table
                .and_then(|t| t.get(key))
                .and_then(Value::as_table),
            file: self.file,
        }
    }
}

impl Section<'_> {
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.table?.get(key)
    }

    pub(super) fn invalid(&self, key: &str, what: &What, value: &Value) -> Error {
        let key = format!("{}.{key}", self.name);
        Error::invalid(not(&key, what, value, self.file.path))
    }

    pub(super) fn missing(&self, key: &str) -> Error {
        Error::invalid(crate::t!(
            "config-missing-key",
            key = format!("{}.{key}", self.name),
            file = self.file.path.display().to_string()
        ))
    }

    /// `key`'s string value, made into a `T` by `parse`; an error (saying it must be
    /// `what`) when it is not a string or `parse` refuses it; `None` when it is not there.
    pub(super) fn parse<T>(
        &self,
        key: &str,
        what: What,
        parse: impl FnOnce(&str) -> Option<T>,
    ) -> Result<Option<T>, Error> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        value
            .as_str()
            .and_then(parse)
            .map(Some)
            .ok_or_else(|| self.invalid(key, &what, value))
    }

    /// A non-empty string, if there.
    pub(super) fn text(&self, key: &str) -> Result<Option<String>, Error> {
        self.parse(key, What::NonEmpty, non_empty)
    }

    /// A non-empty string that must be there.
    pub(super) fn required_text(&self, key: &str) -> Result<String, Error> {
        self.text(key)?.ok_or_else(|| self.missing(key))
    }

    fn host(&self) -> Result<String, Error> {
        self.parse("host", What::Host, |s| {
            let ok = !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || c == '/');
            ok.then(|| s.to_owned())
        })?
        .ok_or_else(|| self.missing("host"))
    }

    /// `security` for a server at `host`. `plain` (no TLS: the password and the mail in clear,
    /// no certificate to check) only for a server on this machine: anywhere else there is no
    /// way to switch encryption or the certificate check off (a private CA takes `ca_file`).
    fn security(&self, host: &str) -> Result<Security, Error> {
        let security = self.parse("security", What::Security, |s| match s {
            "tls" => Some(Security::Tls),
            "starttls" => Some(Security::StartTls),
            "plain" => Some(Security::Plain),
            _ => None,
        })?;
        if security == Some(Security::Plain) && !is_loopback(host) {
            return Err(Error::invalid(crate::t!(
                "config-plain-not-local",
                section = self.name,
                host = format!("{host:?}"),
                file = self.file.path.display().to_string()
            )));
        }
        Ok(security.unwrap_or(Security::Tls))
    }

    /// `true` or `false`, if there.
    fn boolean(&self, key: &str) -> Result<Option<bool>, Error> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.as_bool() {
            Some(b) => Ok(Some(b)),
            None => Err(self.invalid(key, &What::Bool, value)),
        }
    }

    /// A command and its arguments: a list of strings, the first not empty; empty when not
    /// there.
    fn command(&self, key: &str) -> Result<Vec<String>, Error> {
        let Some(value) = self.get(key) else {
            return Ok(Vec::new());
        };
        let words: Option<Vec<String>> = value
            .as_array()
            .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect());
        match words {
            Some(w) if w.first().is_none_or(|p| !p.is_empty()) => Ok(w),
            _ => Err(self.invalid(key, &What::Command, value)),
        }
    }

    /// A whole number from `min` to `max`, if there.
    fn number(&self, key: &str, min: u32, max: u32) -> Result<Option<u32>, Error> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match value.as_integer().map(u32::try_from) {
            Some(Ok(n)) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(self.invalid(key, &What::Number(min, max), value)),
        }
    }

    fn port(&self) -> Result<Option<u16>, Error> {
        let Some(value) = self.get("port") else {
            return Ok(None);
        };
        match value.as_integer().map(u16::try_from) {
            Some(Ok(port)) if port > 0 => Ok(Some(port)),
            _ => Err(self.invalid("port", &PORT, value)),
        }
    }

    /// A path: `~/` expanded, a relative one taken from the file's directory.
    pub(super) fn path(&self, key: &str) -> Result<Option<PathBuf>, Error> {
        let Some(raw) = self.parse(key, What::Path, non_empty)? else {
            return Ok(None);
        };
        let key = format!("{}.{key}", self.name);
        let file = || self.file.path.display().to_string();
        match env::expand(&raw, self.file.env, &self.file.dir) {
            Ok(path) => Ok(Some(path)),
            Err(ExpandError::NoHome) => Err(Error::invalid(crate::t!(
                "config-no-home",
                key = key,
                file = file()
            ))),
            Err(ExpandError::OtherUser) => Err(Error::invalid(crate::t!(
                "config-other-user",
                key = key,
                raw = format!("{raw:?}"),
                file = file()
            ))),
        }
    }

    /// A TOML date (`2026-01-31`) or the same as a string.
    fn date(&self, key: &str) -> Result<Option<NaiveDate>, Error> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        let date = match value {
            Value::Datetime(dt) => match (dt.date, dt.time, dt.offset) {
                (Some(d), None, None) => {
                    NaiveDate::from_ymd_opt(d.year.into(), d.month.into(), d.day.into())
                }
                _ => None,
            },
            Value::String(s) => NaiveDate::parse_from_str(s, "%Y-%m-%d").ok(),
            _ => None,
        };
        date.map(Some)
            .ok_or_else(|| self.invalid(key, &What::Date, value))
    }

    /// The password source, if one of the three keys is given; an error if two are.
    fn password(&self) -> Result<Option<PasswordSource>, Error> {
        let given: Vec<&str> = PASSWORD_KEYS
            .into_iter()
            .filter(|key| self.get(key).is_some())
            .collect();
        let how = match given.as_slice() {
            [] => return Ok(None),
            ["password_cmd"] => How::Command(self.required_text("password_cmd")?.into()),
            ["password_env"] => How::Env(self.env_name()?),
            [_] => How::Inline(self.inline_password()?.into()),
            [first, second, ..] => {
                return Err(Error::invalid(crate::t!(
                    "config-two-passwords",
                    first = format!("{}.{first}", self.name),
                    second = format!("{}.{second}", self.name),
                    file = self.file.path.display().to_string()
                )));
            }
        };
        Ok(Some(PasswordSource::new(
            self.name,
            self.file.path.to_path_buf(),
            how,
        )))
    }

    fn env_name(&self) -> Result<String, Error> {
        let name = self.parse("password_env", What::EnvName, |s| {
            let ok = !s.is_empty() && !s.contains(['=', '\0']);
            ok.then(|| s.to_owned())
        })?;
        name.ok_or_else(|| self.missing("password_env"))
    }

    /// `password`, allowed only in a file that only its owner can read.
    fn inline_password(&self) -> Result<String, Error> {
        let password = self.required_text("password")?;
        let file = self.file.path.display().to_string();
        match private_mode(self.file.path) {
            Ok(None) => Ok(password),
            Ok(Some(mode)) => Err(Error::invalid(crate::t!(
                "config-password-not-private",
                key = format!("{}.password", self.name),
                file = file,
                mode = format!("{mode:04o}")
            ))),
            Err(err) => Err(Error::new(
                ErrorKind::Unreadable,
                crate::t!(
                    "config-permissions-unreadable",
                    file = file,
                    error = err.to_string()
                ),
            )),
        }
    }
}

/// `None` if the file's mode lets only its owner read or write it; else the mode.
#[cfg(unix)]
pub(super) fn private_mode(path: &Path) -> std::io::Result<Option<u32>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
    Ok((mode & 0o077 != 0).then_some(mode))
}

#[cfg(not(unix))]
pub(super) fn private_mode(_path: &Path) -> std::io::Result<Option<u32>> {
    Ok(None)
}

/// `localhost`, or an IP address of the loopback interface (127.0.0.0/8, ::1).
fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// An authserv-id: a host name as servers write it (`mx.google.com`), lower case.
fn authserv_id(s: &str) -> Option<String> {
    let ok = !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || ";()\"=".contains(c));
    ok.then(|| s.to_ascii_lowercase())
}

fn non_empty(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_owned())
}

fn player(s: &Section) -> Result<Player, Error> {
    if s.table.is_none() {
        return Err(Error::invalid(crate::t!(
            "config-no-player",
            file = s.file.path.display().to_string()
        )));
    }
    let name = s.required_text("name")?;
    let surname = s.required_text("surname")?;
    let email = s.parse("email", What::Email, |s| is_email(s).then(|| s.to_owned()))?;
    let email = email.ok_or_else(|| s.missing("email"))?;
    let timezone = s.parse("timezone", What::Zone, |s| {
        env::is_zone(s).then(|| s.to_owned())
    })?;
    let timezone = timezone.unwrap_or_else(|| env::system_timezone(s.file.env));
    let language = s.parse("language", What::Language, crate::i18n::Lang::from_config)?;
    Ok(Player {
        name,
        surname,
        email,
        timezone,
        language,
    })
}

/// A plausible address: one `@` with something on both sides, no spaces or brackets.
fn is_email(s: &str) -> bool {
    let bad = |c: char| c.is_whitespace() || "<>,;\"".contains(c);
    match s.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty() && !domain.is_empty() && !domain.contains('@') && !s.contains(bad)
        }
        None => false,
    }
}

fn store(s: &Section) -> Result<StorePaths, Error> {
    let db = match s.path("path")? {
        Some(db) => db,
        None => env::default_db_path(s.file.env).ok_or_else(|| {
            Error::invalid(crate::t!(
                "config-no-default-db",
                file = s.file.path.display().to_string()
            ))
        })?,
    };
    Ok(StorePaths { db })
}

fn imap(s: &Section) -> Result<Option<Imap>, Error> {
    if s.table.is_none() {
        return Ok(None);
    }
    let host = s.host()?;
    let security = s.security(&host)?;
    let port = s.port()?.unwrap_or(security.default_imap_port());
    let username = s.required_text("username")?;
    let password = s.password()?;
    let oauth2 = oauth2::read(s, &s.sub("oauth2", "imap.oauth2"), Some(&username))?;
    match (&password, &oauth2) {
        (None, None) => {
            return Err(Error::invalid(crate::t!(
                "config-imap-no-password",
                file = s.file.path.display().to_string()
            )));
        }
        (Some(_), Some(_)) => return Err(password_and_oauth2(s)),
        _ => {}
    }
    Ok(Some(Imap {
        host,
        port,
        security,
        username,
        mailbox: s.text("mailbox")?.unwrap_or_else(|| "INBOX".to_owned()),
        ca_file: s.path("ca_file")?,
        first_sync_since: s.date("first_sync_since")?,
        sent_mailbox: s.text("sent_mailbox")?,
        password,
        oauth2,
    }))
}

fn smtp(s: &Section) -> Result<Option<Smtp>, Error> {
    if s.table.is_none() {
        return Ok(None);
    }
    let host = s.host()?;
    let security = s.security(&host)?;
    let port = s.port()?.unwrap_or(security.default_smtp_port());
    let username = s.text("username")?;
    let password = s.password()?;
    let oauth2 = oauth2::read(s, &s.sub("oauth2", "smtp.oauth2"), username.as_deref())?;
    let file = || s.file.path.display().to_string();
    if password.is_some() && oauth2.is_some() {
        return Err(password_and_oauth2(s));
    }
    if oauth2.is_some() && username.is_none() {
        return Err(Error::invalid(crate::t!(
            "config-smtp-oauth2-no-username",
            file = file()
        )));
    }
    match (&username, &password) {
        (Some(_), None) if oauth2.is_some() => {}
        (Some(_), None) => {
            return Err(Error::invalid(crate::t!(
                "config-smtp-no-password",
                file = file()
            )));
        }
        (None, Some(_)) => {
            return Err(Error::invalid(crate::t!(
                "config-smtp-no-username",
                file = file()
            )));
        }
        _ => {}
    }
    Ok(Some(Smtp {
        host,
        port,
        security,
        username,
        ca_file: s.path("ca_file")?,
        password,
        oauth2,
    }))
}

fn password_and_oauth2(s: &Section) -> Error {
    Error::invalid(crate::t!(
        "config-password-and-oauth2",
        section = s.name,
        file = s.file.path.display().to_string()
    ))
}

fn defaults(s: &Section) -> Result<Defaults, Error> {
    let default = Defaults::default();
    let language = s.parse("language", What::Language, |s| {
        s.parse::<Language>().ok().map(|l| l.as_str().to_owned())
    })?;
    let notation = s.parse("notation", What::Notation, |s| {
        match s.parse::<Notation>().ok()? {
            n @ (Notation::Numeric | Notation::San | Notation::SanRu) => {
                Some(n.as_str().to_owned())
            }
            _ => None,
        }
    })?;
    let control = s.parse("control", What::Control, |s| {
        s.parse::<Control>().ok().map(|c| c.to_string())
    })?;
    let rules = s.parse("rules", What::Rules, |s| {
        s.parse::<Profile>().ok().map(|p| p.as_str().to_owned())
    })?;
    let attach_pgn = s.boolean("attach_pgn")?;
    Ok(Defaults {
        attach_pgn: attach_pgn.unwrap_or(default.attach_pgn),
        language: language.unwrap_or(default.language),
        notation: notation.unwrap_or(default.notation),
        control: control.unwrap_or(default.control),
        rules: rules.unwrap_or(default.rules),
    })
}

fn hooks(s: &Section) -> Result<Hooks, Error> {
    let default = Hooks::default();
    Ok(Hooks {
        on_move: s.command("on_move")?,
        on_held: s.command("on_held")?,
        on_deadline: s.command("on_deadline")?,
        on_sent: s.command("on_sent")?,
        on_error: s.command("on_error")?,
        deadline_days: s
            .number("deadline_days", 0, 60)?
            .unwrap_or(default.deadline_days),
        timeout_secs: s
            .number("timeout_secs", 1, 3600)?
            .unwrap_or(default.timeout_secs),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_column_counts_characters() {
        let text = "a = 1\nимя = \"x\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        let quote = text.find('"').unwrap();
        assert_eq!(line_column(text, quote), (2, 7));
    }

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost",
            "LOCALHOST",
            "127.0.0.1",
            "127.1.2.3",
            "::1",
            "[::1]",
        ] {
            assert!(is_loopback(host), "{host}");
        }
        for host in [
            "mail.example.org",
            "10.0.0.1",
            "localhost.example.org",
            "::2",
            "0.0.0.0",
        ] {
            assert!(!is_loopback(host), "{host}");
        }
    }

    #[test]
    fn email_is_plausible() {
        for good in [
            "a@b.org",
            "petrov@localhost",
            "ivan.ivanov+chess@example.org",
        ] {
            assert!(is_email(good), "{good}");
        }
        for bad in ["", "a", "@b", "a@", "a@b@c", "a b@c", "<a@b>", "a@b,c@d"] {
            assert!(!is_email(bad), "{bad}");
        }
    }
}
