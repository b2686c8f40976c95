//! The interface language, found before the command line is read: the help is in it. It is
//! the `[player] language` of the config the command will use (`--config`, else
//! `CCMAIL_CONFIG`, else the default path), else the locale's. A config that can't be read
//! here is passed over: the command's own reading of it says what is wrong.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::i18n::Lang;

use super::env;

/// The language for a command line `args` (the program's name first), in `var`'s
/// environment.
pub fn interface_language(args: &[OsString], var: &dyn Fn(&str) -> Option<OsString>) -> Lang {
    let path = config_flag(args)
        .or_else(|| {
            var("CCMAIL_CONFIG")
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
        })
        .unwrap_or_else(|| env::default_config_path(var));
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| configured(&text))
        .unwrap_or_else(|| {
            Lang::from_env(|name| var(name).map(|v| v.to_string_lossy().into_owned()))
        })
}

/// `[player] language` of a config's text, if it is there and is `ru` or `en`.
fn configured(text: &str) -> Option<Lang> {
    let table = text.parse::<toml::Table>().ok()?;
    let language = table.get("player")?.get("language")?.as_str()?;
    Lang::from_config(language)
}

/// The value of `--config FILE` or `--config=FILE`, before a `--`.
fn config_flag(args: &[OsString]) -> Option<PathBuf> {
    let mut args = args.iter().skip(1).take_while(|a| *a != "--");
    while let Some(arg) = args.next() {
        if arg == "--config" {
            return args.next().map(PathBuf::from);
        }
        if let Some(value) = arg.to_str().and_then(|a| a.strip_prefix("--config=")) {
            return Some(PathBuf::from(value));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn the_config_flag_is_found_in_both_spellings() {
        assert_eq!(
            config_flag(&args(&["ccmail", "--config", "/a.toml", "games"])),
            Some(PathBuf::from("/a.toml"))
        );
        assert_eq!(
            config_flag(&args(&["ccmail", "games", "--config=/b.toml"])),
            Some(PathBuf::from("/b.toml"))
        );
        assert_eq!(config_flag(&args(&["ccmail", "--", "--config", "x"])), None);
        assert_eq!(config_flag(&args(&["ccmail", "games"])), None);
    }

    #[test]
    fn the_config_decides_before_the_locale() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(
            &file,
            "[player]\nname = \"Петров Пётр\"\nlanguage = \"ru\"\n",
        )
        .unwrap();
        let english_locale = |name: &str| (name == "LANG").then(|| OsString::from("en_US.UTF-8"));
        let a = args(&["ccmail", "--config", file.to_str().unwrap(), "games"]);
        assert_eq!(interface_language(&a, &english_locale), Lang::Ru);
        // Without the key, the locale; without the file, the locale too.
        std::fs::write(&file, "[player]\nname = \"Петров Пётр\"\n").unwrap();
        let russian_locale = |name: &str| (name == "LC_ALL").then(|| OsString::from("ru_RU.UTF-8"));
        assert_eq!(interface_language(&a, &russian_locale), Lang::Ru);
        assert_eq!(interface_language(&a, &english_locale), Lang::En);
        let missing = args(&["ccmail", "--config", "/nonexistent/ccmail.toml", "games"]);
        assert_eq!(interface_language(&missing, &russian_locale), Lang::Ru);
        // A broken file or a wrong value is passed over here (the command itself says so).
        std::fs::write(&file, "[player]\nlanguage = \"de\"\n").unwrap();
        assert_eq!(interface_language(&a, &english_locale), Lang::En);
        std::fs::write(&file, "[player\nlanguage = \"ru\"\n").unwrap();
        assert_eq!(interface_language(&a, &english_locale), Lang::En);
    }
}
