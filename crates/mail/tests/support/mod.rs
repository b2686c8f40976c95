//! Finding the real test mail servers (`tests/mailserver/mailserver.sh`) and small helpers
//! shared by the IMAP, SMTP and DKIM tests; [`instance`] starts servers of a test's own.
//!
//! The servers are described by the `MAILSERVER_*` variables that `mailserver.sh env` prints;
//! when they are not set, the `etc/env` file of the running instance (in `MAILSERVER_DIR`,
//! default `/tmp/ccmail-mail`) is read, and otherwise the script's defaults are used. When
//! the servers cannot be reached a test prints a note and passes, except under `CI=true`,
//! where it fails: CI must never skip these tests silently.

#![allow(dead_code)] // each test file uses a part of it

pub mod instance;

use std::collections::HashMap;
use std::net::{TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use ccmail_mail::imap::{ImapConfig, Security};
use ccmail_mail::smtp::{Smtp, SmtpConfig};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// The servers' host name when `MAILSERVER_HOSTNAME` is not set: also the authserv-id of the
/// Authentication-Results fields they write.
pub const DEFAULT_HOSTNAME: &str = "mail.example.test";

/// The running test servers.
#[derive(Debug, Clone)]
pub struct Servers {
    pub host: String,
    pub imap_port: u16,
    pub imaps_port: u16,
    pub smtp_port: u16,
    pub submission_port: u16,
    pub smtps_port: u16,
    pub ca: PathBuf,
    pub users: Vec<String>,
    pub password: String,
    /// Who the servers say they are in the `Authentication-Results` field their DKIM verifier
    /// puts on every message arriving by SMTP (`MAILSERVER_AUTHSERV_ID`: their host name).
    pub authserv_id: String,
}

impl Servers {
    /// The n-th configured user (0: white, 1: black, 2: arbiter with the defaults).
    pub fn user(&self, n: usize) -> &str {
        &self.users[n % self.users.len()]
    }

    /// The domain of the users.
    pub fn domain(&self) -> &str {
        self.users[0].split('@').nth(1).unwrap_or("example.test")
    }

    /// An IMAP config for `user`, trusting the test CA, on the port matching `security`.
    pub fn imap(&self, user: &str, security: Security) -> ImapConfig {
        let port = match security {
            Security::Tls => self.imaps_port,
            Security::StartTls | Security::Plain => self.imap_port,
        };
        let mut cfg = ImapConfig::new(&self.host, port, security, user, &self.password);
        cfg.ca_file = Some(self.ca.clone());
        cfg.plain_ok = security == Security::Plain;
        cfg.timeout = Duration::from_secs(15);
        cfg
    }
}

/// The servers, or `None` (after a note) when they are not running outside CI.
pub fn servers() -> Option<Servers> {
    static FOUND: OnceLock<Result<Servers, String>> = OnceLock::new();
    match FOUND.get_or_init(find) {
        Ok(s) => Some(s.clone()),
        Err(why) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!(
                    "CI=true but the test mail servers are not reachable: {why}\n\
                     start them first: tests/mailserver/mailserver.sh start"
                );
            }
            eprintln!(
                "note: skipping a mail-server test: {why} \
                 (run tests/mailserver/mailserver.sh start)"
            );
            None
        }
    }
}

fn find() -> Result<Servers, String> {
    let file = env_file();
    let get = |key: &str, default: &str| -> String {
        std::env::var(key)
            .ok()
            .or_else(|| file.get(key).cloned())
            .unwrap_or_else(|| default.to_owned())
    };
    let port = |key: &str, default: &str| -> Result<u16, String> {
        let v = get(key, default);
        v.parse().map_err(|_| format!("{key}={v:?} is not a port"))
    };
    let dir = get("MAILSERVER_DIR", "/tmp/ccmail-mail");
    let servers = Servers {
        host: get("MAILSERVER_HOST", "127.0.0.1"),
        imap_port: port("MAILSERVER_IMAP_PORT", "11143")?,
        imaps_port: port("MAILSERVER_IMAPS_PORT", "11993")?,
        smtp_port: port("MAILSERVER_SMTP_PORT", "11025")?,
        submission_port: port("MAILSERVER_SUBMISSION_PORT", "11587")?,
        smtps_port: port("MAILSERVER_SMTPS_PORT", "11465")?,
        ca: get("MAILSERVER_CA", &format!("{dir}/tls/ca.pem")).into(),
        users: get(
            "MAILSERVER_USERS",
            "white@example.test black@example.test arbiter@example.test",
        )
        .split_whitespace()
        .map(str::to_owned)
        .collect(),
        password: get("MAILSERVER_PASSWORD", "secret"),
        authserv_id: get(
            "MAILSERVER_AUTHSERV_ID",
            &get("MAILSERVER_HOSTNAME", DEFAULT_HOSTNAME),
        ),
    };
    if servers.users.is_empty() {
        return Err("MAILSERVER_USERS is empty".into());
    }
    for p in [servers.imap_port, servers.smtp_port] {
        reachable(&servers.host, p)?;
    }
    if !servers.ca.is_file() {
        return Err(format!("no test CA at {}", servers.ca.display()));
    }
    Ok(servers)
}

fn reachable(host: &str, port: u16) -> Result<(), String> {
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("{host}:{port}: {e}"))?;
    for addr in addrs {
        if TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_ok() {
            return Ok(());
        }
    }
    Err(format!("nothing listens on {host}:{port}"))
}

/// `export KEY=VALUE` lines of `$MAILSERVER_DIR/etc/env` (written by `mailserver.sh start`).
fn env_file() -> HashMap<String, String> {
    let dir = std::env::var("MAILSERVER_DIR").unwrap_or_else(|_| "/tmp/ccmail-mail".into());
    let Ok(text) = std::fs::read_to_string(format!("{dir}/etc/env")) else {
        return HashMap::new();
    };
    text.lines()
        .filter_map(|line| line.strip_prefix("export "))
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_owned(), shell_unquote(v)))
        .collect()
}

/// Undoes bash's `printf %q` for the simple values the script prints.
fn shell_unquote(v: &str) -> String {
    if let Some(inner) = v.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        return inner.to_owned();
    }
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

/// A name no other test (or earlier run) uses: lower-case letters, digits and dashes.
pub fn unique(tag: &str) -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("{tag}-{}-{n}-{nanos:x}", std::process::id())
}

/// `local+detail@domain`: the servers deliver it into the user's mailbox `detail`.
pub fn detail_address(user: &str, detail: &str) -> String {
    let (local, domain) = user.split_once('@').expect("user@domain");
    format!("{local}+{detail}@{domain}")
}

/// A small RFC 5322 message with the given Message-ID (without <>).
pub fn sample_message(from: &str, to: &str, message_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: <{from}>\r\nTo: <{to}>\r\nSubject: test {message_id}\r\n\
         Date: Sun, 01 Mar 2026 12:00:00 +0300\r\nMessage-ID: <{message_id}>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// Delivers `raw` by plain SMTP on the no-auth port (port 25's stand-in), speaking the protocol
/// directly (so the IMAP tests do not depend on the crate's own SMTP code). No login: this is
/// how a partner's server hands over mail, and how a forger would, with any envelope sender
/// `from` and any From field. The servers never sign it (DKIM); their verifier checks any
/// signature it carries.
pub async fn deliver(servers: &Servers, from: &str, to: &str, raw: &[u8]) {
    let tcp = tokio::net::TcpStream::connect((servers.host.as_str(), servers.smtp_port))
        .await
        .expect("connect to SMTP");
    let (read, mut write) = tcp.into_split();
    let mut read = BufReader::new(read);
    async fn reply(read: &mut BufReader<tokio::net::tcp::OwnedReadHalf>, want: &str) {
        loop {
            let mut line = String::new();
            read.read_line(&mut line).await.expect("SMTP reply");
            assert!(line.starts_with(want), "SMTP: wanted {want}, got {line:?}");
            if line.as_bytes().get(3) != Some(&b'-') {
                return;
            }
        }
    }
    reply(&mut read, "220").await;
    for (command, want) in [
        ("EHLO test.example.test".to_owned(), "250"),
        (format!("MAIL FROM:<{from}>"), "250"),
        (format!("RCPT TO:<{to}>"), "250"),
        ("DATA".to_owned(), "354"),
    ] {
        write
            .write_all(format!("{command}\r\n").as_bytes())
            .await
            .unwrap();
        reply(&mut read, want).await;
    }
    // Dot-stuffing: a line starting with "." gets a second one.
    let mut data = Vec::with_capacity(raw.len() + 8);
    for (i, &b) in raw.iter().enumerate() {
        if b == b'.' && (i == 0 || raw[i - 1] == b'\n') {
            data.push(b'.');
        }
        data.push(b);
    }
    write.write_all(&data).await.unwrap();
    if !raw.ends_with(b"\r\n") {
        write.write_all(b"\r\n").await.unwrap();
    }
    write.write_all(b".\r\n").await.unwrap();
    reply(&mut read, "250").await;
    write.write_all(b"QUIT\r\n").await.unwrap();
    reply(&mut read, "221").await;
}

/// Sends `raw` as the user `login` sends mail: on the submission port, STARTTLS, then AUTH as
/// `login` (the users' password), envelope sender `from`, with the crate's own SMTP client. The
/// servers sign it (DKIM, `d=` the From address's domain) when its single From address is
/// `login`, and only then.
pub async fn submit(servers: &Servers, login: &str, from: &str, to: &str, raw: &[u8]) {
    let mut cfg = SmtpConfig::new(
        &servers.host,
        servers.submission_port,
        ccmail_mail::smtp::Security::StartTls,
    )
    .with_login(login, &servers.password);
    cfg.ca_file = Some(servers.ca.clone());
    cfg.timeout = Duration::from_secs(15);
    Smtp::new(&cfg)
        .expect("an SMTP config")
        .send(raw, from, &[to])
        .await
        .unwrap_or_else(|e| panic!("submission as {login}, from {from} to {to}: {e}"));
}

/// The value of the first header `name` in a raw message (unfolded, trimmed).
pub fn header(raw: &[u8], name: &str) -> Option<String> {
    headers(raw, name).into_iter().next()
}

/// Every value of the header `name` in a raw message, topmost first (unfolded, trimmed).
pub fn headers(raw: &[u8], name: &str) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let head = text.split("\r\n\r\n").next().unwrap_or("");
    let mut found: Vec<String> = Vec::new();
    let mut in_field = false;
    for line in head.split("\r\n") {
        if line.starts_with([' ', '\t']) {
            if in_field && let Some(value) = found.last_mut() {
                value.push_str(line);
            }
            continue;
        }
        in_field = false;
        if let Some((n, v)) = line.split_once(':')
            && n.eq_ignore_ascii_case(name)
        {
            found.push(v.trim().to_owned());
            in_field = true;
        }
    }
    found
}

/// The names of the header fields of a raw message, top to bottom.
pub fn header_names(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let head = text.split("\r\n\r\n").next().unwrap_or("");
    head.split("\r\n")
        .filter(|line| !line.starts_with([' ', '\t']))
        .filter_map(|line| line.split_once(':'))
        .map(|(n, _)| n.to_owned())
        .collect()
}
