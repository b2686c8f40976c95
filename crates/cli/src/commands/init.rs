//! `ccmail init`: a commented starter config (never overwriting one) and the database.

use ccmail::config;
use ccmail_store::Store;

use super::config_path;
use crate::cli::Cli;

pub async fn run(cli: &Cli) -> anyhow::Result<()> {
    let path = config_path(cli);
    if config::write_starter(&path)? {
        println!(
            "wrote a starter config to {} (edit [player] first)",
            path.display()
        );
    } else {
        println!("config {} exists; left as it is", path.display());
    }
    let cfg = config::load(&path)?;
    Store::open(&cfg.store.db).await?.close().await;
    println!("database {} is ready", cfg.store.db.display());
    Ok(())
}
