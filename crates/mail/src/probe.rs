//! What a server says first, for a hint when a port and `security` don't match.
//!
//! Every mail server greets first, in plain text (IMAP `* OK`, SMTP `220`), except on an
//! implicit-TLS port (993, 465), where it waits for the client's TLS hello. So the first bytes
//! a port sends, or its silence, tell what kind of port it is. A config with the wrong
//! `security` for its port fails in ways that say nothing of this (a wait, a TLS error about a
//! "corrupt message", an unreadable greeting): [`hint`] says, from what was heard, what the
//! config should say instead, and [`listen`] opens a connection of its own to hear it.
//!
//! [`hint`] is a pure function of what was heard; [`listen`] is the only part that talks to
//! the network, and it never sends anything but a TLS hello: no command, no login.

use std::path::Path;
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use crate::tls::{self, Security};

/// The most of a greeting that is kept: its first line is enough to know the server.
const FIRST_BYTES: usize = 256;

/// How long a port configured for TLS is given to greet in plain text before the TLS hello
/// is sent: a plain-text server greets at once.
const PLAIN_FIRST: Duration = Duration::from_secs(2);

/// How far a connection got before it failed: what may be said to have happened (IMAP's
/// `Imap::connect_reaching`, SMTP's `Smtp::check_reaching`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum Reached {
    /// Not even a connection secured as configured with a server that greeted as expected.
    #[default]
    Nothing,
    /// Connected, secured as configured, greeted: not logged in.
    Connected,
    /// Logged in.
    LoggedIn,
}

/// Which protocol the config means to speak on the port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// `[imap]`.
    Imap,
    /// `[smtp]`.
    Smtp,
}

/// What a port said when connected to, as [`listen`] heard it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// The connection was refused: nothing listens there.
    Refused,
    /// The connection was not made in time (or the host is unreachable).
    NoConnection,
    /// The server's first bytes, in plain text (at most its first line).
    Plain(Vec<u8>),
    /// Connected: the server said nothing in time (in plain text, or after TLS).
    Nothing,
    /// Connected: the server closed the connection without a word.
    Closed,
    /// The server's first bytes after a TLS handshake (at most its first line).
    InTls(Vec<u8>),
    /// The server did not answer the TLS hello in time.
    NoTlsAnswer,
    /// The TLS handshake failed: the words of rustls or the network (a certificate, say).
    TlsFailed(String),
}

/// What the config should say instead, from what the port said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hint {
    /// The port spoke TLS first: it is an implicit-TLS port, `security = "tls"`.
    ImplicitTls,
    /// The port said nothing in plain text: an implicit-TLS port waits like that (or a host
    /// that is not a mail server).
    Silent,
    /// The port greets in plain text, as the service does, but the config says TLS:
    /// `security = "starttls"`.
    PlainFirst,
    /// The port is the other service's (an SMTP greeting on the IMAP port, or the reverse).
    OtherService(Service),
    /// The port answers, but as neither mail service.
    NotMail,
    /// The server said nothing after TLS.
    SilentAfterTls,
    /// The port closed the connection at once.
    ClosedAtOnce,
    /// Nothing listens on the port.
    NothingListens,
    /// The host did not take the connection in time.
    Unreachable,
    /// The port took the connection but did not answer the TLS hello.
    NoTlsAnswer,
}

/// The greeting's protocol, if it is a mail greeting.
fn greeter(bytes: &[u8]) -> Option<Service> {
    let imap = [&b"* OK"[..], b"* PREAUTH", b"* BYE"];
    if imap.iter().any(|g| starts_with_ignoring_case(bytes, g)) {
        return Some(Service::Imap);
    }
    // 220 ready; 421 and 554 are the refusals a server may greet with (RFC 5321 3.1).
    let code = bytes.get(..4)?;
    let smtp = [&b"220"[..], b"421", b"554"];
    (smtp.iter().any(|c| code.starts_with(c)) && matches!(code[3], b' ' | b'-'))
        .then_some(Service::Smtp)
}

fn starts_with_ignoring_case(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// A TLS record's first byte: a handshake (0x16) or an alert (0x15), which a TLS server
/// sends to a client that did not start with a TLS hello.
fn is_tls_record(bytes: &[u8]) -> bool {
    matches!(bytes.first(), Some(0x15 | 0x16))
}

/// What `heard` says about a `service` configured with `security`: a hint, or `None` when it
/// is what that config expects (the failure is elsewhere: a certificate, a login).
pub fn hint(service: Service, security: Security, heard: &Heard) -> Option<Hint> {
    let tls = security == Security::Tls;
    match heard {
        Heard::Refused => Some(Hint::NothingListens),
        Heard::NoConnection => Some(Hint::Unreachable),
        Heard::Closed => Some(Hint::ClosedAtOnce),
        Heard::Nothing if tls => Some(Hint::SilentAfterTls),
        Heard::Nothing => Some(Hint::Silent),
        Heard::NoTlsAnswer => Some(Hint::NoTlsAnswer),
        Heard::TlsFailed(_) => None,
        Heard::Plain(bytes) if is_tls_record(bytes) => (!tls).then_some(Hint::ImplicitTls),
        Heard::Plain(bytes) | Heard::InTls(bytes) => match greeter(bytes) {
            Some(s) if s != service => Some(Hint::OtherService(s)),
            Some(_) if tls && matches!(heard, Heard::Plain(_)) => Some(Hint::PlainFirst),
            Some(_) => None,
            None => Some(Hint::NotMail),
        },
    }
}

/// Connects to `host:port` and listens: what the server sends first, in plain text, or (with
/// `security = "tls"`, when it is silent in plain text as a TLS port is) after a TLS
/// handshake. Each step waits at most `wait`.
pub async fn listen(
    host: &str,
    port: u16,
    security: Security,
    ca_file: Option<&Path>,
    wait: Duration,
) -> Heard {
    let connect = tokio::time::timeout(wait, TcpStream::connect((host, port))).await;
    let mut tcp = match connect {
        Err(_) => return Heard::NoConnection,
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionRefused => return Heard::Refused,
        Ok(Err(_)) => return Heard::NoConnection,
        Ok(Ok(tcp)) => tcp,
    };
    let first = if security == Security::Tls {
        wait.min(PLAIN_FIRST)
    } else {
        wait
    };
    match first_bytes(&mut tcp, first).await {
        Some(bytes) if bytes.is_empty() => return Heard::Closed,
        Some(bytes) => return Heard::Plain(bytes),
        None if security != Security::Tls => return Heard::Nothing,
        None => {}
    }
    let (config, name) = match (tls::client_config(ca_file), tls::server_name(host)) {
        (Ok(config), Ok(name)) => (config, name),
        (Err(e), _) | (_, Err(e)) => return Heard::TlsFailed(e.to_string()),
    };
    let connector = tokio_rustls::TlsConnector::from(config);
    let mut stream = match tokio::time::timeout(wait, connector.connect(name, tcp)).await {
        Err(_) => return Heard::NoTlsAnswer,
        Ok(Err(e)) => return Heard::TlsFailed(e.to_string()),
        Ok(Ok(stream)) => stream,
    };
    match first_bytes(&mut stream, wait).await {
        Some(bytes) if bytes.is_empty() => Heard::Closed,
        Some(bytes) => Heard::InTls(bytes),
        None => Heard::Nothing,
    }
}

/// The first bytes the server sends, up to the end of its first line; empty when it closes
/// the connection at once; `None` when it says nothing within `wait`.
async fn first_bytes(
    stream: &mut (impl tokio::io::AsyncRead + Unpin),
    wait: Duration,
) -> Option<Vec<u8>> {
    let mut got = Vec::new();
    let mut buf = [0u8; FIRST_BYTES];
    let until = tokio::time::Instant::now() + wait;
    while got.len() < FIRST_BYTES && !got.contains(&b'\n') {
        let read = tokio::time::timeout_at(until, stream.read(&mut buf)).await;
        match read {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) if got.is_empty() => return None,
            Err(_) => break,
        }
    }
    got.truncate(FIRST_BYTES);
    Some(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_each_answer_says_about_the_config() {
        use Heard as H;
        use Hint::*;
        use Security::{Plain as P, StartTls as S, Tls as T};
        use Service::{Imap as I, Smtp as M};
        let p = |b: &[u8]| H::Plain(b.to_vec());
        let t = |b: &[u8]| H::InTls(b.to_vec());
        let imap = b"* OK [CAPABILITY IMAP4rev1] Dovecot ready.\r\n";
        let smtp = b"220 mx.example.org ESMTP Postfix\r\n";
        let alert = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x32];
        let hello = [0x16, 0x03, 0x03, 0x00, 0x7a];
        let table: &[(Service, Security, Heard, Option<Hint>)] = &[
            // As expected: the failure is elsewhere.
            (I, S, p(imap), None),
            (I, P, p(b"* PREAUTH ready\r\n"), None),
            (M, S, p(smtp), None),
            (M, S, p(b"220-mx.example.org ESMTP\r\n"), None),
            (M, P, p(b"554 no service for you\r\n"), None),
            (I, T, t(imap), None),
            (M, T, t(smtp), None),
            (I, T, H::TlsFailed("invalid peer certificate".into()), None),
            // The other service's port.
            (I, S, p(smtp), Some(OtherService(M))),
            (M, S, p(imap), Some(OtherService(I))),
            (I, T, t(smtp), Some(OtherService(M))),
            (M, T, t(b"* ok imap ready\r\n"), Some(OtherService(I))),
            (I, T, p(smtp), Some(OtherService(M))),
            // TLS first on a plain connection: an implicit-TLS port.
            (I, S, p(&alert), Some(ImplicitTls)),
            (M, P, p(&hello), Some(ImplicitTls)),
            (I, S, H::Nothing, Some(Silent)),
            (M, S, H::Nothing, Some(Silent)),
            // A plain greeting where TLS was expected: STARTTLS.
            (I, T, p(imap), Some(PlainFirst)),
            (M, T, p(smtp), Some(PlainFirst)),
            // Not a mail server, or none at all.
            (I, S, p(b"HTTP/1.1 400 Bad Request\r\n"), Some(NotMail)),
            (M, T, t(b"SSH-2.0-OpenSSH_9.6\r\n"), Some(NotMail)),
            (M, S, p(b"22"), Some(NotMail)),
            (I, T, H::Nothing, Some(SilentAfterTls)),
            (I, T, H::NoTlsAnswer, Some(NoTlsAnswer)),
            (I, S, H::Closed, Some(ClosedAtOnce)),
            (M, T, H::Refused, Some(NothingListens)),
            (M, S, H::NoConnection, Some(Unreachable)),
        ];
        for (service, security, heard, expected) in table {
            assert_eq!(
                hint(*service, *security, heard),
                *expected,
                "{service:?} {security} {heard:?}"
            );
        }
    }

    /// A port that never answers, a closed one, and one that greets: heard as such.
    #[tokio::test]
    async fn listening_to_a_port() {
        use tokio::io::AsyncWriteExt;
        let wait = Duration::from_millis(300);
        let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let silent_port = silent.local_addr().unwrap().port();
        let heard = listen("127.0.0.1", silent_port, Security::StartTls, None, wait).await;
        assert_eq!(heard, Heard::Nothing);

        let greets = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = greets.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (mut socket, _) = greets.accept().await.unwrap();
            socket.write_all(b"220 mx ESMTP\r\nmore\r\n").await.unwrap();
            tokio::time::sleep(Duration::from_secs(1)).await;
        });
        let heard = listen("127.0.0.1", port, Security::Tls, None, wait).await;
        assert_eq!(heard, Heard::Plain(b"220 mx ESMTP\r\nmore\r\n".to_vec()));
        server.abort();

        drop(silent);
        let heard = listen("127.0.0.1", silent_port, Security::Plain, None, wait).await;
        assert_eq!(heard, Heard::Refused);
    }
}
