//! Whether a message comes from whom its `From:` says: the verdict the player's own mail server
//! wrote in `Authentication-Results` (RFC 8601), read and judged.
//!
//! ccmail does not verify DKIM itself: it would need DNS and would still be weaker than the
//! player's server, which saw the connection. It trusts that server's header, and only that
//! one: the topmost `Authentication-Results` whose authserv-id is the one the player named
//! (`[security] authserv_id`). A receiving server writes its header above everything the
//! message already carried, and removes any that claims its own id (RFC 8601, section 5), so
//! nothing a sender wrote can stand in for it.
//!
//! Until the player names that server, nothing but their own word (trusting an address)
//! vouches for a sender: not even a letter's answering one of our Message-IDs, which everyone
//! who got our mail has seen (the partner, the arbiter's copies, any mailbox on the way). Such
//! a letter is [`Verdict::NotChecked`], and only its legal move acts ([`unverified`]). With
//! the server named, answering ours counts, unless that server found the `From:` forged or the
//! sender's signature altered.
//!
//! The reader of the header is ours: no well-kept crate reads `Authentication-Results` alone
//! (`mail-auth` verifies DKIM itself and brings a DNS resolver). It is lenient (comments,
//! quoted strings, the missing authserv-id Outlook writes) and linear in the header's length.

use std::fmt;

use crate::judge::Said;
use crate::message::MessageKind;

/// Whether a message of this kind must come from a verified sender to be acted on: every
/// kind that changes a game (a move, a break, an address, a claim, a request, …). A plain
/// note changes nothing and is kept whoever sent it.
pub fn must_be_verified(kind: MessageKind) -> bool {
    !matches!(kind, MessageKind::Note | MessageKind::Other)
}

/// One `Authentication-Results` header, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Results {
    /// The server that wrote it, lower case; empty when the header names none.
    pub authserv_id: String,
    pub methods: Vec<MethodResult>,
}

/// One `method=result` of the header, with its properties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodResult {
    /// `dkim`, `spf`, `dmarc`, … (lower case, without a version).
    pub method: String,
    /// `pass`, `fail`, `none`, … (lower case).
    pub result: String,
    /// `reason=…`, when given.
    pub reason: Option<String>,
    /// `header.d`, `header.i`, `header.from`, `smtp.mailfrom`, … (keys lower case).
    pub props: Vec<(String, String)>,
}

impl MethodResult {
    pub fn prop(&self, key: &str) -> Option<&str> {
        self.props
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// A token of the header: a word, a quoted string, or one of `;`, `=`, `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Punct(char),
}

/// Splits `value` into tokens, dropping comments (nested, with `\` escapes) and white space.
fn tokens(value: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = value.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        if !word.is_empty() {
            out.push(Token::Word(std::mem::take(word)));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '(' => {
                flush(&mut word, &mut out);
                let mut depth = 1usize;
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
            }
            '"' => {
                flush(&mut word, &mut out);
                let mut quoted = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => quoted.extend(chars.next()),
                        '"' => break,
                        c => quoted.push(c),
                    }
                }
                out.push(Token::Word(quoted));
            }
            ';' | '=' | '/' => {
                flush(&mut word, &mut out);
                out.push(Token::Punct(c));
            }
            c if c.is_whitespace() => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Reads one header value; `None` when it has no result at all.
pub fn parse(value: &str) -> Option<Results> {
    let tokens = tokens(value);
    let mut groups = tokens.split(|t| *t == Token::Punct(';'));
    let first = groups.next()?;
    let mut results = Results {
        authserv_id: String::new(),
        methods: Vec::new(),
    };
    // Outlook writes no authserv-id: the header starts with a result.
    if first.contains(&Token::Punct('=')) {
        results.methods.extend(method(first));
    } else if let Some(Token::Word(id)) = first.first() {
        results.authserv_id = id.to_ascii_lowercase();
    }
    results.methods.extend(groups.filter_map(method));
    if results.authserv_id.is_empty() && results.methods.is_empty() {
        return None;
    }
    Some(results)
}

/// `method[/version]=result [reason=…] [ptype.prop=value …]`.
fn method(tokens: &[Token]) -> Option<MethodResult> {
    let word = |i: usize| match tokens.get(i) {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let mut i = 0;
    let name = word(i)?.to_ascii_lowercase();
    i += 1;
    if tokens.get(i) == Some(&Token::Punct('/')) {
        i += 2;
    }
    if tokens.get(i) != Some(&Token::Punct('=')) {
        return None;
    }
    let result = word(i + 1)?.to_ascii_lowercase();
    i += 2;
    let mut m = MethodResult {
        method: name,
        result,
        reason: None,
        props: Vec::new(),
    };
    while i < tokens.len() {
        match (word(i), tokens.get(i + 1), word(i + 2)) {
            (Some(key), Some(Token::Punct('=')), Some(value)) => {
                let key = key.to_ascii_lowercase();
                if key == "reason" {
                    m.reason = Some(value.to_owned());
                } else {
                    m.props.push((key, value.to_owned()));
                }
                i += 3;
            }
            _ => i += 1,
        }
    }
    Some(m)
}

/// The authserv-id of the topmost header of `values`, when it names one: what `ccmail check`
/// proposes for `[security] authserv_id`. Only the topmost counts: it is the one the player's
/// server wrote, and any header below it may be the sender's own. Where it names none
/// (Outlook), or cannot be read, nothing is proposed.
pub fn proposed_authserv_id<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let top = parse(values.into_iter().next()?)?;
    (!top.authserv_id.is_empty()).then_some(top.authserv_id)
}

/// Whether a header's authserv-id `id` is the configured `pattern`: the same name (without
/// regard to case), or, for a pattern `*.DOMAIN`, any name under DOMAIN (a provider whose
/// receiving servers each write their own host name).
pub fn is_ours(pattern: &str, id: &str) -> bool {
    let (pattern, id) = (pattern.to_ascii_lowercase(), id.to_ascii_lowercase());
    match pattern.strip_prefix("*.") {
        Some(domain) => id.len() > domain.len() + 1 && id.ends_with(&format!(".{domain}")),
        None => pattern == id,
    }
}

/// What `ccmail check` proposes for `[security] authserv_id`, given the authserv-id of the
/// topmost header of each of the newest messages, newest first: the name most of them carry;
/// or, when no name is on more than half and they all share a parent domain of two labels or
/// more, `*.` and that domain.
pub fn propose(ids: &[String]) -> Option<String> {
    let ids: Vec<String> = ids.iter().map(|i| i.to_ascii_lowercase()).collect();
    let count = |id: &String| ids.iter().filter(|i| *i == id).count();
    // The most frequent, the newest of equals (max_by_key keeps the last maximum: reversed).
    let top = ids.iter().rev().max_by_key(|id| count(id))?;
    if count(top) * 2 > ids.len() {
        return Some(top.clone());
    }
    let labels = |id: &str| id.split('.').rev().map(str::to_owned).collect::<Vec<_>>();
    let mut common = labels(&ids[0]);
    for id in &ids[1..] {
        let other = labels(id);
        let same = common
            .iter()
            .zip(&other)
            .take_while(|(a, b)| a == b)
            .count();
        common.truncate(same);
    }
    // A parent shared by all, and no id is the parent itself.
    let parent: Vec<&str> = common.iter().rev().map(String::as_str).collect();
    let parent = parent.join(".");
    if common.len() >= 2 && ids.iter().all(|id| *id != parent) {
        return Some(format!("*.{parent}"));
    }
    Some(top.clone())
}

/// What is known of a message's sender besides its `From:`.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    /// `[security] authserv_id`; `None`: senders are not verified.
    pub authserv_id: Option<&'a str>,
    /// Every `Authentication-Results` value of the message, topmost first.
    pub results: &'a [String],
    /// The `From:` address.
    pub from: &'a str,
    /// A Message-ID that ccmail sent in this game and the message answers. Counted only with
    /// `authserv_id`: whoever got our mail knows it.
    pub answers_ours: Option<&'a str>,
    /// The player trusts this address without verification for this game.
    pub trusted: bool,
}

/// How a sender was found to be who they say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// The server found a valid DKIM signature of this domain, aligned with `From:`.
    Dkim(String),
    /// The server's DMARC check passed for this `From:` domain.
    Dmarc(String),
    /// The message answers this Message-ID of ours, and the player's server (named by
    /// `authserv_id`) found nothing against it. Without the id it proves nothing.
    AnswersOurs(String),
    /// The player trusts the address without verification.
    Trusted,
}

/// The verdict on a message's sender.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Nobody vouches for the sender (no `authserv_id`, and the player has not trusted the
    /// address): it is checked by address only, and only a legal move of its letter acts
    /// ([`unverified`]); answering a message of ours changes nothing here.
    NotChecked,
    Verified(Proof),
    /// Not verified; the evidence, in words.
    Unverified(Said),
    /// The player's server found the `From:` forged (`dmarc=fail` for its domain, or
    /// `spf=fail` with no DKIM pass of it): no thread, and no trust given to the address
    /// without verification, outweighs that. The finding, in words.
    Forged(Said),
}

impl fmt::Display for Proof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Proof::Dkim(d) => write!(f, "signed by {d} (DKIM)"),
            Proof::Dmarc(d) => write!(f, "DMARC passed for {d}"),
            Proof::AnswersOurs(id) => write!(f, "answers our message <{id}>"),
            Proof::Trusted => f.write_str("address trusted without verification"),
        }
    }
}

/// Judges a message's sender (see the module doc).
pub fn judge(e: &Evidence<'_>) -> Verdict {
    let Some(id) = e.authserv_id else {
        // No server vouches, and no header can be told from the sender's own: only what the
        // player decided counts. Not our Message-IDs: everyone our mail reaches has them (the
        // partner, the arbiter's copies, every mailbox on the way), and so can a forger.
        return if e.trusted {
            Verdict::Verified(Proof::Trusted)
        } else {
            Verdict::NotChecked
        };
    };
    let domain = e
        .from
        .rsplit_once('@')
        .map_or("", |(_, d)| d)
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let ours = e
        .results
        .iter()
        .filter_map(|v| parse(v))
        .find(|r| is_ours(id, &r.authserv_id));
    if let Some(r) = &ours
        && let Some(why) = forged(r, &domain)
    {
        return Verdict::Forged(why);
    }
    if e.trusted {
        return Verdict::Verified(Proof::Trusted);
    }
    if let Some(r) = &ours
        && let Some(proof) = proof(r, &domain)
    {
        return Verdict::Verified(proof);
    }
    // A signature of the sender's domain that no longer verifies is a message changed on the
    // way: no thread evidence outweighs it (a partner's real message, replayed altered, still
    // answers ours).
    let altered = ours.as_ref().is_some_and(|r| {
        r.methods.iter().any(|m| {
            m.method == "dkim"
                && m.result == "fail"
                && signing_domain(m).is_some_and(|d| aligned(&d, &domain))
        })
    });
    if let Some(mid) = e.answers_ours
        && !altered
    {
        return Verdict::Verified(Proof::AnswersOurs(mid.to_owned()));
    }
    let id = id.to_ascii_lowercase();
    let found = match &ours {
        None => Said::new(
            format!(
                "the message carries no Authentication-Results from {id}, so the player's \
                 server vouched for nothing"
            ),
            format!(
                "в сообщении нет Authentication-Results от {id}: сервер игрока ни за что не \
                 поручился"
            ),
        ),
        Some(r) => {
            let said = findings(r, &domain);
            Said::new(
                format!("{id} found {}", said.en),
                format!("{id} сообщает: {}", said.ru),
            )
        }
    };
    let thread = match (e.answers_ours, altered) {
        (Some(_), true) => Said::new(
            "; it answers a message ccmail sent in this game, but was changed after it was \
             signed",
            "; оно отвечает на письмо, отправленное ccmail в этой партии, но изменено после \
             подписи",
        ),
        _ => Said::new(
            "; it does not answer a message ccmail sent in this game",
            "; оно не отвечает ни на одно письмо, отправленное ccmail в этой партии",
        ),
    };
    Verdict::Unverified(Said::new(
        format!("{}{}", found.en, thread.en),
        format!("{}{}", found.ru, thread.ru),
    ))
}

/// The server's finding that the `From:` is forged, in words: `dmarc=fail` for the `From:`
/// domain, or `spf=fail` with no DKIM pass aligned with it (a forwarded letter fails SPF, but
/// keeps its signature).
fn forged(r: &Results, domain: &str) -> Option<Said> {
    let id = &r.authserv_id;
    let dmarc = r.methods.iter().any(|m| {
        m.method == "dmarc"
            && m.result == "fail"
            && m.prop("header.from")
                .is_none_or(|f| f.trim_end_matches('.').eq_ignore_ascii_case(domain))
    });
    if dmarc {
        return Some(Said::new(
            format!("{id} found dmarc=fail for {domain}: the From address is forged"),
            format!("{id} сообщает: dmarc=fail для {domain}, адрес в From подделан"),
        ));
    }
    let spf = r
        .methods
        .iter()
        .any(|m| m.method == "spf" && m.result == "fail");
    let signed = r.methods.iter().any(|m| {
        m.method == "dkim"
            && m.result == "pass"
            && signing_domain(m).is_some_and(|d| aligned(&d, domain))
    });
    (spf && !signed).then(|| {
        Said::new(
            format!(
                "{id} found spf=fail and no valid DKIM signature of {domain}: the message \
                 came from a server {domain} does not send from"
            ),
            format!(
                "{id} сообщает: spf=fail и нет действительной подписи DKIM домена {domain}, \
                 письмо пришло с сервера, с которого {domain} не отправляет почту"
            ),
        )
    })
}

fn proof(r: &Results, domain: &str) -> Option<Proof> {
    r.methods
        .iter()
        .find_map(|m| match (&*m.method, &*m.result) {
            ("dkim", "pass") => {
                let d = signing_domain(m)?;
                aligned(&d, domain).then_some(Proof::Dkim(d))
            }
            ("dmarc", "pass") => {
                let from = m.prop("header.from").map(str::to_ascii_lowercase);
                let ok = from.as_deref().is_none_or(|f| f == domain);
                ok.then(|| Proof::Dmarc(domain.to_owned()))
            }
            _ => None,
        })
}

/// `header.d`, else the domain of `header.i`.
fn signing_domain(m: &MethodResult) -> Option<String> {
    let d = m.prop("header.d").or_else(|| {
        m.prop("header.i")
            .and_then(|i| i.rsplit_once('@').map(|(_, d)| d))
    })?;
    Some(d.trim_end_matches('.').to_ascii_lowercase())
}

/// Relaxed alignment (DMARC): one domain is the other or a parent of it, and the parent is
/// not a bare top-level domain.
fn aligned(signer: &str, from: &str) -> bool {
    let parent = |child: &str, parent: &str| {
        parent.contains('.')
            && child.len() > parent.len()
            && child.ends_with(parent)
            && child.as_bytes()[child.len() - parent.len() - 1] == b'.'
    };
    !from.is_empty() && (signer == from || parent(from, signer) || parent(signer, from))
}

/// What the server's header says of the sender, in words.
fn findings(r: &Results, domain: &str) -> Said {
    let mut en = Vec::new();
    let mut ru = Vec::new();
    for m in &r.methods {
        let (e, r) = match (&*m.method, &*m.result) {
            ("dkim", "pass") => match signing_domain(m) {
                Some(d) => (
                    format!("a valid DKIM signature of {d}, not of {domain}"),
                    format!("действительная подпись DKIM домена {d}, а не {domain}"),
                ),
                None => (
                    "a valid DKIM signature of no named domain".to_owned(),
                    "действительная подпись DKIM без названного домена".to_owned(),
                ),
            },
            ("dkim", "none") => (
                format!("no DKIM signature (dkim=none) for {domain}"),
                format!("нет подписи DKIM (dkim=none) для {domain}"),
            ),
            ("dkim", result) => {
                let why = m
                    .reason
                    .as_deref()
                    .map_or(String::new(), |r| format!(": {r}"));
                (
                    format!("a DKIM signature that did not verify (dkim={result}{why})"),
                    format!("подпись DKIM, не прошедшая проверку (dkim={result}{why})"),
                )
            }
            ("dmarc", result) => (
                format!("dmarc={result} for {domain}"),
                format!("dmarc={result} для {domain}"),
            ),
            ("spf", result) => (format!("spf={result}"), format!("spf={result}")),
            _ => continue,
        };
        en.push(e);
        ru.push(r);
    }
    if en.is_empty() {
        return Said::new(
            format!("no DKIM or DMARC result for {domain}"),
            format!("нет результата DKIM или DMARC для {domain}"),
        );
    }
    Said::new(en.join(", "), ru.join(", "))
}

mod gate;
pub use gate::{Gate, unverified};

#[cfg(test)]
mod tests;
