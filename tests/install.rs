//! What installs ccmail into a player's system: the shell completions (completed in a real
//! bash), the man page (rendered by `man -l`), and the systemd user unit (`service install`
//! writes one that `systemd-analyze verify` accepts, and says plainly what to do where there
//! is no systemd user manager, as in this sandbox). The tools are Debian's; with `CI=true` a
//! missing one fails the test.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::required_tool;

const BIN: &str = env!("CARGO_BIN_EXE_ccmail");

fn ccmail(home: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn has(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What bash's completion offers for the words typed so far (the last one being completed).
fn complete(script: &Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let cword = words.len() - 1;
    let line = words.join(" ");
    let program = format!(
        "source '{}'\nCOMP_WORDS=({})\nCOMP_CWORD={cword}\nCOMP_LINE='{line}'\n\
         COMP_POINT=${{#COMP_LINE}}\n_ccmail ccmail '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script.display(),
        quoted.join(" "),
        words[cword],
        words[cword.saturating_sub(1)],
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_commands_and_flags() {
    if !required_tool("bash", has("bash")) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let script = home.path().join("ccmail.bash");
    std::fs::write(
        &script,
        stdout(&ccmail(home.path(), &["completions", "bash"])),
    )
    .unwrap();
    let offered = complete(&script, &["ccmail", "pl"]);
    assert_eq!(offered, ["plan"]);
    let offered = complete(&script, &["ccmail", "move", "--acc"]);
    assert_eq!(offered, ["--accept-variation", "--accept-draw"]);
    let offered = complete(&script, &["ccmail", "service", ""]);
    for want in ["install", "uninstall", "status"] {
        assert!(offered.iter().any(|o| o == want), "{offered:?}");
    }
    // zsh and fish get theirs too.
    assert!(stdout(&ccmail(home.path(), &["completions", "zsh"])).starts_with("#compdef ccmail"));
    assert!(stdout(&ccmail(home.path(), &["completions", "fish"])).contains("complete -c ccmail"));
}

#[test]
fn the_man_page_renders() {
    if !required_tool("man", has("man")) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let page = home.path().join("ccmail.1");
    std::fs::write(&page, stdout(&ccmail(home.path(), &["manpage"]))).unwrap();
    let out = Command::new("man")
        .args(["-l", "-P", "cat"])
        .arg(&page)
        .env("MANWIDTH", "80")
        .env("LANG", "C.UTF-8")
        .output()
        .unwrap();
    let text = stdout(&out);
    for want in [
        "NAME",
        "E-mail correspondence chess client",
        "SYNOPSIS",
        "CCMAIL MOVE",
        "--accept-variation",
        "CCMAIL PLAN",
        "CCMAIL SERVICE INSTALL",
        "FILES",
    ] {
        assert!(text.contains(want), "{want:?} in:\n{text}");
    }
    // No roff left unrendered.
    assert!(!text.contains("\\f") && !text.contains(".TP"), "{text}");
}

#[test]
fn service_install_writes_a_unit_systemd_accepts() {
    if !required_tool("systemd-analyze", has("systemd-analyze")) {
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("my config.toml");
    std::fs::write(&config, "").unwrap();
    let out = ccmail(
        home.path(),
        &["--config", config.to_str().unwrap(), "service", "install"],
    );
    let said = stdout(&out);
    let unit = home.path().join(".config/systemd/user/ccmail.service");
    assert!(
        said.starts_with(&format!("wrote {}\n", unit.display())),
        "{said}"
    );
    let text = std::fs::read_to_string(&unit).unwrap();
    assert!(
        text.contains(&format!(
            "\nExecStart=\"{BIN}\" --config \"{}\" run\n",
            config.display()
        )),
        "{text}"
    );
    assert!(text.contains("\nRestart=on-failure\n"), "{text}");
    assert!(text.contains("\nWantedBy=default.target\n"), "{text}");
    // This sandbox has no systemd user manager: said plainly, and not an error.
    if !Command::new("systemctl")
        .args(["--user", "is-system-running"])
        .output()
        .is_ok_and(|o| !o.stdout.is_empty() && o.status.success())
    {
        assert!(said.contains("not started: "), "{said}");
        assert!(
            said.contains("systemctl --user enable --now ccmail"),
            "{said}"
        );
    }
    let verify = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&unit)
        .output()
        .unwrap();
    assert!(
        verify.status.success(),
        "{}{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
    let status = stdout(&ccmail(home.path(), &["service", "status"]));
    assert!(
        status.starts_with(&format!("unit: {}\n", unit.display())),
        "{status}"
    );
    let gone = stdout(&ccmail(home.path(), &["service", "uninstall"]));
    assert!(
        gone.contains(&format!("removed {}", unit.display())),
        "{gone}"
    );
    assert!(!unit.exists());
    let status = stdout(&ccmail(home.path(), &["service", "status"]));
    assert!(status.starts_with("not installed"), "{status}");
}
