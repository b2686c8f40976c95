//! How another ccmail process tells a running daemon that the outbox may have changed: one
//! datagram on a Unix socket beside the database (`ccmail.db.nudge`). The daemon's outbox loop
//! then sleeps until it is told, or a retry or the chores come due, instead of looking at the
//! store every few seconds: an idle daemon wakes for nothing but IDLE.
//!
//! A nudge carries nothing and asks for nothing: the daemon only looks at what is due, as it
//! would on its own. Without a daemon, or where the socket can't be made, nothing happens and
//! the daemon falls back to looking every few seconds.

use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};

/// The socket of the daemon using the database at `db`.
pub fn socket_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".nudge");
    PathBuf::from(name)
}

/// Tells the daemon using `db`, if one runs, to look at the outbox. Never fails.
pub fn nudge(db: &Path) {
    let path = socket_path(db);
    if !path.exists() {
        return;
    }
    if let Ok(socket) = UnixDatagram::unbound() {
        let _ = socket.send_to(b"outbox", &path);
    }
}

/// The daemon's end: bound at start (a socket left by a daemon that was killed is replaced),
/// removed when dropped.
#[derive(Debug)]
pub struct Listener {
    socket: tokio::net::UnixDatagram,
    path: PathBuf,
}

impl Listener {
    pub fn bind(db: &Path) -> std::io::Result<Listener> {
        let path = socket_path(db);
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let socket = tokio::net::UnixDatagram::bind(&path)?;
        Ok(Listener { socket, path })
    }

    /// Waits for the next nudge (several at once count as one).
    pub async fn recv(&self) {
        let mut buf = [0u8; 16];
        let _ = self.socket.recv(&mut buf).await;
        while self.socket.try_recv(&mut buf).is_ok() {}
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_nudge_reaches_the_listener_and_a_stale_socket_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("ccmail.db");
        // Nobody listens: nothing happens.
        nudge(&db);
        let first = Listener::bind(&db).unwrap();
        std::mem::forget(first); // as a killed daemon leaves its socket file
        let listener = Listener::bind(&db).unwrap();
        nudge(&db);
        nudge(&db);
        tokio::time::timeout(std::time::Duration::from_secs(2), listener.recv())
            .await
            .expect("the nudge arrives");
        // Both nudges were taken at once.
        let again = tokio::time::timeout(std::time::Duration::from_millis(100), listener.recv());
        assert!(again.await.is_err());
        drop(listener);
        assert!(!socket_path(&db).exists());
    }
}
