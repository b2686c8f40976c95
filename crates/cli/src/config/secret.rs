//! Where a mail password comes from, and fetching it when it is needed.
//!
//! The source is kept, not the password: a command is run, a variable read, only when a
//! command that talks to the server asks. `Debug` shows the kind of source and never the
//! password or the command (a command may hold one: `printf hunter2`). No error here repeats
//! the password or what the command printed. The password, an inline one and the command are
//! held in memory that is zeroed when dropped.

use std::fmt;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};

use zeroize::Zeroizing;

use super::error::{Error, ErrorKind};

/// One of the three ways `[imap]` or `[smtp]` give a password.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct PasswordSource {
    /// `imap` or `smtp`, for the errors.
    section: &'static str,
    /// The config file, for the errors.
    file: PathBuf,
    how: How,
}

#[derive(Clone, PartialEq, Eq)]
pub(super) enum How {
    /// `password_cmd`: run with `sh -c`, its output is the password.
    Command(Zeroizing<String>),
    /// `password_env`: the name of the variable that holds it.
    Env(String),
    /// `password`: the password itself (the file was checked to be private).
    Inline(Zeroizing<String>),
}

impl PasswordSource {
    pub(super) fn new(section: &'static str, file: PathBuf, how: How) -> Self {
        PasswordSource { section, file, how }
    }

    /// `password_cmd`'s command, if that is the source.
    pub(super) fn command(&self) -> Option<&str> {
        match &self.how {
            How::Command(command) => Some(command.as_str()),
            How::Env(_) | How::Inline(_) => None,
        }
    }

    /// The password, fetched now.
    pub(super) fn fetch(&self) -> Result<Zeroizing<String>, Error> {
        match &self.how {
            How::Command(command) => self.run("password_cmd", command),
            How::Env(name) => self.read_var(name),
            How::Inline(password) => Ok(password.clone()),
        }
    }

    /// Runs `password_cmd`. Its standard error goes to the user, where a password manager's
    /// own complaint is most useful; its standard input is closed, so that a command that
    /// would wait for a typed password fails at once instead of hanging the daemon.
    pub(super) fn run(&self, key: &str, command: &str) -> Result<Zeroizing<String>, Error> {
        let output = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .output()
            .map_err(|err| {
                failed(crate::t!(
                    "config-cmd-not-run",
                    key = self.full_key(key),
                    error = err.to_string(),
                    file = self.file_name()
                ))
            })?;
        if !output.status.success() {
            return Err(failed(failure(
                &self.full_key(key),
                &self.file_name(),
                output.status,
            )));
        }
        let printed = Zeroizing::new(output.stdout);
        let Ok(text) = std::str::from_utf8(&printed) else {
            return Err(failed(crate::t!(
                "config-cmd-not-utf8",
                key = self.full_key(key),
                file = self.file_name()
            )));
        };
        let text = match text.strip_suffix('\n') {
            Some(line) => line.strip_suffix('\r').unwrap_or(line),
            None => text,
        };
        if text.is_empty() {
            return Err(failed(crate::t!(
                "config-cmd-printed-nothing",
                key = self.full_key(key),
                file = self.file_name()
            )));
        }
        Ok(Zeroizing::new(text.to_owned()))
    }

    /// Reads `password_env`'s variable.
    fn read_var(&self, name: &str) -> Result<Zeroizing<String>, Error> {
        let key = self.full_key("password_env");
        match std::env::var_os(name) {
            None => Err(failed(crate::t!(
                "config-env-unset",
                key = key,
                name = name,
                file = self.file_name()
            ))),
            Some(value) if value.is_empty() => Err(failed(crate::t!(
                "config-env-empty",
                key = key,
                name = name,
                file = self.file_name()
            ))),
            Some(value) => value.into_string().map(Zeroizing::new).map_err(|_| {
                failed(crate::t!(
                    "config-env-not-utf8",
                    key = key,
                    name = name,
                    file = self.file_name()
                ))
            }),
        }
    }

    /// `imap.password_cmd`, for the errors.
    fn full_key(&self, key: &str) -> String {
        format!("{}.{key}", self.section)
    }

    /// The config file, for the errors.
    fn file_name(&self) -> String {
        self.file.display().to_string()
    }
}

/// A password that could not be fetched: "imap.password_cmd failed with exit status 1 (in
/// FILE)".
fn failed(message: String) -> Error {
    Error::new(ErrorKind::Password, message)
}

/// How the command `key` of `file` failed: "… failed with exit status 3 (in FILE)", "… was
/// killed by signal 9 (in FILE)".
fn failure(key: &str, file: &str, status: ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return crate::t!("config-cmd-signal", key = key, signal = signal, file = file);
    }
    match status.code() {
        Some(code) => crate::t!(
            "config-cmd-exit-status",
            key = key,
            code = code,
            file = file
        ),
        None => crate::t!(
            "config-cmd-failed",
            key = key,
            status = status.to_string(),
            file = file
        ),
    }
}

/// [`super::Smtp::password`] when `[smtp]` has no username.
pub(super) fn no_smtp_login() -> Error {
    Error::new(ErrorKind::Password, crate::t!("config-smtp-no-login"))
}

/// [`super::Imap::password`] or [`super::Smtp::password`] of a section that logs in with
/// OAuth2.
pub(super) fn oauth2_not_password(section: &str) -> Error {
    Error::new(
        ErrorKind::Password,
        crate::t!("config-oauth2-not-password", section = section),
    )
}

impl fmt::Debug for PasswordSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.how {
            How::Command(_) => f.write_str("Command(<hidden>)"),
            How::Env(name) => f.debug_tuple("Env").field(name).finish(),
            How::Inline(_) => f.write_str("Inline(<hidden>)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(cmd: &str) -> PasswordSource {
        PasswordSource::new(
            "imap",
            "/c.toml".into(),
            How::Command(cmd.to_owned().into()),
        )
    }

    #[test]
    fn a_command_loses_one_final_newline_only() {
        let cases = [
            ("printf secret", "secret"),
            ("echo secret", "secret"),
            ("printf 'secret\\r\\n'", "secret"),
            ("printf 'secret\\n\\n'", "secret\n"),
            ("printf ' sec ret '", " sec ret "),
        ];
        for (cmd, want) in cases {
            assert_eq!(*command(cmd).fetch().unwrap(), want, "{cmd}");
        }
    }

    #[test]
    fn a_command_that_fails_or_prints_nothing_is_an_error() {
        let cases = [
            (
                "echo hunter2; exit 3",
                "imap.password_cmd failed with exit status 3 (in /c.toml)",
            ),
            ("true", "imap.password_cmd printed nothing (in /c.toml)"),
            (
                "kill -9 $$",
                "imap.password_cmd was killed by signal 9 (in /c.toml)",
            ),
            (
                "printf '\\377'",
                "imap.password_cmd printed something that is not UTF-8 text (in /c.toml)",
            ),
        ];
        for (cmd, want) in cases {
            let err = command(cmd).fetch().unwrap_err();
            assert_eq!(err.to_string(), want, "{cmd}");
            assert_eq!(err.kind(), ErrorKind::Password);
        }
    }

    /// What the config holds (an inline password, a command that may be one) and what a
    /// fetch gives are zeroed when dropped: the daemon holds them for days.
    #[test]
    fn secrets_are_zeroed_on_drop() {
        fn zeroed<T: zeroize::ZeroizeOnDrop>(_: &T) {}
        for how in [
            How::Inline(String::from("hunter2").into()),
            How::Command(String::from("printf hunter2").into()),
        ] {
            match &how {
                How::Inline(secret) | How::Command(secret) => zeroed(secret),
                How::Env(_) => unreachable!(),
            }
            let source = PasswordSource::new("imap", "/c".into(), how);
            let password = source.fetch().unwrap();
            assert_eq!(*password, "hunter2");
            zeroed(&password);
        }
    }

    #[test]
    fn debug_hides_the_password_and_the_command() {
        let inline = PasswordSource::new(
            "smtp",
            "/c".into(),
            How::Inline(String::from("hunter2").into()),
        );
        assert_eq!(format!("{inline:?}"), "Inline(<hidden>)");
        assert_eq!(
            format!("{:?}", command("printf hunter2")),
            "Command(<hidden>)"
        );
        let env = PasswordSource::new("smtp", "/c".into(), How::Env("PW".into()));
        assert_eq!(format!("{env:?}"), "Env(\"PW\")");
    }
}
