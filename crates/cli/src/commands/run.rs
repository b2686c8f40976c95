//! `ccmail run [--once]`: the daemon (see `ccmail::app::daemon`). Here only what belongs to a
//! process: SIGINT and SIGTERM turn into the stop signal the loops take as an argument; a
//! second signal quits at once; and the process can't be dumped or traced ([`no_dumps`]).

use ccmail::app::daemon::Daemon;
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::watch;

use super::Ctx;

pub async fn run(ctx: &Ctx, once: bool, now: Option<String>) -> anyhow::Result<()> {
    ccmail::config::literal::warn(&ctx.cfg);
    let daemon = Daemon::start(&ctx.cfg, ctx.store.clone(), ctx.me.clone(), now).await?;
    let (tx, rx) = watch::channel(false);
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        tracing::info!("{}", ccmail::t!("cmd-run-stopping"));
        let _ = tx.send(true);
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        tracing::warn!("{}", ccmail::t!("cmd-run-second-signal"));
        std::process::exit(130);
    });
    if once {
        return daemon.once(rx).await;
    }
    tracing::info!(config = %ctx.cfg.path.display(), "{}", ccmail::t!("cmd-run-starting"));
    daemon.run(rx).await
}

/// Marks the process non-dumpable (`prctl(PR_SET_DUMPABLE, 0)`, Linux), first thing: the
/// daemon holds the mail passwords and tokens for days, and then no core dump has them, no
/// process of the same user can attach a debugger or read its memory, and its `/proc/PID`
/// files belong to root. Its hooks are programs of their own (`execve` makes them dumpable
/// again). A failure is logged, not fatal.
pub fn no_dumps() {
    #[cfg(target_os = "linux")]
    if let Err(e) =
        rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)
    {
        tracing::warn!("{}", ccmail::t!("cmd-run-dumpable", error = e.to_string()));
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use rustix::process::{DumpableBehavior, dumpable_behavior};

    #[test]
    fn the_process_is_no_longer_dumpable() {
        assert_eq!(dumpable_behavior().unwrap(), DumpableBehavior::Dumpable);
        super::no_dumps();
        assert_eq!(dumpable_behavior().unwrap(), DumpableBehavior::NotDumpable);
    }
}
