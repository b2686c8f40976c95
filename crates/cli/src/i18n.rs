//! The words ccmail says to its own user, in English or Russian: one Fluent catalogue a
//! language (`crates/cli/i18n/en.ftl`, `ru.ftl`), built into the binary.
//!
//! Fluent (`fluent-bundle`) rather than our own table: a Russian count is declined by the
//! CLDR plural rules (1 день, 2 дня, 5 дней, 21 день), and each language orders its own words
//! around the values. Messages to partners are not here: they are in the game's language and
//! the rules' form (`ccmail_core::wording`).
//!
//! The interface language is chosen once a process ([`choose`]): `[player] language` in the
//! config, else the locale (`LC_ALL`, then `LC_MESSAGES`, then `LANG`, as POSIX orders them),
//! else English. Code asks for a text by its key with [`t!`](crate::t); a key missing in a
//! catalogue is a failing test (`tests/i18n.rs`), and shows as the key itself at run time.

use std::fmt::Write as _;
use std::sync::OnceLock;

use chrono::NaiveDate;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// The interface languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    En,
    Ru,
}

impl Lang {
    /// Both, English first.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The config's word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// `ru` or `en`, as the config writes it.
    pub fn from_config(value: &str) -> Option<Lang> {
        match value.trim().to_ascii_lowercase().as_str() {
            "ru" => Some(Lang::Ru),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language of a locale name (`ru_RU.UTF-8`, `ru`, `en_GB`, `C`): Russian for `ru…`,
    /// English for any other.
    pub fn from_locale(value: &str) -> Lang {
        let language = value.split(['_', '.', '@', '-']).next().unwrap_or("");
        if language.eq_ignore_ascii_case("ru") {
            Lang::Ru
        } else {
            Lang::En
        }
    }

    /// The locale's language: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set
    /// and not empty decides; none of them, English.
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| var(name).filter(|v| !v.is_empty()))
            .map_or(Lang::En, |v| Lang::from_locale(&v))
    }

    /// The core's language of the same name: the core says some things in both (a move's
    /// error, a judgment), and the interface takes them in its own.
    pub fn language(self) -> ccmail_core::message::Language {
        match self {
            Lang::En => ccmail_core::message::Language::En,
            Lang::Ru => ccmail_core::message::Language::Ru,
        }
    }

    /// The catalogue's files: (name, text).
    pub fn files(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Lang::En => EN,
            Lang::Ru => RU,
        }
    }
}

/// The catalogue's files, one an area of the interface, the same names in both languages
/// (`tests/i18n.rs` holds them to the same keys).
macro_rules! catalogue {
    ($lang:literal: $($name:literal),+ $(,)?) => {
        &[$(($name, include_str!(concat!("../i18n/", $lang, "/", $name, ".ftl")))),+]
    };
}

const EN: &[(&str, &str)] = catalogue!("en":
    "common", "listing", "inbox", "commands", "prompt", "config", "help", "daemon",
    "errors-store", "errors-mail", "errors-core", "mime",
);
const RU: &[(&str, &str)] = catalogue!("ru":
    "common", "listing", "inbox", "commands", "prompt", "config", "help", "daemon",
    "errors-store", "errors-mail", "errors-core", "mime",
);

/// One language's catalogue.
pub struct Catalogue {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalogue")
            .field("lang", &self.lang)
            .finish_non_exhaustive()
    }
}

impl Catalogue {
    /// The catalogue of `lang`. Its file is part of the binary, and a test holds both files
    /// free of syntax errors, so this does not fail.
    pub fn new(lang: Lang) -> Catalogue {
        let id: unic_langid::LanguageIdentifier = lang
            .as_str()
            .parse()
            .expect("en and ru are language identifiers");
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // Terminal text: no Unicode isolation marks around the values.
        bundle.set_use_isolating(false);
        for (_, text) in lang.files() {
            let resource = FluentResource::try_new((*text).to_owned())
                .unwrap_or_else(|(resource, _)| resource);
            // The keys are unique across the files (tests/i18n.rs); a second one would win.
            bundle.add_resource_overriding(resource);
        }
        Catalogue { lang, bundle }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Whether the catalogue has the message `key`.
    pub fn has(&self, key: &str) -> bool {
        self.bundle
            .get_message(key)
            .is_some_and(|m| m.value().is_some())
    }

    /// The text of `key` with `args`; the key itself where the catalogue lacks it.
    pub fn text(&self, key: &str, args: &[(&str, Arg)]) -> String {
        let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) else {
            return key.to_owned();
        };
        let mut fluent_args = FluentArgs::with_capacity(args.len());
        for (name, value) in args {
            fluent_args.set(*name, value.to_fluent(self.lang));
        }
        let mut errors = Vec::new();
        let text = self
            .bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors);
        text.into_owned()
    }
}

/// A value in a text: a count (declined by it), a date (written as the language writes dates)
/// or words.
#[derive(Clone, Debug)]
pub enum Arg {
    Count(i64),
    Date(NaiveDate),
    Text(String),
}

impl Arg {
    fn to_fluent(&self, lang: Lang) -> FluentValue<'static> {
        match self {
            Arg::Count(n) => FluentValue::from(*n),
            Arg::Date(d) => FluentValue::from(date_in(lang, *d)),
            Arg::Text(s) => FluentValue::from(s.clone()),
        }
    }
}

macro_rules! arg_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Count(i64::try_from(n).unwrap_or(i64::MAX))
            }
        }
    )*};
}
arg_from_int!(i32, i64, u32, u64, usize);

impl From<NaiveDate> for Arg {
    fn from(d: NaiveDate) -> Arg {
        Arg::Date(d)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_owned())
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}

impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}

/// A date as `lang` writes it: `2026-12-01` in English, `01.12.2026` in Russian.
pub fn date_in(lang: Lang, d: NaiveDate) -> String {
    let mut out = String::with_capacity(10);
    let _ = match lang {
        Lang::En => write!(out, "{}", d.format("%Y-%m-%d")),
        Lang::Ru => write!(out, "{}", d.format("%d.%m.%Y")),
    };
    out
}

/// A date as the interface writes it.
pub fn date(d: NaiveDate) -> String {
    date_in(current().lang, d)
}

/// The core's language for what it says in both: the interface's.
pub fn language() -> ccmail_core::message::Language {
    current().lang.language()
}

/// The English catalogue, whatever the interface's: for what stays English (JSON's words).
pub fn english() -> &'static Catalogue {
    static ENGLISH: OnceLock<Catalogue> = OnceLock::new();
    ENGLISH.get_or_init(|| Catalogue::new(Lang::En))
}

static CURRENT: OnceLock<Catalogue> = OnceLock::new();

/// Sets the process's interface language, once: the first choice stands.
pub fn choose(lang: Lang) {
    let _ = CURRENT.set(Catalogue::new(lang));
}

/// The process's catalogue: the language chosen, else the locale's.
pub fn current() -> &'static Catalogue {
    CURRENT.get_or_init(|| {
        Catalogue::new(Lang::from_env(|name| {
            std::env::var_os(name).map(|v| v.to_string_lossy().into_owned())
        }))
    })
}

/// The text of a key in the interface language: `t!("white")`, `t!("days", count = n)`.
#[macro_export]
macro_rules! t {
    ($key:literal) => {
        $crate::i18n::current().text($key, &[])
    };
    ($key:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::current().text(
            $key,
            &[$((stringify!($name), $crate::i18n::Arg::from($value))),+],
        )
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locale_decides_in_posix_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(Lang::from_env(env(&[])), Lang::En);
        assert_eq!(Lang::from_env(env(&[("LANG", "ru_RU.UTF-8")])), Lang::Ru);
        assert_eq!(
            Lang::from_env(env(&[
                ("LANG", "ru_RU.UTF-8"),
                ("LC_MESSAGES", "en_US.UTF-8")
            ])),
            Lang::En
        );
        assert_eq!(
            Lang::from_env(env(&[("LC_MESSAGES", "en_US.UTF-8"), ("LC_ALL", "ru_RU")])),
            Lang::Ru
        );
        // An empty variable is not set.
        assert_eq!(
            Lang::from_env(env(&[("LC_ALL", ""), ("LANG", "ru_UA.KOI8-U")])),
            Lang::Ru
        );
        assert_eq!(Lang::from_env(env(&[("LANG", "C")])), Lang::En);
        assert_eq!(Lang::from_env(env(&[("LANG", "rw_RW")])), Lang::En);
    }

    #[test]
    fn dates_are_written_as_each_language_writes_them() {
        let d = NaiveDate::from_ymd_opt(2026, 12, 1).unwrap();
        assert_eq!(date_in(Lang::En, d), "2026-12-01");
        assert_eq!(date_in(Lang::Ru, d), "01.12.2026");
    }

    #[test]
    fn a_russian_count_of_days_is_declined() {
        let ru = Catalogue::new(Lang::Ru);
        let en = Catalogue::new(Lang::En);
        let days = |c: &Catalogue, n: i64| c.text("days", &[("count", Arg::Count(n))]);
        let want_ru = [
            (1, "1 день"),
            (2, "2 дня"),
            (5, "5 дней"),
            (11, "11 дней"),
            (21, "21 день"),
            (22, "22 дня"),
            (25, "25 дней"),
            (0, "0 дней"),
            (111, "111 дней"),
            (104, "104 дня"),
        ];
        for (n, want) in want_ru {
            assert_eq!(days(&ru, n), want);
        }
        for (n, want) in [(1, "1 day"), (2, "2 days"), (21, "21 days"), (0, "0 days")] {
            assert_eq!(days(&en, n), want);
        }
    }

    #[test]
    fn a_missing_key_shows_as_itself() {
        assert_eq!(
            Catalogue::new(Lang::Ru).text("no-such-key", &[]),
            "no-such-key"
        );
    }
}
