//! ccmail-store: ccmail's memory, in SQLite through sqlx.
//!
//! A correspondence game lasts a year: every move with its dates, every message in and out
//! (raw, deduplicated by Message-ID or content hash), penalties, breaks, the outbox and the
//! IMAP sync state must survive restarts, upgrades and crashes. The schema lives only in the
//! top-level `migrations/`, embedded here and applied on open.
//!
//! The database runs in WAL mode with a busy timeout, so the daemon and a terminal command use
//! it at once without "database is locked" reaching the user. The file is created 0600.
//!
//! Queries are plain functions on `&mut SqliteConnection`: a caller passes a pooled
//! connection for reads, or a transaction (`&mut *tx`) when a message, the game change and
//! what the rules require in answer must land together or not at all.

mod attached;
mod breaks;
mod changes;
mod copies;
mod games;
mod kind;
mod messages;
mod moves;
mod outbox;
mod penalties;
mod status;
mod sync;
mod tries;
mod trust;

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

pub use attached::*;
pub use breaks::*;
pub use changes::*;
pub use copies::*;
pub use games::*;
pub use kind::*;
pub use messages::*;
pub use moves::*;
pub use outbox::*;
pub use penalties::*;
pub use sqlx::SqliteConnection;
pub use status::*;

/// A transaction on the store ([`Store::begin`]): it derefs to a connection, and rolls back
/// when dropped uncommitted.
pub type Transaction = sqlx::Transaction<'static, sqlx::Sqlite>;
pub use sync::*;
pub use tries::*;
pub use trust::*;

/// The migrations of `migrations/`, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations");

/// Migrations whose comments were reworded after they shipped: (version, the SHA-384 of the
/// text databases applied). Their SQL is unchanged, so such a database takes the new
/// checksum instead of failing sqlx's check that an applied migration is unchanged.
const REWORDED: &[(i64, &str)] = &[(
    2,
    "f9cf5d500c8f2f93e597adbf0622ad11d3c198c55e829b4032e6b52a9c661f267274daf1336a330aa2e91a1c5eed90db",
)];

/// Gives an applied migration of [`REWORDED`] its current checksum.
async fn reworded(pool: &SqlitePool) -> Result<(), sqlx::Error> {
    let applied: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_optional(pool)
    .await?;
    if applied.is_none() {
        return Ok(());
    }
    for &(version, old) in REWORDED {
        let Some(now) = MIGRATOR.iter().find(|m| m.version == version) else {
            continue;
        };
        sqlx::query(
            "UPDATE _sqlx_migrations SET checksum = ? WHERE version = ? AND lower(hex(checksum)) = ?",
        )
        .bind(now.checksum.as_ref())
        .bind(version)
        .bind(old)
        .execute(pool)
        .await?;
    }
    Ok(())
}

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The reason is in words: a full disk or a read-only file system is named as such (the
    /// folder is tried with a write of its own when SQLite only says "disk I/O error").
    #[error("can't open the database {path}: {reason}")]
    Open { path: String, reason: DatabaseWords },
    #[error("can't create the database file {path}: {source}")]
    Create {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("can't bring the database up to date: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database error: {}", DatabaseWords::of(.0))]
    Sql(sqlx::Error),
    #[error("the database holds {0} in a form ccmail can't read")]
    Corrupt(Corrupted),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Sql(e)
    }
}

/// What the database holds in a form ccmail can't read ([`StoreError::Corrupt`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Corrupted {
    /// The packed record of a game's moves.
    #[error("the moves of game {game}")]
    Moves { game: String },
    /// A row attached to a game, of a kind no query writes.
    #[error("the rows attached to game {game} (a row of kind {kind})")]
    Attached { game: String, kind: i64 },
}

/// A storage trouble a user can act on, named in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trouble {
    /// SQLITE_FULL, or a write that found no room.
    DiskFull,
    /// SQLITE_READONLY.
    ReadOnlyDatabase,
    /// SQLITE_IOERR.
    DiskFailed,
    /// SQLITE_CANTOPEN.
    CantOpen,
    /// A write refused by a read-only file system.
    ReadOnlyFileSystem,
    /// A write refused for want of permission.
    NoPermission,
}

impl std::fmt::Display for Trouble {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.words())
    }
}

/// What SQLite (or sqlx) said of a database error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// SQLite's own message and its code: `SQLite: disk I/O error, code 4874`.
    Sqlite { message: String, code: String },
    /// Any other error's own words (sqlx's, the OS's).
    Other(String),
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Said::Sqlite { message, code } => write!(f, "SQLite: {message}, code {code}"),
            Said::Other(text) => f.write_str(text),
        }
    }
}

/// A database error as the user should read it: a full disk, a read-only database or a disk
/// error said in words first, SQLite's own message and code after (once: sqlx's text repeats
/// it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatabaseWords {
    /// The trouble, when it is one a user can act on.
    pub trouble: Option<Trouble>,
    /// What SQLite said.
    pub said: Said,
}

impl std::fmt::Display for DatabaseWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.trouble {
            Some(trouble) => write!(f, "{trouble} ({})", self.said),
            None => self.said.fmt(f),
        }
    }
}

impl DatabaseWords {
    /// An sqlx error in its parts.
    pub fn of(e: &sqlx::Error) -> DatabaseWords {
        let said = sqlite_says(e);
        let sqlx::Error::Database(db) = e else {
            return DatabaseWords {
                trouble: None,
                said,
            };
        };
        let code = db.code().unwrap_or_default();
        // The primary result code is the low byte of an extended one (4874 = SQLITE_IOERR_SHMSIZE).
        let trouble = match code.parse::<i32>().map(|c| c & 0xff) {
            Ok(13) => Some(Trouble::DiskFull),
            Ok(8) => Some(Trouble::ReadOnlyDatabase),
            Ok(10) => Some(Trouble::DiskFailed),
            Ok(14) => Some(Trouble::CantOpen),
            _ => None,
        };
        DatabaseWords { trouble, said }
    }
}

/// A database error met anywhere (a transaction's own `sqlx::Error`, not only this crate's
/// [`StoreError`]) said as [`StoreError`] says it: a full disk or a read-only database in
/// words first. `None` for any other error.
pub fn database_error_in_words(e: &(dyn std::error::Error + 'static)) -> Option<String> {
    database_error(e).map(|words| words.to_string())
}

/// [`database_error_in_words`] in its parts, for a caller that words them itself.
pub fn database_error(e: &(dyn std::error::Error + 'static)) -> Option<DatabaseWords> {
    e.downcast_ref::<sqlx::Error>().map(DatabaseWords::of)
}

/// SQLite's own words and code: `SQLite: disk I/O error, code 4874`.
fn sqlite_says(e: &sqlx::Error) -> Said {
    match e {
        sqlx::Error::Database(db) => Said::Sqlite {
            message: db.message().to_owned(),
            code: db.code().unwrap_or_default().into_owned(),
        },
        e => Said::Other(e.to_string()),
    }
}

/// Why nothing can be written in `dir`, found by writing a small file there: a full disk, a
/// read-only file system, no permission. `None` when the write works.
fn write_trouble(dir: &Path) -> Option<Trouble> {
    let probe = dir.join(format!(".ccmail-probe-{}", std::process::id()));
    let result = std::fs::write(&probe, [0u8; 64 * 1024]);
    let _ = std::fs::remove_file(&probe);
    Trouble::of(&result.err()?)
}

impl Trouble {
    /// A failed file write or open, when it is one of the storage troubles a user can act
    /// on: a full disk, a read-only file system, no permission. `None` for anything else.
    pub fn of(e: &std::io::Error) -> Option<Trouble> {
        match e.kind() {
            std::io::ErrorKind::StorageFull => Some(Trouble::DiskFull),
            std::io::ErrorKind::ReadOnlyFilesystem => Some(Trouble::ReadOnlyFileSystem),
            std::io::ErrorKind::PermissionDenied => Some(Trouble::NoPermission),
            _ => None,
        }
    }

    /// Its words, in English.
    pub fn words(self) -> &'static str {
        match self {
            Trouble::DiskFull => "the disk is full",
            Trouble::ReadOnlyDatabase => {
                "the database is read-only (the file's permissions, or a read-only file system)"
            }
            Trouble::DiskFailed => "the disk failed to write or read",
            Trouble::CantOpen => "the database file can't be opened",
            Trouble::ReadOnlyFileSystem => "the file system is read-only",
            Trouble::NoPermission => "no permission to write in its folder",
        }
    }
}

/// A failed file write or open in words, when it is one of the storage troubles a user can
/// act on: a full disk, a read-only file system, no permission. `None` for anything else.
pub fn storage_trouble(e: &std::io::Error) -> Option<&'static str> {
    Trouble::of(e).map(Trouble::words)
}

/// [`StoreError::Open`] for `path`, with the cause in words when a write beside it shows one
/// (SQLite may only say "disk I/O error" or "unable to open database file").
fn open_failed(path: &Path, e: &sqlx::Error) -> StoreError {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let reason = match dir.and_then(write_trouble) {
        Some(trouble) => DatabaseWords {
            trouble: Some(trouble),
            said: sqlite_says(e),
        },
        None => DatabaseWords::of(e),
    };
    StoreError::Open {
        path: path.display().to_string(),
        reason,
    }
}

impl StoreError {
    /// A busy or locked database, or a full disk that may clear: worth retrying later.
    pub fn is_transient(&self) -> bool {
        let StoreError::Sql(sqlx::Error::Database(e)) = self else {
            return matches!(self, StoreError::Sql(sqlx::Error::PoolTimedOut));
        };
        // SQLITE_BUSY 5, SQLITE_LOCKED 6, SQLITE_FULL 13.
        matches!(e.code().as_deref(), Some("5" | "6" | "13"))
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The database: a pool of connections to one SQLite file.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    /// The database file (`None` in memory).
    path: Option<std::path::PathBuf>,
}

impl Store {
    /// Opens (creating it 0600 if missing) and migrates the database at `path`.
    pub async fn open(path: &Path) -> Result<Store> {
        create_private(path)?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(30))
            .foreign_keys(true)
            // Rows the connection's thread may read ahead of the caller (sqlx's default is 50):
            // for a listing of every game (`games --json`, 1,000 rows of a few KB) it reads on
            // instead of waiting for the caller every 50 rows. A query of a few rows is
            // unaffected.
            .row_buffer_size(1024);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            // A connection whose COMMIT failed (a full disk: SQLite has already rolled the
            // transaction back, so sqlx's own ROLLBACK fails too) still counts itself inside a
            // transaction, and every BEGIN on it would fail: it is dropped, not reused.
            .before_acquire(|conn, _| {
                Box::pin(async move { Ok(!sqlx::Connection::is_in_transaction(conn)) })
            })
            // No ping before each use: a local file has no link that could have dropped, and
            // the ping is a round trip to the connection's thread at every acquire.
            .test_before_acquire(false)
            // Connections are kept, not closed when idle or old (sqlx's defaults, 10 and 30
            // minutes): a local file's connection does not go stale, and the pool's upkeep
            // would wake an idle daemon every 10 minutes to close them, for the next pass to
            // open them again.
            .idle_timeout(None)
            .max_lifetime(None)
            .acquire_timeout(Duration::from_secs(60))
            .connect_with(options)
            .await
            .map_err(|e| open_failed(path, &e))?;
        reworded(&pool).await.map_err(|e| open_failed(path, &e))?;
        MIGRATOR.run(&pool).await.map_err(|e| match e {
            sqlx::migrate::MigrateError::Execute(e) => open_failed(path, &e),
            e => StoreError::Migrate(e),
        })?;
        Ok(Store {
            pool,
            path: Some(path.to_owned()),
        })
    }

    /// An in-memory database (tests): one connection, so every query sees the same data.
    pub async fn memory() -> Result<Store> {
        let options = SqliteConnectOptions::new()
            .filename(":memory:")
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            // Its one connection is the database: never closed while the store lives.
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool, path: None })
    }

    /// The database file; `None` for an in-memory database.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Starts a transaction: everything done through it lands together or not at all.
    ///
    /// `BEGIN IMMEDIATE` takes the write lock at the start, waiting (busy timeout) for another
    /// writer to finish. A deferred transaction that reads and then writes would instead fail
    /// at once with "database is locked" when another connection wrote in between.
    pub async fn begin(&self) -> Result<Transaction> {
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// A connection for reads and single statements.
    pub async fn conn(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Sqlite>> {
        Ok(self.pool.acquire().await?)
    }

    /// Closes the pool, checkpointing the WAL.
    pub async fn close(self) {
        self.pool.close().await;
    }
}

/// Creates the database file with mode 0600 if it does not exist (and its folder).
fn create_private(path: &Path) -> Result<()> {
    let err = |source| StoreError::Create {
        path: path.display().to_string(),
        source,
    };
    if path.exists() {
        return Ok(());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(err(e)),
    }
}

/// SHA-256 of `bytes` as lower-case hex: the content hash of a message.
pub fn content_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_troubles_in_words() {
        use std::io::{Error, ErrorKind};
        let said = |kind| storage_trouble(&Error::from(kind));
        assert_eq!(said(ErrorKind::StorageFull), Some("the disk is full"));
        assert_eq!(
            said(ErrorKind::ReadOnlyFilesystem),
            Some("the file system is read-only")
        );
        assert_eq!(
            said(ErrorKind::PermissionDenied),
            Some("no permission to write in its folder")
        );
        assert_eq!(said(ErrorKind::NotFound), None);
    }

    /// No upkeep task: sqlx runs one only when a pool may close idle or old connections.
    #[tokio::test]
    async fn the_pools_keep_their_connections() {
        let dir = tempfile::tempdir().unwrap();
        let file = Store::open(&dir.path().join("ccmail.db")).await.unwrap();
        let memory = Store::memory().await.unwrap();
        for store in [file, memory] {
            let options = store.pool.options();
            assert_eq!(options.get_idle_timeout(), None);
            assert_eq!(options.get_max_lifetime(), None);
        }
    }
}
