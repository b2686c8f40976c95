//! An SMTP session one step at a time, each step within the time-out, so that a failure says
//! which step failed and what was done before it: connecting (TLS from the first byte where
//! configured, the greeting, EHLO), STARTTLS, the login, then the message or a NOOP.
//!
//! lettre's async client has no time-out of its own for the server's answers (only for the
//! TCP connection): a port that never greets would be waited on for ever. Its transport
//! gives no way to tell the steps apart either, so ccmail speaks through lettre's connection
//! directly, as the transport does, one connection a send.

use std::time::Duration;

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Tls};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::response::Response;
use zeroize::Zeroizing;

use super::{Reached, Smtp, SmtpConfig, SmtpError, Step, Trouble, auth};

/// How long a goodbye (QUIT) may take: it only ends a session whose work is done.
const QUIT: Duration = Duration::from_secs(5);

/// Where and how a session connects.
#[derive(Clone)]
pub(super) struct Steps {
    host: String,
    port: u16,
    tls: Tls,
    /// A password login's; with OAuth2 the token is fetched for each session.
    pub(super) credentials: Option<Credentials>,
    pub(super) timeout: Duration,
}

impl Steps {
    pub(super) fn new(cfg: &SmtpConfig, tls: Tls) -> Steps {
        Steps {
            host: cfg.host.clone(),
            port: cfg.port,
            tls,
            credentials: None,
            timeout: cfg.timeout,
        }
    }
}

impl Smtp {
    /// [`Smtp::check`], noting in `reached` each step done: connected (greeted, and secured
    /// as configured), then logged in.
    pub async fn check_reaching(&self, reached: &mut Reached) -> Result<(), SmtpError> {
        let token = self.token().await?;
        let mut conn = self.session(reached, token.as_deref()).await?;
        let alive = tokio::time::timeout(self.steps.timeout, conn.test_connected())
            .await
            .map_err(|_| self.silent(Step::Noop))?;
        let _ = tokio::time::timeout(QUIT, conn.quit()).await;
        if alive {
            Ok(())
        } else {
            Err(SmtpError::Connection {
                server: self.server.clone(),
                reason: Trouble::NoNoopAnswer,
            })
        }
    }

    /// One send of `data` on a session of its own, logged in with `token` (OAuth2).
    pub(super) async fn send_once(
        &self,
        envelope: &Envelope,
        data: &[u8],
        token: Option<&String>,
    ) -> Result<Response, SmtpError> {
        let mut conn = self.session(&mut Reached::Nothing, token).await?;
        let response = self.step(Step::Sending, conn.send(envelope, data)).await?;
        let _ = tokio::time::timeout(QUIT, conn.quit()).await;
        Ok(response)
    }

    /// The OAuth2 access token to log in with, if the login is OAuth2's.
    pub(super) async fn token(&self) -> Result<Option<Zeroizing<String>>, SmtpError> {
        match &self.oauth2 {
            Some((_, source)) => Ok(Some(source.0.token().await.map_err(SmtpError::Token)?)),
            None => Ok(None),
        }
    }

    /// A connection greeted, secured as configured and logged in (as the config says, or
    /// with `token`), each step within the time-out; `reached` notes each step done.
    async fn session(
        &self,
        reached: &mut Reached,
        token: Option<&String>,
    ) -> Result<AsyncSmtpConnection, SmtpError> {
        let s = &self.steps;
        let hello = ClientId::default();
        let wrapper = match &s.tls {
            Tls::Wrapper(p) => Some(p.clone()),
            _ => None,
        };
        let connect = AsyncSmtpConnection::connect_tokio1(
            (s.host.as_str(), s.port),
            Some(s.timeout),
            &hello,
            wrapper,
            None,
        );
        let mut conn = self.step(Step::Greeting, connect).await?;
        if let Tls::Required(p) = &s.tls {
            self.step(Step::StartTls, conn.starttls(p.clone(), &hello))
                .await?;
        }
        *reached = Reached::Connected;
        let login = match (&self.oauth2, token, &s.credentials) {
            (Some((user, _)), Some(token), _) => Some((
                Credentials::new(user.clone(), token.to_string()),
                vec![Mechanism::Xoauth2],
            )),
            (None, _, Some(c)) => Some((c.clone(), vec![Mechanism::Plain, Mechanism::Login])),
            _ => None,
        };
        if let Some((credentials, mechanisms)) = login {
            let done = tokio::time::timeout(s.timeout, conn.auth(&mechanisms, &credentials))
                .await
                .map_err(|_| self.silent(Step::Login))?;
            if let Err(e) = done {
                return Err(match &self.oauth2 {
                    Some(_) => auth::oauth2_error(&self.server, self.user(), e),
                    None => SmtpError::from_lettre(&self.server, e),
                });
            }
            *reached = Reached::LoggedIn;
        }
        Ok(conn)
    }

    /// Runs one step within the time-out.
    async fn step<T>(
        &self,
        step: Step,
        fut: impl Future<Output = Result<T, lettre::transport::smtp::Error>>,
    ) -> Result<T, SmtpError> {
        tokio::time::timeout(self.steps.timeout, fut)
            .await
            .map_err(|_| self.silent(step))?
            .map_err(|e| SmtpError::from_lettre(&self.server, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smtp::{Security, Trouble};

    /// A port that takes the connection and never greets (an implicit-TLS port, to a client
    /// that waits for a greeting): the check ends at its time-out, naming the step, with
    /// nothing done.
    #[tokio::test]
    async fn a_silent_port_is_a_greeting_that_never_came() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let mut cfg = SmtpConfig::new("127.0.0.1", port, Security::StartTls);
        cfg.timeout = Duration::from_millis(300);
        let smtp = Smtp::new(&cfg).unwrap();
        let mut reached = Reached::Nothing;
        let err = smtp.check_reaching(&mut reached).await.unwrap_err();
        assert_eq!(reached, Reached::Nothing);
        let SmtpError::Connection { reason, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(
            reason,
            &Trouble::NoAnswer {
                step: Step::Greeting,
                seconds: 0
            }
        );
        assert!(err.is_transient());
        drop(listener);
    }
}
