//! `ccmail init`: a commented starter config (never overwriting one) and the database.
//!
//! With a config that names a mailbox but not the player's own server (`[security]
//! authserv_id`), it looks at the newest mail for the server's name and prints the line to add:
//! until it is set, a partner's letter acts only with a legal move. A config it has just
//! written names no mailbox yet, so there is nothing to look at; an existing one is never
//! changed. A mailbox that can't be read is said, and `init` still succeeds.

use std::time::Duration;

use ccmail::config::{self, Config};
use ccmail_store::Store;

use super::config_path;
use crate::cli::Cli;

/// How long the mail server gets for each step of the look at the mailbox.
const TIMEOUT: Duration = Duration::from_secs(20);

pub async fn run(cli: &Cli) -> anyhow::Result<()> {
    let path = config_path(cli);
    if config::write_starter(&path)? {
        println!(
            "{}",
            ccmail::t!("cmd-init-wrote", path = path.display().to_string())
        );
    } else {
        println!(
            "{}",
            ccmail::t!("cmd-init-exists", path = path.display().to_string())
        );
    }
    let cfg = config::load(&path)?;
    Store::open(&cfg.store.db).await?.close().await;
    println!(
        "{}",
        ccmail::t!("cmd-init-db", path = cfg.store.db.display().to_string())
    );
    authserv_id(&cfg).await;
    Ok(())
}

/// Proposes `[security] authserv_id` from the mailbox, when the config has a mailbox and no id.
async fn authserv_id(cfg: &Config) {
    let Some(imap) = &cfg.imap else { return };
    if cfg.security.authserv_id.is_some() {
        return;
    }
    let file = cfg.path.display().to_string();
    match ccmail::app::verify::propose_from_mailbox(imap, TIMEOUT).await {
        Ok(Some(id)) => println!(
            "{}",
            ccmail::t!(
                "cmd-init-authserv-id",
                found = format!("{id:?}"),
                file = file
            )
        ),
        Ok(None) => println!("{}", ccmail::t!("cmd-init-authserv-id-none")),
        Err(e) => println!(
            "{}",
            ccmail::t!(
                "cmd-init-authserv-id-unread",
                error = ccmail::app::daemon::words(&e)
            )
        ),
    }
}
