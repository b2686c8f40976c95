//! HTML-only mail as plain text: a small, linear, deliberately dumb converter. Ours for
//! **linear time on hostile input**: it never builds a tree, so unclosed or deeply nested
//! tags cost nothing more; a full HTML parser would bring a DOM and a large dependency for
//! what is `<br>` and `<div>` in practice.
//!
//! Enough for what mail clients send (Gmail's `<div>`/`<br>`, Outlook's `<p>`,
//! quoted replies in `<blockquote>`); not a browser. `<head>`, `<style>`,
//! `<script>` and `<title>` are dropped with their content; block elements
//! (`div`, `p`, `li`, `tr`, `hr`, headings, …) start and end lines (a blank
//! `<div><br></div>` gives one empty line, as on screen); `<br>` always breaks;
//! other tags vanish. Runs of blanks collapse to one space outside `<pre>`.
//! `&nbsp;` (and a raw U+00A0) becomes a plain space that is not collapsed.
//! Lines inside `<blockquote>` get `> ` (`>> ` when nested) so the reader
//! treats them as quoted mail.

/// Quote marks beyond this depth are not written (hostile nesting would
/// otherwise make every line as long as the nesting is deep).
const MAX_QUOTE_MARKS: usize = 32;

const BLOCKS: &[&str] = &[
    "p", "div", "li", "tr", "table", "tbody", "thead", "ul", "ol", "dl", "dt", "dd", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "section", "article", "header", "footer", "address", "center",
    "form", "fieldset", "body", "html",
];

/// Converts an HTML document or fragment to text with `\n` line ends; leading
/// and trailing blank lines are dropped and a non-empty result ends in `\n`.
pub(crate) fn html_to_text(html: &str) -> String {
    let mut w = Writer::default();
    let mut i = 0;
    while i < html.len() {
        let Some(lt) = html[i..].find('<').map(|p| i + p) else {
            w.text(&html[i..]);
            break;
        };
        w.text(&html[i..lt]);
        let after = &html[lt + 1..];
        if after.starts_with("!--") {
            i = after.find("-->").map_or(html.len(), |p| lt + 1 + p + 3);
        } else if after.starts_with('/')
            || after.starts_with(|c: char| c.is_ascii_alphabetic() || c == '!' || c == '?')
        {
            let Some(gt) = after.find('>') else {
                // No tag can close any more: the rest is text.
                w.text(&html[lt..]);
                break;
            };
            i = lt + 1 + gt + 1;
            i = w.tag(&after[..gt], html, i);
        } else {
            w.text("<");
            i = lt + 1;
        }
    }
    w.finish()
}

#[derive(Default, Debug, Clone, PartialEq)]
struct Writer {
    out: String,
    line: String,
    /// Quote depth of the line being built, fixed by its first character.
    line_depth: usize,
    quote: usize,
    pre: usize,
    pending_space: bool,
}

impl Writer {
    fn text(&mut self, s: &str) {
        let mut rest = s;
        while let Some(amp) = rest.find('&') {
            self.chars(&rest[..amp]);
            let (decoded, len) = entity(&rest[amp..]);
            match decoded {
                Some(c) => self.push_literal(c),
                None => self.chars("&"),
            }
            rest = &rest[amp + len..];
        }
        self.chars(rest);
    }

    /// Outside `<pre>`, text goes in runs between blanks: a run is pushed whole (as
    /// [`Writer::push_literal`] would push it a character at a time), each blank is looked
    /// at alone.
    fn chars(&mut self, s: &str) {
        if self.pre > 0 {
            for c in s.chars() {
                if c == '\n' {
                    self.newline()
                } else {
                    self.push_literal(c)
                }
            }
            return;
        }
        let mut rest = s;
        while !rest.is_empty() {
            // NBSP is whitespace too: it ends a run, and is pushed as a space below.
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if end > 0 {
                self.push_run(&rest[..end]);
            }
            let Some(c) = rest[end..].chars().next() else {
                break;
            };
            if c == '\u{a0}' {
                self.push_literal(c);
            } else {
                self.pending_space = !self.line.is_empty();
            }
            rest = &rest[end + c.len_utf8()..];
        }
    }

    /// Pushes a run of characters that holds no whitespace, as [`Writer::push_literal`]
    /// pushes each of them.
    fn push_run(&mut self, run: &str) {
        if self.line.is_empty() {
            self.line_depth = self.quote;
        } else if self.pending_space {
            self.line.push(' ');
        }
        self.pending_space = false;
        self.line.push_str(run);
    }

    /// Pushes one character as is (no collapsing), NBSP as a space.
    fn push_literal(&mut self, c: char) {
        if self.line.is_empty() {
            self.line_depth = self.quote;
        } else if self.pending_space {
            self.line.push(' ');
        }
        self.pending_space = false;
        self.line.push(if c == '\u{a0}' { ' ' } else { c });
    }

    fn newline(&mut self) {
        if self.line.is_empty() {
            self.line_depth = self.quote;
        }
        let text = self.line.trim_end();
        for _ in 0..self.line_depth.min(MAX_QUOTE_MARKS) {
            self.out.push('>');
        }
        if self.line_depth > 0 && !text.is_empty() {
            self.out.push(' ');
        }
        self.out.push_str(text);
        self.out.push('\n');
        self.line.clear();
        self.pending_space = false;
    }

    fn ensure_newline(&mut self) {
        if !self.line.is_empty() {
            self.newline();
        }
    }

    /// Handles the tag `<inner>`; `next` is where the text goes on. Returns the
    /// position to go on from (past the content of skipped elements).
    fn tag(&mut self, inner: &str, html: &str, next: usize) -> usize {
        let closing = inner.starts_with('/');
        let name: String = inner
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == ':' || *c == '-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match name.as_str() {
            "br" => self.newline(),
            "blockquote" => {
                self.ensure_newline();
                self.quote = if closing {
                    self.quote.saturating_sub(1)
                } else {
                    self.quote + 1
                };
            }
            "pre" => {
                self.ensure_newline();
                self.pre = if closing {
                    self.pre.saturating_sub(1)
                } else {
                    self.pre + 1
                };
            }
            "td" | "th" if closing => self.pending_space = !self.line.is_empty(),
            "head" | "style" | "script" | "title" | "template" if !closing => {
                return skip_element(html, next, &name);
            }
            n if BLOCKS.contains(&n) => self.ensure_newline(),
            _ => {}
        }
        next
    }

    fn finish(mut self) -> String {
        self.ensure_newline();
        let trimmed = self.out.trim_start_matches('\n').trim_end_matches('\n');
        if trimmed.is_empty() {
            String::new()
        } else {
            format!("{trimmed}\n")
        }
    }
}

/// Where the content of `<name>` ends: at its closing tag (or, for `head`, at
/// `<body`), else at the end. One scan over the `<`s, so linear.
fn skip_element(html: &str, from: usize, name: &str) -> usize {
    let mut i = from;
    while let Some(p) = html[i..].find('<') {
        let at = i + p;
        let after = &html.as_bytes()[at + 1..];
        let is = |prefix: &[u8]| {
            after.len() > prefix.len()
                && after[..prefix.len()].eq_ignore_ascii_case(prefix)
                && !after[prefix.len()].is_ascii_alphanumeric()
        };
        let closes = after.first() == Some(&b'/') && is(&[b"/", name.as_bytes()].concat());
        if closes || (name == "head" && is(b"body")) {
            return at;
        }
        i = at + 1;
    }
    html.len()
}

/// Decodes the entity at the start of `s` (which starts with `&`): the
/// character, or `None` to keep the `&` literally, and the bytes consumed.
fn entity(s: &str) -> (Option<char>, usize) {
    let Some(semi) = s.as_bytes().iter().take(34).position(|&b| b == b';') else {
        return (None, 1);
    };
    let body = &s[1..semi];
    let c = if let Some(num) = body.strip_prefix('#') {
        let n = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse::<u32>().ok(),
        };
        n.map(|n| {
            char::from_u32(n)
                .filter(|&c| c != '\0')
                .unwrap_or('\u{fffd}')
        })
    } else {
        named(body)
    };
    match c {
        Some(c) => (Some(c), semi + 1),
        None => (None, 1),
    }
}

fn named(name: &str) -> Option<char> {
    Some(match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "laquo" => '«',
        "raquo" => '»',
        "ndash" => '–',
        "mdash" => '—',
        "hellip" => '…',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "bdquo" => '„',
        "bull" => '•',
        "middot" => '·',
        "times" => '×',
        "deg" => '°',
        "copy" => '©',
        "reg" => '®',
        "euro" => '€',
        "shy" => '\u{ad}',
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
