//! The first consent (`ccmail oauth2 authorize`): the authorization-code flow with PKCE
//! (RFC 7636) and a loopback redirect (RFC 8252), with the user's own client id.
//!
//! ccmail listens on 127.0.0.1 (the configured `redirect_port`, else any free port), prints
//! the URL to open, and waits for the browser to come back with the code. The `state` it sent
//! must come back unchanged: a request with another is ignored, and the wait goes on, so
//! another program on the machine can neither end the consent nor slip its own code in. The
//! code is only good with the verifier that never left this process: another program that
//! sees the redirect can do nothing with it.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

use super::{endpoint, file};
use crate::config::Refresh;

/// How long the browser has to come back.
pub const WAIT: Duration = Duration::from_secs(5 * 60);

/// What the consent gave: the stored refresh token's file.
#[derive(Debug)]
pub struct Authorized {
    pub token_file: std::path::PathBuf,
    pub expires_in: Option<u64>,
}

/// Runs the consent for `r`: `show_url` gets the URL to open once ccmail listens.
pub fn run(r: &Refresh, show_url: impl FnOnce(&str)) -> anyhow::Result<Authorized> {
    let auth_url = r.auth_url.as_deref().ok_or_else(|| {
        anyhow::anyhow!(
            "{}",
            crate::t!(
                "cmd-oauth2-no-auth-url",
                section = r.section,
                path = r.file.display().to_string()
            )
        )
    })?;
    let listener = TcpListener::bind(("127.0.0.1", r.redirect_port.unwrap_or(0))).map_err(|e| {
        anyhow::anyhow!(
            "{}",
            crate::t!("cmd-oauth2-cannot-listen", error = e.to_string())
        )
    })?;
    let redirect_uri = format!("http://127.0.0.1:{}/", listener.local_addr()?.port());
    let verifier = random_text(32)?;
    let state = random_text(16)?;
    let url = consent_url(auth_url, r, &redirect_uri, &verifier, &state)?;
    show_url(&url);
    let code = wait_for_code(&listener, &state, WAIT)?;
    let secret = super::client_secret(r).map_err(|e| anyhow::anyhow!(e.message))?;
    let mut form = vec![
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", redirect_uri.as_str()),
        ("client_id", r.client_id.as_str()),
        ("code_verifier", verifier.as_str()),
    ];
    if let Some(secret) = &secret {
        form.push(("client_secret", secret.as_str()));
    }
    let grant = endpoint::post(&r.token_url, &form, &crate::t!("cmd-oauth2-exchanging"), "")
        .map_err(|e| anyhow::anyhow!(e.message))?;
    let refresh_token = grant.refresh_token.clone().ok_or_else(|| {
        anyhow::anyhow!(
            "{}",
            crate::t!("cmd-oauth2-no-refresh-granted", section = r.section)
        )
    })?;
    let now = chrono::Utc::now().timestamp();
    let tokens = file::Tokens {
        refresh_token: Some(refresh_token),
        access_token: Some(grant.access_token),
        expires_at: grant.expires_in.map(|s| now + s as i64),
        obtained_at: Some(now),
    };
    file::write(&r.token_file, &tokens).map_err(|e| anyhow::anyhow!(e))?;
    Ok(Authorized {
        token_file: r.token_file.clone(),
        expires_in: grant.expires_in,
    })
}

/// The URL the user opens.
fn consent_url(
    auth_url: &str,
    r: &Refresh,
    redirect_uri: &str,
    verifier: &str,
    state: &str,
) -> anyhow::Result<String> {
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    let mut url = url::Url::parse(auth_url)
        .map_err(|e| anyhow::anyhow!("{}.auth_url {auth_url:?}: {e}", r.section))?;
    {
        let mut q = url.query_pairs_mut();
        q.append_pair("response_type", "code")
            .append_pair("client_id", &r.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("state", state)
            .append_pair("code_challenge", &challenge)
            .append_pair("code_challenge_method", "S256")
            // Google sends a refresh token only when asked for offline access; other
            // providers ignore parameters they do not know (RFC 6749 3.1).
            .append_pair("access_type", "offline")
            .append_pair("prompt", "consent");
        if let Some(scope) = &r.scope {
            q.append_pair("scope", scope);
        }
    }
    Ok(url.into())
}

/// Waits for the redirect that carries `state` back, answers the browser, returns the code.
fn wait_for_code(listener: &TcpListener, state: &str, wait: Duration) -> anyhow::Result<String> {
    let until = Instant::now() + wait;
    listener.set_nonblocking(true)?;
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() > until {
                    anyhow::bail!(
                        "{}",
                        crate::t!("cmd-oauth2-no-answer", minutes = wait.as_secs() / 60)
                    );
                }
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        if let Some(answer) = redirect(stream, state)? {
            return answer;
        }
    }
}

/// One request to the loopback server: `None` for one that is not the redirect (a favicon)
/// or not the answer to our request (its `state` is not ours); else the code, or the refusal
/// in words.
fn redirect(mut stream: TcpStream, state: &str) -> anyhow::Result<Option<anyhow::Result<String>>> {
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line)?;
    let target = line.split_whitespace().nth(1).unwrap_or("");
    let url = url::Url::parse(&format!("http://127.0.0.1{target}"))?;
    let query: Vec<(String, String)> = url.query_pairs().into_owned().collect();
    let get = |key: &str| query.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    if get("code").is_none() && get("error").is_none() {
        respond(
            &mut stream,
            // not the interface's: HTTP on the wire
            "404 Not Found",
            &crate::t!("cmd-oauth2-page-not-here"),
        );
        return Ok(None);
    }
    if get("state").as_deref() != Some(state) {
        // Not the answer to our request (another program on the machine, a stale tab): it
        // neither ends the wait nor says anything about the real one, which may still come.
        eprintln!("{}", crate::t!("cmd-oauth2-wrong-state"));
        respond(
            &mut stream,
            // not the interface's: HTTP on the wire
            "400 Bad Request",
            &crate::t!("cmd-oauth2-page-wrong-state"),
        );
        return Ok(None);
    }
    let answer = if let Some(error) = get("error") {
        let why = get("error_description").unwrap_or_default();
        Err(anyhow::anyhow!(
            "{}",
            crate::t!("cmd-oauth2-consent-refused", error = error, why = why)
        ))
    } else {
        Ok(get("code").unwrap_or_default())
    };
    let page = match &answer {
        Ok(_) => crate::t!("cmd-oauth2-page-ok"),
        Err(_) => crate::t!("cmd-oauth2-page-failed"),
    };
    respond(&mut stream, "200 OK", &page);
    Ok(Some(answer))
}

fn respond(stream: &mut TcpStream, status: &str, text: &str) {
    let _ = write!(
        stream,
        // not the interface's: HTTP on the wire
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{text}",
        text.len()
    );
}

/// `n` random bytes, base64url: the PKCE verifier (43 characters for 32 bytes) and the state.
fn random_text(n: usize) -> anyhow::Result<String> {
    let mut bytes = vec![0u8; n];
    getrandom::getrandom(&mut bytes).map_err(|e| {
        anyhow::anyhow!(
            "{}",
            crate::t!("cmd-oauth2-no-randomness", error = e.to_string())
        )
    })?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verifier_is_long_enough_and_url_safe() {
        let v = random_text(32).unwrap();
        assert_eq!(v.len(), 43);
        assert!(
            v.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
        assert_ne!(v, random_text(32).unwrap());
    }

    #[test]
    fn the_challenge_is_rfc7636s_example() {
        // RFC 7636 appendix B.
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        assert_eq!(challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }
}
