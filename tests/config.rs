//! The config file through its public API: what loads, with which defaults, and the exact
//! text of every kind of error (they are what the user sees after `ccmail: `).
//!
//! Tests that need a particular environment (HOME, the XDG variables, a password variable)
//! run themselves again in a child process with that environment: this workspace forbids the
//! `unsafe` that changing the test process's own environment needs.

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use ccmail::config::{self, Config, ErrorKind, Security};
use chrono::NaiveDate;
use tempfile::TempDir;

const PLAYER: &str = "[player]
name = \"Петров Пётр\"
surname = \"Петров\"
email = \"petrov@example.org\"
timezone = \"Europe/Moscow\"
";

/// A config file in a fresh temporary directory.
struct File {
    dir: TempDir,
    path: PathBuf,
}

impl File {
    /// `text` as `config.toml` with `mode`.
    fn with_mode(text: &str, mode: u32) -> File {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        File { dir, path }
    }

    /// `text`, readable by everyone (0644), as most files are.
    fn new(text: &str) -> File {
        File::with_mode(text, 0o644)
    }

    /// [`PLAYER`] followed by `rest`.
    fn player_and(rest: &str) -> File {
        File::new(&format!("{PLAYER}{rest}"))
    }

    fn load(&self) -> Config {
        config::load(&self.path).unwrap_or_else(|e| panic!("{e:#}"))
    }

    /// The error, as `main` prints it after `ccmail: `, with the file's path written `F`.
    fn error(&self) -> String {
        let err = config::load(&self.path).expect_err("the config should not load");
        self.short(&format!("{err:#}"))
    }

    fn kind(&self) -> ErrorKind {
        let err = config::load(&self.path).expect_err("the config should not load");
        err.downcast_ref::<config::Error>().unwrap().kind()
    }

    /// `text` with this file's path written `F`.
    fn short(&self, text: &str) -> String {
        text.replace(&self.path.display().to_string(), "F")
    }
}

/// Runs test `name` again in a child process whose HOME, XDG_CONFIG_HOME, XDG_DATA_HOME and
/// TZ are removed and `vars` are set. In the parent it checks that the child ran that one
/// test and passed, and returns `true`; in the child it returns `false`, and the test's body
/// runs there.
fn in_child(name: &str, vars: &[(&str, &OsStr)]) -> bool {
    const CHILD: &str = "CCMAIL_CONFIG_TEST_CHILD";
    if std::env::var_os(CHILD).is_some() {
        return false;
    }
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, "1");
    for var in ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "TZ"] {
        command.env_remove(var);
    }
    command.envs(vars.iter().copied());
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed"),
        "the child run of {name} failed:\n{stdout}\n{stderr}"
    );
    true
}

#[test]
fn an_unknown_key_is_named_with_the_file_and_the_key_that_was_meant() {
    let cases = [
        (
            "emial = \"x\"\n",
            "unknown key \"player.emial\" in F (did you mean \"player.email\"?)",
        ),
        (
            "[store]\npth = \"x.db\"\n",
            "unknown key \"store.pth\" in F (did you mean \"store.path\"?)",
        ),
        (
            "[imap]\npasword = \"x\"\n",
            "unknown key \"imap.pasword\" in F (did you mean \"imap.password\"?)",
        ),
        (
            "[smtp]\nusernme = \"x\"\n",
            "unknown key \"smtp.usernme\" in F (did you mean \"smtp.username\"?)",
        ),
        (
            "[defaults]\nlangauge = \"en\"\n",
            "unknown key \"defaults.langauge\" in F (did you mean \"defaults.language\"?)",
        ),
        (
            "[smtp]\nmailbox = \"INBOX\"\n",
            "unknown key \"smtp.mailbox\" in F (did you mean \"imap.mailbox\"?)",
        ),
        ("[imap]\ncolour = 1\n", "unknown key \"imap.colour\" in F"),
        (
            "[imap.tls]\nverify = false\n",
            "unknown key \"imap.tls\" in F",
        ),
    ];
    for (text, want) in cases {
        // Names are checked before values: [imap] here lacks its required keys. The first
        // case's key follows PLAYER's keys, in [player].
        let file = File::player_and(text);
        assert_eq!(file.error(), want, "{text}");
        assert_eq!(file.kind(), ErrorKind::Invalid);
    }
}

#[test]
fn an_unknown_section_or_a_key_outside_a_section_is_named() {
    let cases = [
        (
            "[imapp]\nhost = \"x\"\n",
            "unknown section [imapp] in F (did you mean [imap]?)",
        ),
        (
            "[smpt]\n",
            "unknown section [smpt] in F (did you mean [smtp]?)",
        ),
        ("[server]\nhost = \"x\"\n", "unknown section [server] in F"),
        (
            "[[imap]]\nhost = \"x\"\n",
            "imap must be a section [imap], not a list (in F)",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(File::player_and(text).error(), want, "{text}");
    }
    let file = File::new(&format!("email = \"x@y\"\n{PLAYER}"));
    assert_eq!(
        file.error(),
        "unknown key \"email\" in F (did you mean \"player.email\"?)"
    );
    let file = File::new("player = \"Петров\"\n");
    assert_eq!(
        file.error(),
        "player must be a section [player], not \"Петров\" (in F)"
    );
}

#[test]
fn a_wrong_value_names_the_key_the_file_and_what_is_allowed() {
    let imap = "[imap]\nhost = \"imap.example.org\"\nusername = \"u\"\npassword_env = \"P\"\n";
    let cases = [
        (
            "[smtp]\nhost = \"smtp.example.org\"\nsecurity = \"ssl\"\n".to_owned(),
            "smtp.security must be tls, starttls or plain, not \"ssl\" (in F)",
        ),
        (
            format!("{imap}security = \"TLS\"\n"),
            "imap.security must be tls, starttls or plain, not \"TLS\" (in F)",
        ),
        (
            format!("{imap}port = \"993\"\n"),
            "imap.port must be a whole number from 1 to 65535, not \"993\" (in F)",
        ),
        (
            format!("{imap}port = 70000\n"),
            "imap.port must be a whole number from 1 to 65535, not 70000 (in F)",
        ),
        (
            format!("{imap}port = 0\n"),
            "imap.port must be a whole number from 1 to 65535, not 0 (in F)",
        ),
        (
            "[imap]\nhost = \"imaps://imap.example.org\"\n".to_owned(),
            "imap.host must be a host name such as \"mail.example.org\", \
             not \"imaps://imap.example.org\" (in F)",
        ),
        (
            format!("{imap}mailbox = \"\"\n"),
            "imap.mailbox must be a non-empty string, not \"\" (in F)",
        ),
        (
            format!("{imap}first_sync_since = \"yesterday\"\n"),
            "imap.first_sync_since must be a date such as 2026-01-31, not \"yesterday\" (in F)",
        ),
        (
            format!("{imap}first_sync_since = 2026-01-01T10:00:00\n"),
            "imap.first_sync_since must be a date such as 2026-01-31, \
             not 2026-01-01T10:00:00 (in F)",
        ),
        (
            format!("{imap}ca_file = [\"a.pem\"]\n"),
            "imap.ca_file must be a file path (a non-empty string), not a list (in F)",
        ),
        (
            "[defaults]\ncontrol = \"10-60\"\n".to_owned(),
            "defaults.control must be MOVES/DAYS with both at least 1, such as \"10/60\", \
             not \"10-60\" (in F)",
        ),
        (
            "[defaults]\ncontrol = \"0/60\"\n".to_owned(),
            "defaults.control must be MOVES/DAYS with both at least 1, such as \"10/60\", \
             not \"0/60\" (in F)",
        ),
        (
            "[defaults]\nlanguage = \"de\"\n".to_owned(),
            "defaults.language must be ru or en, not \"de\" (in F)",
        ),
        (
            "[defaults]\nnotation = \"uci\"\n".to_owned(),
            "defaults.notation must be numeric, san or san-ru, not \"uci\" (in F)",
        ),
        (
            "[defaults]\nrules = \"fide\"\n".to_owned(),
            "defaults.rules must be article51 or postal104, not \"fide\" (in F)",
        ),
        (
            "[store]\npath = \"\"\n".to_owned(),
            "store.path must be a file path (a non-empty string), not \"\" (in F)",
        ),
    ];
    for (text, want) in cases {
        let file = File::player_and(&text);
        assert_eq!(file.error(), want, "{text}");
        assert_eq!(file.kind(), ErrorKind::Invalid);
    }
}

#[test]
fn a_wrong_player_value_names_the_key() {
    let cases = [
        (
            "name = 5\nsurname = \"П\"\nemail = \"p@e.org\"\n",
            "player.name must be a non-empty string, not 5 (in F)",
        ),
        (
            "name = \"П\"\nsurname = \"П\"\nemail = \"petrov\"\n",
            "player.email must be an e-mail address such as \"name@example.org\", \
             not \"petrov\" (in F)",
        ),
        (
            "name = \"П\"\nsurname = \"П\"\nemail = \"p@e.org\"\ntimezone = \"Moscow\"\n",
            "player.timezone must be an IANA time zone name such as \"Europe/Moscow\", \
             not \"Moscow\" (in F)",
        ),
        (
            "name = \"П\"\nsurname = \"П\"\nemail = \"p@e.org\"\nlanguage = \"de\"\n",
            "player.language must be ru or en, not \"de\" (in F)",
        ),
    ];
    for (player, want) in cases {
        assert_eq!(File::new(&format!("[player]\n{player}")).error(), want);
    }
}

#[test]
fn a_missing_key_or_section_is_named() {
    let file = File::new("[player]\nname = \"Петров Пётр\"\nsurname = \"Петров\"\n");
    assert_eq!(file.error(), "missing key \"player.email\" in F");
    assert_eq!(file.kind(), ErrorKind::Invalid);
    let file = File::new("[defaults]\nlanguage = \"en\"\n");
    assert_eq!(
        file.error(),
        "missing section [player] in F: it needs name, surname and email"
    );
    let file = File::player_and("[imap]\nport = 993\n");
    assert_eq!(file.error(), "missing key \"imap.host\" in F");
    let file = File::player_and("[imap]\nhost = \"imap.example.org\"\npassword_env = \"P\"\n");
    assert_eq!(file.error(), "missing key \"imap.username\" in F");
    let file = File::player_and("[smtp]\nport = 25\n");
    assert_eq!(file.error(), "missing key \"smtp.host\" in F");
}

#[test]
fn a_missing_file_says_to_run_init() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nowhere/config.toml");
    let err = config::load(&path).unwrap_err();
    assert_eq!(
        format!("{err:#}"),
        format!(
            "no config file at {}: run `ccmail init` to write a starter one \
             (or name another with --config or CCMAIL_CONFIG)",
            path.display()
        )
    );
    let kind = err.downcast_ref::<config::Error>().unwrap().kind();
    assert_eq!(kind, ErrorKind::NotFound);
}

#[test]
fn a_file_that_is_not_utf8_is_unreadable() {
    let file = File::new("");
    std::fs::write(&file.path, b"[player]\nname = \"\xff\"\n").unwrap();
    assert_eq!(file.error(), "the config file F is not UTF-8 text");
    assert_eq!(file.kind(), ErrorKind::Unreadable);
}

#[test]
fn a_syntax_error_gives_the_file_line_and_column_but_not_the_line() {
    let file = File::new("[player]\nname = \"Петров Пётр\"\nsurname = Петров\n");
    assert_eq!(
        file.error(),
        "TOML syntax error in F at line 3, column 11: \
         string values must be quoted, expected literal string"
    );
    assert_eq!(file.kind(), ErrorKind::Syntax);
    let file = File::with_mode(
        &format!("{PLAYER}[imap]\nhost = \"h\"\npassword = \"hunter2\n"),
        0o600,
    );
    let err = file.error();
    assert_eq!(
        err,
        "TOML syntax error in F at line 8, column 20: invalid basic string, expected `\"`"
    );
    let file = File::new("[player]\nname = \"a\"\nname = \"b\"\n");
    let err = file.error();
    assert!(
        err.starts_with("TOML syntax error in F at line 3, column 1: "),
        "{err}"
    );
}

#[test]
fn a_password_in_a_file_others_can_read_is_refused() {
    let imap = "[imap]\nhost = \"h\"\nusername = \"u\"\npassword = \"hunter2\"\n";
    for mode in [0o644, 0o640, 0o604] {
        let file = File::with_mode(&format!("{PLAYER}{imap}"), mode);
        let err = file.error();
        assert_eq!(
            err,
            format!(
                "imap.password is set in F, but the file is not private (mode {mode:04o}): \
                 run chmod 600 F, or use password_cmd or password_env instead"
            )
        );
        assert!(!err.contains("hunter2"));
    }
    for mode in [0o600, 0o400] {
        let file = File::with_mode(&format!("{PLAYER}{imap}"), mode);
        let config = file.load();
        assert_eq!(
            *config.imap.as_ref().unwrap().password().unwrap(),
            "hunter2"
        );
        assert!(!format!("{config:?}").contains("hunter2"));
    }
    let smtp = "[smtp]\nhost = \"h\"\nusername = \"u\"\npassword = \"hunter2\"\n";
    let file = File::with_mode(&format!("{PLAYER}{smtp}"), 0o660);
    assert_eq!(
        file.error(),
        "smtp.password is set in F, but the file is not private (mode 0660): \
         run chmod 600 F, or use password_cmd or password_env instead"
    );
}

#[test]
fn a_password_of_the_wrong_type_is_not_repeated() {
    let file = File::with_mode(
        &format!("{PLAYER}[imap]\nhost = \"h\"\nusername = \"u\"\npassword = 20262027\n"),
        0o600,
    );
    assert_eq!(
        file.error(),
        "imap.password must be a non-empty string (in F)"
    );
    let file = File::new(&format!(
        "{PLAYER}[smtp]\nhost = \"h\"\nusername = \"u\"\npassword_cmd = [\"printf\", \"x\"]\n"
    ));
    assert_eq!(
        file.error(),
        "smtp.password_cmd must be a non-empty string (in F)"
    );
}

#[test]
fn exactly_one_password_source() {
    let file = File::player_and(
        "[imap]\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"x\"\npassword_env = \"P\"\n",
    );
    assert_eq!(
        file.error(),
        "imap.password_cmd and imap.password_env are both set in F: \
         keep one of password_cmd, password_env and password"
    );
    let file = File::player_and("[imap]\nhost = \"h\"\nusername = \"u\"\n");
    assert_eq!(
        file.error(),
        "[imap] in F needs a password: one of password_cmd, password_env or password \
         (or OAuth2: oauth2_token_cmd or [imap.oauth2])"
    );
    let file = File::player_and("[smtp]\nhost = \"h\"\nusername = \"u\"\n");
    assert_eq!(
        file.error(),
        "[smtp] in F has a username but no password: \
         add one of password_cmd, password_env or password"
    );
    let file = File::player_and("[smtp]\nhost = \"h\"\npassword_env = \"P\"\n");
    assert_eq!(
        file.error(),
        "[smtp] in F has a password but no username: add smtp.username"
    );
}

#[test]
fn oauth2_is_one_way_to_log_in_and_its_table_is_checked() {
    let imap = "[imap]\nhost = \"h\"\nusername = \"u@example.org\"\n";
    let table = "[imap.oauth2]\ntoken_url = \"https://example.org/token\"\nclient_id = \"c\"\n";
    let config = File::player_and(&format!("{imap}oauth2_token_cmd = \"printf t\"\n")).load();
    let i = config.imap.unwrap();
    assert!(matches!(
        i.oauth2,
        Some(config::TokenSource::Command { .. })
    ));
    assert_eq!(
        format!("{:#}", i.password().unwrap_err()),
        "[imap] logs in with OAuth2, so it has no password"
    );
    let config = File::player_and(&format!("{imap}{table}")).load();
    let Some(config::TokenSource::Refresh(r)) = config.imap.unwrap().oauth2 else {
        panic!("a refresh source")
    };
    assert_eq!(
        (r.token_url.as_str(), r.client_id.as_str()),
        ("https://example.org/token", "c")
    );
    assert!(
        r.token_file.ends_with("ccmail/oauth2-u@example.org.json"),
        "{:?}",
        r.token_file
    );

    let cases = [
        (
            format!("{imap}password_cmd = \"x\"\noauth2_token_cmd = \"y\"\n"),
            "[imap] in F has both a password and OAuth2: keep one",
        ),
        (
            format!("{imap}oauth2_token_cmd = \"y\"\n{table}"),
            "imap.oauth2_token_cmd and [imap.oauth2] are both set in F: keep one",
        ),
        (
            format!("{imap}{table}tokn_url = \"x\"\n"),
            "unknown key \"imap.oauth2.tokn_url\" in F (did you mean \"imap.oauth2.token_url\"?)",
        ),
        (
            format!("{imap}[imap.oauth2]\nclient_id = \"c\"\n"),
            "missing key \"imap.oauth2.token_url\" in F",
        ),
        (
            format!("{imap}oauth2 = \"x\"\n"),
            "imap.oauth2 must be a section [imap.oauth2], not \"x\" (in F)",
        ),
        (
            "[smtp]\nhost = \"h\"\noauth2_token_cmd = \"y\"\n".to_owned(),
            "[smtp] in F logs in with OAuth2 but has no username: add smtp.username",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(File::player_and(&text).error(), want, "{text}");
    }
}

#[test]
fn smtp_without_a_login_loads_and_has_no_password() {
    let config = File::player_and("[smtp]\nhost = \"localhost\"\nsecurity = \"plain\"\n").load();
    let smtp = config.smtp.unwrap();
    assert_eq!(smtp.username, None);
    assert_eq!(
        format!("{:#}", smtp.password().unwrap_err()),
        "[smtp] has no username, so there is no password to log in with"
    );
}

#[test]
fn password_cmd_runs_only_when_asked_and_its_output_is_the_password() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let file = File::player_and(&format!(
        "[imap]\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"touch '{}'; printf secret\"\n",
        marker.display()
    ));
    let config = file.load();
    assert!(!marker.exists(), "loading the config ran password_cmd");
    let imap = config.imap.as_ref().unwrap();
    assert_eq!(*imap.password().unwrap(), "secret");
    assert!(marker.exists());
    let file = File::player_and(
        "[smtp]\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"printf secret\"\n",
    );
    let config = file.load();
    assert_eq!(*config.smtp.as_ref().unwrap().password().unwrap(), "secret");
    let debug = format!("{config:?}");
    assert!(!debug.contains("secret"), "{debug}");
    assert!(
        debug.contains("password: Some(Command(<hidden>))"),
        "{debug}"
    );
}

#[test]
fn a_failing_password_cmd_names_the_section_and_hides_its_output() {
    let file = File::player_and(
        "[imap]\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"echo hunter2; exit 3\"\n",
    );
    let config = file.load();
    let err = config.imap.unwrap().password().unwrap_err();
    let text = file.short(&format!("{err:#}"));
    assert_eq!(text, "imap.password_cmd failed with exit status 3 (in F)");
    let kind = err.downcast_ref::<config::Error>().unwrap().kind();
    assert_eq!(kind, ErrorKind::Password);
    let file =
        File::player_and("[smtp]\nhost = \"h\"\nusername = \"u\"\npassword_cmd = \"printf ''\"\n");
    let err = file.load().smtp.unwrap().password().unwrap_err();
    assert_eq!(
        file.short(&format!("{err:#}")),
        "smtp.password_cmd printed nothing (in F)"
    );
}

#[test]
fn password_env_that_is_not_set_is_an_error_when_asked() {
    let file = File::player_and(
        "[imap]\nhost = \"h\"\nusername = \"u\"\n\
         password_env = \"CCMAIL_TEST_NEVER_SET_7D3A\"\n",
    );
    let config = file.load();
    let err = config.imap.unwrap().password().unwrap_err();
    assert_eq!(
        file.short(&format!("{err:#}")),
        "imap.password_env names CCMAIL_TEST_NEVER_SET_7D3A, which is not set (in F)"
    );
    let file = File::player_and("[imap]\nhost = \"h\"\nusername = \"u\"\npassword_env = \"\"\n");
    assert_eq!(
        file.error(),
        "imap.password_env must be the name of an environment variable, not \"\" (in F)"
    );
}

#[test]
fn password_env_is_read_from_the_environment() {
    let name = "password_env_is_read_from_the_environment";
    let home = tempfile::tempdir().unwrap();
    let vars = [
        ("HOME", home.path().as_os_str()),
        ("CCMAIL_TEST_PW", OsStr::new("s3cret")),
    ];
    if in_child(name, &vars) {
        return;
    }
    let file = File::player_and(
        "[imap]\nhost = \"h\"\nusername = \"u\"\npassword_env = \"CCMAIL_TEST_PW\"\n",
    );
    let config = file.load();
    assert_eq!(*config.imap.as_ref().unwrap().password().unwrap(), "s3cret");
    assert!(!format!("{config:?}").contains("s3cret"));
}

#[test]
fn default_ports_follow_security() {
    let cases = [
        ("", Security::Tls, 993, 465),
        ("security = \"tls\"\n", Security::Tls, 993, 465),
        ("security = \"starttls\"\n", Security::StartTls, 143, 587),
        ("security = \"plain\"\n", Security::Plain, 143, 25),
        (
            "security = \"plain\"\nport = 2500\n",
            Security::Plain,
            2500,
            2500,
        ),
    ];
    for (extra, security, imap_port, smtp_port) in cases {
        let file = File::player_and(&format!(
            "[imap]\nhost = \"127.0.0.1\"\nusername = \"u\"\npassword_env = \"P\"\n{extra}\
             [smtp]\nhost = \"localhost\"\n{extra}"
        ));
        let config = file.load();
        let (imap, smtp) = (config.imap.unwrap(), config.smtp.unwrap());
        assert_eq!((imap.security, imap.port), (security, imap_port), "{extra}");
        assert_eq!((smtp.security, smtp.port), (security, smtp_port), "{extra}");
    }
}

#[test]
fn plain_is_refused_for_a_server_that_is_not_on_this_machine() {
    for host in ["mail.example.org", "10.0.0.1", "localhost.example.org"] {
        for section in ["imap", "smtp"] {
            let login = if section == "imap" {
                "username = \"u\"\npassword_env = \"P\"\n"
            } else {
                ""
            };
            let file = File::player_and(&format!(
                "[{section}]\nhost = \"{host}\"\n{login}security = \"plain\"\n"
            ));
            assert_eq!(
                file.error(),
                format!(
                    "{section}.security = \"plain\" sends the password and the mail unencrypted, \
                     so it is allowed only for a server on this machine (localhost, 127.0.0.1, \
                     ::1), not {host:?}: use tls, or starttls (with ca_file for a server whose \
                     certificate a private CA signed) (in F)"
                )
            );
            assert_eq!(file.kind(), ErrorKind::Invalid);
        }
    }
    // On this machine it is allowed, written out; tls and starttls always check the
    // certificate (against ca_file too, when given): there is no key to switch that off.
    for host in ["localhost", "127.0.0.1", "::1"] {
        let config = File::player_and(&format!(
            "[imap]\nhost = \"{host}\"\nusername = \"u\"\npassword_env = \"P\"\n\
             security = \"plain\"\n[smtp]\nhost = \"{host}\"\nsecurity = \"plain\"\n"
        ))
        .load();
        assert_eq!(config.imap.unwrap().security, Security::Plain);
    }
    for key in [
        "verify = false",
        "insecure = true",
        "danger_accept_invalid_certs = true",
        "tls_verify = false",
    ] {
        let file = File::player_and(&format!(
            "[imap]\nhost = \"mail.example.org\"\nusername = \"u\"\npassword_env = \"P\"\n{key}\n"
        ));
        assert!(
            file.error().starts_with("unknown key"),
            "{key}: {}",
            file.error()
        );
    }
}

#[test]
fn every_optional_key_has_its_default() {
    let config = File::player_and(
        "[imap]\nhost = \"imap.example.org\"\nusername = \"u\"\npassword_env = \"P\"\n",
    )
    .load();
    let imap = config.imap.unwrap();
    assert_eq!(imap.mailbox, "INBOX");
    assert_eq!(imap.sent_mailbox, None);
    assert_eq!(imap.first_sync_since, None);
    assert_eq!(imap.ca_file, None);
    assert_eq!(config.smtp, None);
    assert_eq!(config.player.language, None);
    assert_eq!(config.defaults, config::Defaults::default());
    assert_eq!(
        (
            config.defaults.language.as_str(),
            config.defaults.notation.as_str(),
            config.defaults.control.as_str(),
            config.defaults.rules.as_str()
        ),
        ("ru", "numeric", "10/60", "article51")
    );
    let config = File::player_and(
        "[imap]\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\n\
         mailbox = \"Chess\"\nsent_mailbox = \"Sent\"\nfirst_sync_since = 2026-03-01\n",
    )
    .load();
    let imap = config.imap.unwrap();
    assert_eq!(imap.mailbox, "Chess");
    assert_eq!(imap.sent_mailbox.as_deref(), Some("Sent"));
    assert_eq!(imap.first_sync_since, NaiveDate::from_ymd_opt(2026, 3, 1));
}

#[test]
fn a_relative_path_is_beside_the_config_file() {
    let file = File::player_and(
        "[store]\npath = \"games.db\"\n[smtp]\nhost = \"h\"\nca_file = \"ca/x.pem\"\n",
    );
    let config = file.load();
    assert_eq!(config.store.db, file.dir.path().join("games.db"));
    assert_eq!(
        config.smtp.unwrap().ca_file,
        Some(file.dir.path().join("ca/x.pem"))
    );
    assert_eq!(config.path, file.path);
}

#[test]
fn tilde_expands_to_home() {
    let home = tempfile::tempdir().unwrap();
    if in_child(
        "tilde_expands_to_home",
        &[("HOME", home.path().as_os_str())],
    ) {
        return;
    }
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let file = File::player_and(
        "[store]\npath = \"~/chess/games.db\"\n\
         [imap]\nhost = \"h\"\nusername = \"u\"\npassword_env = \"P\"\nca_file = \"~/ca.pem\"\n",
    );
    let config = file.load();
    assert_eq!(config.store.db, home.join("chess/games.db"));
    assert_eq!(config.imap.unwrap().ca_file, Some(home.join("ca.pem")));
    let config = File::new(PLAYER).load();
    assert_eq!(config.store.db, home.join(".local/share/ccmail/ccmail.db"));
    assert_eq!(
        config::default_path(),
        home.join(".config/ccmail/config.toml")
    );
}

#[test]
fn default_paths_come_from_the_xdg_variables() {
    let dir = tempfile::tempdir().unwrap();
    let (config_home, data_home) = (dir.path().join("cfg"), dir.path().join("data"));
    let vars = [
        ("HOME", OsStr::new("/nonexistent/home")),
        ("XDG_CONFIG_HOME", config_home.as_os_str()),
        ("XDG_DATA_HOME", data_home.as_os_str()),
    ];
    if in_child("default_paths_come_from_the_xdg_variables", &vars) {
        return;
    }
    let var = |name| PathBuf::from(std::env::var_os(name).unwrap());
    assert_eq!(
        config::default_path(),
        var("XDG_CONFIG_HOME").join("ccmail/config.toml")
    );
    let config = File::new(PLAYER).load();
    assert_eq!(
        config.store.db,
        var("XDG_DATA_HOME").join("ccmail/ccmail.db")
    );
}

#[test]
fn the_example_file_loads() {
    let home = tempfile::tempdir().unwrap();
    let vars = [
        ("HOME", home.path().as_os_str()),
        ("TZ", OsStr::new("Asia/Tokyo")),
    ];
    if in_child("the_example_file_loads", &vars) {
        return;
    }
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/ccmail.example.toml");
    let config = config::load(&example).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(config.player.name, "Иванов Иван");
    assert_eq!(config.player.surname, "Иванов");
    assert_eq!(config.player.email, "ivanov@example.org");
    assert_eq!(config.player.timezone, "Asia/Tokyo");
    assert_eq!(config.store.db, home.join(".local/share/ccmail/ccmail.db"));
    assert_eq!((config.imap, config.smtp), (None, None));
    assert_eq!(config.defaults, config::Defaults::default());
    assert_eq!(
        config::starter(None, None),
        std::fs::read_to_string(&example).unwrap()
    );
}

#[test]
fn each_providers_example_loads_with_its_servers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/providers");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let config = config::load(&path).unwrap_or_else(|e| panic!("{e:#}"));
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        let imap = config.imap.expect("[imap]");
        let smtp = config.smtp.expect("[smtp]");
        let want = match name.as_str() {
            "gmail" => ("imap.gmail.com", 993, "smtp.gmail.com", 465, None),
            "yandex" => (
                "imap.yandex.ru",
                993,
                "smtp.yandex.ru",
                465,
                Some("Отправленные"),
            ),
            "mailru" => (
                "imap.mail.ru",
                993,
                "smtp.mail.ru",
                465,
                Some("Отправленные"),
            ),
            "rambler" => ("imap.rambler.ru", 993, "smtp.rambler.ru", 465, None),
            "outlook" => (
                "outlook.office365.com",
                993,
                "smtp-mail.outlook.com",
                587,
                None,
            ),
            other => panic!("a provider's example without a test row: {other}"),
        };
        assert_eq!(
            (
                imap.host.as_str(),
                imap.port,
                smtp.host.as_str(),
                smtp.port,
                imap.sent_mailbox.as_deref()
            ),
            want,
            "{name}"
        );
        let smtp_security = if name == "outlook" {
            Security::StartTls
        } else {
            Security::Tls
        };
        assert_eq!(
            (imap.security, smtp.security),
            (Security::Tls, smtp_security)
        );
        seen.push(name);
    }
    seen.sort();
    assert_eq!(seen, ["gmail", "mailru", "outlook", "rambler", "yandex"]);
}

#[test]
fn write_starter_creates_a_private_file_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/config.toml");
    assert!(config::write_starter(&path).unwrap());
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(&dir.path().join("a/b")), 0o700);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        config::starter(None, None)
    );
    let loaded = config::load(&path).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(loaded.player.surname, "Иванов");

    std::fs::write(&path, "# mine\n").unwrap();
    assert!(!config::write_starter(&path).unwrap());
    let text = config::starter(Some("Петров Пётр"), Some("petrov@example.org"));
    assert!(!config::write_starter_text(&path, &text).unwrap());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "# mine\n");
}

#[test]
fn a_starter_with_the_users_name_and_address_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let text = config::starter(Some("Петров Пётр"), Some("petrov@example.org"));
    assert!(config::write_starter_text(&path, &text).unwrap());
    let config = config::load(&path).unwrap_or_else(|e| panic!("{e:#}"));
    assert_eq!(config.player.name, "Петров Пётр");
    assert_eq!(config.player.surname, "Петров");
    assert_eq!(config.player.email, "petrov@example.org");
}

#[test]
fn the_interface_language_is_read_apart_from_the_games() {
    let config = File::new(
        "[player]\nname = \"П\"\nsurname = \"П\"\nemail = \"p@e.org\"\nlanguage = \"ru\"\n\
         [defaults]\nlanguage = \"en\"\n",
    )
    .load();
    assert_eq!(config.player.language, Some(ccmail::i18n::Lang::Ru));
    assert_eq!(config.defaults.language.as_str(), "en");
}
