//! The starter file `ccmail init` writes: `config/ccmail.example.toml`, its explanations in
//! the interface language, with the user's name and address put in when they are known.
//!
//! It is written once and never overwritten, with mode 0600 from the start, so that a
//! password typed into it later is never readable by others.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use anyhow::Context;

/// The commented example config, every key with its default.
pub(super) const EXAMPLE: &str = include_str!("../../../../config/ccmail.example.toml");

/// The example's `[player]` values, replaced by [`starter`].
// not the interface's: the example file's values
const NAME_LINE: &str = "\nname = \"Иванов Иван\"\n";
// not the interface's: the example file's values
const SURNAME_LINE: &str = "\nsurname = \"Иванов\"\n";
const EMAIL: &str = "\"ivanov@example.org\"";

/// The text of a starter config: the example file with `name` (surname first, "Петров Пётр")
/// and `email` in place of its placeholders. The surname is the name's first word. The
/// address also replaces the example's in the commented-out `username` keys. Without them the
/// placeholders stay, and the file still loads. Its explanations are in the interface
/// language (in English, the example's own).
pub fn starter(name: Option<&str>, email: Option<&str>) -> String {
    let mut text = explained(EXAMPLE, &explanations());
    if let Some(name) = name.map(str::trim).filter(|name| !name.is_empty()) {
        let surname = name.split_whitespace().next().unwrap_or(name);
        text = text.replacen(NAME_LINE, &format!("\nname = {}\n", quoted(name)), 1);
        text = text.replacen(
            SURNAME_LINE,
            &format!("\nsurname = {}\n", quoted(surname)),
            1,
        );
    }
    if let Some(email) = email.map(str::trim).filter(|email| !email.is_empty()) {
        text = text.replace(EMAIL, &quoted(email));
    }
    text
}

/// The example's explanations in the interface language, in the order of the file: one for
/// each run of comment lines that is neither a commented-out key nor a header (the keys, the
/// headers and their values are the same in every language). Lines are separated by `\n`.
fn explanations() -> Vec<String> {
    vec![
        crate::t!("config-starter-intro"),
        crate::t!("config-starter-keys"),
        crate::t!("config-starter-paths"),
        crate::t!("config-starter-name"),
        crate::t!("config-starter-surname"),
        crate::t!("config-starter-email"),
        crate::t!("config-starter-timezone"),
        crate::t!("config-starter-store-path"),
        crate::t!("config-starter-imap"),
        crate::t!("config-starter-host"),
        crate::t!("config-starter-security"),
        crate::t!("config-starter-imap-port"),
        crate::t!("config-starter-imap-username"),
        crate::t!("config-starter-imap-password"),
        crate::t!("config-starter-password-env"),
        crate::t!("config-starter-password"),
        crate::t!("config-starter-imap-oauth2-cmd"),
        crate::t!("config-starter-mailbox"),
        crate::t!("config-starter-sent-mailbox"),
        crate::t!("config-starter-first-sync"),
        crate::t!("config-starter-ca-file"),
        crate::t!("config-starter-oauth2"),
        crate::t!("config-starter-token-url"),
        crate::t!("config-starter-client-id"),
        crate::t!("config-starter-client-secret"),
        crate::t!("config-starter-auth-url"),
        crate::t!("config-starter-scope"),
        crate::t!("config-starter-refresh-token"),
        crate::t!("config-starter-token-file"),
        crate::t!("config-starter-redirect-port"),
        crate::t!("config-starter-smtp"),
        crate::t!("config-starter-host"),
        crate::t!("config-starter-security"),
        crate::t!("config-starter-smtp-port"),
        crate::t!("config-starter-smtp-username"),
        crate::t!("config-starter-smtp-password"),
        crate::t!("config-starter-password-env"),
        crate::t!("config-starter-password"),
        crate::t!("config-starter-smtp-oauth2-cmd"),
        crate::t!("config-starter-ca-file"),
        crate::t!("config-starter-oauth2"),
        crate::t!("config-starter-token-url"),
        crate::t!("config-starter-client-id"),
        crate::t!("config-starter-client-secret"),
        crate::t!("config-starter-auth-url"),
        crate::t!("config-starter-scope"),
        crate::t!("config-starter-refresh-token"),
        crate::t!("config-starter-token-file"),
        crate::t!("config-starter-redirect-port"),
        crate::t!("config-starter-hooks"),
        crate::t!("config-starter-on-held"),
        crate::t!("config-starter-on-deadline"),
        crate::t!("config-starter-on-sent"),
        crate::t!("config-starter-on-error"),
        crate::t!("config-starter-timeout"),
        crate::t!("config-starter-authserv-id"),
        crate::t!("config-starter-defaults"),
        crate::t!("config-starter-notation"),
        crate::t!("config-starter-control"),
        crate::t!("config-starter-rules"),
        crate::t!("config-starter-attach-pgn"),
    ]
}

/// `example` with its explanations (see [`explanations`]) replaced, in order, by `words`,
/// each line of them commented. An example with another number of explanations than `words`
/// is returned as it is: its own words rather than wrong ones.
fn explained(example: &str, words: &[String]) -> String {
    let is_explanation = |line: &str| {
        line.trim_end_matches(['\n', '\r'])
            .strip_prefix("# ")
            .is_some_and(|rest| !is_key_or_header(rest))
    };
    let lines: Vec<&str> = example.split_inclusive('\n').collect();
    let starts = |i: usize| is_explanation(lines[i]) && (i == 0 || !is_explanation(lines[i - 1]));
    if (0..lines.len()).filter(|&i| starts(i)).count() != words.len() {
        return example.to_owned();
    }
    let mut out = String::with_capacity(example.len() + example.len() / 2);
    let mut words = words.iter();
    for (i, line) in lines.iter().enumerate() {
        if !is_explanation(line) {
            out.push_str(line);
        } else if starts(i) {
            for text in words.next().into_iter().flat_map(|w| w.lines()) {
                out.push('#');
                if !text.is_empty() {
                    out.push(' ');
                    out.push_str(text);
                }
                out.push('\n');
            }
        }
    }
    out
}

/// Whether a comment's text (after `# `) is a commented-out key (`port = 993`) or header
/// (`[imap]`).
fn is_key_or_header(text: &str) -> bool {
    let is_key = text.split_once(" = ").is_some_and(|(key, _)| {
        !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    });
    let is_header = text.starts_with('[') && text.ends_with(']');
    is_key || is_header
}

/// `s` as a TOML string.
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

/// Writes [`starter`]`(None, None)` to `path` (see [`write_starter_text`]).
pub fn write_starter(path: &Path) -> anyhow::Result<bool> {
    write_starter_text(path, &starter(None, None))
}

/// Writes `text` (normally from [`starter`]) to `path` as a new file with mode 0600, creating
/// its missing parent directories with mode 0700. `Ok(false)`, and nothing is written, when
/// the file already exists: an existing config is never overwritten.
pub fn write_starter_text(path: &Path, text: &str) -> anyhow::Result<bool> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        create_dirs(parent).with_context(|| {
            crate::t!(
                "config-cannot-create-dir",
                dir = parent.display().to_string()
            )
        })?;
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = match options.open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        Err(err) => {
            return Err(err).with_context(|| {
                crate::t!("config-cannot-create", file = path.display().to_string())
            });
        }
    };
    if let Err(err) = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
    {
        drop(file);
        let _ = std::fs::remove_file(path);
        return Err(err)
            .with_context(|| crate::t!("config-cannot-write", file = path.display().to_string()));
    }
    Ok(true)
}

fn create_dirs(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_placeholders_are_each_there_once() {
        assert_eq!(EXAMPLE.matches(NAME_LINE).count(), 1);
        assert_eq!(EXAMPLE.matches(SURNAME_LINE).count(), 1);
        assert!(EXAMPLE.contains(&format!("\nemail = {EMAIL}\n")));
    }

    #[test]
    fn starter_puts_in_name_surname_and_email() {
        let text = starter(Some("Петров Пётр"), Some("petrov@example.org"));
        assert!(text.contains("\nname = \"Петров Пётр\"\n"), "{text}");
        assert!(text.contains("\nsurname = \"Петров\"\n"), "{text}");
        assert!(
            text.contains("\nemail = \"petrov@example.org\"\n"),
            "{text}"
        );
        assert!(
            text.contains("# username = \"petrov@example.org\""),
            "{text}"
        );
        assert!(!text.contains("ivanov"), "{text}");
        assert!(!text.contains("Иванов"), "{text}");
    }

    #[test]
    fn starter_quotes_what_it_puts_in() {
        let text = starter(Some("O\"Brien \\ Pat"), None);
        let doc: toml::Table = text.parse().unwrap();
        let player = doc["player"].as_table().unwrap();
        assert_eq!(player["name"].as_str(), Some("O\"Brien \\ Pat"));
        assert_eq!(player["surname"].as_str(), Some("O\"Brien"));
    }

    #[test]
    fn starter_without_values_is_the_example() {
        assert_eq!(starter(None, None), EXAMPLE);
        assert_eq!(starter(Some("  "), Some("")), EXAMPLE);
    }
}
