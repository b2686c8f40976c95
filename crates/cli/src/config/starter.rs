//! The starter file `ccmail init` writes: `config/ccmail.example.toml`, with the user's name
//! and address put in when they are known.
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
const NAME_LINE: &str = "\nname = \"Иванов Иван\"\n";
const SURNAME_LINE: &str = "\nsurname = \"Иванов\"\n";
const EMAIL: &str = "\"ivanov@example.org\"";

/// The text of a starter config: the example file with `name` (surname first, "Петров Пётр")
/// and `email` in place of its placeholders. The surname is the name's first word. The
/// address also replaces the example's in the commented-out `username` keys. Without them the
/// placeholders stay, and the file still loads.
pub fn starter(name: Option<&str>, email: Option<&str>) -> String {
    let mut text = EXAMPLE.to_owned();
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
        create_dirs(parent)
            .with_context(|| format!("cannot create the directory {}", parent.display()))?;
    }
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = match options.open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => return Ok(false),
        Err(err) => {
            return Err(err).with_context(|| format!("cannot create {}", path.display()));
        }
    };
    if let Err(err) = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
    {
        drop(file);
        let _ = std::fs::remove_file(path);
        return Err(err).with_context(|| format!("cannot write {}", path.display()));
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
