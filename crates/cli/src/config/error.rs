//! The config's error: one line for the user, and a kind for the commands that branch on it
//! (`ccmail init` writes a starter file where the kind is [`ErrorKind::NotFound`]).

use std::fmt;

/// What kind of thing is wrong with the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// There is no file at the path: `ccmail init` writes one.
    NotFound,
    /// The file is there but can't be read, or is not UTF-8 text.
    Unreadable,
    /// The file is not TOML; the message gives the line and column.
    Syntax,
    /// The file is TOML, but a section, key or value is wrong (or a password is in a file
    /// others can read).
    Invalid,
    /// A password could not be fetched: its command failed, its variable is not set.
    Password,
}

/// A config error. Its `Display` is the whole message, meant to follow `ccmail: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    pub(super) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    /// An [`ErrorKind::Invalid`] error.
    pub(super) fn invalid(message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Invalid, message)
    }

    /// What kind of thing is wrong.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
