//! `ccmail check`'s SMTP: the steps of a connection one at a time, each with its time-out, so
//! that a failure says which step failed and what happened before it.
//!
//! Sending goes through lettre's transport (a pool, OAuth2 retries); the check speaks to the
//! server with lettre's connection directly, as the transport does, because the transport
//! gives no way to tell the steps apart.

use std::time::Duration;

use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{AsyncSmtpConnection, Tls};
use lettre::transport::smtp::extension::ClientId;

use super::{Reached, Smtp, SmtpConfig, SmtpError, Step, auth};

/// What the check connects with.
#[derive(Clone)]
pub(super) struct Steps {
    host: String,
    port: u16,
    tls: Tls,
    /// A password login's; with OAuth2 the token is fetched for the check.
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
        let login = match (&self.oauth2, &s.credentials) {
            (Some((user, source)), _) => {
                let token = source.0.token().await.map_err(SmtpError::Token)?;
                let c = Credentials::new(user.clone(), token.to_string());
                Some((c, vec![Mechanism::Xoauth2]))
            }
            (None, Some(c)) => Some((c.clone(), vec![Mechanism::Plain, Mechanism::Login])),
            (None, None) => None,
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
        let alive = tokio::time::timeout(s.timeout, conn.test_connected())
            .await
            .map_err(|_| self.silent(Step::Noop))?;
        let quit = tokio::time::timeout(Duration::from_secs(5), conn.quit());
        let _ = quit.await;
        if alive {
            Ok(())
        } else {
            Err(SmtpError::Connection {
                server: self.server.clone(),
                reason: super::Trouble::NoNoopAnswer,
            })
        }
    }

    /// Runs one step of the check within the time-out.
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
