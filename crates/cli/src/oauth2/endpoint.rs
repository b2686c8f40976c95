//! The provider's token endpoint (RFC 6749 section 6 and 4.1.3): a form POSTed, a JSON answer.
//!
//! Blocking (ureq), so callers in the runtime run it on a blocking thread. An error says in
//! words what the endpoint answered and whether trying later may help: a refused refresh
//! token (`invalid_grant`) needs the user to consent again, a network error or a 5xx does not.

use std::time::Duration;

use ccmail_mail::oauth2::TokenError;

/// What the endpoint granted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub access_token: String,
    /// Seconds from now, when the endpoint said.
    pub expires_in: Option<u64>,
    /// A new refresh token, when the endpoint sends one (at consent, or rotated on refresh).
    pub refresh_token: Option<String>,
}

/// How long the endpoint gets to answer.
const TIMEOUT: Duration = Duration::from_secs(30);

/// POSTs `form` to `url`. `what` names the request for the errors ("refreshing the access
/// token"); `again` says what the user can do when the grant is refused.
pub fn post(
    url: &str,
    form: &[(&str, &str)],
    what: &str,
    again: &str,
) -> Result<Grant, TokenError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(TIMEOUT))
        .build()
        .into();
    let mut response = agent
        .post(url)
        .header("Accept", "application/json")
        .send_form(form.iter().copied())
        .map_err(|e| TokenError {
            message: crate::t!(
                "cmd-oauth2-unreachable",
                what = what,
                url = url,
                error = e.to_string()
            ),
            transient: true,
        })?;
    let status = response.status().as_u16();
    let body = response
        .body_mut()
        .with_config()
        .limit(1 << 20)
        .read_to_string()
        .map_err(|e| TokenError {
            message: crate::t!(
                "cmd-oauth2-unreadable-answer",
                what = what,
                url = url,
                error = e.to_string()
            ),
            transient: true,
        })?;
    answer(status, &body).map_err(|(message, transient)| TokenError {
        message: format!(
            "{what}: {url} {message}{}",
            if transient { "" } else { again }
        ),
        transient,
    })
}

/// The grant of an answer, or the refusal in words and whether it is worth trying again.
fn answer(status: u16, body: &str) -> Result<Grant, (String, bool)> {
    let json: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let text = |key: &str| json.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    if (200..300).contains(&status)
        && let Some(access_token) = text("access_token").filter(|t| !t.is_empty())
    {
        return Ok(Grant {
            access_token,
            expires_in: json.get("expires_in").and_then(|v| {
                v.as_u64()
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            }),
            refresh_token: text("refresh_token").filter(|t| !t.is_empty()),
        });
    }
    let transient = status >= 500 || status == 429 || status == 408;
    let Some(error) = text("error") else {
        let why = if (200..300).contains(&status) {
            crate::t!("cmd-oauth2-no-access-token")
        } else {
            crate::t!("cmd-oauth2-http-status", status = status.to_string())
        };
        return Err((why, transient));
    };
    let description = text("error_description")
        .map(|d| format!(": {}", d.lines().next().unwrap_or("")))
        .unwrap_or_default();
    let meaning = match error.as_str() {
        "invalid_grant" => crate::t!("cmd-oauth2-refused-grant"),
        "invalid_client" | "unauthorized_client" => crate::t!("cmd-oauth2-refused-client"),
        "invalid_scope" => crate::t!("cmd-oauth2-refused-scope"),
        "temporarily_unavailable" => crate::t!("cmd-oauth2-busy"),
        _ => crate::t!("cmd-oauth2-refused"),
    };
    let transient = transient || error == "temporarily_unavailable";
    Err((format!("{meaning} ({error}{description})"), transient))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grant_and_its_expiry() {
        let g = answer(
            200,
            r#"{"access_token":"a","expires_in":3599,"token_type":"Bearer"}"#,
        );
        assert_eq!(
            g,
            Ok(Grant {
                access_token: "a".into(),
                expires_in: Some(3599),
                refresh_token: None
            })
        );
        let g = answer(
            200,
            r#"{"access_token":"a","expires_in":"60","refresh_token":"r"}"#,
        );
        let g = g.unwrap();
        assert_eq!(
            (g.expires_in, g.refresh_token.as_deref()),
            (Some(60), Some("r"))
        );
    }

    #[test]
    fn refusals_in_words() {
        let cases = [
            (
                400,
                r#"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#,
                "refused the grant (it was revoked or has expired) (invalid_grant: Token has been expired or revoked.)",
                false,
            ),
            (
                401,
                r#"{"error":"invalid_client"}"#,
                "refused the client (client_id or its secret) (invalid_client)",
                false,
            ),
            (503, "", "answered HTTP 503", true),
            (200, "{}", "answered without an access token", false),
            (
                400,
                r#"{"error":"temporarily_unavailable"}"#,
                "is busy (temporarily_unavailable)",
                true,
            ),
        ];
        for (status, body, words, transient) in cases {
            assert_eq!(
                answer(status, body),
                Err((words.to_owned(), transient)),
                "{body}"
            );
        }
    }
}
