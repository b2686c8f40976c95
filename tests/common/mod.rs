//! Shared by the top-level tests: where things are, and the rule for tests that need
//! something outside the repository (CI must not skip them).

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/samples` beside the repository, if it is there. With `CI=true` it must be:
/// a CI run that silently skipped the samples would prove nothing.
pub fn shared_samples() -> Option<PathBuf> {
    let dir = root().join("../shared/samples");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("CI=true but {} is missing", dir.display());
    }
    eprintln!(
        "note: {} is missing; its samples are not run",
        dir.display()
    );
    None
}

/// The project's own message fixtures.
pub fn fixtures() -> PathBuf {
    root().join("tests/fixtures/messages")
}

/// The `.eml` files of a folder, sorted.
pub fn emls(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    files
}
