//! Sender verification on the real servers: Postfix with OpenDKIM signing what a user sends
//! with a login and verifying what arrives, Dovecot delivering (tests/mailserver). Both players
//! name the servers' authserv-id in `[security]`. A partner's signed move applies; a forged one
//! is held, whether it comes without a login with the partner's envelope and From, with a
//! signature that no longer verifies, or with an `Authentication-Results` header of its own.
//! Under the default config (no authserv_id) a forged letter may only move: a forged
//! resignation, address change or illegal move is held, even when it answers our own mail. `check` and `init` propose the id.
//! Without servers the test prints a note and passes, except under `CI=true`, where it fails.

mod support;

use support::{Player, Servers, create_mailboxes, messages, servers, unique};

const WHITE: &str = "white@example.test";
const BLACK: &str = "black@example.test";
const ARBITER: &str = "arbiter@example.test";

/// A player who trusts only what the servers' DKIM verifier vouches for.
fn verifying(s: &Servers, name: &str, surname: &str, login: &str, tag: &str) -> Player {
    let p = Player::new(s, name, surname, login, tag, "");
    let mut config = std::fs::read_to_string(p.config()).unwrap();
    config.push_str(&format!(
        "\n[security]\nauthserv_id = \"{}\"\n",
        s.authserv_id
    ));
    std::fs::write(p.config(), config).unwrap();
    p
}

fn play(p: &Player, day: &str, game: &str, mv: &str) {
    let out = p.ok(&["--now", day, "move", game, mv, "--yes"]);
    assert!(out.starts_with("sent:"), "{day} {mv}: {out}");
}

fn plies(p: &Player, game: &str) -> usize {
    p.json(&["show", game])["moves"].as_array().unwrap().len()
}

/// Black's 2... Nc6 as a hand-written message from `from`, with `extra` header fields.
fn nc6(from: &str, to: &str, extra: &str, n: usize) -> Vec<u8> {
    format!(
        "{extra}From: Чернов Чеслав <{from}>\r\nTo: {to}\r\nSubject: Daemon Cup 2026\r\n\
         Date: Tue, 3 Mar 2026 10:00:00 +0300\r\nMessage-ID: <forged{n}.{}@example.test>\r\n\r\n\
         Ходы: 1. e4 e5 2. Nf3\r\nПолучен: 03.03.2026\r\nМой ход: 2... Nc6\r\n\
         Отправлен: 03.03.2026\r\n",
        std::process::id()
    )
    .into_bytes()
}

/// The reasons of the letters held in `p`'s inbox, which must be `n`.
fn held_reasons(p: &Player, n: usize) -> Vec<String> {
    let inbox = p.json(&["inbox"]);
    let reasons: Vec<String> = inbox
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["reason"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(reasons.len(), n, "{inbox}");
    reasons
}

/// White's game after 1. e4 e5 2. Nf3, each move signed by its sender's server login; both
/// players, their games, and the mailbox tag.
fn after_nf3(s: &Servers, tag: &str) -> (Player, Player, String, String) {
    create_mailboxes(s, &[WHITE, BLACK, ARBITER], tag);
    let white = verifying(s, "Белов Борис", "Белов", WHITE, tag);
    let black = verifying(s, "Чернов Чеслав", "Чернов", BLACK, tag);
    let arbiter = support::mail::detail_address(ARBITER, tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter, &[]);
    play(&white, "2026-03-01", &wg, "e4");
    let out = black.ok(&["--now", "2026-03-02", "run", "--once"]);
    assert!(!out.contains("held"), "{out}");
    assert_eq!(plies(&black, &bg), 1, "White's signed 1. e4 applied");
    play(&black, "2026-03-02", &bg, "e5");
    white.ok(&["--now", "2026-03-02", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 2, "Black's signed 1... e5 applied");
    play(&white, "2026-03-02", &wg, "Nf3");
    (white, black, wg, bg)
}

/// The topmost `Authentication-Results` of the newest message in `login`'s mailbox `tag`.
fn newest_verdict(s: &Servers, login: &str, tag: &str) -> String {
    let all = messages(s, login, tag);
    let raw = &all.last().expect("a message").raw;
    let d = ccmail_mail::mime::decode(raw).unwrap();
    d.auth_results.first().cloned().unwrap_or_default()
}

#[test]
fn a_signed_move_applies_and_forgeries_are_held() {
    let Some(s) = servers() else { return };
    let tag = unique("dkim");
    let (white, black, wg, bg) = after_nf3(&s, &tag);
    let to = &white.email;

    // 1. No login, envelope and From both Black's: what any server may send.
    support::deliver_plain(&s, &black.email, to, &nc6(&black.email, to, "", 1));
    let verdict = newest_verdict(&s, WHITE, &tag);
    assert!(verdict.contains("dkim=none"), "{verdict}");
    // 2. Black's real signed message, its move changed: the signature no longer verifies.
    let signed = messages(&s, WHITE, &tag)
        .into_iter()
        .map(|m| m.raw)
        .find(|raw| String::from_utf8_lossy(raw).contains("DKIM-Signature"))
        .expect("Black's signed 1... e5");
    let text = String::from_utf8_lossy(&signed).into_owned();
    let body_at = text.find("\r\n\r\n").unwrap();
    // Only Black's own header fields: the servers' trace fields would come again.
    let head: String = text[..body_at]
        .split("\r\n")
        .filter(|l| !l.starts_with("Return-Path") && !l.starts_with("Delivered-To"))
        .collect::<Vec<_>>()
        .join("\r\n");
    let id = support::message_id(&signed);
    let body = &text[body_at + 4..];
    let changed = format!(
        "{}\r\n\r\n{}",
        head.replace(&id, &format!("replayed.{id}")),
        body.replace("5755", "5756")
    );
    assert!(body.contains("5755"), "{body}");
    support::deliver_plain(&s, &black.email, to, changed.as_bytes());
    let verdict = newest_verdict(&s, WHITE, &tag);
    assert!(verdict.contains("dkim=fail"), "{verdict}");
    // 3. An Authentication-Results header of its own, claiming a pass.
    let claimed = format!(
        "Authentication-Results: {}; dkim=pass header.d=example.test\r\n",
        s.authserv_id
    );
    support::deliver_plain(&s, &black.email, to, &nc6(&black.email, to, &claimed, 3));
    let verdict = newest_verdict(&s, WHITE, &tag);
    assert!(verdict.contains("dkim=none"), "{verdict}");

    let out = white.ok(&["--now", "2026-03-03", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 3, "nothing forged applied: {out}");
    let reasons = held_reasons(&white, 3);
    for r in &reasons {
        assert!(r.starts_with("unverified sender: "), "{r}");
    }
    assert!(
        reasons.iter().any(|r| r.contains(&format!(
            "{} found no DKIM signature (dkim=none) for example.test",
            s.authserv_id
        ))),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(
            |r| r.contains("a DKIM signature that did not verify (dkim=fail")
                && r.contains(
                    "it answers a message ccmail sent in this game, but was changed \
                               after it was signed"
                )
        ),
        "{reasons:?}"
    );
    // No fine and no correction request for what ccmail only doubts.
    let v = white.json(&["--now", "2026-03-03", "show", &wg]);
    assert_eq!(v["clock"]["black"]["penalty"], 0, "{v}");
    assert_eq!(
        messages(&s, BLACK, &tag).len(),
        2,
        "nothing sent to Black but our moves"
    );

    // Black's real move, signed, applies.
    black.ok(&["--now", "2026-03-03", "run", "--once"]);
    play(&black, "2026-03-03", &bg, "Nc6");
    white.ok(&["--now", "2026-03-04", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 4);
}

#[test]
fn a_partner_trusted_without_verification_applies() {
    let Some(s) = servers() else { return };
    let tag = unique("trust");
    let (white, black, wg, _) = after_nf3(&s, &tag);
    let to = &white.email;
    // A partner whose provider does not sign: the first unsigned move is held…
    support::deliver_plain(&s, &black.email, to, &nc6(&black.email, to, "", 1));
    let out = white.ok(&["--now", "2026-03-03", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 3, "{out}");
    let n = white.json(&["inbox"])[0]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    // …until the player trusts that address in this game.
    let out = white.ok(&[
        "--now",
        "2026-03-03",
        "inbox",
        "accept",
        &n,
        "--game",
        &wg,
        "--trust",
        "--yes",
    ]);
    assert!(out.contains("trusted without verification"), "{out}");
    assert_eq!(plies(&white, &wg), 4);
    play(&white, "2026-03-04", &wg, "Bb5");
    let a6 = String::from_utf8(nc6(&black.email, to, "", 2))
        .unwrap()
        .replace("2. Nf3\r\n", "2. Nf3 Nc6 3. Bb5\r\n")
        .replace("2... Nc6", "3... a6");
    support::deliver_plain(&s, &black.email, to, a6.as_bytes());
    let out = white.ok(&["--now", "2026-03-05", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 6, "{out}");
    assert_eq!(white.json(&["inbox"]).as_array().unwrap().len(), 0);
}

#[test]
fn check_proposes_the_servers_authserv_id() {
    let Some(s) = servers() else { return };
    let tag = unique("check");
    create_mailboxes(&s, &[WHITE, BLACK], &tag);
    let white = Player::new(&s, "Белов Борис", "Белов", WHITE, &tag, "");
    let black = Player::new(&s, "Чернов Чеслав", "Чернов", BLACK, &tag, "");
    support::submit(
        &s,
        BLACK,
        &white.email,
        &nc6(&black.email, &white.email, "", 1),
    );
    // Until the id is set, `check` fails, and says the line to add.
    let out = white.run(&["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    let want = format!(
        "FAIL  security: senders are not verified: until [security] authserv_id is set, a \
         letter from the partner's address acts only with a legal move, and a resignation, draw \
         acceptance, address change or fault in it is held; your server writes its verdict as \
         \"{id}\": add [security] authserv_id = \"{id}\" to {}",
        white.config().display(),
        id = s.authserv_id
    );
    assert!(stdout.contains(&want), "{stdout}");
    // `init` on the config proposes it too.
    let out = white.ok(&["init"]);
    let want = format!(
        "your mail server writes its verdict on senders as \"{id}\": add [security] \
         authserv_id = \"{id}\" to {}",
        white.config().display(),
        id = s.authserv_id
    );
    assert!(out.contains(&want), "{out}");
    let mut config = std::fs::read_to_string(white.config()).unwrap();
    config.push_str(&format!(
        "\n[security]\nauthserv_id = \"{}\"\n",
        s.authserv_id
    ));
    std::fs::write(white.config(), &config).unwrap();
    let out = white.ok(&["check"]);
    assert!(
        out.contains("ok    security: senders are verified"),
        "{out}"
    );
    std::fs::write(
        white.config(),
        config.replace(&s.authserv_id, "mx.elsewhere.test"),
    )
    .unwrap();
    let out = white.run(&["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        stdout.contains(
            "FAIL  security: [security] authserv_id is \"mx.elsewhere.test\", but none of the \
             newest 20 messages carries Authentication-Results from mx.elsewhere.test"
        ),
        "{stdout}"
    );
}

/// A letter from Black's address to White's, handed over on the plain SMTP port without a
/// login (envelope and From both Black's), as anyone can: `body` after a game header.
fn forged(n: usize, body: &str) -> Vec<u8> {
    format!(
        "From: Чернов Чеслав <{BLACK}>\r\nTo: {WHITE}\r\nSubject: Daemon Cup 2026\r\n\
         Date: Tue, 3 Mar 2026 10:00:00 +0300\r\nMessage-ID: <forged{n}.{}@example.test>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{body}",
        std::process::id()
    )
    .into_bytes()
}

/// White's game after 1. e4 e5 2. Nf3 under the starter's `[security]` (no authserv_id),
/// played in INBOX-less mailboxes `tag`; both players and their games.
fn default_after_nf3(s: &Servers, tag: &str) -> (Player, Player, String, String) {
    create_mailboxes(s, &[WHITE, BLACK, ARBITER], tag);
    let white = Player::new(s, "Белов Борис", "Белов", WHITE, tag, "");
    let black = Player::new(s, "Чернов Чеслав", "Чернов", BLACK, tag, "");
    let arbiter = support::mail::detail_address(ARBITER, tag);
    let wg = white.new_game("2026-03-01", "white", &black, &arbiter, &[]);
    let bg = black.new_game("2026-03-01", "black", &white, &arbiter, &[]);
    play(&white, "2026-03-01", &wg, "e4");
    black.ok(&["--now", "2026-03-02", "run", "--once"]);
    play(&black, "2026-03-02", &bg, "e5");
    white.ok(&["--now", "2026-03-02", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 2, "Black's legal 1... e5 applied");
    play(&white, "2026-03-02", &wg, "Nf3");
    (white, black, wg, bg)
}

#[test]
fn under_the_default_config_a_forged_letter_changes_nothing_and_is_held() {
    let Some(s) = servers() else { return };
    let tag = unique("dflt");
    let (white, black, wg, _) = default_after_nf3(&s, &tag);
    let (to, from) = (&white.email, &black.email);
    let head = "Турнир: Daemon Cup 2026\r\nБелые: Белов\r\nЧерные: Чернов\r\n";
    let record = "Ходы: 1. 5254 5755 2. 7163\r\nВаш ход 2. 7163 отправлен: 02.03.2026\r\n\
                  Получен: 03.03.2026\r\n";
    let letters = [
        format!("{head}{record}Сдаюсь\r\n"),
        format!("{head}Please note my new e-mail address: thief@evil.test\r\n"),
        // The king from e8 to e5: an impossible move.
        format!("{head}{record}Мой ход: 2... 5855\r\nОтправлен: 03.03.2026\r\n"),
    ];
    let forged_from = |n: usize, body: &str| {
        let raw = String::from_utf8(forged(n, body)).unwrap();
        raw.replace(BLACK, from).replace(WHITE, to).into_bytes()
    };
    // Our 2. Nf3 as Black received it: whoever saw a copy of our mail has its Message-ID, so
    // answering it vouches for nothing.
    let nf3 = support::message_id(&messages(&s, BLACK, &tag).last().unwrap().raw);
    let answering = |raw: Vec<u8>| {
        let mut with = format!("In-Reply-To: <{nf3}>\r\nReferences: <{nf3}>\r\n").into_bytes();
        with.extend(raw);
        with
    };
    for (n, body) in letters.iter().enumerate() {
        support::deliver_plain(&s, from, to, &answering(forged_from(n, body)));
    }
    let (to_black, to_arbiter) = (
        messages(&s, BLACK, &tag).len(),
        messages(&s, ARBITER, &tag).len(),
    );
    white.ok(&["--now", "2026-03-03", "run", "--once"]);
    white.ok(&["--now", "2026-03-04", "run", "--once"]);

    let v = white.json(&["--now", "2026-03-04", "show", &wg]);
    assert_eq!(v["status"], "active", "not resigned: {v}");
    assert_eq!(v["opponent"], from.as_str(), "the address unchanged: {v}");
    assert_eq!(v["clock"]["black"]["penalty"], 0, "no penalty: {v}");
    assert_eq!(plies(&white, &wg), 3);
    assert_eq!(
        messages(&s, BLACK, &tag).len(),
        to_black,
        "no correction request"
    );
    assert_eq!(
        messages(&s, ARBITER, &tag).len(),
        to_arbiter,
        "no finished game for the arbiter"
    );
    let reasons = held_reasons(&white, 3);
    let why = "unverified: set [security] authserv_id (`ccmail check` proposes it) to act on \
               such letters";
    for r in &reasons {
        assert!(r.ends_with(why), "{r}");
    }
    assert!(
        reasons.iter().any(|r| r.starts_with("Black resigns")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.starts_with(&format!(
            "the opponent's address changes from {from} to thief@evil.test"
        ))),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains(
            "the king on e8 can't go to e5; it would cost the partner 2 penalty days and send \
             a correction request (51.4.7)"
        )),
        "{reasons:?}"
    );

    // A legal move from the partner's address still applies, answering nothing of ours.
    let nc6 = format!("{head}{record}Мой ход: 2... 2836\r\nОтправлен: 03.03.2026\r\n");
    support::deliver_plain(&s, from, to, &forged_from(9, &nc6));
    let out = white.ok(&["--now", "2026-03-04", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 4, "{out}");
}

#[test]
fn with_the_id_set_an_answer_to_our_mail_is_held_when_dmarc_fails() {
    let Some(s) = servers() else { return };
    let tag = unique("dmarc");
    let (white, black, wg, _) = after_nf3(&s, &tag);
    // Our 2. Nf3, as Black received it: its Message-ID is ours, tagged.
    let nf3 = support::message_id(&messages(&s, BLACK, &tag).last().unwrap().raw);
    // The provider's verdict on top, as the player's own server writes it.
    let extra = format!(
        "Authentication-Results: {}; dkim=none; spf=pass smtp.mailfrom=example.test; \
         dmarc=fail (p=reject) header.from=example.test\r\nIn-Reply-To: <{nf3}>\r\n",
        s.authserv_id
    );
    let raw = nc6(&black.email, &white.email, &extra, 7);
    support::append(&s, WHITE, &tag, &raw, &[], None);
    white.ok(&["--now", "2026-03-03", "run", "--once"]);
    assert_eq!(plies(&white, &wg), 3, "not applied");
    let inbox = white.json(&["inbox"]);
    let reason = inbox[0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with(&format!(
            "forged sender: {} found dmarc=fail for example.test: the From address is forged. \
             Apply it with `ccmail inbox accept",
            s.authserv_id
        )),
        "{inbox}"
    );
}
