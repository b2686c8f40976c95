//! The byte stream under the IMAP session: plain TCP or TLS over TCP, and the three ways of
//! getting one (implicit TLS, STARTTLS, plain) up to the point where LOGIN can be sent.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::Client;
use async_imap::imap_proto::{Response, Status};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

use super::{Doing, Ended, ImapConfig, ImapError, Reply};
use crate::config::Misconfig;
use crate::tls::{self, Security, TlsFailure};

/// TCP, or TLS over TCP; and bytes read off it ahead of async-imap, handed back.
#[derive(Debug)]
pub(crate) struct Stream {
    io: Io,
    /// What ccmail's own reader of FETCH answers read past the end of its command
    /// ([`Stream::unread`]): the next reads take it first.
    unread: Vec<u8>,
}

#[derive(Debug)]
enum Io {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

impl Stream {
    fn plain(tcp: TcpStream) -> Self {
        Stream {
            io: Io::Plain(tcp),
            unread: Vec::new(),
        }
    }

    fn tls(tls: TlsStream<TcpStream>) -> Self {
        Stream {
            io: Io::Tls(Box::new(tls)),
            unread: Vec::new(),
        }
    }

    /// Puts `bytes` back in front of what is still to be read.
    pub(crate) fn unread(&mut self, bytes: &[u8]) {
        self.unread.splice(0..0, bytes.iter().copied());
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.unread.is_empty() {
            let n = this.unread.len().min(buf.remaining());
            buf.put_slice(&this.unread[..n]);
            this.unread.drain(..n);
            return Poll::Ready(Ok(()));
        }
        match &mut this.io {
            Io::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_flush(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().io {
            Io::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// Runs `fut` with the network time-out; a time-out becomes an `Io` error naming `what`.
pub(crate) async fn timed<T>(
    limit: Duration,
    what: impl Into<Doing>,
    fut: impl Future<Output = Result<T, ImapError>>,
) -> Result<T, ImapError> {
    tokio::time::timeout(limit, fut)
        .await
        .unwrap_or_else(|_| Err(ImapError::timeout(what, limit)))
}

/// Connects, reads the greeting and secures the connection as configured: the returned
/// client is ready for LOGIN. Each step has the network time-out of its own, and its error
/// names it: connecting, the TLS handshake, the greeting, STARTTLS.
pub(crate) async fn open(cfg: &ImapConfig) -> Result<Client<Stream>, ImapError> {
    let server = format!("{}:{}", cfg.host, cfg.port);
    if cfg.security == Security::Plain && !cfg.plain_ok {
        return Err(ImapError::Config(Misconfig::PlainImap { server }));
    }
    let tls = match cfg.security {
        Security::Plain => None,
        Security::Tls | Security::StartTls => {
            let config = tls::client_config(cfg.ca_file.as_deref())
                .map_err(|e| ImapError::Config(Misconfig::Tls(e)))?;
            let name =
                tls::server_name(&cfg.host).map_err(|e| ImapError::Config(Misconfig::Tls(e)))?;
            Some((TlsConnector::from(config), name))
        }
    };
    let limit = cfg.timeout;

    let tcp = timed(limit, Doing::Connecting(server.clone()), async {
        TcpStream::connect((cfg.host.as_str(), cfg.port))
            .await
            .map_err(|source| ImapError::Connect {
                server: server.clone(),
                source,
            })
    })
    .await?;
    // Small commands (DONE, NOOP) should leave at once.
    let _ = tcp.set_nodelay(true);

    let handshake = |connector: TlsConnector, name, tcp| {
        timed(
            limit,
            Doing::TlsHandshake(server.clone()),
            handshake(connector, name, tcp, &server),
        )
    };
    match (cfg.security, tls) {
        (Security::Tls, Some((connector, name))) => {
            let tls = handshake(connector, name, tcp).await?;
            greeted(Stream::tls(tls), limit, &server).await
        }
        (Security::StartTls, Some((connector, name))) => {
            let mut client = greeted(Stream::plain(tcp), limit, &server).await?;
            timed(limit, "STARTTLS", async {
                client
                    .run_command_and_check_ok("STARTTLS", None)
                    .await
                    .map_err(|e| starttls_refused(&server, e))
            })
            .await?;
            // Anything the server sent after its OK is dropped with the old client: only
            // what comes through TLS counts (no second greeting follows STARTTLS).
            let Io::Plain(tcp) = client.into_inner().io else {
                unreachable!("STARTTLS on a plain stream")
            };
            let tls = handshake(connector, name, tcp).await?;
            Ok(Client::new(Stream::tls(tls)))
        }
        _ => greeted(Stream::plain(tcp), limit, &server).await,
    }
}

/// The client on `stream` once the server's greeting was read (within `limit`).
async fn greeted(
    mut stream: Stream,
    limit: Duration,
    server: &str,
) -> Result<Client<Stream>, ImapError> {
    timed(limit, Doing::Greeting(server.to_owned()), async {
        first_line(&mut stream, server).await?;
        let mut client = Client::new(stream);
        greeting(&mut client, server).await?;
        Ok(client)
    })
    .await
}

fn starttls_refused(server: &str, e: async_imap::error::Error) -> ImapError {
    ImapError::Tls {
        server: server.to_owned(),
        reason: TlsFailure::StartTlsRefused(Box::new(ImapError::from_imap("STARTTLS", e))),
        transient: false,
    }
}

/// Reads the server's first bytes and gives them back to the stream, so async-imap reads the
/// greeting from its start; an answer that is no IMAP greeting (an SMTP server's `220`, a TLS
/// record, anything not starting with `* `) is an error quoting its first line (as much of it
/// as came at once): async-imap would wait for more of it, or misread it.
async fn first_line(stream: &mut Stream, server: &str) -> Result<(), ImapError> {
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while got.len() < 2 {
        let n = stream
            .read(&mut buf)
            .await
            .map_err(|source| ImapError::Io {
                context: Doing::Greeting(server.to_owned()),
                source,
            })?;
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    stream.unread(&got);
    if got.is_empty() || got.starts_with(b"* ") {
        // Nothing (async-imap says the connection closed), or IMAP.
        return Ok(());
    }
    let line = got.split(|&b| b == b'\n').next().unwrap_or(&got);
    let line = String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line));
    Err(ImapError::Protocol {
        command: Doing::Greeting(server.to_owned()),
        reply: Reply::Unexpected(format!("{line:?}")),
    })
}

async fn handshake(
    connector: TlsConnector,
    name: rustls::pki_types::ServerName<'static>,
    tcp: TcpStream,
    server: &str,
) -> Result<TlsStream<TcpStream>, ImapError> {
    let host = server.rsplit_once(':').map_or(server, |(h, _)| h);
    connector
        .connect(name, tcp)
        .await
        .map_err(|e| tls_error(server, host, &e))
}

/// A failed handshake: refused by TLS itself (certificate, protocol: not transient) or broken
/// by the network (transient).
fn tls_error(server: &str, host: &str, err: &io::Error) -> ImapError {
    match tls::find_rustls_error(err) {
        Some(r) => ImapError::Tls {
            server: server.to_owned(),
            reason: tls::describe(r, host),
            transient: false,
        },
        None => ImapError::Tls {
            server: server.to_owned(),
            reason: TlsFailure::Said(err.to_string()),
            transient: true,
        },
    }
}

/// Reads the server's greeting (async-imap leaves that to us): `* OK` or `* PREAUTH` go on,
/// `* BYE` (server busy or refusing) is an error.
async fn greeting(client: &mut Client<Stream>, server: &str) -> Result<(), ImapError> {
    let context = Doing::Greeting(server.to_owned());
    let response = client
        .read_response()
        .await
        .map_err(|source| ImapError::Io {
            context: context.clone(),
            source,
        })?
        .ok_or_else(|| ImapError::closed(context.clone()))?;
    match response.parsed() {
        Response::Data {
            status: Status::Ok | Status::PreAuth,
            ..
        } => Ok(()),
        Response::Data {
            status: Status::Bye,
            outcome,
        } => Err(ImapError::Io {
            context,
            source: io::Error::new(
                io::ErrorKind::ConnectionRefused,
                Ended::Bye(outcome.information.as_deref().unwrap_or("").to_owned()),
            ),
        }),
        other => Err(ImapError::Protocol {
            command: Doing::Greeting(server.to_owned()),
            reply: Reply::Unexpected(format!("{other:?}")),
        }),
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;
    use crate::imap::answer::{Answer, Reader};

    /// A server `answer`ing its first words (or nothing), and a plain connection to it with
    /// a short time-out: how `open` fails.
    async fn open_to(answer: Option<&'static [u8]>) -> ImapError {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            if let Some(answer) = answer {
                socket.write_all(answer).await.unwrap();
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
        });
        let mut cfg = ImapConfig::new("127.0.0.1", port, Security::Plain, "u", "p");
        cfg.plain_ok = true;
        cfg.timeout = Duration::from_millis(300);
        let err = open(&cfg).await.map(|_| ()).unwrap_err();
        server.abort();
        err
    }

    /// Each step of the connection has its time-out and names itself when it fails: an SMTP
    /// server's greeting is no IMAP greeting, and silence is a greeting that never came.
    #[tokio::test]
    async fn a_greeting_that_is_none_names_the_step() {
        let err = open_to(Some(b"220 mx.example.org ESMTP Postfix\r\n")).await;
        let ImapError::Protocol { command, reply } = &err else {
            panic!("{err:?}");
        };
        assert!(matches!(command, Doing::Greeting(_)), "{err}");
        assert_eq!(
            reply,
            &Reply::Unexpected("\"220 mx.example.org ESMTP Postfix\"".into())
        );
        let err = open_to(Some(&[0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x32])).await;
        assert!(
            matches!(
                &err,
                ImapError::Protocol {
                    command: Doing::Greeting(_),
                    ..
                }
            ),
            "{err}"
        );
        let err = open_to(None).await;
        let ImapError::Io { context, source } = &err else {
            panic!("{err:?}");
        };
        assert!(matches!(context, Doing::Greeting(_)), "{err}");
        assert_eq!(source.kind(), io::ErrorKind::TimedOut);
    }

    /// The half of the socket sharing that is ours (see `Imap::uid_fetch_each`): what
    /// ccmail's FETCH reader read past its command's tagged end is handed back, and the next
    /// reader of the stream — async-imap — reads it first, then the rest of the connection.
    #[tokio::test]
    async fn bytes_read_past_a_fetch_go_back_to_the_stream_in_order() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            // The tagged end and the next answer in one write: one read takes both.
            socket
                .write_all(b"* 1 FETCH (UID 7 BODY[] {2}\r\nhi)\r\nA1 OK done\r\n* 3 EXISTS\r\n")
                .await
                .unwrap();
            socket.write_all(b"* 4 EXISTS\r\n").await.unwrap();
        });
        let mut stream = Stream::plain(TcpStream::connect(addr).await.unwrap());
        server.await.unwrap();
        let mut reader = Reader::new(&mut stream);
        assert!(matches!(reader.next("A1").await.unwrap(), Answer::Fetch(_)));
        assert!(matches!(
            reader.next("A1").await.unwrap(),
            Answer::Done { ok: true, .. }
        ));
        let leftover = reader.leftover().to_vec();
        assert!(
            !leftover.is_empty(),
            "one read took the answers after the tagged end"
        );
        assert_eq!(leftover, b"* 3 EXISTS\r\n* 4 EXISTS\r\n"[..leftover.len()]);
        stream.unread(&leftover);
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).await.unwrap();
        assert_eq!(rest, b"* 3 EXISTS\r\n* 4 EXISTS\r\n");
    }
}
