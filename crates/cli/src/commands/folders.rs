//! `ccmail folders`: the IMAP server's folders as people read them (modified UTF-7 decoded),
//! marked where they are the config's `mailbox` and `sent_mailbox`, for writing those two
//! keys in any language. Needs `[imap]`, not the database.

use anyhow::Context;
use ccmail::app::daemon::imap_config;
use ccmail::config;
use ccmail::term::shown;
use ccmail_mail::imap::Imap;

use super::config_path;
use crate::cli::Cli;

pub async fn run(cli: &Cli) -> anyhow::Result<()> {
    let path = config_path(cli);
    let cfg = config::load(&path)?;
    let i = cfg
        .imap
        .as_ref()
        .with_context(|| ccmail::t!("cmd-folders-no-imap", path = path.display().to_string()))?;
    let mut c = imap_config(i)?;
    // INBOX always exists: the configured mailbox may be the very name being looked for.
    c.mailbox = "INBOX".into();
    let mut imap = Imap::connect(&c).await?;
    let folders = imap.folders().await;
    imap.logout().await;
    let folders = folders?;
    if cli.json {
        let names: Vec<&str> = folders.iter().map(|f| f.name.as_str()).collect();
        println!("{}", serde_json::to_string(&names)?);
        return Ok(());
    }
    let same = |a: &str, b: &str| {
        a == b || (a.eq_ignore_ascii_case("INBOX") && b.eq_ignore_ascii_case("INBOX"))
    };
    let width = folders
        .iter()
        .map(|f| shown(&f.name).chars().count())
        .max()
        .unwrap_or(0);
    for f in &folders {
        let mut notes: Vec<String> = Vec::new();
        if let Some(special) = f.special {
            notes.push(format!("({special})"));
        }
        if !f.selectable {
            notes.push(ccmail::t!("cmd-folders-not-messages"));
        }
        if same(&f.name, &i.mailbox) {
            notes.push("← mailbox".into());
        }
        if i.sent_mailbox.as_deref().is_some_and(|s| same(&f.name, s)) {
            notes.push("← sent_mailbox".into());
        }
        // A folder's name is the server's: shown, not obeyed.
        let name = shown(&f.name);
        let pad = width - name.chars().count();
        let line = format!("{name}{}  {}", " ".repeat(pad), notes.join(" "));
        println!("{}", line.trim_end());
    }
    for (key, name) in [
        ("mailbox", Some(&i.mailbox)),
        ("sent_mailbox", i.sent_mailbox.as_ref()),
    ] {
        if let Some(name) = name
            && !folders.iter().any(|f| same(&f.name, name))
        {
            println!(
                "{}",
                ccmail::t!(
                    "cmd-folders-missing",
                    key = key,
                    name = format!("{name:?}"),
                    path = path.display().to_string()
                )
            );
        }
    }
    Ok(())
}
