//! `ccmail parse --json` on every sample of `../shared/samples` and every fixture of
//! `tests/fixtures/messages`, checked against its `.expect.json` the way the samples' README
//! says: only the keys present are checked, strings after NFC and trimming, objects key by key,
//! `problem_codes` as an exact set or as include/exclude lists.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

fn parse_json(file: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_ccmail"))
        .args(["parse", "--json"])
        .arg(file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn norm(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(s.nfc().collect::<String>().trim().to_owned()),
        Value::Array(a) => Value::Array(a.iter().map(norm).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, v)| (k.clone(), norm(v))).collect()),
        v => v.clone(),
    }
}

/// Every difference between what was expected and what `parse` printed, in words.
fn differences(expected: &Value, got: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let codes: BTreeSet<String> = got["problems"]
        .as_array()
        .expect("problems is an array")
        .iter()
        .map(|p| p["code"].as_str().unwrap().to_owned())
        .collect();
    let code_set = |list: &Value| -> BTreeSet<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_owned())
            .collect()
    };
    for (key, want) in expected.as_object().unwrap() {
        let have = if key == "problem_codes" {
            &got["problems"]
        } else {
            got.get(key)
                .unwrap_or_else(|| panic!("key {key} is absent: fields are never absent"))
        };
        let ok = match (key.as_str(), want) {
            ("problem_codes", Value::Array(_)) => code_set(want) == codes,
            ("problem_codes", Value::Object(rule)) => {
                code_set(&rule["include"]).is_subset(&codes)
                    && code_set(&rule["exclude"]).is_disjoint(&codes)
            }
            ("variation", Value::Array(list)) if list.is_empty() => {
                have.is_null() || have.as_array().is_some_and(Vec::is_empty)
            }
            (_, Value::Object(fields)) => fields.iter().all(|(k, v)| norm(v) == norm(&have[k])),
            _ => norm(want) == norm(have),
        };
        if !ok {
            out.push(format!("{key}: expected {want}, got {have}"));
        }
    }
    out
}

fn check_folder(dir: &Path) -> usize {
    let files = common::emls(dir);
    let mut failures = Vec::new();
    for eml in &files {
        let expect = eml.with_extension("expect.json");
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&expect).unwrap()).unwrap();
        for d in differences(&expected, &parse_json(eml)) {
            failures.push(format!(
                "{}: {d}",
                eml.file_name().unwrap().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    files.len()
}

#[test]
fn shared_samples_give_their_expected_values() {
    if let Some(dir) = common::shared_samples() {
        assert!(check_folder(&dir) >= 17);
    }
}

#[test]
fn own_fixtures_give_their_expected_values() {
    assert!(check_folder(&common::fixtures()) >= 20);
}

/// The letters of a game that are not moves (RULES.md, "What a message is"): the shared
/// examples, one of each kind.
#[test]
fn shared_kind_samples_give_their_kind() {
    if let Some(dir) = common::shared_samples() {
        let kinds = dir.parent().unwrap().join("samples-kinds");
        assert!(check_folder(&kinds) >= 8);
    }
}

/// Our own letters of every kind, in both languages, in the styles of the common mail clients
/// and chess programs: each is read as its kind, and none of them is a faulty move.
#[test]
fn own_kind_fixtures_give_their_kind() {
    let dir = common::fixtures().parent().unwrap().join("kinds");
    assert!(check_folder(&dir) >= 30);
}

/// Letters in the styles partners and mail systems really write, moves and every other kind
/// (tests/fixtures/styles/README.md): each read as a careful arbiter reads it.
#[test]
fn letters_in_real_styles_give_their_expected_values() {
    let dir = common::fixtures().parent().unwrap().join("styles");
    assert!(check_folder(&dir) >= 100);
}

#[test]
fn every_field_of_the_contract_is_printed() {
    let got = parse_json(
        &common::fixtures().join(common::emls(&common::fixtures())[0].file_name().unwrap()),
    );
    for key in [
        "kind",
        "from",
        "subject",
        "date_header",
        "header",
        "moves",
        "new_move",
        "variation",
        "partner_move_sent",
        "received",
        "sent",
        "move_days",
        "total_days",
        "signature",
        "draw_offer",
        "draw_accept",
        "resign",
        "break",
        "repeat",
        "problems",
    ] {
        assert!(got.get(key).is_some(), "{key} is absent");
    }
}

#[test]
fn a_file_that_cannot_be_opened_is_exit_1_with_words() {
    let out = Command::new(env!("CARGO_BIN_EXE_ccmail"))
        .args(["parse", "/nonexistent/move.eml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("can't open the message file /nonexistent/move.eml"),
        "{err}"
    );
}

#[test]
fn standard_input_is_read_with_a_dash() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ccmail"))
        .args(["parse", "--json", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"From: a@example.org\r\nDate: Tue, 3 Mar 2026 10:00:00 +0300\r\n\r\nMy move: 1. 5254\r\nSent: 2026-03-03\r\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["new_move"], "e4");
    assert_eq!(got["sent"], "2026-03-03");
}
