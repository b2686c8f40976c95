//! `ccmail check`'s sender-verification step: which server's `Authentication-Results` the
//! newest mail carries, against `[security] authserv_id`.
//!
//! Until the id is set, nobody vouches for a sender: a letter from the partner's address acts
//! only with a legal move, and everything else in it is held. So the step fails while the id
//! is missing and the mailbox shows what it should be, and says the line to add.

use ccmail::app::verify::{RECENT, recent_authserv_ids};
use ccmail::config::Config;
use ccmail_core::trust;
use ccmail_mail::imap::Imap;

use super::Report;

pub(super) async fn senders(r: &mut Report, cfg: &Config, imap: &mut Imap) {
    let seen = match recent_authserv_ids(imap).await {
        Ok(seen) => seen,
        Err(e) => {
            let what = said!(r, "check-security-heads-unread", error = r.chain(&e));
            return r.fail("security", what);
        }
    };
    let file = cfg.path.display().to_string();
    let proposed = trust::propose(&seen);
    match (&cfg.security.authserv_id, proposed) {
        (Some(id), _) if seen.iter().any(|s| trust::is_ours(id, s)) => {
            let what = said!(r, "check-security-verified", id = id);
            r.ok("security", what);
        }
        (Some(id), found) => {
            let what = match found {
                Some(f) => said!(
                    r,
                    "check-security-absent-other",
                    quoted = format!("{id:?}"),
                    recent = RECENT,
                    id = id,
                    found = format!("{f:?}"),
                    file = &file
                ),
                None => said!(
                    r,
                    "check-security-absent",
                    quoted = format!("{id:?}"),
                    recent = RECENT,
                    id = id
                ),
            };
            r.fail("security", what);
        }
        (None, Some(f)) => {
            let what = said!(
                r,
                "check-security-unverified-proposed",
                found = format!("{f:?}"),
                file = &file
            );
            r.fail("security", what);
        }
        (None, None) => {
            let what = said!(r, "check-security-unverified-none");
            r.skip("security", what);
        }
    }
}
