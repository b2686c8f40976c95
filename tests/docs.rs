//! The documentation's own checks.
//!
//! - Every link in README.md, README.ru.md, CHANGELOG.md, benches/README.md and docs/*.md leads somewhere in
//!   a clone of the repository: the file (or folder) exists, inside the repository, and a
//!   `#heading` it names is a heading of that file, its anchor computed as GitHub computes it.
//!   Links to the web are not fetched, only checked to be well-formed.
//! - Every `cargo test …` they give names one test at most, an existing target and package,
//!   and a test function that exists.
//! - README.md stays the user's guide: under 25 KB. README.ru.md is the same guide in Russian:
//!   the same headings at the same levels, in the same order, and the same links.
//! - No text of the repository speaks of how the work on it was organised: no numbered issue,
//!   and "session" only on a line that says which kind (IMAP, SMTP, TLS, SASL, Dovecot,
//!   Postfix, a pty, a terminal), the file's path counting as part of the line, as `grep -r`
//!   prints it.
//!
//! Links are read with plain string code: inline links and images `[text](target)`,
//! reference definitions `[name]: target` and autolinks `<https://…>`, outside fenced code
//! blocks and inline code. Headings are ATX headings (`#` … `######`).

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The documents whose links are followed; each must exist.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![
        root.join("README.md"),
        root.join("README.ru.md"),
        root.join("CHANGELOG.md"),
        root.join("benches/README.md"),
    ];
    let mut more: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .expect("docs/ is there")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    assert!(!more.is_empty(), "docs/ has no .md file");
    docs.extend(more);
    docs
}

#[test]
fn every_link_in_the_documents_leads_somewhere() {
    let root = root();
    let mut wrong = Vec::new();
    let mut links = 0;
    for doc in documents(&root) {
        let text = fs::read_to_string(&doc).unwrap_or_else(|e| panic!("{}: {e}", doc.display()));
        links += links_of(&text).len();
        wrong.extend(broken_links(&root, &doc, &text));
    }
    assert!(
        links > 20,
        "only {links} links found: is the reader broken?"
    );
    assert!(wrong.is_empty(), "broken links:\n{}", wrong.join("\n"));
}

#[test]
fn the_readme_is_a_guide_under_25_kb() {
    let size = fs::metadata(root().join("README.md")).unwrap().len();
    assert!(
        size < 25_000,
        "README.md is {size} bytes: keep it under 25 KB"
    );
}

/// The levels of a Markdown text's headings, in order (fenced code left out).
fn heading_levels(text: &str) -> Vec<usize> {
    headings(text).into_iter().map(|(level, _)| level).collect()
}

/// A Markdown text's ATX headings outside fenced code: each one's level and text, in order.
fn headings(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (_, line) in outside_fences(text) {
        let trimmed = line.trim_start();
        if let Some(heading) = heading_text(line) {
            out.push((trimmed.chars().take_while(|&c| c == '#').count(), heading));
        }
    }
    out
}

/// The links of a text that lead out of it (not `#…` within it, and not to its other
/// language), in order.
fn outward_links(text: &str) -> Vec<String> {
    links_of(text)
        .into_iter()
        .map(|(_, target)| target)
        .filter(|t| !t.starts_with('#') && t != "README.md" && t != "README.ru.md")
        .collect()
}

#[test]
fn the_russian_guide_keeps_in_step_with_the_english_one() {
    let en = fs::read_to_string(root().join("README.md")).unwrap();
    let ru = fs::read_to_string(root().join("README.ru.md")).unwrap();
    let (en_levels, ru_levels) = (heading_levels(&en), heading_levels(&ru));
    assert!(en_levels.len() > 10, "README.md's headings are found");
    assert_eq!(
        en_levels, ru_levels,
        "README.ru.md has other sections than README.md (heading levels in order)"
    );
    assert_eq!(
        outward_links(&en),
        outward_links(&ru),
        "README.ru.md links elsewhere than README.md"
    );
    assert!(en.contains("](README.ru.md)") && ru.contains("](README.md)"));
    // The check sees a section missing.
    let shorter = ru.replacen("\n## ", "\n", 1);
    assert_ne!(heading_levels(&shorter), en_levels);
}

/// What a line must also name when it has the word (of IMAP, SMTP, a terminal, …).
const KINDS: &[&str] = &[
    "imap",
    "smtp",
    "tls",
    "sasl",
    "dovecot",
    "postfix",
    "pty",
    "expectrl",
    "ossession",
    "terminal",
];

/// The word itself.
const WORD: &str = "session"; // an IMAP, SMTP or terminal one

#[test]
fn no_text_speaks_of_how_the_work_was_organised() {
    let root = root();
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    assert!(files.len() > 50, "only {} files found", files.len());
    let mut found = Vec::new();
    for rel in files {
        let Ok(text) = fs::read_to_string(root.join(&rel)) else {
            continue;
        };
        for (i, line) in text.lines().enumerate() {
            // As `grep -r` prints it: the path is part of what the line says.
            let seen = format!("{rel}:{line}").to_lowercase();
            let bad = has_numbered_issue(&seen)
                || (seen.contains(WORD) && !KINDS.iter().any(|k| seen.contains(k)));
            if bad {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "lines that speak of how the work was organised (say what they mean instead):\n{}",
        found.join("\n")
    );
}

/// "issue" and a space before a digit.
fn has_numbered_issue(lower: &str) -> bool {
    lower.match_indices("issue ").any(|(i, m)| {
        lower[i + m.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit())
    })
}

/// The repository's text files (*.rs, *.md, *.py, *.sh, *.toml), relative to `root`, outside
/// target/ and .git/.
fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap();
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            if rel != Path::new("target") && rel != Path::new(".git") {
                walk(root, &path, out);
            }
        } else if kind.is_file()
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| ["rs", "md", "py", "sh", "toml"].contains(&e))
        {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

// ---- Commands ----

/// Every `cargo test …` a document gives (the reliability tables, above all) runs what it
/// says: cargo takes one test name, so a command names at most one; its `--test` target and
/// its `-p` package exist; and the name, like each `… name` in the same table cell, is part
/// of some test function's name.
#[test]
fn every_cargo_test_command_in_the_documents_runs_a_test() {
    let root = root();
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    let functions: Vec<String> = files
        .iter()
        .filter(|f| f.ends_with(".rs"))
        .flat_map(|f| {
            let text = fs::read_to_string(root.join(f)).unwrap();
            text.lines()
                .filter_map(|l| {
                    l.trim_start()
                        .strip_prefix("fn ")
                        .or_else(|| l.trim_start().strip_prefix("async fn "))
                })
                .filter_map(|l| l.split(['(', '<']).next().map(str::to_owned))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut wrong = Vec::new();
    let mut commands = 0;
    for doc in documents(&root) {
        let text = fs::read_to_string(&doc).unwrap();
        let name = doc.strip_prefix(&root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            for cell in line.split('|') {
                for (cmd, names) in cargo_tests(cell) {
                    commands += 1;
                    let problems = command_problems(&root, &cmd, &names, &functions);
                    wrong.extend(
                        problems
                            .into_iter()
                            .map(|p| format!("{name}:{}: {p}", n + 1)),
                    );
                }
            }
        }
    }
    assert!(
        commands > 30,
        "only {commands} commands found: is the reader broken?"
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The `cargo test …` commands in a table cell, each with the test names it asks for: its own,
/// and those of the `… name` entries after it (the same command with another name).
fn cargo_tests(cell: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for code in cell.split('`').skip(1).step_by(2) {
        if let Some(rest) = code.strip_prefix("cargo test") {
            out.push((
                rest.split_whitespace().map(str::to_owned).collect(),
                Vec::new(),
            ));
        } else if let (Some(more), Some(last)) = (code.strip_prefix("… "), out.last_mut()) {
            last.1.push(more.trim().to_owned());
        }
    }
    out
}

/// What is wrong with `cargo test ARGS` and the further `names` asked with it.
fn command_problems(
    root: &Path,
    args: &[String],
    names: &[String],
    functions: &[String],
) -> Vec<String> {
    let mut problems = Vec::new();
    let mut filters = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--" => break,
            "--test" => {
                let target = args.next().map_or("", String::as_str);
                let found = root.join("tests").join(format!("{target}.rs")).exists()
                    || fs::read_dir(root.join("crates")).unwrap().any(|c| {
                        c.unwrap()
                            .path()
                            .join("tests")
                            .join(format!("{target}.rs"))
                            .exists()
                    });
                if !found {
                    problems.push(format!("no test target {target}"));
                }
            }
            "-p" => {
                let package = args.next().map_or("", String::as_str);
                let dir = package.strip_prefix("ccmail-").unwrap_or("cli");
                if package != "ccmail" && !root.join("crates").join(dir).exists() {
                    problems.push(format!("no package {package}"));
                }
            }
            flag if flag.starts_with('-') => {}
            name => filters.push(name.to_owned()),
        }
    }
    if filters.len() > 1 {
        problems.push(format!("cargo test takes one test name, not {filters:?}"));
    }
    for name in filters.iter().chain(names) {
        if !functions.iter().any(|f| f.contains(name.as_str())) {
            problems.push(format!("no test function's name holds {name:?}"));
        }
    }
    problems
}

#[test]
fn a_cargo_test_command_with_two_names_or_an_unknown_name_is_reported() {
    let root = root();
    let functions = vec!["a_real_test".to_owned(), "another_one".to_owned()];
    let cell = " `cargo test --test docs a_real a_real_test`, `… another`, `… missing` ";
    let found = cargo_tests(cell);
    assert_eq!(found.len(), 1);
    let (args, names) = &found[0];
    assert_eq!(names, &["another", "missing"]);
    let problems = command_problems(&root, args, names, &functions);
    assert_eq!(
        problems,
        [
            r#"cargo test takes one test name, not ["a_real", "a_real_test"]"#,
            r#"no test function's name holds "missing""#,
        ]
    );
    let args: Vec<String> = ["--test", "nowhere", "-p", "ccmail-nothing"]
        .map(str::to_owned)
        .to_vec();
    assert_eq!(
        command_problems(&root, &args, &[], &functions),
        ["no test target nowhere", "no package ccmail-nothing"]
    );
}

// ---- Links ----

/// What is wrong with the links of `doc` (whose text is `text`), one line each.
fn broken_links(root: &Path, doc: &Path, text: &str) -> Vec<String> {
    let name = doc.strip_prefix(root).unwrap_or(doc).display().to_string();
    let mut wrong = Vec::new();
    for (line, target) in links_of(text) {
        if let Err(why) = check_link(root, doc, text, &target) {
            wrong.push(format!("{name}:{line}: ({target}) {why}"));
        }
    }
    wrong
}

fn check_link(root: &Path, doc: &Path, text: &str, target: &str) -> Result<(), String> {
    if target.is_empty() {
        return Err("an empty link".into());
    }
    if target.starts_with("http://") || target.starts_with("https://") {
        return web_link(target);
    }
    if let Some(address) = target.strip_prefix("mailto:") {
        return match address.split_once('@') {
            Some((user, host)) if !user.is_empty() && host.contains('.') => Ok(()),
            _ => Err("not an e-mail address".into()),
        };
    }
    if target.contains("://") || target.starts_with("//") {
        return Err("a scheme this check does not know".into());
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        doc.to_path_buf()
    } else {
        let base = doc.parent().unwrap_or(root);
        let joined = normalize(&base.join(path));
        if !joined.starts_with(root) {
            return Err("leads outside the repository: a clone would not have it".into());
        }
        if !joined.exists() {
            return Err("no such file".into());
        }
        joined
    };
    let Some(anchor) = anchor else {
        return Ok(());
    };
    if file.extension().is_none_or(|e| e != "md") {
        return Err("an anchor into a file that is not Markdown".into());
    }
    let headings = if file == doc {
        text.to_owned()
    } else {
        fs::read_to_string(&file).map_err(|e| e.to_string())?
    };
    if anchors_of(&headings).iter().any(|a| a == anchor) {
        Ok(())
    } else {
        Err(format!("no heading #{anchor} there"))
    }
}

/// `http(s)://host[:port][/…]`: a host of letters, digits, dots and hyphens with a dot in it
/// (or localhost), and no blank anywhere.
fn web_link(target: &str) -> Result<(), String> {
    let rest = target.split_once("://").map(|(_, r)| r).unwrap_or_default();
    if target.chars().any(char::is_whitespace) {
        return Err("a blank in a web address".into());
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.is_empty() && port.chars().all(|c| c.is_ascii_digit()) => host,
        _ => authority,
    };
    let fine = (host.contains('.') || host == "localhost")
        && !host.starts_with(['.', '-'])
        && !host.ends_with(['.', '-'])
        && !host.contains("..")
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-');
    if fine {
        Ok(())
    } else {
        Err(format!("{host:?} is not a host name"))
    }
}

/// `path` with `.` and `..` resolved by the letters alone (the file need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The lines of a Markdown text outside fenced code blocks (and not the fences themselves),
/// each with its index from 0.
fn outside_fences(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(f) = &fence {
            if trimmed.starts_with(f.as_str()) {
                fence = None;
            }
            continue;
        }
        if let Some(f) = fence_of(trimmed) {
            fence = Some(f);
            continue;
        }
        out.push((i, line));
    }
    out
}

/// The targets of the links of a Markdown text, each with its line number (from 1).
fn links_of(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in outside_fences(text) {
        let line = without_code(line);
        if let Some(target) = reference_definition(&line) {
            out.push((i + 1, target));
            continue;
        }
        for target in inline_targets(&line) {
            out.push((i + 1, target));
        }
    }
    out
}

/// The fence a line opens (three or more backticks or tildes), if it opens one.
fn fence_of(trimmed: &str) -> Option<String> {
    for c in ['`', '~'] {
        let n = trimmed.chars().take_while(|&x| x == c).count();
        if n >= 3 {
            return Some(c.to_string().repeat(n));
        }
    }
    None
}

/// The line with its inline code spans blanked out.
fn without_code(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        let close = "`".repeat(ticks);
        match after.find(&close) {
            Some(end) => {
                out.push(' ');
                rest = &after[end + ticks..];
            }
            None => {
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// `[name]: target` at the start of a line (up to three blanks before it).
fn reference_definition(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let line = line.trim_start_matches(' ');
    if indent > 3 || !line.starts_with('[') {
        return None;
    }
    let close = line.find("]:")?;
    if close < 2 {
        return None;
    }
    let target = line[close + 2..].split_whitespace().next()?;
    Some(
        target
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_owned(),
    )
}

/// The targets of `](target)` and of `<scheme://…>` in one line.
fn inline_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let inside = after[..end].trim();
        let target = match inside.strip_prefix('<') {
            Some(r) => r.split('>').next().unwrap_or_default(),
            // A title may follow the target after a blank: `(file.md "Title")`.
            None => inside.split_whitespace().next().unwrap_or_default(),
        };
        out.push(target.to_owned());
        rest = &after[end + 1..];
    }
    let mut rest = line;
    while let Some(at) = rest.find('<') {
        let after = &rest[at + 1..];
        let Some(end) = after.find('>') else { break };
        let inside = &after[..end];
        if inside.starts_with("http://") || inside.starts_with("https://") {
            out.push(inside.to_owned());
        }
        rest = &after[end + 1..];
    }
    out
}

// ---- Anchors ----

/// The anchors of a Markdown text's headings, as GitHub makes them: the heading's text
/// without its markup, lower case, each blank a hyphen, every other character that is not a
/// letter, a digit, `-` or `_` dropped (letters of any script kept); a repeated anchor gets
/// `-1`, `-2`, … in order.
fn anchors_of(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, heading) in headings(text) {
        let base = slug(&heading);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// The text of an ATX heading line (`## Text ##`), if the line is one.
fn heading_text(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let line = line.trim_start_matches(' ');
    let hashes = line.chars().take_while(|&c| c == '#').count();
    if indent > 3 || !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &line[hashes..];
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let rest = rest.trim();
    // A closing run of #s, after a blank, is not part of the text.
    let rest = match rest.trim_end_matches('#') {
        r if r.len() < rest.len() && (r.is_empty() || r.ends_with(' ')) => r.trim_end(),
        _ => rest,
    };
    Some(rest.to_owned())
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    let text = link_texts(heading);
    let mut out = String::new();
    for c in text.chars() {
        if c == '`' || c == '*' {
            continue;
        }
        if c == ' ' {
            out.push('-');
        } else if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// `[text](target)` replaced by `text`.
fn link_texts(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else {
            break;
        };
        let Some(close) = rest[open + mid..].find(')') else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "\
# ccmail
## The daemon: `ccmail run`
## What it does on its own, and why
## 51.4.7 — penalties
### `ccmail parse --json FILE`
## Что ccmail делает сам
## [Links](https://example.org) in a heading
## Reliability
## Reliability ##
```
## not a heading: inside a fence
```
#no-blank is not a heading
";
    assert_eq!(
        anchors_of(text),
        [
            "ccmail",
            "the-daemon-ccmail-run",
            "what-it-does-on-its-own-and-why",
            "5147--penalties",
            "ccmail-parse---json-file",
            "что-ccmail-делает-сам",
            "links-in-a-heading",
            "reliability",
            "reliability-1",
        ]
    );
}

#[test]
fn links_are_found_outside_code_only() {
    let text = "\
See [the rules](docs/rules.md#dates-and-days) and ![a picture](img.png \"Title\").
Not `[code](x.md)`, but [a (paren) link](a_(b).md) and <https://example.org/x>.
[ref]: docs/cli.md
```
[fenced](nowhere.md)
```
";
    let targets: Vec<String> = links_of(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        targets,
        [
            "docs/rules.md#dates-and-days",
            "img.png",
            "a_(b).md",
            "https://example.org/x",
            "docs/cli.md",
        ]
    );
}

/// The check can fail: a missing file, a missing heading, a link out of the repository, a
/// malformed web address are each reported; good links are not.
#[test]
fn broken_links_are_reported() {
    let root = root();
    let doc = root.join("README.md");
    let text = "\
# Here
[fine](#here) [fine too](docs/cli.md) [web](https://example.org/a?b=c)
[gone](docs/no-such-file.md) [no heading](#nowhere) [outside](../shared/rules/RULES.md)
[bad web](https://example..org) [bad host](https://-x/)
";
    let wrong = broken_links(&root, &doc, text);
    assert_eq!(wrong.len(), 5, "{wrong:#?}");
    for (what, why) in [
        ("docs/no-such-file.md", "no such file"),
        ("#nowhere", "no heading"),
        ("../shared/rules/RULES.md", "outside the repository"),
        ("https://example..org", "not a host name"),
        ("https://-x/", "not a host name"),
    ] {
        assert!(
            wrong.iter().any(|w| w.contains(what) && w.contains(why)),
            "{what}: {wrong:#?}"
        );
    }
}

#[test]
fn a_numbered_issue_is_told_from_other_words() {
    assert!(has_numbered_issue(&format!("see issue {}, items 2-4", 9)));
    assert!(!has_numbered_issue("a known issue with the server"));
    assert!(!has_numbered_issue("issue"));
}
