//! `ccmail service install|uninstall|status`: the systemd user unit that keeps `ccmail run`
//! going (contrib/systemd/ccmail.service, built in).
//!
//! Install writes the unit to `$XDG_CONFIG_HOME/systemd/user/` (`~/.config/systemd/user/`),
//! its `ExecStart` the ccmail that runs this (with `--config` when one was given), then asks
//! `systemctl --user` to reload, enable and start it. Where there is no systemd user manager
//! (a container, a system without systemd) the unit is still written, and the message says
//! plainly what to do instead. Nothing here needs root.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::cli::ServiceAction;

/// The unit as shipped; `ExecStart` is rewritten on install.
pub const UNIT: &str = include_str!("../../../../contrib/systemd/ccmail.service");
const NAME: &str = "ccmail.service";

pub fn run(action: ServiceAction, config: Option<&Path>) -> anyhow::Result<()> {
    let path = unit_path()?;
    match action {
        ServiceAction::Install => install(&path, config),
        ServiceAction::Uninstall => uninstall(&path),
        ServiceAction::Status => status(&path),
    }
}

/// `$XDG_CONFIG_HOME/systemd/user/ccmail.service`.
fn unit_path() -> anyhow::Result<PathBuf> {
    let base = match std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(std::env::var_os("HOME").context("HOME is not set")?).join(".config"),
    };
    Ok(base.join("systemd/user").join(NAME))
}

/// The unit with `ExecStart` running `exe` (and `--config FILE`).
pub fn unit_for(exe: &Path, config: Option<&Path>) -> anyhow::Result<String> {
    let quote = |p: &Path| -> anyhow::Result<String> {
        let s = p
            .to_str()
            .with_context(|| format!("{} is not UTF-8: systemd can't run it", p.display()))?;
        if s.contains(['"', '\\', '\n', '%']) {
            bail!("{s}: a path with quotes, backslashes or % can't go into the unit as it is");
        }
        Ok(format!("\"{s}\""))
    };
    let mut exec = format!("ExecStart={}", quote(exe)?);
    if let Some(config) = config {
        exec.push_str(&format!(" --config {}", quote(config)?));
    }
    exec.push_str(" run");
    Ok(UNIT
        .lines()
        .map(|l| {
            if l.starts_with("ExecStart=") {
                exec.clone()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n")
}

fn install(path: &Path, config: Option<&Path>) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("can't tell where this ccmail is")?;
    let config = config
        .map(|c| std::path::absolute(c).unwrap_or_else(|_| c.to_owned()))
        .filter(|c| c.exists());
    let unit = unit_for(&exe, config.as_deref())?;
    let dir = path.parent().expect("the unit's folder");
    std::fs::create_dir_all(dir).with_context(|| format!("can't create {}", dir.display()))?;
    std::fs::write(path, unit).with_context(|| format!("can't write {}", path.display()))?;
    println!("wrote {}", path.display());
    match systemctl(&["daemon-reload"]).and_then(|()| systemctl(&["enable", "--now", NAME])) {
        Ok(()) => {
            println!(
                "enabled and started: `ccmail service status` shows it, `journalctl --user \
                 -u ccmail` its log; `loginctl enable-linger $USER` keeps it running while \
                 you are logged out"
            );
            Ok(())
        }
        Err(why) => {
            println!(
                "not started: {why}.\nThe unit is written; where there is a systemd user \
                 manager, `systemctl --user enable --now ccmail` starts it. Without systemd, \
                 start `ccmail run` from your session's startup (a desktop autostart entry, \
                 ~/.profile, or cron's @reboot)."
            );
            Ok(())
        }
    }
}

fn uninstall(path: &Path) -> anyhow::Result<()> {
    if let Err(why) = systemctl(&["disable", "--now", NAME]) {
        println!("systemd: {why}");
    }
    match std::fs::remove_file(path) {
        Ok(()) => println!("removed {}", path.display()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("no unit at {}: nothing to remove", path.display());
        }
        Err(e) => return Err(e).with_context(|| format!("can't remove {}", path.display())),
    }
    let _ = systemctl(&["daemon-reload"]);
    Ok(())
}

fn status(path: &Path) -> anyhow::Result<()> {
    if !path.exists() {
        println!(
            "not installed: no unit at {} (`ccmail service install` writes it)",
            path.display()
        );
        return Ok(());
    }
    println!("unit: {}", path.display());
    let out = Command::new("systemctl")
        .args(["--user", "is-active", NAME])
        .output();
    match out {
        Ok(o) if !o.stdout.is_empty() => {
            println!("state: {}", String::from_utf8_lossy(&o.stdout).trim());
        }
        Ok(o) => println!(
            "state unknown: {}",
            first_line(&String::from_utf8_lossy(&o.stderr))
        ),
        Err(e) => println!("state unknown: systemctl can't be run ({e})"),
    }
    Ok(())
}

/// `systemctl --user ARGS`; the error in words.
fn systemctl(args: &[&str]) -> Result<(), String> {
    let out = Command::new("systemctl")
        .arg("--user")
        .args(args)
        .output()
        .map_err(|e| format!("systemctl can't be run ({e}): is this a systemd system?"))?;
    if out.status.success() {
        return Ok(());
    }
    let why = first_line(&String::from_utf8_lossy(&out.stderr));
    Err(format!(
        "`systemctl --user {}` failed: {why}",
        args.join(" ")
    ))
}

fn first_line(text: &str) -> String {
    text.lines()
        .next()
        .unwrap_or("no reason given")
        .trim()
        .to_owned()
}
