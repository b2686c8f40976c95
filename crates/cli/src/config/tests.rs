//! Loading with a fake environment: defaults, paths and the example file. The error texts are
//! in `tests/config.rs`, which drives the public API.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;

use super::env::tests::env_of;
use super::schema::SCHEMA;
use super::starter::EXAMPLE;
use super::*;

const HOME: &str = "/home/u";

/// Loads `text` from a fresh 0600 file in a temporary directory, with `vars` as the
/// environment (HOME=/home/u and TZ=Europe/Moscow unless `vars` say otherwise).
fn load_text(text: &str, vars: &[(&str, &str)]) -> (tempfile::TempDir, Result<Config, Error>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let mut file = std::fs::File::create(&path).unwrap();
    file.write_all(text.as_bytes()).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut all = vars.to_vec();
    all.extend([("HOME", HOME), ("TZ", "Europe/Moscow")]);
    let env = env_of(&all);
    let config = read::load(&path, &env);
    (dir, config)
}

const PLAYER: &str = "[player]\nname = \"Петров Пётр\"\nsurname = \"Петров\"\n\
                      email = \"petrov@example.org\"\n";

#[test]
fn the_example_loads_with_its_defaults() {
    let (_dir, config) = load_text(EXAMPLE, &[]);
    let config = config.unwrap();
    assert_eq!(config.player.name, "Иванов Иван");
    assert_eq!(config.player.surname, "Иванов");
    assert_eq!(config.player.email, "ivanov@example.org");
    assert_eq!(config.player.timezone, "Europe/Moscow");
    assert_eq!(
        config.store.db,
        PathBuf::from("/home/u/.local/share/ccmail/ccmail.db")
    );
    assert_eq!(config.imap, None);
    assert_eq!(config.smtp, None);
    assert_eq!(config.defaults, Defaults::default());
}

/// The example with every commented-out header and key put back, less the two password
/// alternatives that only one of may be set, and less OAuth2 (the other alternative).
fn uncommented_example() -> String {
    uncommented(false)
}

/// [`uncommented_example`], with OAuth2 kept when `oauth2` (a file only for its names: it has
/// a password and OAuth2 at once).
fn uncommented(oauth2: bool) -> String {
    let mut out = String::new();
    let mut in_oauth2 = false;
    for line in EXAMPLE.lines() {
        let line = match line.strip_prefix("# ") {
            Some(rest) if is_key_or_header(rest) => rest,
            _ => line,
        };
        if line.starts_with('[') {
            in_oauth2 = line.ends_with(".oauth2]");
        }
        let skip_oauth2 = !oauth2 && (in_oauth2 || line.starts_with("oauth2_token_cmd ="));
        if line.starts_with("password_env =") || line.starts_with("password =") || skip_oauth2 {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn is_key_or_header(line: &str) -> bool {
    let key = line.split(" = ").next().unwrap_or("");
    let is_key = line.contains(" = ")
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    let is_header = line.starts_with('[') && line.ends_with(']');
    is_key || is_header
}

#[test]
fn the_example_with_every_key_set_loads_with_the_same_values() {
    let (_dir, config) = load_text(&uncommented_example(), &[]);
    let config = config.unwrap();
    let defaults = Defaults::default();
    assert_eq!(config.defaults, defaults);
    assert_eq!(config.player.timezone, "Europe/Moscow");
    assert_eq!(
        config.store.db,
        PathBuf::from("/home/u/.local/share/ccmail/ccmail.db")
    );
    let imap = config.imap.unwrap();
    assert_eq!(imap.host, "imap.example.org");
    assert_eq!((imap.security, imap.port), (Security::Tls, 993));
    assert_eq!(imap.username, "ivanov@example.org");
    assert_eq!(imap.mailbox, "INBOX");
    assert_eq!(imap.sent_mailbox.as_deref(), Some("Sent"));
    assert_eq!(imap.first_sync_since, NaiveDate::from_ymd_opt(2026, 1, 1));
    assert_eq!(
        imap.ca_file,
        Some(PathBuf::from("/home/u/.config/ccmail/ca.pem"))
    );
    assert_eq!(format!("{:?}", imap.password), "Some(Command(<hidden>))");
    let smtp = config.smtp.unwrap();
    assert_eq!(smtp.host, "smtp.example.org");
    assert_eq!((smtp.security, smtp.port), (Security::Tls, 465));
    assert_eq!(smtp.username.as_deref(), Some("ivanov@example.org"));
}

/// Every key of the schema is in the example, commented, in its section; and nothing else.
#[test]
fn the_example_shows_every_key_of_the_schema() {
    let doc: toml::Table = uncommented(true).parse().unwrap();
    let mut uncommented: Vec<(String, String)> = Vec::new();
    for (section, value) in &doc {
        for (key, value) in value.as_table().unwrap() {
            uncommented.push((section.clone(), key.clone()));
            for sub in value.as_table().into_iter().flat_map(|t| t.keys()) {
                uncommented.push((format!("{section}.{key}"), sub.clone()));
            }
        }
    }
    let mut schema: Vec<(String, String)> = SCHEMA
        .iter()
        .flat_map(|(s, keys)| keys.iter().map(|k| (s.to_string(), k.to_string())))
        .filter(|(_, k)| k != "password_env" && k != "password")
        .collect();
    uncommented.sort();
    schema.sort();
    assert_eq!(uncommented, schema);
    for (section, keys) in SCHEMA {
        for key in keys.iter().filter(|k| **k != "oauth2") {
            let line = format!("\n# {key} = ");
            let in_example = EXAMPLE.contains(&line);
            let is_player_key = *section == "player" && EXAMPLE.contains(&format!("\n{key} = "));
            assert!(in_example || is_player_key, "{section}.{key}");
        }
    }
}

#[test]
fn the_store_path_is_expanded_or_taken_from_the_files_directory() {
    let text = format!("{PLAYER}[store]\npath = \"games.db\"\n");
    let (dir, config) = load_text(&text, &[]);
    assert_eq!(config.unwrap().store.db, dir.path().join("games.db"));

    let text = format!("{PLAYER}[store]\npath = \"~/chess/games.db\"\n");
    let (_dir, config) = load_text(&text, &[]);
    assert_eq!(
        config.unwrap().store.db,
        PathBuf::from("/home/u/chess/games.db")
    );

    let (_dir, config) = load_text(PLAYER, &[("XDG_DATA_HOME", "/xdg/data")]);
    assert_eq!(
        config.unwrap().store.db,
        PathBuf::from("/xdg/data/ccmail/ccmail.db")
    );
}

#[test]
fn a_path_with_no_home_to_expand_is_an_error() {
    let text = format!("{PLAYER}[store]\npath = \"~/x.db\"\n");
    let (dir, config) = load_text(&text, &[("HOME", "")]);
    let file = dir.path().join("config.toml");
    assert_eq!(
        config.unwrap_err().to_string(),
        format!(
            "store.path starts with \"~\", but HOME is not set (in {})",
            file.display()
        )
    );
    let (_dir, config) = load_text(PLAYER, &[("HOME", "")]);
    assert!(
        config
            .unwrap_err()
            .to_string()
            .starts_with("neither XDG_DATA_HOME nor HOME is set")
    );
    let text = format!("{PLAYER}[smtp]\nhost = \"h\"\nca_file = \"~bob/ca.pem\"\n");
    let (dir, config) = load_text(&text, &[]);
    let file = dir.path().join("config.toml");
    assert_eq!(
        config.unwrap_err().to_string(),
        format!(
            "smtp.ca_file may start with \"~/\" but not \"~user/\": write the whole path, \
             not \"~bob/ca.pem\" (in {})",
            file.display()
        )
    );
}

#[test]
fn the_time_zone_is_the_configured_one_else_the_systems() {
    let text = format!("{PLAYER}timezone = \"Asia/Tokyo\"\n");
    let (_dir, config) = load_text(&text, &[]);
    let player = config.unwrap().player;
    assert_eq!(player.timezone, "Asia/Tokyo");
    assert_eq!(player.tz().unwrap(), chrono_tz::Asia::Tokyo);
    let (_dir, config) = load_text(PLAYER, &[("TZ", "America/New_York")]);
    assert_eq!(config.unwrap().player.timezone, "America/New_York");
}

#[test]
fn defaults_are_stored_in_their_canonical_form() {
    let text = format!(
        "{PLAYER}[defaults]\nlanguage = \"en\"\nnotation = \"san-ru\"\n\
         control = \" 15 / 90 \"\nrules = \"postal104\"\n"
    );
    let (_dir, config) = load_text(&text, &[]);
    let defaults = config.unwrap().defaults;
    assert_eq!(defaults.language, "en");
    assert_eq!(defaults.notation, "san-ru");
    assert_eq!(defaults.control, "15/90");
    assert_eq!(defaults.rules, "postal104");
    assert!(!defaults.attach_pgn);
}

#[test]
fn attach_pgn_is_true_or_false() {
    let (_dir, config) = load_text(&format!("{PLAYER}[defaults]\nattach_pgn = true\n"), &[]);
    assert!(config.unwrap().defaults.attach_pgn);
    let (_dir, config) = load_text(&format!("{PLAYER}[defaults]\nattach_pgn = \"yes\"\n"), &[]);
    let err = config.unwrap_err().to_string();
    assert!(
        err.starts_with("defaults.attach_pgn must be true or false, not \"yes\" (in "),
        "{err}"
    );
    let (_dir, config) = load_text(&format!("{PLAYER}[defaults]\nattach_pgns = true\n"), &[]);
    let err = config.unwrap_err().to_string();
    assert!(
        err.contains("unknown key \"defaults.attach_pgns\" in "),
        "{err}"
    );
    assert!(err.contains("config.toml"), "{err}");
}

#[test]
fn first_sync_since_is_a_date_or_a_date_string() {
    for value in ["2026-02-03", "\"2026-02-03\""] {
        let text = format!(
            "{PLAYER}[imap]\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\n\
             first_sync_since = {value}\n"
        );
        let (_dir, config) = load_text(&text, &[]);
        let imap = config.unwrap().imap.unwrap();
        assert_eq!(imap.first_sync_since, NaiveDate::from_ymd_opt(2026, 2, 3));
    }
}
