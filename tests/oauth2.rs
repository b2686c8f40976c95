//! OAuth2 logins against the real Dovecot and Postfix, configured for OAUTHBEARER and XOAUTH2
//! with Dovecot's oauth2 passdb, whose introspection URL is a small token server of the test
//! (`support::token_server`): a token from `oauth2_token_cmd`; ccmail's own tokens from a
//! consent (`ccmail oauth2 authorize`) and a refresh token, renewed while the daemon runs; a
//! revoked token refused in words; `ccmail check` reporting each step.

mod support;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use support::Player;
use support::instance::Instance;
use support::token_server::TokenServer;

const WHITE: &str = "white@example.test";
const BLACK: &str = "black@example.test";
const ARBITER: &str = "arbiter@example.test";
const LOG: &str = "info,ccmail=debug";
const NOW: &str = "2026-03-02";

/// An instance of our own whose Dovecot asks `ts` about bearer tokens.
fn instance(tag: &str, ts: &TokenServer) -> Option<Instance> {
    let url = ("MAILSERVER_OAUTH2_URL", ts.url("introspect"));
    Instance::start_env(tag, "secret", &[url])
}

fn players(s: &support::Servers) -> (Player, Player) {
    let white = Player::new(s, "Белов Борис", "Белов", WHITE, "INBOX", "");
    let black = Player::new(s, "Чернов Чеслав", "Чернов", BLACK, "INBOX", "");
    (white, black)
}

fn check(p: &Player) -> (bool, String) {
    let out = p.command(&["check"]).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

fn has(text: &str, line: &str) {
    assert!(text.contains(line), "no {line:?} in:\n{text}");
}

#[test]
fn a_token_from_oauth2_token_cmd_logs_in_to_imap_and_smtp_until_it_is_revoked() {
    let ts = TokenServer::start(Duration::from_secs(3600));
    let Some(inst) = instance("oauth2-cmd", &ts) else {
        return;
    };
    let s = &inst.servers;
    let (white, black) = players(s);
    let token = white.home.path().join("access-token");
    std::fs::write(&token, ts.access_token(WHITE)).unwrap();
    let cmd = format!("oauth2_token_cmd = \"cat '{}'\"", token.display());
    white.use_oauth2(&cmd, &cmd);

    let (ok, text) = check(&white);
    assert!(ok, "{text}");
    for line in [
        "ok    imap: got an OAuth2 access token from imap.oauth2_token_cmd",
        "ok    imap: logged in as white@example.test",
        "ok    smtp: got an OAuth2 access token from smtp.oauth2_token_cmd",
        "ok    smtp: logged in as white@example.test",
    ] {
        has(&text, line);
    }

    // A move sent through Postfix with the token, the answer read from Dovecot with it.
    let wg = white.new_game("2026-03-01", "white", &black, ARBITER, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, ARBITER, &[]);
    let out = white.ok(&["--now", NOW, "move", &wg, "e4", "--yes"]);
    assert!(out.starts_with("sent:"), "{out}");
    black.ok(&["--now", NOW, "run", "--once"]);
    black.ok(&["--now", NOW, "move", &bg, "c5", "--yes"]);
    white.ok(&["--now", NOW, "run", "--once"]);
    let moves = white.json(&["--now", NOW, "show", &wg])["moves"].clone();
    assert_eq!(moves.as_array().unwrap().len(), 2, "{moves}");
    let used = ts.state.lock().unwrap().looked_at.clone();
    assert!(used.iter().all(|(_, active)| *active), "{used:?}");

    // Revoked: both logins refused, in words, and the daemon stops with the same words.
    ts.revoke(WHITE);
    let (ok, text) = check(&white);
    assert!(!ok, "{text}");
    has(
        &text,
        "FAIL  imap: IMAP login refused for white@example.test: the server refused the OAuth2 \
         access token (OAUTHBEARER, invalid_token)",
    );
    has(
        &text,
        "FAIL  smtp: SMTP login refused for white@example.test at 127.0.0.1:",
    );
    has(
        &text,
        "the server refused the OAuth2 access token (XOAUTH2)",
    );
    let out = white
        .command(&["--now", NOW, "run", "--once"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("the server refused the OAuth2 access token"),
        "{err}"
    );
}

/// Runs `ccmail oauth2 authorize --imap` and plays the browser: the user allows access at
/// the printed URL, the provider redirects to ccmail's loopback listener.
fn authorize(p: &Player, ts: &TokenServer) {
    let mut child = p
        .command(&["oauth2", "authorize", "--imap"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    assert!(url.starts_with(&ts.url("authorize")), "{url}");
    ts.consent(url.trim(), WHITE);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("authorized: the refresh token is in"), "{err}");
}

fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn ccmail_refreshes_its_own_tokens_and_the_daemon_goes_on_past_their_expiry() {
    // Tokens live 4 s: the daemon outlives several.
    let ts = TokenServer::start(Duration::from_secs(4));
    let Some(inst) = instance("oauth2-refresh", &ts) else {
        return;
    };
    let s = &inst.servers;
    let (white, black) = players(s);
    let file = white.home.path().join("tokens/white.json");
    let table = |section: &str| {
        format!(
            "[{section}.oauth2]\ntoken_url = \"{}\"\nauth_url = \"{}\"\n\
             client_id = \"ccmail-test-client\"\nscope = \"mail offline_access\"\n\
             token_file = \"{}\"\n",
            ts.url("token"),
            ts.url("authorize"),
            file.display()
        )
    };
    white.use_oauth2(&table("imap"), &table("smtp"));

    // Before the consent: no token, and check says what to do.
    let (ok, text) = check(&white);
    assert!(!ok);
    has(
        &text,
        "FAIL  imap: no OAuth2 access token: [imap.oauth2] has no refresh token yet",
    );
    has(&text, "run `ccmail oauth2 authorize --imap` once");

    authorize(&white, &ts);
    assert_eq!(mode(&file), 0o600);
    assert_eq!(ts.grants("authorization_code"), 1);
    let (ok, text) = check(&white);
    assert!(ok, "{text}");
    has(
        &text,
        &format!(
            "ok    imap: got an OAuth2 access token from {}",
            ts.url("token")
        ),
    );
    has(&text, "ok    imap: logged in as white@example.test");
    has(&text, "ok    smtp: logged in as white@example.test");

    let wg = white.new_game("2026-03-01", "white", &black, ARBITER, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, ARBITER, &[]);
    let queue = white.config_without_smtp();
    let queue = queue.to_str().unwrap();
    let d = white.spawn(&["--now", NOW, "run"], LOG);
    d.wait_for("waiting for new mail", Duration::from_secs(20));

    // The daemon sends White's move with its token, and reads Black's answer.
    let m = d.mark();
    white.ok(&["--config", queue, "--now", NOW, "move", &wg, "e4", "--yes"]);
    d.wait_after(m, " sent item=", Duration::from_secs(20));
    black.ok(&["--now", NOW, "run", "--once"]);
    black.ok(&["--now", NOW, "move", &bg, "c5", "--yes"]);
    d.wait_after(m, "applied 1... c5 by", Duration::from_secs(20));

    // Every token so far has expired; the IMAP connection is cut by the server.
    std::thread::sleep(Duration::from_secs(5));
    let m = d.mark();
    let kicked = Command::new("doveadm")
        .args(["-c", inst.dir().join("etc/dovecot.conf").to_str().unwrap()])
        .args(["kick", WHITE])
        .output()
        .unwrap();
    assert!(kicked.status.success(), "{kicked:?}");
    d.wait_after(m, "IMAP connected", Duration::from_secs(30));
    white.ok(&["--config", queue, "--now", NOW, "move", &wg, "Nf3", "--yes"]);
    d.wait_after(m, " sent item=", Duration::from_secs(20));
    black.ok(&["--now", NOW, "run", "--once"]);
    let moves = black.json(&["--now", NOW, "show", &bg])["moves"].clone();
    assert_eq!(moves.as_array().unwrap().len(), 3, "{moves}\n{}", d.log());
    // The tokens of the second half were granted by a refresh after the first had expired,
    // and the server took them.
    assert!(ts.grants("refresh_token") >= 1, "{}", d.log());
    assert!(d.count("OAuth2 access token refreshed") >= 1, "{}", d.log());
    let taken: std::collections::HashSet<String> = (ts.state.lock().unwrap().looked_at)
        .iter()
        .filter(|(_, active)| *active)
        .map(|(token, _)| token.clone())
        .collect();
    assert!(taken.len() >= 2, "{taken:?}\n{}", d.log());

    // Revoked at the provider: the next login fails in words that say what to do.
    ts.revoke(WHITE);
    std::thread::sleep(Duration::from_secs(4));
    let (ok, text) = check(&white);
    assert!(!ok, "{text}");
    has(
        &text,
        "refused the grant (it was revoked or has expired) (invalid_grant",
    );
    has(
        &text,
        "run `ccmail oauth2 authorize --imap` to consent again",
    );
    let mut d = d;
    let status = d.stop();
    assert!(status.success(), "{}", d.log());
}

/// A request to the redirect address whose `state` is not the one ccmail sent (another
/// program on the machine, a stale tab) is answered 400 and ignored: `oauth2 authorize` goes
/// on waiting, says so, and takes the real answer that follows; the stranger's code is never
/// exchanged.
#[test]
fn authorize_ignores_a_redirect_with_another_state_and_keeps_waiting() {
    let Some(s) = support::servers() else { return };
    let ts = TokenServer::start(Duration::from_secs(3600));
    let white = Player::new(&s, "Белов Борис", "Белов", WHITE, "INBOX", "");
    let file = white.home.path().join("tokens/white.json");
    let table = |section: &str| {
        format!(
            "[{section}.oauth2]\ntoken_url = \"{}\"\nauth_url = \"{}\"\n\
             client_id = \"ccmail-test-client\"\ntoken_file = \"{}\"\n",
            ts.url("token"),
            ts.url("authorize"),
            file.display()
        )
    };
    white.use_oauth2(&table("imap"), &table("smtp"));
    let mut child = white
        .command(&["oauth2", "authorize", "--imap"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let consent = url::Url::parse(url.trim()).unwrap();
    let redirect = consent
        .query_pairs()
        .find(|(k, _)| k == "redirect_uri")
        .unwrap()
        .1
        .into_owned();
    let redirect = url::Url::parse(&redirect).unwrap();
    let (host, port) = (redirect.host_str().unwrap(), redirect.port().unwrap());
    for query in [
        "code=stolen&state=not-ours",
        "error=access_denied&state=not-ours",
    ] {
        let mut stream = std::net::TcpStream::connect((host, port)).unwrap();
        write!(
            stream,
            "GET /?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(
            answer.ends_with("not the answer to ccmail's request: ignored"),
            "{answer}"
        );
    }
    // Still waiting: the real answer is taken.
    ts.consent(url.trim(), WHITE);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let ignored = "ignored a request to the redirect address with another state than was sent \
                   (not the answer to this consent); still waiting for the browser\n";
    assert_eq!(err.matches(ignored).count(), 2, "{err}");
    assert!(err.contains("authorized: the refresh token is in"), "{err}");
    assert_eq!(ts.grants("authorization_code"), 1);
}
