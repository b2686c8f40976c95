//! Whether an incoming message's sender is who its `From:` says: the evidence gathered from
//! the message and the store, for the core's judgement (`ccmail_core::trust`).
//!
//! Besides the player's own server's `Authentication-Results`, a message that answers one of
//! ours counts once that server is named (`[security] authserv_id`) and found nothing against
//! it: ccmail's Message-IDs end in a tag made with a key only this database holds ([`tagged`]),
//! so naming one shows that the sender saw our mail. Without the id it counts for nothing, as
//! everyone our mail reached saw it too: only the player's trust vouches then.

use ccmail_core::trust::{self, Evidence, Verdict};
use ccmail_mail::imap::Imap;
use ccmail_store::{self as store, SqliteConnection};
use sha2::Digest;

use super::Me;
use crate::i18n::Arg;
use crate::incoming::Incoming;

/// The name of the Message-ID key in the store's secrets.
const KEY: &str = "message-id";

/// Hex characters of the tag.
const TAG: usize = 20;

/// This database's Message-ID key, made the first time.
pub async fn key(conn: &mut SqliteConnection) -> anyhow::Result<Vec<u8>> {
    Ok(store::secret(conn, KEY, || {
        let mut key = vec![0u8; 32];
        getrandom::getrandom(&mut key).expect("the system's random source failed");
        key
    })
    .await?)
}

fn tag(key: &[u8], local: &str) -> String {
    let mut h = sha2::Sha256::new();
    h.update(key);
    h.update(local.as_bytes());
    h.finalize()
        .iter()
        .take(TAG / 2)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `id` (`local@domain`) with our tag at the end of its local part: `local.TAG@domain`.
pub fn tagged(key: &[u8], id: &str) -> String {
    match id.rsplit_once('@') {
        Some((local, domain)) => format!("{local}.{}@{domain}", tag(key, local)),
        None => format!("{id}.{}", tag(key, id)),
    }
}

/// Whether `id` carries our tag ([`tagged`]).
pub fn is_tagged(key: &[u8], id: &str) -> bool {
    let local = id.rsplit_once('@').map_or(id, |(l, _)| l);
    match local.rsplit_once('.') {
        Some((base, t)) => t.len() == TAG && t == tag(key, base),
        None => false,
    }
}

/// The Message-IDs a message answers ([`ccmail_mail::mime::Decoded::answers`]): In-Reply-To,
/// then the last References, newest first.
pub fn answered(incoming: &Incoming) -> Vec<&str> {
    incoming
        .decoded
        .as_ref()
        .map(|d| d.answers())
        .unwrap_or_default()
}

/// The verdict on `incoming`'s sender `from` in `game`.
pub async fn verdict(
    conn: &mut SqliteConnection,
    me: &Me,
    game: &str,
    from: &str,
    incoming: &Incoming,
) -> anyhow::Result<Verdict> {
    let trusted = store::is_trusted_sender(conn, game, from).await?;
    let key = key(conn).await?;
    let ours: Vec<&str> = answered(incoming)
        .into_iter()
        .filter(|id| is_tagged(&key, id))
        .collect();
    let answers = store::ours_in_game(conn, game, &ours).await?;
    let results = incoming
        .decoded
        .as_ref()
        .map_or(&[][..], |d| &d.auth_results[..]);
    Ok(trust::judge(&Evidence {
        authserv_id: me.authserv_id.as_deref(),
        results,
        from,
        answers_ours: answers.as_deref(),
        trusted,
    }))
}

/// What the sender's verdict makes of a letter that would change a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sender {
    /// Someone vouches for the sender: the letter acts in full.
    Vouched,
    /// Nobody vouches (`[security] authserv_id` unset, the address not trusted), whatever
    /// thread the letter answers: only its legal move acts ([`trust::unverified`]).
    Unverified,
    /// To be held as unverified or as forged: the reason, with the evidence.
    Held(String),
}

/// Judges the sender `from` of `message` in `game` ([`verdict`]): whether the letter acts in
/// full, only by its move, or is held, and why.
pub async fn sender(
    conn: &mut SqliteConnection,
    me: &Me,
    message: i64,
    (game, from): (&str, &str),
    incoming: &Incoming,
) -> anyhow::Result<Sender> {
    let (key, why) = match verdict(conn, me, game, from, incoming).await? {
        Verdict::Unverified(why) => ("app-held-unverified", why),
        Verdict::Forged(why) => ("app-held-forged", why),
        Verdict::NotChecked => return Ok(Sender::Unverified),
        Verdict::Verified(_) => return Ok(Sender::Vouched),
    };
    let args = [
        ("why", Arg::from(why.in_language(crate::i18n::language()))),
        ("message", Arg::from(message)),
        ("game", Arg::from(game)),
        ("from", Arg::from(from)),
    ];
    Ok(Sender::Held(crate::i18n::current().text(key, &args)))
}

/// How many of the newest messages are looked at for the player's own server's authserv-id.
pub const RECENT: usize = 20;

/// The authserv-id of the topmost `Authentication-Results` of each of the newest messages of
/// the mailbox, newest first: only the topmost counts, as only it is the player's server's
/// ([`trust::proposed_authserv_id`]).
pub async fn recent_authserv_ids(imap: &mut Imap) -> anyhow::Result<Vec<String>> {
    let uids = imap.uids_since(0, None).await?;
    let newest = &uids[uids.len().saturating_sub(RECENT)..];
    let mut heads = imap.fetch_heads(newest, 16 * 1024).await?;
    heads.reverse();
    Ok(heads
        .iter()
        .filter_map(|head| ccmail_mail::mime::decode(&head.head).ok())
        .filter_map(|d| trust::proposed_authserv_id(d.auth_results.iter().map(String::as_str)))
        .collect())
}

/// What `[security] authserv_id` should be, found in the mailbox `[imap]` names (`ccmail
/// init`): `None` when its newest mail names no server.
pub async fn propose_from_mailbox(
    cfg: &crate::config::Imap,
    timeout: std::time::Duration,
) -> anyhow::Result<Option<String>> {
    let mut c = super::daemon::imap_config(cfg)?;
    c.timeout = timeout;
    if let Some(provider) = crate::oauth2::for_imap(cfg) {
        provider.fetch().await?;
        c.oauth2 = Some(provider.login());
    }
    let mut imap = Imap::connect(&c).await?;
    let seen = recent_authserv_ids(&mut imap).await;
    imap.logout().await;
    Ok(trust::propose(&seen?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_is_ours_only_with_our_key() {
        let key = [7u8; 32];
        let id = tagged(&key, "ccmail.g1.3.0123456789abcdef@example.test");
        assert!(id.starts_with("ccmail.g1.3.0123456789abcdef."));
        assert!(id.ends_with("@example.test"));
        assert!(is_tagged(&key, &id));
        assert!(!is_tagged(&[8u8; 32], &id));
        assert!(!is_tagged(
            &key,
            "ccmail.g1.3.0123456789abcdef@example.test"
        ));
        let forged = id.replace("ccmail.g1.3", "ccmail.g1.4");
        assert!(!is_tagged(&key, &forged));
    }
}
