//! The store crate's errors in the interface's words.

use ccmail_store::{Corrupted, DatabaseWords, Said, StoreError, Trouble};

use crate::i18n::{Arg, Catalogue};

/// `cause` in the interface's words, if it is one of the store crate's errors (a database
/// error met outside a [`StoreError`] too).
pub(super) fn in_words(cause: &(dyn std::error::Error + 'static)) -> Option<String> {
    let c = crate::i18n::current();
    if let Some(e) = cause.downcast_ref::<StoreError>() {
        return Some(words(e, c));
    }
    ccmail_store::database_error(cause).map(|d| database(&d, c))
}

/// A store error in `c`'s words.
fn words(e: &StoreError, c: &Catalogue) -> String {
    match e {
        StoreError::Open { path, reason } => c.text(
            "err-store-open",
            &[
                ("path", path.into()),
                ("reason", database(reason, c).into()),
            ],
        ),
        StoreError::Create { path, source } => c.text(
            "err-store-create",
            &[("path", path.into()), ("error", source.to_string().into())],
        ),
        StoreError::Migrate(e) => c.text("err-store-migrate", &[("error", e.to_string().into())]),
        StoreError::Sql(e) => c.text(
            "err-store-sql",
            &[("error", database(&DatabaseWords::of(e), c).into())],
        ),
        StoreError::Corrupt(what) => {
            c.text("err-store-corrupt", &[("what", corrupted(what, c).into())])
        }
    }
}

/// A database error: the trouble in words first when it is one, SQLite's words after.
fn database(d: &DatabaseWords, c: &Catalogue) -> String {
    let said = match &d.said {
        Said::Sqlite { message, code } => c.text(
            "err-store-sqlite-says",
            &[("message", message.into()), ("code", code.into())],
        ),
        Said::Other(text) => text.clone(),
    };
    match d.trouble {
        Some(t) => c.text(
            "err-store-trouble-and-said",
            &[("trouble", trouble(t, c).into()), ("said", said.into())],
        ),
        None => said,
    }
}

/// A storage trouble a user can act on.
pub(super) fn trouble(t: Trouble, c: &Catalogue) -> String {
    let key = match t {
        Trouble::DiskFull => "err-store-disk-full",
        Trouble::ReadOnlyDatabase => "err-store-read-only-database",
        Trouble::DiskFailed => "err-store-disk-failed",
        Trouble::CantOpen => "err-store-cant-open-file",
        Trouble::ReadOnlyFileSystem => "err-store-read-only-file-system",
        Trouble::NoPermission => "err-store-no-permission",
    };
    c.text(key, &[])
}

/// What the database holds in a form ccmail can't read.
fn corrupted(what: &Corrupted, c: &Catalogue) -> String {
    match what {
        Corrupted::Moves { game } => c.text("err-store-corrupt-moves", &[("game", game.into())]),
        Corrupted::Attached { game, kind } => c.text(
            "err-store-corrupt-attached",
            &[("game", game.into()), ("kind", Arg::Text(kind.to_string()))],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    fn both(e: &StoreError) -> (String, String) {
        (
            words(e, &Catalogue::new(Lang::En)),
            words(e, &Catalogue::new(Lang::Ru)),
        )
    }

    #[test]
    fn the_english_is_the_errors_own() {
        let errors = [
            StoreError::Open {
                path: "/x/ccmail.db".into(),
                reason: DatabaseWords {
                    trouble: Some(Trouble::DiskFull),
                    said: Said::Sqlite {
                        message: "database or disk is full".into(),
                        code: "13".into(),
                    },
                },
            },
            StoreError::Open {
                path: "/x/ccmail.db".into(),
                reason: DatabaseWords {
                    trouble: None,
                    said: Said::Other("pool timed out".into()),
                },
            },
            StoreError::Create {
                path: "/x/ccmail.db".into(),
                source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
            },
            StoreError::Sql(sqlx::Error::PoolTimedOut),
            StoreError::Corrupt(Corrupted::Moves { game: "g1".into() }),
            StoreError::Corrupt(Corrupted::Attached {
                game: "g1".into(),
                kind: 7,
            }),
        ];
        for e in &errors {
            assert_eq!(both(e).0, e.to_string());
        }
        for t in [
            Trouble::DiskFull,
            Trouble::ReadOnlyDatabase,
            Trouble::DiskFailed,
            Trouble::CantOpen,
            Trouble::ReadOnlyFileSystem,
            Trouble::NoPermission,
        ] {
            assert_eq!(trouble(t, &Catalogue::new(Lang::En)), t.to_string());
            assert!(!trouble(t, &Catalogue::new(Lang::Ru)).is_ascii());
        }
    }

    #[test]
    fn russian_keeps_sqlites_own_words() {
        let e = StoreError::Open {
            path: "/x/ccmail.db".into(),
            reason: DatabaseWords {
                trouble: Some(Trouble::ReadOnlyFileSystem),
                said: Said::Sqlite {
                    message: "disk I/O error".into(),
                    code: "4874".into(),
                },
            },
        };
        assert_eq!(
            both(&e).1,
            "не удаётся открыть базу данных /x/ccmail.db: файловая система доступна только \
             для чтения (SQLite: disk I/O error, код 4874)"
        );
        let e = StoreError::Corrupt(Corrupted::Moves { game: "g1".into() });
        assert_eq!(
            both(&e).1,
            "ccmail не может прочитать ходы партии g1: в базе данных они записаны в \
             непонятном виде"
        );
    }
}
