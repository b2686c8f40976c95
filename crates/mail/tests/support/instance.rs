//! Mail servers of a test's own: a second instance of tests/mailserver/mailserver.sh with its
//! own state folder and ports picked at run time, for a test that stops and starts the servers
//! while the other tests keep using the shared ones. Removed (`clean`) when dropped.
//!
//! Used by this crate's tests and, through `tests/support`, by the top-level ones.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{DEFAULT_HOSTNAME, Servers};

/// tests/mailserver/mailserver.sh of the repository this crate is in (the top-level tests
/// include this file too: their folder is the repository itself).
fn script_path() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/mailserver/mailserver.sh"))
        .find(|path| path.is_file())
}

/// Runs `mailserver.sh COMMAND` with `env` added; true when it succeeded. Its output is shown
/// when it failed.
pub fn script(env: &[(&str, String)], command: &str) -> bool {
    let Some(path) = script_path() else {
        return false;
    };
    let out = Command::new(&path)
        .arg(command)
        .envs(env.iter().map(|(k, v)| (*k, v)))
        .output();
    match out {
        Ok(out) if out.status.success() => true,
        Ok(out) => {
            eprintln!(
                "mailserver.sh {command} failed ({}):\n{}{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            false
        }
        Err(e) => {
            eprintln!("mailserver.sh {command}: {e}");
            false
        }
    }
}

/// A running instance of our own.
pub struct Instance {
    env: Vec<(&'static str, String)>,
    pub servers: Servers,
}

impl Instance {
    /// Starts a new instance; `None` (after a note) when that is not possible here — but with
    /// `CI=true` it must be.
    pub fn start(tag: &str) -> Option<Instance> {
        Instance::start_with(tag, "secret")
    }

    /// [`Instance::start`] with the users' password `password`.
    pub fn start_with(tag: &str, password: &str) -> Option<Instance> {
        Instance::start_env(tag, password, &[])
    }

    /// [`Instance::start_with`] with more `MAILSERVER_*` settings (`MAILSERVER_OAUTH2_URL`).
    pub fn start_env(
        tag: &str,
        password: &str,
        extra: &[(&'static str, String)],
    ) -> Option<Instance> {
        let dir = PathBuf::from(format!("/tmp/ccmail-mail-{}", super::unique(tag)));
        let ports = free_ports::<5>();
        let env = vec![
            ("MAILSERVER_DIR", dir.display().to_string()),
            ("MAILSERVER_IMAP_PORT", ports[0].to_string()),
            ("MAILSERVER_IMAPS_PORT", ports[1].to_string()),
            ("MAILSERVER_SMTP_PORT", ports[2].to_string()),
            ("MAILSERVER_SUBMISSION_PORT", ports[3].to_string()),
            ("MAILSERVER_SMTPS_PORT", ports[4].to_string()),
            (
                "MAILSERVER_USERS",
                "white@example.test black@example.test arbiter@example.test".into(),
            ),
            ("MAILSERVER_PASSWORD", password.into()),
        ];
        let mut env = env;
        env.extend(extra.iter().cloned());
        if !script(&env, "start") {
            let _ = script(&env, "clean");
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("CI=true but a mail-server instance of our own could not be started");
            }
            eprintln!(
                "note: skipping: no mail-server instance of our own (needs root and the packages)"
            );
            return None;
        }
        let servers = Servers {
            host: "127.0.0.1".into(),
            imap_port: ports[0],
            imaps_port: ports[1],
            smtp_port: ports[2],
            submission_port: ports[3],
            smtps_port: ports[4],
            ca: dir.join("tls/ca.pem"),
            users: vec![
                "white@example.test".into(),
                "black@example.test".into(),
                "arbiter@example.test".into(),
            ],
            password: password.into(),
            authserv_id: DEFAULT_HOSTNAME.into(),
        };
        Some(Instance { env, servers })
    }

    /// The instance's state folder.
    pub fn dir(&self) -> PathBuf {
        let (_, dir) = self
            .env
            .iter()
            .find(|(k, _)| *k == "MAILSERVER_DIR")
            .unwrap();
        PathBuf::from(dir)
    }

    /// Stops both servers (Dovecot and Postfix).
    pub fn stop(&self) {
        assert!(script(&self.env, "stop"), "mailserver.sh stop");
    }

    /// Starts them again (same state: mail, UIDVALIDITY, certificate).
    pub fn start_again(&self) {
        assert!(script(&self.env, "start"), "mailserver.sh start");
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = script(&self.env, "clean");
    }
}

/// `N` distinct ports free on 127.0.0.1 right now.
fn free_ports<const N: usize>() -> [u16; N] {
    let listeners: Vec<TcpListener> = (0..N)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    std::array::from_fn(|i| listeners[i].local_addr().unwrap().port())
}
