//! A command that prints a secret written in the command itself: `password_cmd = "echo
//! hunter2"` holds the password as surely as `password = "hunter2"` does, but a file others
//! can read is refused only for the second. Such a command in a file that is not private
//! gets a warning ([`warnings`], from `ccmail check` and when the daemon starts).
//!
//! Whether a command's output is a constant written in it ([`is_literal_secret`]) is read
//! from the command's text as `sh` would split it, for the forms people write: `echo X`,
//! `printf X`, `printf %s X`, `cat <<< X`, a here-document, any of them piped through
//! filters (`| base64 -d`, `| tr -d '\n'`). A command that reads anything else — a password
//! manager, a file, a variable, a command's output — is not literal; neither is one this
//! reading can't follow (a `;`, a subshell, `sh -c`), which is why it is a warning and not a
//! refusal.

use super::{Config, TokenSource};

/// Programs whose output is their operands.
const PRINTERS: [&str; 2] = ["echo", "printf"];

/// Programs that only transform their standard input when they are given no file.
const FILTERS: [&str; 13] = [
    "cat", "base64", "base32", "basenc", "tr", "rev", "tac", "head", "tail", "cut", "fold", "xxd",
    "sed",
];

/// The warning for each `*_cmd` of `cfg` that prints a secret written in it, when the config
/// file can be read (or written) by others; none when it is private.
pub fn warnings(cfg: &Config) -> Vec<String> {
    let literal: Vec<String> = commands(cfg)
        .into_iter()
        .filter(|(_, command)| is_literal_secret(command))
        .map(|(key, _)| key)
        .collect();
    if literal.is_empty() {
        return Vec::new();
    }
    let Ok(Some(mode)) = super::read::private_mode(&cfg.path) else {
        return Vec::new();
    };
    let file = cfg.path.display().to_string();
    literal
        .into_iter()
        .map(|key| {
            crate::t!(
                "config-literal-secret",
                key = key,
                file = &file,
                mode = format!("{mode:04o}")
            )
        })
        .collect()
}

/// Logs [`warnings`] at warning level.
pub fn warn(cfg: &Config) {
    for warning in warnings(cfg) {
        tracing::warn!("{warning}");
    }
}

/// Every `*_cmd` of the config with its key: `imap.password_cmd`, `smtp.oauth2_token_cmd`,
/// `imap.oauth2.refresh_token_cmd`, …
fn commands(cfg: &Config) -> Vec<(String, &str)> {
    let mut all = Vec::new();
    let sections = [
        ("imap", cfg.imap.as_ref().map(|i| (&i.password, &i.oauth2))),
        ("smtp", cfg.smtp.as_ref().map(|s| (&s.password, &s.oauth2))),
    ];
    for (name, section) in sections {
        let Some((password, oauth2)) = section else {
            continue;
        };
        if let Some(command) = password.as_ref().and_then(|p| p.command()) {
            all.push((format!("{name}.password_cmd"), command));
        }
        match oauth2 {
            Some(TokenSource::Command { command, .. }) => {
                all.push((format!("{name}.oauth2_token_cmd"), command.as_str()));
            }
            Some(TokenSource::Refresh(r)) => {
                let keys = [
                    ("client_secret_cmd", &r.client_secret_cmd),
                    ("refresh_token_cmd", &r.refresh_token_cmd),
                ];
                for (key, command) in keys {
                    if let Some(command) = command {
                        all.push((format!("{}.{key}", r.section), command.as_str()));
                    }
                }
            }
            None => {}
        }
    }
    all
}

/// Whether `command`, run with `sh -c`, prints a constant written in it: `echo X`,
/// `printf %s X`, `cat <<< X`, a here-document, such a command piped through filters. See
/// the module's comment for what is not.
pub fn is_literal_secret(command: &str) -> bool {
    let Some(tokens) = tokens(command) else {
        return false;
    };
    let mut constant = false;
    for stage in tokens.split(|t| *t == Token::Op("|")) {
        match stage_output(stage, constant) {
            Some(c) => constant = c,
            None => return false,
        }
    }
    constant
}

/// One word or operator of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A word, and whether the shell would expand something in it (`$`, a backquote, `~`, a
    /// glob): then its value is not written in the file.
    Word(String, bool),
    Op(&'static str),
    /// A here-document (or here-string) as standard input, and whether its text expands.
    Input(bool),
}

/// Whether a stage of a pipeline prints a constant (its input is one when `input` is);
/// `None` when the stage is something this reading does not follow.
fn stage_output(stage: &[Token], input: bool) -> Option<bool> {
    let mut words: Vec<(&str, bool)> = Vec::new();
    let mut stdin = None;
    let mut rest = stage.iter();
    while let Some(token) = rest.next() {
        match token {
            Token::Word(w, expands) => words.push((w.as_str(), *expands)),
            Token::Input(expands) => stdin = Some(!expands),
            Token::Op("<<<") => match rest.next() {
                Some(Token::Word(_, expands)) => stdin = Some(!expands),
                _ => return None,
            },
            Token::Op(_) => return None,
        }
    }
    // `A=b cmd`, `command cmd`, `exec cmd`.
    let is_assignment = |w: &str| {
        w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    while words
        .first()
        .is_some_and(|(w, _)| is_assignment(w) || ["command", "builtin", "exec"].contains(w))
    {
        words.remove(0);
    }
    if words.iter().any(|(_, expands)| *expands) {
        return Some(false);
    }
    let (program, args) = words.split_first()?;
    let program = program.0.rsplit('/').next().unwrap_or_default();
    let args: Vec<&str> = args.iter().map(|(w, _)| *w).collect();
    if PRINTERS.contains(&program) {
        return Some(!operands(program, &args).is_empty());
    }
    if FILTERS.contains(&program) {
        return Some(stdin.unwrap_or(input) && reads_no_file(program, &args));
    }
    Some(false)
}

/// The operands of `echo` (after `-n`, `-e`, `-E`) or `printf` (after `--`).
fn operands<'a>(program: &str, args: &[&'a str]) -> Vec<&'a str> {
    let options = |a: &&str| {
        if program == "echo" {
            a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "neE".contains(c))
        } else {
            *a == "--"
        }
    };
    args.iter().copied().skip_while(options).collect()
}

/// Whether a filter's arguments name no file: options and their numbers only (`tr` takes
/// sets, `sed` one script).
fn reads_no_file(program: &str, args: &[&str]) -> bool {
    let operands: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-') || *a == "-")
        .filter(|a| !a.chars().all(|c| c.is_ascii_digit()))
        .collect();
    match program {
        "tr" => true,
        "sed" => operands.len() <= 1 && !args.contains(&"-f"),
        _ => operands.is_empty(),
    }
}

/// The command's words and operators, as `sh` splits them; `None` for an unterminated quote.
fn tokens(command: &str) -> Option<Vec<Token>> {
    let chars: Vec<char> = command.chars().collect();
    let mut out = Vec::new();
    // Here-documents whose text starts after the current line: (delimiter, quoted, `<<-`,
    // the index of their `Input` token).
    let mut pending: Vec<(String, bool, bool, usize)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let next = |n: usize| chars.get(i + n).copied();
        match chars[i] {
            ' ' | '\t' => i += 1,
            '\\' if next(1) == Some('\n') => i += 2,
            '#' if word_start(&chars, i) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\n' => {
                out.push(Token::Op("\n"));
                i += 1;
                for (delimiter, quoted, tabs, at) in pending.drain(..) {
                    let (expands, end) = here_text(&chars, i, &delimiter, tabs);
                    out[at] = Token::Input(expands && !quoted);
                    i = end;
                }
            }
            '<' if next(1) == Some('<') && next(2) == Some('<') => {
                out.push(Token::Op("<<<"));
                i += 3;
            }
            '<' if next(1) == Some('<') => {
                let tabs = next(2) == Some('-');
                i += if tabs { 3 } else { 2 };
                while matches!(chars.get(i), Some(' ' | '\t')) {
                    i += 1;
                }
                let (delimiter, _, quoted) = word(&chars, &mut i)?;
                pending.push((delimiter, quoted, tabs, out.len()));
                out.push(Token::Input(true));
            }
            '|' | '&' if next(1) == Some(chars[i]) => {
                out.push(Token::Op(if chars[i] == '|' { "||" } else { "&&" }));
                i += 2;
            }
            c @ ('|' | '&' | ';' | '(' | ')' | '<' | '>') => {
                out.push(Token::Op(match c {
                    '|' => "|",
                    '&' => "&",
                    ';' => ";",
                    '(' => "(",
                    ')' => ")",
                    '<' => "<",
                    _ => ">",
                }));
                i += 1;
            }
            _ => {
                let (text, expands, _) = word(&chars, &mut i)?;
                out.push(Token::Word(text, expands));
            }
        }
    }
    if !pending.is_empty() {
        return None;
    }
    while out.last() == Some(&Token::Op("\n")) {
        out.pop();
    }
    Some(out)
}

/// Whether `chars[i]` begins a word (a `#` there starts a comment).
fn word_start(chars: &[char], i: usize) -> bool {
    i == 0 || matches!(chars[i - 1], ' ' | '\t' | '\n' | ';' | '|' | '&')
}

/// The word at `chars[*i]`, its quotes removed; whether something in it expands, and whether
/// any of it was quoted. `None` for an unterminated quote.
fn word(chars: &[char], i: &mut usize) -> Option<(String, bool, bool)> {
    let (mut text, mut expands, mut quoted) = (String::new(), false, false);
    let start = *i;
    while let Some(&c) = chars.get(*i) {
        match c {
            ' ' | '\t' | '\n' | '|' | '&' | ';' | '(' | ')' | '<' | '>' => break,
            '\'' => {
                quoted = true;
                let end = chars[*i + 1..].iter().position(|&c| c == '\'')? + *i + 1;
                text.extend(&chars[*i + 1..end]);
                *i = end + 1;
            }
            '"' => {
                quoted = true;
                *i += 1;
                loop {
                    match *chars.get(*i)? {
                        '"' => break,
                        '\\' if matches!(chars.get(*i + 1), Some('$' | '`' | '"' | '\\')) => {
                            text.push(chars[*i + 1]);
                            *i += 2;
                            continue;
                        }
                        c @ ('$' | '`') => {
                            expands = true;
                            text.push(c);
                        }
                        c => text.push(c),
                    }
                    *i += 1;
                }
                *i += 1;
            }
            '\\' => {
                quoted = true;
                text.extend(chars.get(*i + 1));
                *i += 2;
            }
            '$' | '`' | '*' | '?' | '[' => {
                expands = true;
                text.push(c);
                *i += 1;
            }
            '~' if *i == start => {
                expands = true;
                text.push(c);
                *i += 1;
            }
            c => {
                text.push(c);
                *i += 1;
            }
        }
    }
    Some((text, expands, quoted))
}

/// A here-document's text from `chars[start]` to its `delimiter` line: whether it holds
/// something that would expand, and where the command goes on after it.
fn here_text(chars: &[char], start: usize, delimiter: &str, tabs: bool) -> (bool, usize) {
    let mut expands = false;
    let mut i = start;
    while i < chars.len() {
        let end = chars[i..]
            .iter()
            .position(|&c| c == '\n')
            .map_or(chars.len(), |n| i + n);
        let line: String = chars[i..end].iter().collect();
        let line = if tabs {
            line.trim_start_matches('\t')
        } else {
            &line
        };
        i = (end + 1).min(chars.len());
        if line == delimiter {
            return (expands, i);
        }
        expands |= line.contains(['$', '`']);
    }
    (expands, i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_that_prints_what_it_says_is_a_literal_secret() {
        let literal = [
            "echo hunter2",
            "echo -n hunter2",
            "echo \"hunter2\"",
            "echo 'p@ss w0rd'",
            "/bin/echo hunter2",
            "printf hunter2",
            "printf %s hunter2",
            "printf '%s\\n' 'hunter 2'",
            "printf -- '%s' hunter2",
            "  printf %s hunter2\n",
            "command echo hunter2",
            "LANG=C printf %s hunter2",
            "echo hunter2 # the mail password",
            "echo hunt\\ er2",
            "cat <<< hunter2",
            "cat <<<'hunter2'",
            "cat <<EOF\nhunter2\nEOF\n",
            "cat <<'EOF'\nhunter$2\nEOF",
            "cat <<-EOF\n\thunter2\n\tEOF",
            // `sh` ends a here-document without its delimiter at the end of the command.
            "cat <<EOF\nhunter2",
            "echo aHVudGVyMg== | base64 -d",
            "base64 -d <<< aHVudGVyMg==",
            "echo hunter2 | tr -d '\\n'",
            "printf hunter2 | head -c 7",
            "echo hunter2 | sed 's/2/3/'",
            "pass show mail | echo hunter2",
        ];
        for command in literal {
            assert!(is_literal_secret(command), "{command:?}");
        }
    }

    #[test]
    fn a_command_that_reads_the_secret_from_elsewhere_is_not() {
        let elsewhere = [
            "pass show mail",
            "pass show mail | head -n 1",
            "gpg -qd ~/.mail-password.gpg",
            "secret-tool lookup service mail",
            "security find-generic-password -w -s mail",
            "cat ~/.mail-password",
            "cat /run/secrets/mail",
            "cat ~/.pw | base64 -d",
            "base64 -d < ~/.pw",
            "echo $MAIL_PASSWORD",
            "printf %s \"$PW\"",
            "echo \"$(pass show mail)\"",
            "echo `pass show mail`",
            "printf %s $(cat ~/.pw)",
            "cat <<EOF\n$PW\nEOF",
            "cat <<< \"$PW\"",
            "echo ~",
            "echo pa*ss",
            "echo",
            "echo -n",
            "cat",
            "echo hunter2 > /dev/null",
            "sh -c 'echo hunter2'",
            "echo 'unterminated",
            "oauth2l fetch --scope mail",
            "head -n 1 ~/.pw",
            "sed -n 1p ~/.pw",
            "",
        ];
        for command in elsewhere {
            assert!(!is_literal_secret(command), "{command:?}");
        }
    }
}
