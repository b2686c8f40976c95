//! `ccmail init`: a commented starter config (never overwriting one) and the database.

use ccmail::config;
use ccmail_store::Store;

use super::config_path;
use crate::cli::Cli;

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
    Ok(())
}
