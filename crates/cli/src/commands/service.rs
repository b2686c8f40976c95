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
        None => PathBuf::from(
            std::env::var_os("HOME").with_context(|| ccmail::t!("cmd-service-no-home"))?,
        )
        .join(".config"),
    };
    Ok(base.join("systemd/user").join(NAME))
}

/// The unit with `ExecStart` running `exe` (and `--config FILE`).
pub fn unit_for(exe: &Path, config: Option<&Path>) -> anyhow::Result<String> {
    let quote = |p: &Path| -> anyhow::Result<String> {
        let s = p
            .to_str()
            .with_context(|| ccmail::t!("cmd-service-not-utf8", path = p.display().to_string()))?;
        if s.contains(['"', '\\', '\n', '%']) {
            bail!("{}", ccmail::t!("cmd-service-bad-path", path = s));
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
    let exe = std::env::current_exe().with_context(|| ccmail::t!("cmd-service-no-exe"))?;
    let config = config
        .map(|c| std::path::absolute(c).unwrap_or_else(|_| c.to_owned()))
        .filter(|c| c.exists());
    let unit = unit_for(&exe, config.as_deref())?;
    let dir = path.parent().expect("the unit's folder");
    std::fs::create_dir_all(dir)
        .with_context(|| ccmail::t!("cmd-service-cant-create", path = dir.display().to_string()))?;
    std::fs::write(path, unit)
        .with_context(|| ccmail::t!("cmd-service-cant-write", path = path.display().to_string()))?;
    println!(
        "{}",
        ccmail::t!("cmd-service-wrote", path = path.display().to_string())
    );
    match systemctl(&["daemon-reload"]).and_then(|()| systemctl(&["enable", "--now", NAME])) {
        Ok(()) => {
            println!("{}", ccmail::t!("cmd-service-started"));
            Ok(())
        }
        Err(why) => {
            println!(
                "{}\n{}",
                ccmail::t!("cmd-service-not-started", why = why),
                ccmail::t!("cmd-service-not-started-help")
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
        Ok(()) => println!(
            "{}",
            ccmail::t!("cmd-service-removed", path = path.display().to_string())
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!(
                "{}",
                ccmail::t!(
                    "cmd-service-nothing-to-remove",
                    path = path.display().to_string()
                )
            );
        }
        Err(e) => {
            return Err(e).with_context(|| {
                ccmail::t!("cmd-service-cant-remove", path = path.display().to_string())
            });
        }
    }
    let _ = systemctl(&["daemon-reload"]);
    Ok(())
}

fn status(path: &Path) -> anyhow::Result<()> {
    if !path.exists() {
        println!(
            "{}",
            ccmail::t!(
                "cmd-service-not-installed",
                path = path.display().to_string()
            )
        );
        return Ok(());
    }
    println!(
        "{}",
        ccmail::t!("cmd-service-unit", path = path.display().to_string())
    );
    let out = Command::new("systemctl")
        .args(["--user", "is-active", NAME])
        .output();
    match out {
        Ok(o) if !o.stdout.is_empty() => {
            println!(
                "{}",
                ccmail::t!(
                    "cmd-service-state",
                    state = String::from_utf8_lossy(&o.stdout).trim()
                )
            );
        }
        Ok(o) => println!(
            "{}",
            ccmail::t!(
                "cmd-service-state-unknown",
                why = first_line(&String::from_utf8_lossy(&o.stderr))
            )
        ),
        Err(e) => println!(
            "{}",
            ccmail::t!("cmd-service-state-no-systemctl", error = e.to_string())
        ),
    }
    Ok(())
}

/// `systemctl --user ARGS`; the error in words.
fn systemctl(args: &[&str]) -> Result<(), String> {
    let out = Command::new("systemctl")
        .arg("--user")
        .args(args)
        .output()
        .map_err(|e| ccmail::t!("cmd-service-no-systemctl", error = e.to_string()))?;
    if out.status.success() {
        return Ok(());
    }
    let why = first_line(&String::from_utf8_lossy(&out.stderr));
    Err(ccmail::t!(
        "cmd-service-systemctl-failed",
        args = args.join(" "),
        why = why
    ))
}

fn first_line(text: &str) -> String {
    match text.lines().next() {
        Some(line) => line.trim().to_owned(),
        None => ccmail::t!("cmd-service-no-reason"),
    }
}
