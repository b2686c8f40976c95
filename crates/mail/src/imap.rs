//! IMAP: the player's own mailbox, read without touching it.
//!
//! [`Imap::connect`] gives a logged-in session with one mailbox SELECTed. The daemon then
//! loops: [`Imap::fetch_since`] the last UID it has processed, [`Imap::wait`] for news
//! (IDLE, or NOOP polling where the server has no IDLE), and stores copies of what it sent
//! with [`Imap::append`]. Every error says whether it is worth retrying
//! ([`ImapError::is_transient`]); after any error the session should be dropped and a new one
//! connected.
//!
//! What this module must never do: change the user's mail. Bodies are fetched with
//! `BODY.PEEK[]`, so no `\Seen` flag is set; nothing is moved, flagged or deleted. Other mail
//! clients of the player see their mailbox as they left it.
//!
//! Mailbox names are given as people write them (`Отправленные`) and go on the wire in IMAP's
//! modified UTF-7 ([`utf7`]); [`Imap::folders`] lists them back as people read them.

mod answer;
mod auth;
mod error;
mod fetch;
mod search;
mod stream;
pub mod utf7;
mod wait;

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use async_imap::Session;
use async_imap::types::UnsolicitedResponse;
use zeroize::Zeroizing;

pub use self::answer::Malformed;
pub use self::error::{Doing, Ended, ImapError, Reply};
pub use self::fetch::{Fetched, Head, Header};
pub use self::search::TextQuery;
pub use self::wait::WaitOutcome;
pub use crate::probe::Reached;
pub use crate::tls::Security;

use crate::config::Misconfig;
use crate::oauth2::{LoginRefusal, OAuth2};

use self::error::scrub;
use self::stream::{Stream, timed};

/// The default network time-out of each step: connecting, the TLS handshake, the greeting,
/// each command's answer, the server's silence while messages are read.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The default interval between two NOOPs when [`Imap::wait`] polls.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_secs(60);

/// Where and how to log in (the `[imap]` section of the config).
#[derive(Clone)]
pub struct ImapConfig {
    /// Server host name (or IP address; it must be in the server's certificate for TLS).
    pub host: String,
    /// Server port, e.g. 993 for TLS, 143 for STARTTLS.
    pub port: u16,
    /// How the connection is secured.
    pub security: Security,
    /// Login name.
    pub username: String,
    /// Login password. Never printed: `Debug` shows `***`, errors never contain it. Zeroed
    /// when dropped.
    pub password: Zeroizing<String>,
    /// Log in with an OAuth2 access token from here instead of the password (which is then
    /// not used).
    pub oauth2: Option<OAuth2>,
    /// The mailbox to watch, e.g. `INBOX`.
    pub mailbox: String,
    /// An extra CA certificate file (PEM) to trust besides the usual roots.
    pub ca_file: Option<PathBuf>,
    /// Allows [`Security::Plain`]; without it a plain-text connection is refused.
    pub plain_ok: bool,
    /// Network time-out for connecting and for each command; while the messages of a UID
    /// FETCH are read, the longest the server may send nothing (a large mailbox on a slow
    /// link takes as long as it takes).
    pub timeout: Duration,
}

impl ImapConfig {
    /// A config for `INBOX`, without an extra CA, plain text not allowed, default time-out.
    pub fn new(
        host: impl Into<String>,
        port: u16,
        security: Security,
        username: impl Into<String>,
        password: impl Into<String>,
    ) -> Self {
        ImapConfig {
            host: host.into(),
            port,
            security,
            username: username.into(),
            password: Zeroizing::new(password.into()),
            oauth2: None,
            mailbox: "INBOX".into(),
            ca_file: None,
            plain_ok: false,
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

impl fmt::Debug for ImapConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("username", &self.username)
            .field("password", &"***")
            .field("oauth2", &self.oauth2.is_some())
            .field("mailbox", &self.mailbox)
            .field("ca_file", &self.ca_file)
            .field("plain_ok", &self.plain_ok)
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// A logged-in IMAP session with the configured mailbox SELECTed.
pub struct Imap {
    /// `None` once a failure in the middle of IDLE has cost the connection.
    session: Option<Session<Stream>>,
    server: String,
    mailbox: String,
    uid_validity: u32,
    uid_next: Option<u32>,
    /// The message count as last reported by the server (SELECT, EXISTS, EXPUNGE).
    exists: u32,
    /// The count grew since the last [`Imap::wait`] returned (or since SELECT).
    new_mail: bool,
    has_idle: bool,
    /// The server takes non-synchronizing literals (LITERAL+, or LITERAL- for short ones).
    literal_plus: bool,
    use_idle: bool,
    poll_interval: Duration,
    timeout: Duration,
}

impl fmt::Debug for Imap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Imap")
            .field("server", &self.server)
            .field("mailbox", &self.mailbox)
            .field("connected", &self.session.is_some())
            .field("uid_validity", &self.uid_validity)
            .field("uid_next", &self.uid_next)
            .field("exists", &self.exists)
            .field("has_idle", &self.has_idle)
            .finish_non_exhaustive()
    }
}

/// A folder of the server, as [`Imap::folders`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folder {
    /// As people read it (decoded from modified UTF-7; as sent when it is not valid UTF-7).
    pub name: String,
    /// As the server names it on the wire.
    pub wire: String,
    /// Its special use (RFC 6154), when the server says: `Sent`, `Drafts`, `Trash`, `Junk`,
    /// `Archive`, `All`, `Flagged`.
    pub special: Option<&'static str>,
    /// Whether it can be selected (`\Noselect` not set).
    pub selectable: bool,
}

impl Folder {
    fn of(n: &async_imap::types::Name) -> Folder {
        use async_imap::types::NameAttribute as A;
        let wire = n.name().to_owned();
        let special = n.attributes().iter().find_map(|a| match a {
            A::Sent => Some("Sent"),
            A::Drafts => Some("Drafts"),
            A::Trash => Some("Trash"),
            A::Junk => Some("Junk"),
            A::Archive => Some("Archive"),
            A::All => Some("All"),
            A::Flagged => Some("Flagged"),
            _ => None,
        });
        let selectable = !n.attributes().iter().any(|a| matches!(a, A::NoSelect));
        Folder {
            name: utf7::decode(&wire).unwrap_or_else(|| wire.clone()),
            wire,
            special,
            selectable,
        }
    }
}

impl Imap {
    /// Connects (TLS, STARTTLS or plain as configured, certificate verified), logs in, reads
    /// the capabilities and SELECTs the mailbox.
    pub async fn connect(cfg: &ImapConfig) -> Result<Imap, ImapError> {
        Imap::connect_reaching(cfg, &mut Reached::Nothing).await
    }

    /// [`Imap::connect`], noting in `reached` each step done, so that a failure can be told
    /// apart by the step it happened in.
    pub async fn connect_reaching(
        cfg: &ImapConfig,
        reached: &mut Reached,
    ) -> Result<Imap, ImapError> {
        let server = format!("{}:{}", cfg.host, cfg.port);
        let client = stream::open(cfg).await?;
        *reached = Reached::Connected;
        let limit = cfg.timeout;

        let mut session = match &cfg.oauth2 {
            Some(oauth2) => timed(limit, "AUTHENTICATE", auth::login(cfg, oauth2, client)).await?,
            None => {
                timed(limit, "LOGIN", async {
                    client
                        .login(&cfg.username, cfg.password.as_str())
                        .await
                        .map_err(|(err, _client)| login_error(cfg, err))
                })
                .await?
            }
        };
        *reached = Reached::LoggedIn;

        let (has_idle, literal_plus) = timed(limit, "CAPABILITY", async {
            let caps = session
                .capabilities()
                .await
                .map_err(|e| ImapError::from_imap("CAPABILITY", e))?;
            let plus = caps.has_str("LITERAL+") || caps.has_str("LITERAL-");
            Ok((caps.has_str("IDLE"), plus))
        })
        .await?;

        let command = format!("SELECT {:?}", cfg.mailbox);
        let wire = utf7::wire(&cfg.mailbox);
        let selected = timed(limit, &command, async {
            session
                .select(&wire)
                .await
                .map_err(|e| ImapError::from_imap(&command, e))
        })
        .await?;
        let uid_validity = selected.uid_validity.ok_or_else(|| ImapError::Protocol {
            command: command.clone().into(),
            reply: Reply::NoUidValidity,
        })?;
        tracing::debug!(
            %server, mailbox = %cfg.mailbox, uid_validity, uid_next = ?selected.uid_next,
            exists = selected.exists, has_idle, "IMAP session ready"
        );

        let mut imap = Imap {
            session: Some(session),
            server,
            mailbox: cfg.mailbox.clone(),
            uid_validity,
            uid_next: selected.uid_next,
            exists: selected.exists,
            new_mail: false,
            has_idle,
            literal_plus,
            use_idle: true,
            poll_interval: DEFAULT_POLL_INTERVAL,
            timeout: limit,
        };
        // SELECT reported the current state; what was queued while it ran is older news.
        imap.drain_unsolicited();
        imap.new_mail = false;
        Ok(imap)
    }

    /// The mailbox's UIDVALIDITY: when it changes, UIDs seen before mean nothing.
    pub fn uid_validity(&self) -> u32 {
        self.uid_validity
    }

    /// UIDNEXT as reported by SELECT (not updated afterwards), if the server sent it.
    pub fn uid_next(&self) -> Option<u32> {
        self.uid_next
    }

    /// Whether the server offers IDLE (push); otherwise [`Imap::wait`] polls with NOOP.
    pub fn has_idle(&self) -> bool {
        self.has_idle
    }

    /// The SELECTed mailbox.
    pub fn mailbox(&self) -> &str {
        &self.mailbox
    }

    /// The number of messages in the mailbox as last reported by the server.
    pub fn exists(&self) -> u32 {
        self.exists
    }

    /// Use IDLE when the server has it (the default), or poll with NOOP regardless, for a
    /// server whose IDLE is known to be broken.
    pub fn set_use_idle(&mut self, use_idle: bool) {
        self.use_idle = use_idle;
    }

    /// Send each literal of a command only on the server's go-ahead, even where it says it
    /// takes them unannounced (LITERAL+): for a server that says so wrongly, and for tests of
    /// the slow way.
    pub fn set_literal_plus(&mut self, plus: bool) {
        self.literal_plus = plus && self.literal_plus;
    }

    /// How often [`Imap::wait`] sends NOOP when it polls (default one minute).
    pub fn set_poll_interval(&mut self, every: Duration) {
        self.poll_interval = every.max(Duration::from_millis(10));
    }

    /// Creates a mailbox (e.g. `Sent` on a server that has none); an existing one is fine.
    pub async fn create_mailbox(&mut self, name: &str) -> Result<(), ImapError> {
        let command = format!("CREATE {name:?}");
        let limit = self.timeout;
        let session = self.session()?;
        let wire = utf7::wire(name);
        let result = timed(limit, &command, async {
            session
                .create(&wire)
                .await
                .map_err(|e| ImapError::from_imap(&command, e))
        })
        .await;
        match result {
            Err(ImapError::Protocol { reply, .. })
                if reply
                    .to_string()
                    .to_ascii_uppercase()
                    .contains("[ALREADYEXISTS]") =>
            {
                Ok(())
            }
            other => other,
        }
    }

    /// The server's folders (LIST "" "*"), named as people read them, in the server's order.
    pub async fn folders(&mut self) -> Result<Vec<Folder>, ImapError> {
        use futures::TryStreamExt;
        let command = "LIST \"\" \"*\"".to_owned();
        let limit = self.timeout;
        let session = self.session()?;
        let names = timed(limit, &command, async {
            let stream = session
                .list(Some(""), Some("*"))
                .await
                .map_err(|e| ImapError::from_imap(&command, e))?;
            stream
                .try_collect::<Vec<_>>()
                .await
                .map_err(|e| ImapError::from_imap(&command, e))
        })
        .await?;
        self.drain_unsolicited();
        Ok(names.iter().map(Folder::of).collect())
    }

    /// Says goodbye (LOGOUT) and closes the connection; failures do not matter any more.
    pub async fn logout(mut self) {
        if let Some(mut session) = self.session.take() {
            let limit = self.timeout.min(Duration::from_secs(10));
            match tokio::time::timeout(limit, session.logout()).await {
                Ok(Ok(())) => tracing::debug!(server = %self.server, "IMAP logout"),
                Ok(Err(e)) => tracing::debug!(server = %self.server, "IMAP logout: {e}"),
                Err(_) => tracing::debug!(server = %self.server, "IMAP logout timed out"),
            }
        }
    }

    fn session(&mut self) -> Result<&mut Session<Stream>, ImapError> {
        self.session.as_mut().ok_or_else(lost)
    }

    /// The session taken out of `self`, for a command that may leave the connection out of
    /// step (it is put back once the command ends well).
    fn take_session(&mut self) -> Result<Session<Stream>, ImapError> {
        self.session.take().ok_or_else(lost)
    }

    /// Gives back the session a command of ccmail's own reader took ([`Imap::take_session`]),
    /// with the counts the server sent meanwhile, and ends the command by its tagged answer:
    /// `Ok` on OK, the server's words on NO or BAD.
    fn give_back(
        &mut self,
        session: Session<Stream>,
        counts: &[UnsolicitedResponse],
        (ok, reply): (bool, String),
        command: &str,
    ) -> Result<(), ImapError> {
        self.session = Some(session);
        for count in counts {
            if note_count(&mut self.exists, count) {
                self.new_mail = true;
            }
        }
        self.drain_unsolicited();
        if ok {
            Ok(())
        } else {
            Err(ImapError::Protocol {
                command: command.into(),
                reply: reply.into(),
            })
        }
    }

    /// Empties async-imap's queue of unsolicited responses (a bounded channel that silently
    /// drops what does not fit: it is emptied after every command) and keeps the message
    /// count; a growth is remembered as new mail for the next [`Imap::wait`].
    fn drain_unsolicited(&mut self) {
        let Some(session) = self.session.as_mut() else {
            return;
        };
        while let Ok(response) = session.unsolicited_responses.try_recv() {
            if note_count(&mut self.exists, &response) {
                self.new_mail = true;
            }
        }
    }
}

/// A command on a session an earlier error cost.
fn lost() -> ImapError {
    ImapError::closed(Doing::ConnectionLost)
}

/// Applies an EXISTS or EXPUNGE to the message count; true when the count grew.
pub(super) fn note_count(exists: &mut u32, response: &UnsolicitedResponse) -> bool {
    match *response {
        UnsolicitedResponse::Exists(n) => {
            let grew = n > *exists;
            *exists = n;
            grew
        }
        UnsolicitedResponse::Expunge(_) => {
            *exists = exists.saturating_sub(1);
            false
        }
        _ => false,
    }
}

fn login_error(cfg: &ImapConfig, err: async_imap::error::Error) -> ImapError {
    use async_imap::error::Error as E;
    match err {
        E::No(reply) | E::Bad(reply) => ImapError::Login {
            user: cfg.username.clone(),
            reply: LoginRefusal::Said(scrub(&error::tidy_reply(&reply), &cfg.password)),
        },
        other => match ImapError::from_imap("LOGIN", other) {
            ImapError::Protocol { command, reply } => ImapError::Protocol {
                command,
                reply: reply.scrubbed(&cfg.password),
            },
            ImapError::Config(Misconfig::Invalid { command, error }) => {
                ImapError::Config(Misconfig::Invalid {
                    command,
                    error: scrub(&error, &cfg.password),
                })
            }
            e => e,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_password() {
        let cfg = ImapConfig::new("h", 993, Security::Tls, "u", "hunter2-secret");
        let text = format!("{cfg:?}");
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("***"));
    }

    /// The password, and each token with the SASL string that carries it, are held where they
    /// are zeroed when dropped (the type says so; what lettre and async-imap copy is theirs).
    #[test]
    fn secrets_are_zeroed_on_drop() {
        fn zeroed<T: zeroize::ZeroizeOnDrop>(_: &T) {}
        let cfg = ImapConfig::new("h", 993, Security::Tls, "u", "hunter2-secret");
        zeroed(&cfg.password);
        let smtp = crate::smtp::SmtpConfig::new("h", 465, Security::Tls).with_login("u", "p");
        zeroed(smtp.password.as_ref().unwrap());
        zeroed(&crate::oauth2::Mechanism::XOAuth2.initial_response("u", "token"));
        #[allow(dead_code)]
        async fn token(source: &dyn crate::oauth2::TokenSource) {
            zeroed(&source.token().await.unwrap());
        }
    }

    #[test]
    fn counting_exists_and_expunge() {
        let mut n = 3;
        assert!(!note_count(&mut n, &UnsolicitedResponse::Exists(3)));
        assert!(note_count(&mut n, &UnsolicitedResponse::Exists(4)));
        assert!(!note_count(&mut n, &UnsolicitedResponse::Expunge(1)));
        assert_eq!(n, 3);
        assert!(note_count(&mut n, &UnsolicitedResponse::Exists(4)));
        assert!(!note_count(&mut n, &UnsolicitedResponse::Recent(1)));
    }

    /// The daemon moves a session into a task and waits there.
    #[allow(dead_code)]
    fn futures_are_send(imap: &mut Imap) {
        fn send<T: Send>(_: T) {}
        send(imap.wait(Duration::ZERO, std::future::pending::<()>()));
        send(imap.fetch_since(0, None));
        send(imap.fetch_uids_in_groups(&[], 1, tokio::sync::mpsc::channel(1).0));
        send(imap.append("Sent", b""));
        send(Imap::connect(&ImapConfig::new(
            "h",
            1,
            Security::Tls,
            "u",
            "p",
        )));
    }

    #[tokio::test]
    async fn plain_needs_plain_ok() {
        let cfg = ImapConfig::new("127.0.0.1", 1, Security::Plain, "u", "p");
        let err = Imap::connect(&cfg).await.unwrap_err();
        assert!(matches!(err, ImapError::Config(_)), "{err}");
        assert!(!err.is_transient());
    }
}
