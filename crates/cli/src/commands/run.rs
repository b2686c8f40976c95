//! `ccmail run [--once]`: the daemon (see `ccmail::app::daemon`). Here only what belongs to a
//! process: SIGINT and SIGTERM turn into the stop signal the loops take as an argument; a
//! second signal quits at once.

use ccmail::app::daemon::Daemon;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;

use super::Ctx;

pub async fn run(ctx: &Ctx, once: bool, now: Option<String>) -> anyhow::Result<()> {
    ccmail::config::literal::warn(&ctx.cfg);
    let daemon = Daemon::new(&ctx.cfg, ctx.store.clone(), ctx.me.clone(), now)?;
    let (tx, rx) = watch::channel(false);
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        tracing::info!("stopping after the work in hand (a second signal quits at once)");
        let _ = tx.send(true);
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        tracing::warn!("second signal: quitting now");
        std::process::exit(130);
    });
    if once {
        return daemon.once(rx).await;
    }
    tracing::info!(config = %ctx.cfg.path.display(), "ccmail daemon starting");
    daemon.run(rx).await
}
