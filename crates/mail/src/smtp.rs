//! SMTP: writing the player's messages ([`build`]) and handing them to their mail server
//! ([`Smtp::send`]).
//!
//! Building and sending are separate on purpose: the daemon builds a message once, stores
//! the bytes in its outbox, sends them (again, after a transient failure) and APPENDs the
//! same bytes to Sent. The connection is secured as configured (implicit TLS, STARTTLS that
//! must succeed, or plain text only when allowed), certificates are always verified, and a
//! failure says whether retrying can help ([`SmtpError::is_transient`]).
//!
//! The 8bit text body needs a server with 8BITMIME, which every current server offers;
//! without it the send fails with a clear error rather than mangling the text.

mod auth;
mod build;
mod error;
mod session;

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use zeroize::Zeroizing;

use crate::config::Misconfig;
use crate::oauth2::OAuth2;

pub use self::build::{Attachment, MAX_THREAD_ID, Mailbox, Outgoing, build, threadable};
pub use self::error::{BuildProblem, SmtpError, Step, Trouble};
pub use crate::probe::Reached;
pub use crate::tls::Security;

/// The default network time-out of each step of a send: connecting (with TLS from the first
/// byte, the greeting and EHLO), STARTTLS, the login, the message.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// Where and how to send (the `[smtp]` section of the config).
#[derive(Clone)]
pub struct SmtpConfig {
    /// Server host name (or IP address; it must be in the server's certificate for TLS).
    pub host: String,
    /// Server port, e.g. 465 for TLS, 587 for STARTTLS.
    pub port: u16,
    /// How the connection is secured.
    pub security: Security,
    /// Login name; `None` sends without AUTH.
    pub username: Option<String>,
    /// Login password (required with a user name, unless `oauth2` is given). Never printed;
    /// zeroed when dropped (lettre keeps a copy of its own in its transport).
    pub password: Option<Zeroizing<String>>,
    /// Log in as `username` with an OAuth2 access token (SASL XOAUTH2) from here instead of
    /// the password.
    pub oauth2: Option<OAuth2>,
    /// An extra CA certificate file (PEM) to trust besides the usual roots.
    pub ca_file: Option<PathBuf>,
    /// Allows [`Security::Plain`]; without it a plain-text connection is refused.
    pub plain_ok: bool,
    /// Network time-out for each step.
    pub timeout: Duration,
}

impl SmtpConfig {
    /// A config without login, extra CA or plain text, default time-out.
    pub fn new(host: impl Into<String>, port: u16, security: Security) -> Self {
        SmtpConfig {
            host: host.into(),
            port,
            security,
            username: None,
            password: None,
            oauth2: None,
            ca_file: None,
            plain_ok: false,
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// The same with a login.
    pub fn with_login(mut self, username: impl Into<String>, password: impl Into<String>) -> Self {
        self.username = Some(username.into());
        self.password = Some(Zeroizing::new(password.into()));
        self
    }
}

impl fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .field("oauth2", &self.oauth2.is_some())
            .field("ca_file", &self.ca_file)
            .field("plain_ok", &self.plain_ok)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// A configured SMTP client. Each send opens a session of its own ([`session`]), each step
/// of it within the time-out; share it behind a reference. With OAuth2 each session logs in
/// with the token the source has then.
pub struct Smtp {
    /// Where and how a session connects.
    steps: session::Steps,
    /// The user and the token source of an OAuth2 login.
    oauth2: Option<(String, OAuth2)>,
    server: String,
}

impl fmt::Debug for Smtp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Smtp")
            .field("server", &self.server)
            .field("oauth2", &self.oauth2.is_some())
            .finish_non_exhaustive()
    }
}

impl Smtp {
    /// Checks the configuration and prepares the client; nothing is sent yet.
    pub fn new(cfg: &SmtpConfig) -> Result<Smtp, SmtpError> {
        let server = format!("{}:{}", cfg.host, cfg.port);
        let tls = match cfg.security {
            Security::Plain if !cfg.plain_ok => {
                return Err(SmtpError::Config(Misconfig::PlainSmtp { server }));
            }
            Security::Plain => Tls::None,
            Security::Tls => Tls::Wrapper(tls_parameters(cfg)?),
            Security::StartTls => Tls::Required(tls_parameters(cfg)?),
        };
        let mut steps = session::Steps::new(cfg, tls);
        let mut oauth2 = None;
        match (&cfg.username, &cfg.password) {
            (Some(user), _) if cfg.oauth2.is_some() => {
                oauth2 = cfg.oauth2.clone().map(|o| (user.clone(), o));
            }
            (Some(user), Some(password)) => {
                steps.credentials = Some(Credentials::new(user.clone(), password.to_string()));
            }
            (Some(user), None) => {
                return Err(SmtpError::Config(Misconfig::NoPassword {
                    user: user.clone(),
                    server,
                }));
            }
            (None, _) => {}
        }
        Ok(Smtp {
            steps,
            oauth2,
            server,
        })
    }

    /// Sends `raw` (from [`build`]) to `recipients` with `envelope_from` as the envelope
    /// sender. All recipients are accepted or the send fails as a whole.
    pub async fn send<S: AsRef<str>>(
        &self,
        raw: &[u8],
        envelope_from: &str,
        recipients: &[S],
    ) -> Result<(), SmtpError> {
        let from = address(envelope_from)?;
        let to = recipients
            .iter()
            .map(|r| address(r.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let envelope = lettre::address::Envelope::new(Some(from), to)
            .map_err(|e| SmtpError::Build(BuildProblem::Said(e.to_string())))?;
        // lettre always writes CRLF "." CRLF after the data: without the message's own last
        // CRLF the server stores exactly `raw`.
        let data = raw.strip_suffix(b"\r\n").unwrap_or(raw);
        let response = self.attempt(&envelope, data).await?;
        tracing::debug!(
            server = %self.server,
            reply = %response.message().collect::<Vec<_>>().join(" "),
            "SMTP message accepted"
        );
        Ok(())
    }

    /// Connects, says EHLO, secures the connection and logs in when configured, and checks
    /// the server answers (NOOP): what `ccmail check` reports.
    pub async fn check(&self) -> Result<(), SmtpError> {
        self.check_reaching(&mut Reached::Nothing).await
    }

    /// A server that did not answer in time while `step`.
    fn silent(&self, step: Step) -> SmtpError {
        SmtpError::Connection {
            server: self.server.clone(),
            reason: Trouble::NoAnswer {
                step,
                seconds: self.steps.timeout.as_secs(),
            },
        }
    }
}

impl Smtp {
    /// Sends on a session of its own. With OAuth2, a token the server refuses is given back to
    /// its source, and the send is tried once more when the source has a different one.
    async fn attempt(
        &self,
        envelope: &lettre::address::Envelope,
        data: &[u8],
    ) -> Result<lettre::transport::smtp::response::Response, SmtpError> {
        // The token refused, and the error it met.
        let mut refused: Option<(Zeroizing<String>, SmtpError)> = None;
        loop {
            let token = self.token().await?;
            if let Some((last, err)) = refused.take() {
                if token.as_ref() == Some(&last) {
                    // The source has nothing better than what was just refused.
                    return Err(err);
                }
                refused = Some((last, err));
            }
            let err = match self.send_once(envelope, data, token.as_deref()).await {
                Ok(response) => return Ok(response),
                Err(e) => e,
            };
            let (Some(token), Some((_, source))) = (token, &self.oauth2) else {
                return Err(err);
            };
            if !matches!(err, SmtpError::Login { .. }) || refused.is_some() {
                return Err(err);
            }
            source.0.refused(&token);
            tracing::debug!("SMTP OAuth2 login refused ({err}); asking for a new token");
            refused = Some((token, err));
        }
    }

    fn user(&self) -> &str {
        self.oauth2.as_ref().map_or("", |(user, _)| user)
    }
}

fn tls_parameters(cfg: &SmtpConfig) -> Result<TlsParameters, SmtpError> {
    let mut builder =
        TlsParameters::builder(cfg.host.clone()).certificate_store(CertificateStore::WebpkiRoots);
    if let Some(path) = &cfg.ca_file {
        let certs =
            crate::tls::read_ca_file(path).map_err(|e| SmtpError::Config(Misconfig::Tls(e)))?;
        for der in certs {
            let cert = Certificate::from_der(der.to_vec()).map_err(|e| {
                SmtpError::Config(Misconfig::CaCertificate {
                    path: path.clone(),
                    error: e.to_string(),
                })
            })?;
            builder = builder.add_root_certificate(cert);
        }
    }
    builder.build_rustls().map_err(|e| {
        SmtpError::Config(Misconfig::TlsFor {
            host: cfg.host.clone(),
            error: e.to_string(),
        })
    })
}

fn address(text: &str) -> Result<lettre::Address, SmtpError> {
    text.trim()
        .parse()
        .map_err(|e: lettre::address::AddressError| SmtpError::Address {
            address: text.to_owned(),
            reason: e.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One client shared by the daemon's tasks.
    #[allow(dead_code)]
    fn shareable(smtp: &Smtp) {
        fn send_sync<T: Send + Sync>(_: &T) {}
        fn send<T: Send>(_: T) {}
        send_sync(smtp);
        send(smtp.send(b"", "a@b", &["c@d"]));
        send(smtp.check());
    }

    #[test]
    fn plain_needs_plain_ok() {
        let err = Smtp::new(&SmtpConfig::new("127.0.0.1", 25, Security::Plain)).unwrap_err();
        assert!(matches!(err, SmtpError::Config(_)), "{err}");
        let mut cfg = SmtpConfig::new("127.0.0.1", 25, Security::Plain);
        cfg.plain_ok = true;
        assert!(Smtp::new(&cfg).is_ok());
    }

    #[test]
    fn user_without_password_is_a_config_error() {
        let mut cfg = SmtpConfig::new("127.0.0.1", 587, Security::StartTls);
        cfg.username = Some("u".into());
        assert!(matches!(Smtp::new(&cfg), Err(SmtpError::Config(_))));
    }

    #[test]
    fn debug_never_shows_the_password() {
        let cfg = SmtpConfig::new("h", 465, Security::Tls).with_login("u", "hunter2-secret");
        let text = format!("{cfg:?}");
        assert!(!text.contains("hunter2"), "{text}");
    }
}
