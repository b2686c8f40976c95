//! The interface catalogues (`crates/cli/i18n/{en,ru}/*.ftl`): both languages have the same
//! files, each file the same keys with the same values in them, every key the code asks for
//! is in both, and each file parses without an error.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use ccmail::i18n::{Catalogue, Lang};
use fluent_syntax::ast;

/// A message's or term's key, its attributes' keys, and the variables its text uses.
type Keys = BTreeMap<String, BTreeSet<String>>;

fn variables_of(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            variables_in(expression, out);
        }
    }
}

fn variables_in(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for v in variants {
                variables_of(&v.value, out);
            }
        }
        ast::Expression::Inline(inline) => inline_variables(inline, out),
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => variables_in(expression, out),
        ast::InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_variables(a, out);
            }
        }
        _ => {}
    }
}

/// The keys of one file (`key` and `key.attribute`), each with its variables; the file's
/// syntax errors fail the test.
fn keys_of(lang: &str, name: &str, text: &str) -> Keys {
    let resource = match fluent_syntax::parser::parse(text) {
        Ok(r) => r,
        Err((_, errors)) => panic!("{lang}/{name}.ftl has syntax errors: {errors:?}"),
    };
    let mut keys = Keys::new();
    for entry in &resource.body {
        let (id, value, attributes) = match entry {
            ast::Entry::Message(m) => (m.id.name.to_owned(), m.value.as_ref(), &m.attributes),
            ast::Entry::Term(t) => (format!("-{}", t.id.name), Some(&t.value), &t.attributes),
            _ => continue,
        };
        let mut vars = BTreeSet::new();
        if let Some(v) = value {
            variables_of(v, &mut vars);
        }
        assert!(
            keys.insert(id.clone(), vars).is_none(),
            "{lang}/{name}.ftl has {id} twice"
        );
        for a in attributes {
            let mut vars = BTreeSet::new();
            variables_of(&a.value, &mut vars);
            keys.insert(format!("{id}.{}", a.id.name), vars);
        }
    }
    keys
}

#[test]
fn both_languages_have_the_same_keys_with_the_same_values_in_them() {
    let en = Lang::En.files();
    let ru = Lang::Ru.files();
    let names = |files: &'static [(&'static str, &'static str)]| {
        files.iter().map(|(n, _)| *n).collect::<Vec<_>>()
    };
    assert_eq!(names(en), names(ru), "the same files in both languages");
    let mut everywhere = BTreeMap::new();
    for ((name, en_text), (_, ru_text)) in en.iter().zip(ru) {
        let en_keys = keys_of("en", name, en_text);
        let ru_keys = keys_of("ru", name, ru_text);
        let en_only: Vec<_> = en_keys
            .keys()
            .filter(|k| !ru_keys.contains_key(*k))
            .collect();
        let ru_only: Vec<_> = ru_keys
            .keys()
            .filter(|k| !en_keys.contains_key(*k))
            .collect();
        assert!(
            en_only.is_empty() && ru_only.is_empty(),
            "{name}.ftl: only in English: {en_only:?}; only in Russian: {ru_only:?}"
        );
        for (key, vars) in &en_keys {
            assert_eq!(
                vars, &ru_keys[key],
                "{name}.ftl: {key} uses other values in the two languages"
            );
            if let Some(other) = everywhere.insert(key.clone(), *name) {
                panic!("{key} is in both {other}.ftl and {name}.ftl");
            }
        }
    }
}

/// Every key the sources ask for: the first string of each `t!(…)`, and of each `said!(…)`
/// (check.rs's catalogue of a chosen language), wherever `cargo fmt` put it.
fn keys_asked_for() -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/cli/src")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for key in keys_in(&text) {
                    found.insert((key, path.display().to_string()));
                }
            }
        }
    }
    found
}

/// The keys `text` asks for.
fn keys_in(text: &str) -> Vec<String> {
    let mut keys = Vec::new();
    for opener in ["t!(", "said!("] {
        for (at, _) in text.match_indices(opener) {
            // The macro itself, not a longer name (`assert!(`, `print!(`), nor its definition.
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &text[at + opener.len()..];
            let Some(open) = rest.find('"') else { continue };
            // The first argument: the key, or (said!) what comes before it.
            if rest[..open].contains([')', ';']) {
                continue;
            }
            let key = &rest[open + 1..];
            let key = &key[..key.find('"').unwrap_or(0)];
            if !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                keys.push(key.to_owned());
            }
        }
    }
    keys
}

#[test]
fn keys_are_found_wherever_the_call_is_broken() {
    let code = "t!(\"a-b\");\n ccmail::t!(\n    \"c-d\",\n    n = 1);\n said!(r, \"e\");\n print!(\"x y\");";
    assert_eq!(keys_in(code), ["a-b", "c-d", "e"]);
}

#[test]
fn every_key_the_code_asks_for_is_in_both_languages() {
    let asked = keys_asked_for();
    assert!(!asked.is_empty(), "the scan found the t! calls");
    for lang in Lang::ALL {
        let catalogue = Catalogue::new(lang);
        let missing: Vec<_> = asked
            .iter()
            .filter(|(key, _)| !catalogue.has(key))
            .collect();
        assert!(
            missing.is_empty(),
            "missing in the {} catalogue: {missing:?}",
            lang.as_str()
        );
    }
}

#[test]
fn a_key_missing_in_one_language_is_found() {
    // The check above, on a catalogue pair made to differ.
    let en = keys_of("en", "sample", "a = A\nb = B { $n }\n");
    let ru = keys_of("ru", "sample", "a = А\n");
    assert!(en.contains_key("b") && !ru.contains_key("b"));
    let ru_other_value = keys_of("ru", "sample", "a = А\nb = Б { $count }\n");
    assert_ne!(en["b"], ru_other_value["b"]);
}
