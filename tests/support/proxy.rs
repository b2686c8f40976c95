//! A TCP proxy between ccmail and a real server, for the faults a healthy server does not
//! make on its own: a connection cut in the middle of a transfer, a slow line, a refusal at
//! the greeting (`421`, answered by the proxy itself, the connection then closed). Everything
//! else — every successful exchange — is the real server's.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

/// Which way the bytes flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    /// ccmail → server.
    Up,
    /// server → ccmail.
    Down,
}

/// A cut: once `marker` went by in direction `dir`, `after` more bytes are let through and
/// then both sides are closed; on the first `times` connections where the marker shows.
#[derive(Debug, Clone)]
pub struct Cut {
    pub dir: Dir,
    pub marker: Vec<u8>,
    pub after: usize,
    pub times: usize,
}

/// What the proxy does.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The first `refuse` connections get this line (e.g. `421 4.3.2 …`) and are closed,
    /// without a connection to the server.
    pub refuse: usize,
    pub refusal: String,
    pub cut: Option<Cut>,
    /// Server → ccmail at most this many bytes a second.
    pub throttle: Option<usize>,
}

#[derive(Debug, Default)]
pub struct Counts {
    pub connections: AtomicUsize,
    pub refused: AtomicUsize,
    pub cuts: AtomicUsize,
    /// Bytes server → ccmail, all connections.
    pub down: AtomicUsize,
}

/// A running proxy on 127.0.0.1:`port`, forwarding to 127.0.0.1:`target`.
#[derive(Debug)]
pub struct Proxy {
    pub port: u16,
    pub counts: Arc<Counts>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    pub fn start(target: u16, plan: Plan) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let counts = Arc::new(Counts::default());
        let stop = Arc::new(AtomicBool::new(false));
        let (c, s) = (Arc::clone(&counts), Arc::clone(&stop));
        let plan = Arc::new(plan);
        std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        client.set_nonblocking(false).unwrap();
                        let (c, plan) = (Arc::clone(&c), Arc::clone(&plan));
                        std::thread::spawn(move || serve(client, target, plan, c));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Proxy { port, counts, stop }
    }

    pub fn cuts(&self) -> usize {
        self.counts.cuts.load(Ordering::SeqCst)
    }

    pub fn refused(&self) -> usize {
        self.counts.refused.load(Ordering::SeqCst)
    }

    pub fn down(&self) -> usize {
        self.counts.down.load(Ordering::SeqCst)
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

fn serve(client: TcpStream, target: u16, plan: Arc<Plan>, counts: Arc<Counts>) {
    let n = counts.connections.fetch_add(1, Ordering::SeqCst);
    if n < plan.refuse {
        counts.refused.fetch_add(1, Ordering::SeqCst);
        let mut client = client;
        let _ = client.write_all(format!("{}\r\n", plan.refusal).as_bytes());
        std::thread::sleep(Duration::from_millis(50));
        let _ = client.shutdown(Shutdown::Both);
        return;
    }
    let Ok(server) = TcpStream::connect(("127.0.0.1", target)) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    let (c2, s2) = (client.try_clone().unwrap(), server.try_clone().unwrap());
    let (plan2, counts2) = (Arc::clone(&plan), Arc::clone(&counts));
    let up = std::thread::spawn(move || pump(c2, s2, Dir::Up, &plan2, &counts2));
    pump(server, client, Dir::Down, &plan, &counts);
    let _ = up.join();
}

/// Copies `from` → `to` until either side closes or the plan cuts; then closes both.
fn pump(mut from: TcpStream, mut to: TcpStream, dir: Dir, plan: &Plan, counts: &Counts) {
    let cut = plan.cut.as_ref().filter(|c| c.dir == dir);
    let mut seen: Vec<u8> = Vec::new();
    let mut cut_at: Option<usize> = None;
    let mut total = 0usize;
    let mut buf = [0u8; 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let chunk = &buf[..n];
        if let Some(c) = cut
            && cut_at.is_none()
        {
            let start = seen.len().saturating_sub(c.marker.len());
            seen.extend_from_slice(chunk);
            if let Some(p) = find(&seen[start..], &c.marker) {
                cut_at = Some(start + p + c.marker.len() + c.after);
            }
        }
        if let (Some(c), Some(at)) = (cut, cut_at)
            && total + chunk.len() >= at
        {
            let claimed = counts
                .cuts
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |k| {
                    (k < c.times).then_some(k + 1)
                })
                .is_ok();
            if claimed {
                let _ = to.write_all(&chunk[..at - total]);
                let _ = to.flush();
                break;
            }
            cut_at = Some(usize::MAX);
        }
        if let Some(bps) = plan.throttle.filter(|_| dir == Dir::Down) {
            std::thread::sleep(Duration::from_secs_f64(n as f64 / bps as f64));
        }
        if to.write_all(chunk).is_err() {
            break;
        }
        if dir == Dir::Down {
            counts.down.fetch_add(n, Ordering::SeqCst);
        }
        total += n;
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
