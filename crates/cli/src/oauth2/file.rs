//! The token file: the refresh token `ccmail oauth2 authorize` stored, and the last access
//! token with its expiry, so that a short command (`ccmail move`) does not ask the provider
//! for a new one every time. Private to the user (0600, in a 0700 directory when ccmail makes
//! it), and replaced whole (a new file renamed over the old), so that a reader never sees half.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What the file holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    pub refresh_token: Option<String>,
    pub access_token: Option<String>,
    /// Unix seconds.
    pub expires_at: Option<i64>,
    /// Unix seconds: when the access token was granted.
    pub obtained_at: Option<i64>,
}

/// The file's tokens; `Ok(None)` when there is no file.
pub fn read(path: &Path) -> Result<Option<Tokens>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(crate::t!(
                "cmd-oauth2-file-unreadable",
                path = path.display().to_string(),
                error = e.to_string()
            ));
        }
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        crate::t!(
            "cmd-oauth2-file-foreign",
            path = path.display().to_string(),
            error = e.to_string()
        )
    })
}

/// Writes `tokens` to `path`, private to the user.
pub fn write(path: &Path, tokens: &Tokens) -> Result<(), String> {
    let fail = |e: std::io::Error| {
        crate::t!(
            "cmd-oauth2-file-unwritable",
            path = path.display().to_string(),
            error = e.to_string()
        )
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_private_dir(dir).map_err(fail)?;
    }
    let text = serde_json::to_string_pretty(tokens).expect("tokens serialize");
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file = private_file(&tmp).map_err(fail)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        fail(e)
    })
}

#[cfg(unix)]
fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_private_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new/oauth2.json");
        assert_eq!(read(&path), Ok(None));
        let tokens = Tokens {
            refresh_token: Some("r".into()),
            access_token: Some("a".into()),
            expires_at: Some(100),
            obtained_at: Some(40),
        };
        write(&path, &tokens).unwrap();
        assert_eq!(read(&path), Ok(Some(tokens)));
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let mode = std::fs::metadata(path.parent().unwrap())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }
}
