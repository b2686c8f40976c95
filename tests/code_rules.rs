//! Rules of the code that the compiler does not check, checked on the sources.
//!
//! **Moves come from shakmaty.** A `Move` reaches a position only from shakmaty's legal move
//! generation (`legal_moves`, `san_candidates`, `castling_moves`, `San::to_move`,
//! `UciMove::to_move`, and the moves those return) or after `is_legal`. `play_unchecked`
//! trusts its move: given one that ccmail put together from squares and roles, it makes a
//! position that is not chess, and the mistake shows far from where it was made. So, in the
//! production sources (`crates/*/src`, without `tests.rs` files, `tests/` folders and a
//! file's closing `#[cfg(test)] mod … { … }`):
//!
//! - every `play_unchecked(` has, on the line above it, a comment `// legal: …` that says
//!   where its move comes from;
//! - no `Move::Normal {`, `Move::Castle {`, `Move::EnPassant {` or `Move::Put {` appears
//!   (ask the move instead: `m.role()`, `m.from()`, `m.to()`, `m.castling_side()`), unless
//!   [`HAND_BUILT`] lists its file with the reason.
//!
//! **Rows are typed.** A stored status, direction or kind is an enum of `ccmail-store`,
//! converted at the SQL boundary: no production line compares one with a string
//! (`.status == "held"`, `.kind == "repeat"`, `kind.as_str() == …`).

use std::fs;
use std::path::{Path, PathBuf};

/// Files allowed to name a `Move` variant with braces, and why. A move built there must be
/// checked with `is_legal` before it is played.
const HAND_BUILT: &[(&str, &str)] = &[];

/// The marker a `play_unchecked(` needs on the line above it.
const MARKER: &str = "// legal:";

const VARIANTS: [&str; 4] = ["Normal", "Castle", "EnPassant", "Put"];

#[test]
fn every_play_unchecked_says_where_its_move_comes_from() {
    let mut unmarked = Vec::new();
    let mut sites = 0;
    for (path, lines) in production_sources() {
        for (i, line) in lines.iter().enumerate() {
            if !line.contains("play_unchecked(") {
                continue;
            }
            sites += 1;
            let above = i.checked_sub(1).map_or("", |j| lines[j].trim());
            let reason = above.strip_prefix(MARKER).map_or("", str::trim);
            if reason.is_empty() {
                unmarked.push(format!("{}:{}: {}", path.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "play_unchecked without a `{MARKER} <where the move comes from>` line above it:\n{}",
        unmarked.join("\n")
    );
    // The scan found the sources: a wrong root would pass with nothing checked.
    assert!(sites > 10, "only {sites} play_unchecked found");
}

#[test]
fn no_move_is_built_by_hand() {
    let mut built = Vec::new();
    for (path, lines) in production_sources() {
        let name = path.to_string_lossy().replace('\\', "/");
        if HAND_BUILT.iter().any(|(file, _)| name == *file) {
            continue;
        }
        for (i, line) in lines.iter().enumerate() {
            if names_a_variant(line) {
                built.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        built.is_empty(),
        "a shakmaty Move written by hand (take it from the legal moves, or list the file in \
         HAND_BUILT with the reason):\n{}",
        built.join("\n")
    );
}

#[test]
fn no_stored_word_is_compared_as_a_string() {
    let mut compared = Vec::new();
    for (path, lines) in production_sources() {
        let name = path.to_string_lossy().replace('\\', "/");
        for (i, line) in lines.iter().enumerate() {
            if compares_a_stored_word(line) {
                compared.push(format!("{name}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        compared.is_empty(),
        "a stored status, direction or kind compared as a string (compare the store's enum):\n{}",
        compared.join("\n")
    );
}

/// Whether a line compares a row's status, direction or kind with a string literal.
fn compares_a_stored_word(line: &str) -> bool {
    ["status", "direction", "kind"].iter().any(|field| {
        [" == \"", " != \"", ".as_str() == \"", ".as_str() != \""]
            .iter()
            .any(|op| line.contains(&format!(".{field}{op}")))
    })
}

#[test]
fn the_word_scan_finds_a_string_comparison() {
    assert!(compares_a_stored_word(r#"if m.kind == "repeat" {"#));
    assert!(compares_a_stored_word(r#"o.status != "failed""#));
    assert!(compares_a_stored_word(r#"m.direction.as_str() == "out""#));
    assert!(!compares_a_stored_word("m.kind == StoredKind::REPEAT"));
}

/// The scan itself: what counts as a hand-built move and what is test code.
#[test]
fn the_scan_tells_moves_from_other_variants_and_tests_from_production() {
    assert!(names_a_variant(
        "    Some(Move::Normal { role, from, capture, to, promotion })"
    ));
    assert!(names_a_variant("shakmaty::Move::Castle { king, rook }"));
    assert!(names_a_variant("Move::EnPassant{ from, to }"));
    assert!(!names_a_variant(
        "if let UciMove::Normal { from, to, .. } = uci"
    ));
    assert!(!names_a_variant("shakmaty::uci::UciMove::Put { role, to }"));
    assert!(!names_a_variant("Move::Normal"));
    let text = "fn a() {}\n#[cfg(test)]\nmod tests {\n    fn b() {}\n}\n";
    assert_eq!(without_test_module(text), vec!["fn a() {}"]);
    let text = "#[cfg(test)]\nmod tests;\nfn c() {}\n";
    assert_eq!(
        without_test_module(text),
        vec!["#[cfg(test)]", "mod tests;", "fn c() {}"]
    );
    assert!(is_test_file(Path::new("crates/core/src/judge/tests.rs")));
    assert!(is_test_file(Path::new(
        "crates/core/src/message/read/tests/pgn.rs"
    )));
    assert!(!is_test_file(Path::new("crates/core/src/judge.rs")));
}

/// Whether `line` names a `Move` variant with braces (`Move::Normal {`), not another type's
/// (`UciMove::Normal {`).
fn names_a_variant(line: &str) -> bool {
    line.match_indices("Move::").any(|(at, _)| {
        let before = line[..at].chars().next_back();
        let own = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let rest = &line[at + "Move::".len()..];
        own && VARIANTS.iter().any(|v| {
            rest.strip_prefix(v)
                .is_some_and(|tail| tail.trim_start().starts_with('{'))
        })
    })
}

/// Every production source file under `crates/*/src`, as its lines without a closing inline
/// test module, with its path from the repository's root.
fn production_sources() -> Vec<(PathBuf, Vec<String>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for krate in fs::read_dir(root.join("crates")).unwrap() {
        rust_files(&krate.unwrap().path().join("src"), &mut files);
    }
    files.sort();
    files
        .into_iter()
        .map(|path| path.strip_prefix(root).unwrap().to_path_buf())
        .filter(|path| !is_test_file(path))
        .map(|path| {
            let text = fs::read_to_string(root.join(&path)).unwrap();
            let lines = without_test_module(&text)
                .into_iter()
                .map(str::to_owned)
                .collect();
            (path, lines)
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A `tests.rs` file, or one in a `tests` folder: a test module of its own.
fn is_test_file(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "tests.rs")
        || path.components().any(|c| c.as_os_str() == "tests")
}

/// The lines before a `#[cfg(test)]` that opens an inline module (`mod tests {`): the test
/// module closes a file (a `mod tests;` is left in, its file being skipped).
fn without_test_module(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| {
            w[0].trim() == "#[cfg(test)]"
                && w[1].trim_start().starts_with("mod ")
                && w[1].trim_end().ends_with('{')
        })
        .unwrap_or(lines.len());
    lines[..end].to_vec()
}

/// What the interface lint passes over in `crates/cli/src`, and why: files whose words are
/// not ccmail's to its own user.
const NOT_THE_INTERFACE: &[(&str, &str)] = &[
    (
        "crates/cli/src/app/compose.rs",
        "the partner's and the arbiter's mail, in the game's language",
    ),
    ("crates/cli/src/i18n.rs", "the catalogue itself"),
];

/// The marker that passes a line's prose over: on the line itself or the line above, with
/// the reason (`// not the interface's: JSON stays English`).
const PROSE_MARKER: &str = "// not the interface's:";

/// The macros whose text is for the developer, not the user: a panic's, an assertion's, a
/// log line below `info`.
const DEVELOPERS: &[&str] = &[
    "expect(",
    "panic!(",
    "unreachable!(",
    "assert!(",
    "assert_eq!(",
    "debug_assert",
    "debug!(",
    "trace!(",
];

/// **The interface speaks the user's language.** Every sentence ccmail says to its own user
/// is in the catalogue (`crates/cli/i18n/`), asked for with `t!`: a production line of
/// `crates/cli/src` with a string literal of prose (two words or more, outside `{…}`) is
/// one left out, unless it is a developer's text ([`DEVELOPERS`]), its file is one of
/// [`NOT_THE_INTERFACE`], or it carries [`PROSE_MARKER`] with the reason. The command line
/// (`cli.rs`) has no doc comments: clap would show them as its help.
#[test]
fn no_interface_text_is_outside_the_catalogue() {
    let mut found = Vec::new();
    let mut scanned = 0;
    for (path, lines) in production_sources() {
        let name = path.to_string_lossy().replace('\\', "/");
        if !name.starts_with("crates/cli/src/")
            || NOT_THE_INTERFACE.iter().any(|(file, _)| *file == name)
        {
            continue;
        }
        scanned += 1;
        // The command line's doc comments would be its `--help`, outside the catalogue.
        if name == "crates/cli/src/cli.rs" {
            found.extend(
                clap_doc_comments(&lines)
                    .into_iter()
                    .map(|i| format!("{name}:{}: {}", i + 1, lines[i].trim())),
            );
        }
        found.extend(
            prose_lines(&lines)
                .into_iter()
                .map(|(i, literal)| format!("{name}:{}: {literal}", i + 1)),
        );
    }
    assert!(
        scanned > 50,
        "only {scanned} files of crates/cli/src scanned"
    );
    assert!(
        found.is_empty(),
        "{} lines say words outside the catalogue (put them in crates/cli/i18n/ and ask with \
         t!, or mark a line that is not the interface's with `{PROSE_MARKER} <why>`):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_prose_scan_finds_a_sentence_placed_on_purpose() {
    let code = [
        "    println!(\"{}\", t!(\"games-none\"));",
        "    writeln!(w, \"{:<8} {}\", id, words)?;",
        "    let key = \"player.language\";",
        "    .expect(\"the catalogue has no syntax errors\");",
        "    anyhow::bail!(\"there is no game {id}\");",
        "    // not the interface's: JSON stays English",
        "    let detail = format!(\"message {id} is held\");",
        "    eprintln!(\"Ход отправлен\");",
        "    let q = \"a \\\"quoted\\\" word\"; // comment \"with words\"",
    ];
    let lines: Vec<String> = code.iter().map(|s| (*s).to_owned()).collect();
    let found: Vec<usize> = prose_lines(&lines).into_iter().map(|(i, _)| i).collect();
    assert_eq!(found, [4, 7, 8]);
}

/// The doc comments clap would show as help: those of a struct or enum that derives `Parser`,
/// `Subcommand`, `Args` or `ValueEnum`, above it and inside it.
fn clap_doc_comments(lines: &[String]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut docs_above = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        if code.starts_with("///") {
            if inside {
                out.push(i);
            } else {
                docs_above.push(i);
            }
            continue;
        }
        if code.starts_with("#[derive(")
            && ["Parser", "Subcommand", "Args", "ValueEnum"]
                .iter()
                .any(|d| code.contains(d))
        {
            inside = true;
            out.append(&mut docs_above);
        } else if !code.starts_with("#[") {
            docs_above.clear();
        }
        if inside && line.starts_with('}') {
            inside = false;
        }
    }
    out
}

#[test]
fn the_clap_scan_finds_a_help_written_as_a_doc_comment() {
    let code = [
        "/// Parses the command line.",
        "pub fn parse() {}",
        "/// ccmail's arguments.",
        "#[derive(Debug, Parser)]",
        "pub struct Cli {",
        "    /// Print JSON.",
        "    #[arg(long)]",
        "    pub json: bool,",
        "}",
        "/// Not clap's.",
        "struct Other;",
    ];
    let lines: Vec<String> = code.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(clap_doc_comments(&lines), [2, 5]);
}

/// The lines of prose: (index, the literal).
fn prose_lines(lines: &[String]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") || code.starts_with("#[") || code.starts_with("///") {
            continue;
        }
        let marked = |l: &str| l.contains(PROSE_MARKER);
        if marked(line) || i.checked_sub(1).is_some_and(|j| marked(&lines[j])) {
            continue;
        }
        if DEVELOPERS.iter().any(|d| line.contains(d)) {
            continue;
        }
        if let Some(literal) = string_literals(line).into_iter().find(|l| is_prose(l)) {
            out.push((i, literal));
        }
    }
    out
}

/// The string literals of a line of code (`"…"`, escapes kept as written), before a `//`
/// comment.
fn string_literals(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        if c == '/' && chars.peek() == Some(&'/') {
            break;
        }
        // A char literal ('"') is not the start of a string.
        if c == '"' && previous != '\'' {
            let mut literal = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => {
                        literal.push(c);
                        if let Some(next) = chars.next() {
                            literal.push(next);
                        }
                    }
                    '"' => break,
                    _ => literal.push(c),
                }
            }
            out.push(literal);
        }
        previous = c;
    }
    out
}

/// Two words (blank-separated) of two letters or more, outside `{…}` placeholders: a
/// sentence, not a key (`games-none`, `player.language`), a code or a format of values.
fn is_prose(literal: &str) -> bool {
    let mut outside = String::new();
    let mut depth = 0_u32;
    for c in literal.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    let outside = outside.replace("\\n", " ").replace("\\t", " ");
    outside
        .split_whitespace()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .count()
        >= 2
}
