//! `mime::decode` over the project's shared sample mail
//! (`shared/samples/*.eml`, beside the repository), checked against the
//! MIME-level keys of each `.expect.json`: `from`, `subject`, and the event name
//! of `header.event`, which must appear in the decoded text (or, for mail whose
//! game travels as a PGN attachment, in a PGN part). Sample 17 is no mail.
//!
//! A checkout without `shared/` skips this test, except under CI (`CI=true`),
//! where a missing folder is a failure rather than a silent pass.

use std::path::{Path, PathBuf};

use ccmail_mail::mime::{MimeError, decode};
use serde_json::Value;

fn samples_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/samples");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "CI=true but the shared samples are missing at {}",
            dir.display()
        );
    }
    eprintln!("skipped: no shared samples at {}", dir.display());
    None
}

fn expectations(eml: &Path) -> Value {
    let path = eml.with_extension("expect.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Checks one sample; returns what is wrong with it, if anything.
fn check(eml: &Path) -> Vec<String> {
    let name = eml
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let raw = std::fs::read(eml).unwrap_or_else(|e| panic!("{name}: {e}"));
    let want = expectations(eml);
    let mut wrong = Vec::new();
    let d = match decode(&raw) {
        Ok(d) if name.starts_with("17-") => {
            return vec![format!("{name}: decoded, expected NotAMessage ({d:?})")];
        }
        Ok(d) => d,
        Err(MimeError::NotAMessage(_)) if name.starts_with("17-") => return wrong,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    if let Some(from) = want.get("from").and_then(Value::as_str) {
        let got = d.from.as_ref().map(|a| a.email.as_str());
        if got != Some(from.trim()) {
            wrong.push(format!("{name}: from {got:?}, expected {from:?}"));
        }
    }
    if let Some(subject) = want.get("subject").and_then(Value::as_str) {
        let got = d.subject.as_deref().map(str::trim);
        if got != Some(subject.trim()) {
            wrong.push(format!("{name}: subject {got:?}, expected {subject:?}"));
        }
    }
    if let Some(event) = want.pointer("/header/event").and_then(Value::as_str) {
        let event = event.trim();
        if !d.text.contains(event) && !d.pgn.iter().any(|p| p.contains(event)) {
            wrong.push(format!(
                "{name}: event {event:?} is in neither text nor PGN; text:\n{}",
                d.text
            ));
        }
    }
    wrong
}

#[test]
fn every_shared_sample() {
    let Some(dir) = samples_dir() else { return };
    let mut emls: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    emls.sort();
    assert!(
        emls.len() >= 17,
        "expected the 17 samples, found {}",
        emls.len()
    );
    assert!(
        emls.iter()
            .any(|p| p.to_string_lossy().contains("17-not-a-mail")),
        "sample 17 missing"
    );
    let wrong: Vec<String> = emls.iter().flat_map(|p| check(p)).collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
