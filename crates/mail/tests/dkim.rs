//! DKIM on the real test servers (tests/mailserver/mailserver.sh): what their OpenDKIM signer
//! signs, and what their verifier writes in the topmost `Authentication-Results` field, for
//! each way a message reaches a player: sent through the submission port by the From
//! address's own login, handed over on the plain SMTP port (a partner's server, or a forger),
//! sent by another login, carrying a result its sender wrote, replayed with its body changed.
//!
//! Each test delivers into a mailbox of its own (`black+TAG@…`), so the tests run in parallel
//! with each other and with the other tests on the shared servers.

mod support;

use std::time::{Duration, Instant};

use ccmail_mail::imap::{Imap, ImapConfig, Security};
use support::instance::Instance;
use support::{
    Servers, deliver, detail_address, header, header_names, headers, sample_message, servers,
    submit, unique,
};

/// A fresh mailbox of black's: the address that delivers into it, and an IMAP config on it.
async fn black_mailbox(s: &Servers, tag: &str) -> (String, ImapConfig) {
    let black = s.user(1);
    let name = unique(tag);
    let mut imap = Imap::connect(&s.imap(black, Security::Plain))
        .await
        .expect("IMAP login as black");
    imap.create_mailbox(&name).await.expect("CREATE");
    imap.logout().await;
    let mut cfg = s.imap(black, Security::Plain);
    cfg.mailbox = name.clone();
    (detail_address(black, &name), cfg)
}

/// The messages in the mailbox of `cfg` with this Message-ID (without `<>`), oldest first,
/// once there are `count` of them (10 s at most).
async fn arrived(cfg: &ImapConfig, message_id: &str, count: usize) -> Vec<Vec<u8>> {
    let want = format!("<{message_id}>");
    let start = Instant::now();
    loop {
        let mut imap = Imap::connect(cfg).await.expect("IMAP login");
        let found: Vec<Vec<u8>> = imap
            .fetch_since(0, None)
            .await
            .expect("FETCH")
            .into_iter()
            .filter(|m| header(&m.raw, "Message-ID").as_deref() == Some(want.as_str()))
            .map(|m| m.raw)
            .collect();
        imap.logout().await;
        if found.len() >= count {
            return found;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{count} message(s) {want} not in {} within 10 s (found {})",
            cfg.mailbox,
            found.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The servers' verdict on a delivered message: its only `Authentication-Results` field, which
/// must be theirs and stand above the message's own header (only what the delivery adds,
/// Return-Path, Delivered-To and Received, comes before it). Returns what follows the
/// authserv-id.
fn verdict(s: &Servers, raw: &[u8]) -> String {
    let all = headers(raw, "Authentication-Results");
    assert_eq!(
        all.len(),
        1,
        "one Authentication-Results, the servers' own, wanted in:\n{}\n\
         (servers without OpenDKIM? restart them: tests/mailserver/mailserver.sh stop, then start)",
        String::from_utf8_lossy(raw)
    );
    let names = header_names(raw);
    let at = names
        .iter()
        .position(|n| n.eq_ignore_ascii_case("Authentication-Results"))
        .unwrap();
    for name in &names[..at] {
        assert!(
            ["Return-Path", "Delivered-To", "Received"].contains(&name.as_str()),
            "{name} above the servers' Authentication-Results: {names:?}"
        );
    }
    let (id, rest) = all[0].split_once(';').expect("authserv-id; results");
    assert_eq!(id.trim(), s.authserv_id, "{}", all[0]);
    rest.trim().to_owned()
}

/// The word after `dkim=` in a verdict.
fn dkim(verdict: &str) -> &str {
    let rest = &verdict[verdict.find("dkim=").expect("a dkim= result") + 5..];
    rest.split(|c: char| c == ';' || c.is_whitespace())
        .next()
        .unwrap()
}

/// A message from `from` with a fresh Message-ID; returns it and the Message-ID.
fn message(from: &str, to: &str, tag: &str, body: &str) -> (Vec<u8>, String) {
    let id = format!("{}@example.test", unique(tag));
    (sample_message(from, to, &id, body), id)
}

#[tokio::test]
async fn a_login_sending_as_itself_gets_dkim_pass() {
    let Some(s) = servers() else { return };
    let white = s.user(0);
    let (to, mailbox) = black_mailbox(&s, "dkim-own").await;
    let (raw, id) = message(white, &to, "dkim-own", "12. Nf3");
    submit(&s, white, white, &to, &raw).await;

    let got = arrived(&mailbox, &id, 1).await.remove(0);
    let said = verdict(&s, &got);
    assert_eq!(dkim(&said), "pass", "{said}");
    assert!(said.contains(&format!("header.d={}", s.domain())), "{said}");
    let signature = header(&got, "DKIM-Signature").expect("a DKIM-Signature");
    assert!(
        signature.contains(&format!("d={};", s.domain())),
        "{signature}"
    );
    assert!(signature.contains("s=ccmail;"), "{signature}");
    // The server's result comes first, then the signature, then the submission's Received.
    let names = header_names(&got);
    let pos = |n: &str| names.iter().position(|x| x == n).unwrap();
    assert!(
        pos("Authentication-Results") < pos("DKIM-Signature"),
        "{names:?}"
    );
}

#[tokio::test]
async fn the_plain_port_without_login_is_not_signed_even_from_the_partners_address() {
    let Some(s) = servers() else { return };
    let white = s.user(0);
    let (to, mailbox) = black_mailbox(&s, "dkim-plain").await;
    let (raw, id) = message(white, &to, "dkim-plain", "12. Nf3");
    // Envelope and From both white's, as a forger (or white's own server) would send it.
    deliver(&s, white, &to, &raw).await;

    let got = arrived(&mailbox, &id, 1).await.remove(0);
    let said = verdict(&s, &got);
    assert_eq!(dkim(&said), "none", "{said}");
    assert_eq!(header(&got, "DKIM-Signature"), None);
}

#[tokio::test]
async fn another_login_sending_as_white_is_not_signed() {
    let Some(s) = servers() else { return };
    let (white, black) = (s.user(0), s.user(1));
    let (to, mailbox) = black_mailbox(&s, "dkim-other").await;
    let (raw, id) = message(white, &to, "dkim-other", "12. Nf3");
    // Black logged in, envelope and From white's: the servers let it through, unsigned.
    submit(&s, black, white, &to, &raw).await;

    let got = arrived(&mailbox, &id, 1).await.remove(0);
    let said = verdict(&s, &got);
    assert_ne!(dkim(&said), "pass", "{said}");
    assert_eq!(dkim(&said), "none", "{said}");
    assert_eq!(header(&got, "DKIM-Signature"), None);
}

/// A player's address `white+box@…` is white's own: signed for white's login, not for
/// black's.
#[tokio::test]
async fn a_detail_address_is_signed_for_its_own_login_only() {
    let Some(s) = servers() else { return };
    let (white, black) = (s.user(0), s.user(1));
    let from = detail_address(white, "games");
    let (to, mailbox) = black_mailbox(&s, "dkim-detail").await;
    let (raw, id) = message(&from, &to, "dkim-detail", "12. Nf3");
    submit(&s, white, &from, &to, &raw).await;
    let got = arrived(&mailbox, &id, 1).await.remove(0);
    let said = verdict(&s, &got);
    assert_eq!(dkim(&said), "pass", "{said}");
    let (raw, id) = message(&from, &to, "dkim-detail-other", "12. Nf3");
    submit(&s, black, &from, &to, &raw).await;
    let got = arrived(&mailbox, &id, 1).await.remove(0);
    assert_eq!(dkim(&verdict(&s, &got)), "none");
}

#[tokio::test]
async fn a_result_written_by_the_sender_is_removed() {
    let Some(s) = servers() else { return };
    let white = s.user(0);
    let (to, mailbox) = black_mailbox(&s, "dkim-forged").await;
    let forged = format!(
        "Authentication-Results: {}; dkim=pass header.d={}\r\n",
        s.authserv_id,
        s.domain()
    );
    let (raw, id) = message(white, &to, "dkim-forged", "12. Nf3");
    deliver(&s, white, &to, &[forged.as_bytes(), &raw].concat()).await;
    let got = arrived(&mailbox, &id, 1).await.remove(0);
    let said = verdict(&s, &got);
    assert_eq!(dkim(&said), "none", "{said}");

    // With a signature nobody can read besides, OpenDKIM alone would leave the forged field
    // in place; the servers' Postfix drops it before, and the verifier then writes nothing:
    // no Authentication-Results at all, which a reader must take as unverified.
    let junk = format!("DKIM-Signature: v=1; a=rsa-sha256; d={};\r\n", s.domain());
    let (raw, id) = message(white, &to, "dkim-forged-junk", "12. Nf3");
    let raw = [forged.as_bytes(), junk.as_bytes(), &raw].concat();
    deliver(&s, white, &to, &raw).await;
    let got = arrived(&mailbox, &id, 1).await.remove(0);
    assert_eq!(
        headers(&got, "Authentication-Results"),
        Vec::<String>::new(),
        "{}",
        String::from_utf8_lossy(&got)
    );
}

/// The message as white's server sent it on: from its DKIM-Signature down.
fn as_signed(delivered: &[u8]) -> Vec<u8> {
    let text = String::from_utf8(delivered.to_vec()).unwrap();
    let at = text.find("\r\nDKIM-Signature:").expect("a DKIM-Signature") + 2;
    delivered[at..].to_vec()
}

#[tokio::test]
async fn a_signed_message_replayed_fails_when_changed_and_passes_when_not() {
    let Some(s) = servers() else { return };
    let white = s.user(0);
    let (to, mailbox) = black_mailbox(&s, "dkim-replay").await;
    let (raw, id) = message(white, &to, "dkim-replay", "12. Nf3 Nc6");
    submit(&s, white, white, &to, &raw).await;
    let signed = as_signed(&arrived(&mailbox, &id, 1).await[0]);

    // The body changed after signing, handed over on the plain port.
    let text = String::from_utf8(signed.clone()).unwrap();
    let changed = text.replace("12. Nf3 Nc6", "12. Nf3 Nd4");
    assert_ne!(changed, text);
    deliver(&s, white, &to, changed.as_bytes()).await;
    let got = arrived(&mailbox, &id, 2).await.remove(1);
    let said = verdict(&s, &got);
    assert_eq!(dkim(&said), "fail", "{said}");

    // Unchanged, a replay still passes: a pass says who sent it, not that it is new.
    deliver(&s, white, &to, &signed).await;
    let got = arrived(&mailbox, &id, 3).await.remove(2);
    let said = verdict(&s, &got);
    assert_eq!(dkim(&said), "pass", "{said}");
}

#[tokio::test]
async fn a_restarted_instance_signs_and_verifies_with_the_same_key() {
    let Some(inst) = Instance::start("dkim-restart") else {
        return;
    };
    let s = &inst.servers;
    let white = s.user(0);
    let (to, mailbox) = black_mailbox(s, "dkim-restart").await;
    let (raw, id) = message(white, &to, "dkim-restart", "12. Nf3");
    submit(s, white, white, &to, &raw).await;
    let before = arrived(&mailbox, &id, 1).await.remove(0);
    assert_eq!(dkim(&verdict(s, &before)), "pass");
    let keys = std::fs::read_to_string(inst.dir().join("opendkim/public-keys")).ok();

    inst.stop();
    inst.start_again();

    // Signing and verifying go on...
    let (raw, id2) = message(white, &to, "dkim-restart", "13. e4");
    submit(s, white, white, &to, &raw).await;
    let after = arrived(&mailbox, &id2, 1).await.remove(0);
    assert_eq!(dkim(&verdict(s, &after)), "pass");
    // ...with the key of before: what was signed then still verifies.
    deliver(s, white, &to, &as_signed(&before)).await;
    let replayed = arrived(&mailbox, &id, 2).await.remove(1);
    assert_eq!(dkim(&verdict(s, &replayed)), "pass");
    if let Some(keys) = keys {
        let again = std::fs::read_to_string(inst.dir().join("opendkim/public-keys")).unwrap();
        assert_eq!(again, keys, "the keys were made anew");
    }
}
