//! Why a mail configuration cannot work: the reason of the IMAP and SMTP errors' `Config`
//! variants.

use std::path::PathBuf;

use crate::tls::TlsError;

/// A configuration (or an argument) that cannot work.
#[derive(Debug, thiserror::Error)]
pub enum Misconfig {
    /// `security = "plain"` for IMAP without `plain_ok`.
    #[error(
        "security = \"plain\" for {server} sends the password unencrypted; it must be allowed \
         explicitly (plain_ok)"
    )]
    PlainImap {
        /// `host:port`.
        server: String,
    },
    /// `security = "plain"` for SMTP without `plain_ok`.
    #[error(
        "security = \"plain\" for {server} sends mail (and any password) unencrypted; it must \
         be allowed explicitly (plain_ok)"
    )]
    PlainSmtp {
        /// `host:port`.
        server: String,
    },
    /// An SMTP user name without a password (and without OAuth2).
    #[error("a user name ({user}) but no password for {server}")]
    NoPassword {
        /// The user name.
        user: String,
        /// `host:port`.
        server: String,
    },
    /// TLS cannot be prepared: the CA file, the host name.
    #[error("{0}")]
    Tls(TlsError),
    /// A CA certificate lettre does not take.
    #[error("CA file {}: {error}", path.display())]
    CaCertificate {
        /// The file named in the config.
        path: PathBuf,
        /// lettre's words.
        error: String,
    },
    /// lettre cannot set up TLS for the host.
    #[error("TLS for {host}: {error}")]
    TlsFor {
        /// The server's host name.
        host: String,
        /// lettre's words.
        error: String,
    },
    /// An IMAP command argument that cannot be sent (async-imap's words).
    #[error("{command}: {error}")]
    Invalid {
        /// The command.
        command: String,
        /// async-imap's words.
        error: String,
    },
    /// Not a UID set (`1:*`, `4,7`).
    #[error("{0:?} is not a UID set")]
    NotUidSet(String),
    /// Not an IMAP flag.
    #[error("{0:?} is not an IMAP flag")]
    NotAFlag(String),
}
