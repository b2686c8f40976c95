//! A small OAuth2 provider on 127.0.0.1 for the tests: the token endpoint ccmail refreshes at
//! (refresh-token and authorization-code grants, PKCE checked), and the introspection endpoint
//! the test Dovecot's oauth2 passdb asks about every bearer token it is shown. Tokens expire
//! (Dovecot does not look at `exp`, so an expired token is answered inactive here) and can be
//! revoked; every grant and every introspection is counted.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

#[derive(Debug, Default)]
pub struct State {
    /// Access token → (user, expiry).
    pub access: HashMap<String, (String, Instant)>,
    /// Refresh token → user.
    pub refresh: HashMap<String, String>,
    /// Authorization code → (user, PKCE challenge, redirect URI).
    pub codes: HashMap<String, (String, String, String)>,
    /// How long an access token lives.
    pub lifetime: Duration,
    /// Grants given: (grant type, access token).
    pub grants: Vec<(String, String)>,
    /// Introspections: (token, active).
    pub looked_at: Vec<(String, bool)>,
    next: u32,
}

#[derive(Debug, Clone)]
pub struct TokenServer {
    pub port: u16,
    pub state: Arc<Mutex<State>>,
}

impl TokenServer {
    /// Starts it on a free port; it runs until the test process ends.
    pub fn start(lifetime: Duration) -> TokenServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let state = Arc::new(Mutex::new(State {
            lifetime,
            ..State::default()
        }));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = Arc::clone(&shared);
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        TokenServer { port, state }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }

    /// A new access token for `user`, good for the server's lifetime.
    pub fn access_token(&self, user: &str) -> String {
        issue(&mut self.state.lock().unwrap(), user, "test")
    }

    /// A new refresh token for `user`.
    pub fn refresh_token(&self, user: &str) -> String {
        let mut st = self.state.lock().unwrap();
        st.next += 1;
        let token = format!("refresh-{}-{}", st.next, user);
        st.refresh.insert(token.clone(), user.to_owned());
        token
    }

    /// Every token of `user`, refresh and access, refused from now on.
    pub fn revoke(&self, user: &str) {
        let mut st = self.state.lock().unwrap();
        st.access.retain(|_, (u, _)| u != user);
        st.refresh.retain(|_, u| u != user);
    }

    /// The browser's part of a consent: the user `user` allows access at `consent_url`, and
    /// the provider sends the browser back to the redirect URI with a code.
    pub fn consent(&self, consent_url: &str, user: &str) {
        let url = url::Url::parse(consent_url).unwrap();
        let q: HashMap<String, String> = url.query_pairs().into_owned().collect();
        assert_eq!(q["code_challenge_method"], "S256");
        let redirect = q["redirect_uri"].clone();
        let code = {
            let mut st = self.state.lock().unwrap();
            st.next += 1;
            let code = format!("code-{}", st.next);
            let entry = (
                user.to_owned(),
                q["code_challenge"].clone(),
                redirect.clone(),
            );
            st.codes.insert(code.clone(), entry);
            code
        };
        let back = format!("{redirect}?code={code}&state={}", q["state"]);
        let url = url::Url::parse(&back).unwrap();
        let mut stream =
            TcpStream::connect((url.host_str().unwrap(), url.port().unwrap())).unwrap();
        write!(
            stream,
            "GET /?{} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            url.query().unwrap()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    }

    /// How many grants of this type were given.
    pub fn grants(&self, grant_type: &str) -> usize {
        let st = self.state.lock().unwrap();
        st.grants.iter().filter(|(g, _)| g == grant_type).count()
    }
}

fn issue(st: &mut State, user: &str, grant: &str) -> String {
    st.next += 1;
    let token = format!("access-{}-{}", st.next, user);
    let expires = Instant::now() + st.lifetime;
    st.access.insert(token.clone(), (user.to_owned(), expires));
    st.grants.push((grant.to_owned(), token.clone()));
    token
}

fn serve(mut stream: TcpStream, state: &Mutex<State>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let form: HashMap<String, String> = url::form_urlencoded::parse(&body).into_owned().collect();
    let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
    let (status, json) = {
        let mut st = state.lock().unwrap();
        match path.as_str() {
            "/introspect" => introspect(&mut st, &form),
            "/token" => token(&mut st, &form),
            _ => (404, serde_json::json!({"error": "not_found"})),
        }
    };
    let text = json.to_string();
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{text}",
        text.len()
    );
}

fn introspect(st: &mut State, form: &HashMap<String, String>) -> (u16, serde_json::Value) {
    let token = form.get("token").cloned().unwrap_or_default();
    let user = match st.access.get(&token) {
        Some((user, expires)) if Instant::now() < *expires => Some(user.clone()),
        _ => None,
    };
    st.looked_at.push((token, user.is_some()));
    match user {
        Some(user) => (200, serde_json::json!({"active": true, "username": user})),
        None => (200, serde_json::json!({"active": false})),
    }
}

fn token(st: &mut State, form: &HashMap<String, String>) -> (u16, serde_json::Value) {
    let refused = |why: &str| {
        (
            400,
            serde_json::json!({"error": "invalid_grant", "error_description": why}),
        )
    };
    let get = |key: &str| form.get(key).cloned().unwrap_or_default();
    if get("client_id") != "ccmail-test-client" {
        return (401, serde_json::json!({"error": "invalid_client"}));
    }
    let lifetime = st.lifetime.as_secs();
    match get("grant_type").as_str() {
        "refresh_token" => {
            let Some(user) = st.refresh.get(&get("refresh_token")).cloned() else {
                return refused("Token has been expired or revoked.");
            };
            let access = issue(st, &user, "refresh_token");
            (
                200,
                serde_json::json!({"access_token": access, "expires_in": lifetime, "token_type": "Bearer"}),
            )
        }
        "authorization_code" => {
            let Some((user, challenge, redirect)) = st.codes.remove(&get("code")) else {
                return refused("unknown code");
            };
            let verified = URL_SAFE_NO_PAD.encode(Sha256::digest(get("code_verifier").as_bytes()));
            if verified != challenge || redirect != get("redirect_uri") {
                return refused("PKCE verifier or redirect_uri does not match");
            }
            let access = issue(st, &user, "authorization_code");
            st.next += 1;
            let refresh = format!("refresh-{}-{user}", st.next);
            st.refresh.insert(refresh.clone(), user);
            (
                200,
                serde_json::json!({"access_token": access, "refresh_token": refresh, "expires_in": lifetime}),
            )
        }
        _ => (400, serde_json::json!({"error": "unsupported_grant_type"})),
    }
}
