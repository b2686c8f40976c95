//! What the config takes from the environment: the XDG base directories, `~/` in paths and
//! the system's time zone.
//!
//! Every function takes the environment as an argument ([`Env`]) so that the rules can be
//! tested without changing the process's own environment (which needs `unsafe` in edition
//! 2024, and this workspace forbids it).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Looks up an environment variable.
pub(super) type Env<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// The process's own environment.
pub(super) fn process(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// `$XDG_CONFIG_HOME/ccmail/config.toml`, else `$HOME/.config/ccmail/config.toml`, else (no
/// usable variable at all) `.config/ccmail/config.toml` in the working directory.
pub(super) fn default_config_path(env: Env) -> PathBuf {
    base_dir(env, "XDG_CONFIG_HOME", ".config")
        .unwrap_or_else(|| PathBuf::from(".config"))
        .join("ccmail")
        .join("config.toml")
}

/// `$XDG_DATA_HOME/ccmail/ccmail.db`, else `$HOME/.local/share/ccmail/ccmail.db`; `None`
/// when neither variable is usable.
pub(super) fn default_db_path(env: Env) -> Option<PathBuf> {
    Some(
        base_dir(env, "XDG_DATA_HOME", ".local/share")?
            .join("ccmail")
            .join("ccmail.db"),
    )
}

/// `$XDG_DATA_HOME/ccmail`, else `$HOME/.local/share/ccmail`; `None` when neither variable
/// is usable.
pub(super) fn default_data_dir(env: Env) -> Option<PathBuf> {
    Some(base_dir(env, "XDG_DATA_HOME", ".local/share")?.join("ccmail"))
}

/// An XDG base directory: the variable if it is an absolute path (the XDG spec says to
/// ignore a relative one), else `$HOME/fallback`.
fn base_dir(env: Env, var: &str, fallback: &str) -> Option<PathBuf> {
    match env(var).map(PathBuf::from) {
        Some(dir) if dir.is_absolute() => Some(dir),
        _ => Some(home(env)?.join(fallback)),
    }
}

/// `$HOME`, if it is set and not empty.
fn home(env: Env) -> Option<PathBuf> {
    env("HOME")
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
}

/// Why a path from the config could not be made into a file name.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ExpandError {
    /// It starts with `~/` but `HOME` is not set.
    NoHome,
    /// It starts with `~name/`: only the user's own home is expanded.
    OtherUser,
}

/// A path as the config means it: `~` or `~/…` is in `$HOME`; any other relative path is
/// relative to `dir`, the directory of the config file, so that it does not depend on where
/// ccmail happens to be started.
pub(super) fn expand(raw: &str, env: Env, dir: &Path) -> Result<PathBuf, ExpandError> {
    if let Some(rest) = raw.strip_prefix('~') {
        if rest.is_empty() || rest.starts_with('/') {
            let home = home(env).ok_or(ExpandError::NoHome)?;
            return Ok(home.join(rest.trim_start_matches('/')));
        }
        return Err(ExpandError::OtherUser);
    }
    Ok(dir.join(raw))
}

/// The system's time zone as an IANA name: `TZ` (`:Europe/Moscow` and
/// `/usr/share/zoneinfo/Europe/Moscow` forms too), else `/etc/timezone`, else where
/// `/etc/localtime` links to under `zoneinfo/`, else `UTC`. A source that does not name a
/// zone (`TZ=MSK-3`) is skipped.
pub(super) fn system_timezone(env: Env) -> String {
    let etc_timezone = std::fs::read_to_string("/etc/timezone").ok();
    let localtime = std::fs::read_link("/etc/localtime").ok();
    timezone_from(env("TZ"), etc_timezone, localtime)
}

/// [`system_timezone`] from the three sources, read.
fn timezone_from(
    tz: Option<OsString>,
    etc_timezone: Option<String>,
    localtime: Option<PathBuf>,
) -> String {
    let tz = tz.and_then(|tz| tz.into_string().ok());
    let tz = tz.as_deref().map(|tz| tz.strip_prefix(':').unwrap_or(tz));
    let tz = tz.map(|tz| under_zoneinfo(tz).unwrap_or(tz));
    let etc = etc_timezone.as_deref().and_then(|s| s.lines().next());
    let link = localtime
        .as_deref()
        .and_then(Path::to_str)
        .and_then(under_zoneinfo);
    [tz, etc, link]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|name| is_zone(name))
        .unwrap_or("UTC")
        .to_owned()
}

/// `Europe/Moscow` from `…/zoneinfo/Europe/Moscow` (or `…/zoneinfo/posix/Europe/Moscow`).
fn under_zoneinfo(path: &str) -> Option<&str> {
    let (_, name) = path.rsplit_once("zoneinfo/")?;
    Some(
        name.strip_prefix("posix/")
            .or_else(|| name.strip_prefix("right/"))
            .unwrap_or(name),
    )
}

/// Whether `name` is an IANA time zone name.
pub(super) fn is_zone(name: &str) -> bool {
    name.parse::<chrono_tz::Tz>().is_ok()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A fake environment holding exactly `vars`.
    pub(in crate::config) fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let vars: Vec<(String, OsString)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    }

    #[test]
    fn default_config_path_follows_xdg() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (
                &[("XDG_CONFIG_HOME", "/x/cfg"), ("HOME", "/home/u")],
                "/x/cfg/ccmail/config.toml",
            ),
            (&[("HOME", "/home/u")], "/home/u/.config/ccmail/config.toml"),
            (
                &[("XDG_CONFIG_HOME", ""), ("HOME", "/home/u")],
                "/home/u/.config/ccmail/config.toml",
            ),
            (
                &[("XDG_CONFIG_HOME", "relative"), ("HOME", "/home/u")],
                "/home/u/.config/ccmail/config.toml",
            ),
            (&[], ".config/ccmail/config.toml"),
        ];
        for (vars, want) in cases {
            let env = env_of(vars);
            assert_eq!(default_config_path(&env), PathBuf::from(want), "{vars:?}");
        }
    }

    #[test]
    fn default_db_path_follows_xdg() {
        let env = env_of(&[("XDG_DATA_HOME", "/x/data"), ("HOME", "/home/u")]);
        assert_eq!(
            default_db_path(&env),
            Some(PathBuf::from("/x/data/ccmail/ccmail.db"))
        );
        let env = env_of(&[("HOME", "/home/u")]);
        assert_eq!(
            default_db_path(&env),
            Some(PathBuf::from("/home/u/.local/share/ccmail/ccmail.db"))
        );
        let env = env_of(&[("HOME", "")]);
        assert_eq!(default_db_path(&env), None);
    }

    #[test]
    fn tilde_is_home_and_relative_is_beside_the_file() {
        let env = env_of(&[("HOME", "/home/u")]);
        let dir = Path::new("/etc/cc");
        let cases = [
            ("~/a/b.db", "/home/u/a/b.db"),
            ("~", "/home/u"),
            ("~//a", "/home/u/a"),
            ("/abs/x.db", "/abs/x.db"),
            ("x.db", "/etc/cc/x.db"),
            ("sub/~/x", "/etc/cc/sub/~/x"),
        ];
        for (raw, want) in cases {
            assert_eq!(expand(raw, &env, dir), Ok(PathBuf::from(want)), "{raw}");
        }
        assert_eq!(expand("~bob/x", &env, dir), Err(ExpandError::OtherUser));
        let no_home = env_of(&[]);
        assert_eq!(expand("~/x", &no_home, dir), Err(ExpandError::NoHome));
    }

    #[test]
    fn system_timezone_sources_in_order() {
        let tz = |s: &str| Some(OsString::from(s));
        let etc = |s: &str| Some(s.to_owned());
        let link = |s: &str| Some(PathBuf::from(s));
        let moscow_link = "../usr/share/zoneinfo/Europe/Moscow";
        let cases = [
            (
                tz("Asia/Tokyo"),
                etc("Europe/Berlin\n"),
                link(moscow_link),
                "Asia/Tokyo",
            ),
            (tz(":Asia/Tokyo"), None, None, "Asia/Tokyo"),
            (
                tz("/usr/share/zoneinfo/Asia/Tokyo"),
                None,
                None,
                "Asia/Tokyo",
            ),
            (tz("MSK-3"), etc("Europe/Berlin\n"), None, "Europe/Berlin"),
            (
                None,
                etc("Europe/Berlin\n"),
                link(moscow_link),
                "Europe/Berlin",
            ),
            (None, etc("garbage\n"), link(moscow_link), "Europe/Moscow"),
            (
                None,
                None,
                link("/usr/share/zoneinfo/posix/Europe/Moscow"),
                "Europe/Moscow",
            ),
            (None, None, link("/etc/something"), "UTC"),
            (None, None, None, "UTC"),
        ];
        for (tz, etc, link, want) in cases {
            let got = timezone_from(tz.clone(), etc.clone(), link.clone());
            assert_eq!(got, want, "{tz:?} {etc:?} {link:?}");
        }
    }
}
