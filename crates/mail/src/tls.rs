//! TLS for the mail connections: one way to build a rustls client configuration.
//!
//! The trust anchors are Mozilla's roots (webpki-roots) plus, optionally, the certificates of
//! one extra CA file (`ca_file` in the config: a company CA, or the test servers' throw-away
//! CA). Certificates and host names are always verified: there is deliberately no switch to
//! turn verification off. The crypto provider is always ring, named explicitly, so the
//! process-wide default provider (which panics when two are compiled in) is never consulted.

use std::error::Error as StdError;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, RootCertStore};

/// How a mail connection is secured (`security` in the `[imap]` and `[smtp]` config).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain connection upgraded with STARTTLS before anything else; refusing it is an error,
    /// never a reason to go on in plain text.
    StartTls,
    /// No TLS at all: only when the configuration says so explicitly (`plain_ok`).
    Plain,
}

impl std::str::FromStr for Security {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tls" => Ok(Security::Tls),
            "starttls" => Ok(Security::StartTls),
            "plain" => Ok(Security::Plain),
            _ => Err(format!(
                "unknown security {s:?}: expected \"tls\", \"starttls\" or \"plain\""
            )),
        }
    }
}

impl std::fmt::Display for Security {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Security::Tls => "tls",
            Security::StartTls => "starttls",
            Security::Plain => "plain",
        })
    }
}

/// What can go wrong while preparing TLS (never while talking to a server: handshake failures
/// are reported by the IMAP and SMTP errors, see [`find_rustls_error`]).
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The extra CA file could not be read.
    #[error("cannot read the CA file {path}: {source}")]
    CaFileRead {
        /// The file named in the config.
        path: PathBuf,
        /// Why reading failed.
        source: io::Error,
    },
    /// The extra CA file holds no usable PEM certificate.
    #[error("the CA file {path} holds no usable certificate: {reason}")]
    CaFileContent {
        /// The file named in the config.
        path: PathBuf,
        /// What was wrong with it.
        reason: CaProblem,
    },
    /// The host name is neither a DNS name nor an IP address.
    #[error("{0:?} is not a valid host name for TLS")]
    InvalidHostName(String),
    /// rustls refused the configuration (should not happen with the ring provider).
    #[error("TLS configuration: {0}")]
    Config(#[from] rustls::Error),
}

/// What is wrong with a CA file's content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaProblem {
    /// Not one PEM certificate in it.
    #[error("no \"BEGIN CERTIFICATE\" block")]
    NoCertificate,
    /// The words of the library that read it (rustls, webpki).
    #[error("{0}")]
    Said(String),
}

/// Why TLS with a server failed: the `reason` of the IMAP and SMTP errors' `Tls` variants.
#[derive(Debug, thiserror::Error)]
pub enum TlsFailure {
    /// The server's certificate was refused: rustls's words, and a hint for `ca_file`.
    #[error(
        "{error} (the server's certificate is not valid for {host} or not signed by a \
         trusted CA; for a private CA set ca_file)"
    )]
    Certificate {
        /// rustls's words.
        error: String,
        /// The host the certificate had to be for.
        host: String,
    },
    /// The IMAP server refused STARTTLS (what it answered).
    #[error("STARTTLS refused: {0}")]
    StartTlsRefused(Box<crate::imap::ImapError>),
    /// The words of rustls, the network or lettre.
    #[error("{0}")]
    Said(String),
}

impl From<String> for TlsFailure {
    fn from(words: String) -> Self {
        TlsFailure::Said(words)
    }
}

impl From<&str> for TlsFailure {
    fn from(words: &str) -> Self {
        TlsFailure::Said(words.to_owned())
    }
}

/// Reads every certificate of a PEM file (one CA, or a bundle).
pub fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, TlsError> {
    let bytes = std::fs::read(path).map_err(|source| TlsError::CaFileRead {
        path: path.to_owned(),
        source,
    })?;
    let certs = CertificateDer::pem_slice_iter(&bytes)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| TlsError::CaFileContent {
            path: path.to_owned(),
            reason: CaProblem::Said(e.to_string()),
        })?;
    if certs.is_empty() {
        return Err(TlsError::CaFileContent {
            path: path.to_owned(),
            reason: CaProblem::NoCertificate,
        });
    }
    Ok(certs)
}

/// A client configuration trusting webpki-roots plus the certificates of `ca_file`.
pub fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, TlsError> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    if let Some(path) = ca_file {
        for cert in read_ca_file(path)? {
            roots.add(cert).map_err(|e| TlsError::CaFileContent {
                path: path.to_owned(),
                reason: CaProblem::Said(e.to_string()),
            })?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The name the server's certificate must carry: a DNS name or an IP address.
pub fn server_name(host: &str) -> Result<ServerName<'static>, TlsError> {
    ServerName::try_from(host.to_owned()).map_err(|_| TlsError::InvalidHostName(host.to_owned()))
}

/// A handshake failure in words a user can act on.
pub fn describe(err: &rustls::Error, host: &str) -> TlsFailure {
    match err {
        rustls::Error::InvalidCertificate(_) => TlsFailure::Certificate {
            error: err.to_string(),
            host: host.to_owned(),
        },
        _ => TlsFailure::Said(err.to_string()),
    }
}

/// The rustls error inside an error chain, if any: a TLS handshake failure wrapped in an
/// `io::Error` (tokio-rustls, lettre) is found this way. `io::Error::source` skips the error it
/// wraps, so each `io::Error` in the chain is also looked into with `get_ref`.
pub fn find_rustls_error<'a>(err: &'a (dyn StdError + 'static)) -> Option<&'a rustls::Error> {
    let mut next: Option<&'a (dyn StdError + 'static)> = Some(err);
    while let Some(e) = next {
        if let Some(r) = e.downcast_ref::<rustls::Error>() {
            return Some(r);
        }
        if let Some(inner) = e.downcast_ref::<io::Error>().and_then(|io| io.get_ref())
            && let Some(r) = find_rustls_error(inner)
        {
            return Some(r);
        }
        next = e.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn security_round_trips() {
        for s in ["tls", "starttls", "plain"] {
            assert_eq!(s.parse::<Security>().unwrap().to_string(), s);
        }
        assert_eq!("STARTTLS".parse::<Security>(), Ok(Security::StartTls));
        assert!("ssl".parse::<Security>().unwrap_err().contains("\"ssl\""));
    }

    #[test]
    fn config_without_extra_ca_has_the_mozilla_roots() {
        assert!(client_config(None).is_ok());
    }

    #[test]
    fn missing_ca_file_names_the_file() {
        let err = client_config(Some(Path::new("/nonexistent/ca.pem"))).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
    }

    #[test]
    fn ca_file_without_certificates_is_refused() {
        let dir = std::env::temp_dir().join(format!("ccmail-tls-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("empty.pem");
        std::fs::write(&path, "not a certificate\n").unwrap();
        let err = read_ca_file(&path).unwrap_err();
        assert!(matches!(err, TlsError::CaFileContent { .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_refused_certificate_says_what_to_do() {
        let err = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        assert_eq!(
            describe(&err, "mail.example.org").to_string(),
            format!(
                "{err} (the server's certificate is not valid for mail.example.org or not \
                 signed by a trusted CA; for a private CA set ca_file)"
            )
        );
        let other = rustls::Error::DecryptError;
        assert_eq!(describe(&other, "h").to_string(), other.to_string());
        assert_eq!(
            CaProblem::NoCertificate.to_string(),
            "no \"BEGIN CERTIFICATE\" block"
        );
    }

    #[test]
    fn server_names() {
        assert!(server_name("localhost").is_ok());
        assert!(server_name("127.0.0.1").is_ok());
        assert!(server_name("::1").is_ok());
        assert!(server_name("bad host").is_err());
    }

    #[test]
    fn rustls_error_is_found_inside_io_errors() {
        let inner = rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer);
        let io = io::Error::new(io::ErrorKind::InvalidData, inner);
        let found = find_rustls_error(&io).expect("found");
        assert!(matches!(found, rustls::Error::InvalidCertificate(_)));
        let plain = io::Error::new(io::ErrorKind::ConnectionReset, "reset");
        assert!(find_rustls_error(&plain).is_none());
    }
}
