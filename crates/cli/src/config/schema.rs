//! The sections and keys a config file may have, and the check that it has no others, with a
//! guess at the key that was meant when one is misspelt.

use std::path::Path;

use toml::{Table, Value};

use super::error::Error;
use super::read::{What, not};

/// Every section and its keys, in the order of the example file.
pub(super) const SCHEMA: &[(&str, &[&str])] = &[
    (
        "player",
        &["name", "surname", "email", "timezone", "language"],
    ),
    ("store", &["path"]),
    (
        "imap",
        &[
            "host",
            "security",
            "port",
            "username",
            "password_cmd",
            "password_env",
            "password",
            "oauth2_token_cmd",
            "oauth2",
            "mailbox",
            "sent_mailbox",
            "first_sync_since",
            "ca_file",
        ],
    ),
    (
        "smtp",
        &[
            "host",
            "security",
            "port",
            "username",
            "password_cmd",
            "password_env",
            "password",
            "oauth2_token_cmd",
            "oauth2",
            "ca_file",
        ],
    ),
    ("imap.oauth2", OAUTH2),
    ("smtp.oauth2", OAUTH2),
    (
        "hooks",
        &[
            "on_move",
            "on_held",
            "on_deadline",
            "deadline_days",
            "on_sent",
            "on_error",
            "timeout_secs",
        ],
    ),
    ("security", &["authserv_id"]),
    (
        "defaults",
        &["language", "notation", "control", "rules", "attach_pgn"],
    ),
];

/// The keys of `[imap.oauth2]` and `[smtp.oauth2]`.
const OAUTH2: &[&str] = &[
    "token_url",
    "auth_url",
    "client_id",
    "client_secret_cmd",
    "refresh_token_cmd",
    "token_file",
    "scope",
    "redirect_port",
];

/// Every section is known and a table, every key in it is known.
pub(super) fn check_names(path: &Path, doc: &Table) -> Result<(), Error> {
    for (name, value) in doc {
        let Some(keys) = keys_of(name) else {
            return Err(Error::invalid(match value {
                Value::Table(_) => {
                    unknown_section(name, closest(name, SCHEMA.iter().map(|(s, _)| *s)), path)
                }
                _ => unknown_key(name, elsewhere(name, None), path),
            }));
        };
        let Value::Table(table) = value else {
            let what = What::Section(name.clone());
            return Err(Error::invalid(not(name, &what, value, path)));
        };
        check_keys(path, name, keys, table)?;
    }
    Ok(())
}

/// Every key of section `name` is one of `keys`; a sub-section (`[imap.oauth2]`) is a table
/// whose keys are checked in turn.
fn check_keys(path: &Path, name: &str, keys: &[&str], table: &Table) -> Result<(), Error> {
    for (key, value) in table {
        if !keys.contains(&key.as_str()) {
            let near = closest(key, keys.iter().copied())
                .map(|near| format!("{name}.{near}"))
                .or_else(|| elsewhere(key, Some(name)));
            return Err(Error::invalid(unknown_key(
                &format!("{name}.{key}"),
                near,
                path,
            )));
        }
        let sub = format!("{name}.{key}");
        if let Some(sub_keys) = keys_of(&sub) {
            let Value::Table(sub_table) = value else {
                let what = What::Section(sub.clone());
                return Err(Error::invalid(not(&sub, &what, value, path)));
            };
            check_keys(path, &sub, sub_keys, sub_table)?;
        }
    }
    Ok(())
}

fn keys_of(section: &str) -> Option<&'static [&'static str]> {
    SCHEMA
        .iter()
        .find(|(s, _)| *s == section)
        .map(|(_, keys)| *keys)
}

/// "unknown section [NAME] in FILE", with " (did you mean [NEAR]?)" when there is a guess.
fn unknown_section(name: &str, near: Option<&str>, path: &Path) -> String {
    let file = path.display().to_string();
    match near {
        Some(near) => crate::t!(
            "config-unknown-section-near",
            section = name,
            file = file,
            near = near
        ),
        None => crate::t!("config-unknown-section", section = name, file = file),
    }
}

/// "unknown key "KEY" in FILE", with " (did you mean "NEAR"?)" when there is a guess.
fn unknown_key(key: &str, near: Option<String>, path: &Path) -> String {
    let file = path.display().to_string();
    match near {
        Some(near) => crate::t!(
            "config-unknown-key-near",
            key = key,
            file = file,
            near = near
        ),
        None => crate::t!("config-unknown-key", key = key, file = file),
    }
}

/// `section.key` for a key of that exact name in another section than `not_in`.
fn elsewhere(key: &str, not_in: Option<&str>) -> Option<String> {
    SCHEMA
        .iter()
        .filter(|(section, _)| Some(*section) != not_in)
        .find(|(_, keys)| keys.contains(&key))
        .map(|(section, _)| format!("{section}.{key}"))
}

/// The candidate nearest to `word` by edit distance, if it is near enough to be a typo.
fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .map(|c| (distance(word, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The edit distance of `a` and `b` where swapping two neighbouring letters is one edit
/// (optimal string alignment).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_a_swap_as_one_edit() {
        let cases = [
            ("pasword", "password", 1),
            ("smpt", "smtp", 1),
            ("hsot", "host", 1),
            ("port", "port", 0),
            ("", "abc", 3),
            ("язык", "язы", 1),
        ];
        for (a, b, want) in cases {
            assert_eq!(distance(a, b), want, "{a} {b}");
        }
    }

    #[test]
    fn closest_finds_typos_only() {
        let keys = || keys_of("imap").unwrap().iter().copied();
        assert_eq!(closest("pasword", keys()), Some("password"));
        assert_eq!(closest("passwd_cmd", keys()), Some("password_cmd"));
        assert_eq!(closest("usernmae", keys()), Some("username"));
        assert_eq!(closest("mailbx", keys()), Some("mailbox"));
        assert_eq!(closest("server", keys()), None);
        assert_eq!(closest("x", keys()), None);
    }
}
