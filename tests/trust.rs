//! Sender verification through `ccmail apply` and `ccmail inbox`, with the
//! `Authentication-Results` headers the player's own server writes (`[security] authserv_id`).
//! The same on real servers with OpenDKIM: tests/dkim_e2e.rs.

mod common;

use common::{Player, cup_game};

const PARTNER: &str = "petrov@example.org";
const OURS: &str = "mx.example.org";

/// White (Иванов) with `[security] authserv_id = "mx.example.org"`.
fn verifying_player() -> Player {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let mut config = std::fs::read_to_string(me.config()).unwrap();
    config.push_str(&format!("\n[security]\nauthserv_id = \"{OURS}\"\n"));
    std::fs::write(me.config(), config).unwrap();
    me
}

/// A game against Petrov in which we played 1. e4 on 2 March.
fn game_after_e4(me: &Player) -> String {
    let id = cup_game(me, "white", PARTNER, &[]);
    me.ok(&["--now", "2026-03-02", "move", &id, "e4"]);
    id
}

/// Petrov's 1... e5 as a message, with `headers` on top (Authentication-Results and the like).
fn reply_e5(headers: &str, n: u32) -> String {
    format!(
        "{headers}From: Петров <{PARTNER}>\r\nTo: ivanov@example.org\r\n\
         Date: Tue, 3 Mar 2026 10:00:00 +0300\r\nMessage-ID: <reply{n}@example.org>\r\n\
         Subject: Kubok\r\n\r\nMoves: 1. e4\r\nReceived: 2026-03-02\r\nMy move: 1... e5\r\n\
         Sent: 2026-03-03\r\n"
    )
}

fn plies(me: &Player, id: &str) -> usize {
    me.json(&["show", id])["moves"].as_array().unwrap().len()
}

/// The number of the message a held outcome names ("held as message N …").
fn held_number(out: &str) -> String {
    out.split("held as message ")
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .unwrap_or_else(|| panic!("not held: {out}"))
        .to_owned()
}

const UNSIGNED: &str = "Authentication-Results: mx.example.org; dkim=none\r\n";
const SIGNED: &str = "Authentication-Results: mx.example.org;\r\n\tdkim=pass (2048-bit key) \
                      header.d=example.org header.i=@example.org header.s=sel\r\n";

#[test]
fn a_signed_move_applies_and_an_unsigned_one_is_held_with_the_evidence() {
    let me = verifying_player();
    let id = game_after_e4(&me);
    let out = me.apply_text("unsigned.eml", &reply_e5(UNSIGNED, 1), "2026-03-03");
    let n = held_number(&out);
    let why = format!(
        "unverified sender: mx.example.org found no DKIM signature (dkim=none) for \
         example.org; it does not answer a message ccmail sent in this game. Apply it once \
         with `ccmail inbox accept {n} --game {id}`, or add --trust to trust {PARTNER} in this \
         game without verification"
    );
    assert!(out.contains(&why), "{out}");
    assert_eq!(plies(&me, &id), 1, "nothing applied");
    let inbox = me.json(&["inbox"]);
    assert_eq!(inbox[0]["reason"], why.as_str(), "{inbox}");
    assert_eq!(inbox[0]["game"], id.as_str());
    // No fine, no correction request: ccmail only doubts.
    let show = me.json(&["--now", "2026-03-03", "show", &id]);
    assert_eq!(show["clock"]["black"]["penalty"], 0, "{show}");
    // The same move, signed by the partner's domain, applies.
    let out = me.apply_text("signed.eml", &reply_e5(SIGNED, 2), "2026-03-03");
    assert!(out.contains("applied"), "{out}");
    assert_eq!(plies(&me, &id), 2);
}

#[test]
fn only_the_topmost_verdict_of_our_own_server_counts() {
    let cases = [
        // A pass the sender wrote below our server's own verdict.
        format!("{UNSIGNED}{SIGNED}"),
        // Another server's pass.
        "Authentication-Results: mx.evil.test; dkim=pass header.d=example.org\r\n".to_owned(),
        // A valid signature, but of another domain.
        "Authentication-Results: mx.example.org; dkim=pass header.d=evil.test\r\n".to_owned(),
        // A signature that did not verify (the body was changed).
        "Authentication-Results: mx.example.org; dkim=fail reason=\"signature verification \
         failed\" header.d=example.org\r\n"
            .to_owned(),
        // No verdict at all (the message did not pass the server's checks).
        String::new(),
    ];
    for (i, headers) in cases.iter().enumerate() {
        let me = verifying_player();
        let id = game_after_e4(&me);
        let out = me.apply_text("m.eml", &reply_e5(headers, 1), "2026-03-03");
        assert!(out.contains("unverified sender"), "case {i}: {out}");
        assert_eq!(plies(&me, &id), 1, "case {i}");
    }
    // DMARC for the From domain is enough.
    let me = verifying_player();
    let id = game_after_e4(&me);
    let dmarc = "Authentication-Results: mx.example.org; dkim=none; spf=pass \
                 smtp.mailfrom=example.org; dmarc=pass header.from=example.org\r\n";
    let out = me.apply_text("m.eml", &reply_e5(dmarc, 1), "2026-03-03");
    assert!(out.contains("applied"), "{out}");
    assert_eq!(plies(&me, &id), 2);
}

#[test]
fn accepting_once_and_trusting_an_address_without_verification() {
    let me = verifying_player();
    let id = game_after_e4(&me);
    let out = me.apply_text("1.eml", &reply_e5(UNSIGNED, 1), "2026-03-03");
    let n = held_number(&out);
    let out = me.ok(&["--now", "2026-03-03", "inbox", "accept", &n, "--game", &id]);
    assert!(out.contains("applied"), "{out}");
    assert_eq!(plies(&me, &id), 2);
    // Once: the next unsigned move is held again.
    me.ok(&["--now", "2026-03-04", "move", &id, "Nf3"]);
    let second = |k: u32| {
        format!(
            "{UNSIGNED}From: {PARTNER}\r\nDate: Thu, 5 Mar 2026 10:00:00 +0300\r\n\
             Message-ID: <second{k}@example.org>\r\nSubject: Kubok\r\n\r\nMoves: 1. e4 e5 2. Nf3\r\n\
             Received: 2026-03-04\r\nMy move: 2... Nc6\r\nSent: 2026-03-05\r\n"
        )
    };
    let out = me.apply_text("2.eml", &second(1), "2026-03-05");
    let n = held_number(&out);
    assert!(out.contains("unverified sender"), "{out}");
    let out = me.ok(&[
        "--now",
        "2026-03-05",
        "inbox",
        "accept",
        &n,
        "--game",
        &id,
        "--trust",
    ]);
    assert!(
        out.contains(&format!(
            "{PARTNER} is trusted without verification in game {id} from now on."
        )),
        "{out}"
    );
    assert_eq!(plies(&me, &id), 4);
    let show = me.ok(&["--now", "2026-03-05", "show", &id]);
    assert!(
        show.contains(&format!("\nTrusted without verification: {PARTNER}.\n")),
        "{show}"
    );
    // From then on, that address's unsigned moves apply in that game.
    me.ok(&["--now", "2026-03-06", "move", &id, "Bb5"]);
    let third = format!(
        "{UNSIGNED}From: {PARTNER}\r\nDate: Sat, 7 Mar 2026 10:00:00 +0300\r\n\
         Message-ID: <third@example.org>\r\nSubject: Kubok\r\n\r\nMoves: 1. e4 e5 2. Nf3 Nc6 3. Bb5\r\n\
         Received: 2026-03-06\r\nMy move: 3... a6\r\nSent: 2026-03-07\r\n"
    );
    let out = me.apply_text("3.eml", &third, "2026-03-07");
    assert!(out.contains("applied"), "{out}");
    assert_eq!(plies(&me, &id), 6);
}

/// Our Message-ID as it went out (the last letter we queued in the game).
fn our_last_message_id(me: &Player, id: &str) -> String {
    let letters = common::sent_letters(me, id);
    let (_, d) = letters.last().expect("a letter of ours");
    d.message_id.clone().unwrap()
}

#[test]
fn an_answer_to_our_own_message_is_evidence() {
    let me = verifying_player();
    let id = game_after_e4(&me);
    let ours = our_last_message_id(&me, &id);
    // The tag at the end of our Message-ID is what a forger can't make up.
    let local = ours.split('@').next().unwrap();
    let tag = local.rsplit('.').next().unwrap();
    assert_eq!(tag.len(), 20, "{ours}");
    let forged = ours.replace(tag, &"0".repeat(20));
    let untagged = ours.replace(&format!(".{tag}"), "");
    for (i, fake) in [forged, untagged, "ccmail.x@example.org".to_owned()]
        .iter()
        .enumerate()
    {
        let headers = format!("{UNSIGNED}In-Reply-To: <{fake}>\r\nReferences: <{fake}>\r\n");
        let out = me.apply_text("f.eml", &reply_e5(&headers, 10 + i as u32), "2026-03-03");
        assert!(out.contains("unverified sender"), "{fake}: {out}");
    }
    let headers = format!("{UNSIGNED}In-Reply-To: <{ours}>\r\nReferences: <{ours}>\r\n");
    let out = me.apply_text("a.eml", &reply_e5(&headers, 1), "2026-03-03");
    assert!(out.contains("applied"), "{out}");
    assert_eq!(plies(&me, &id), 2);
}

#[test]
fn only_the_last_hundred_references_count() {
    let me = verifying_player();
    let id = game_after_e4(&me);
    let ours = our_last_message_id(&me, &id);
    let mut refs = format!("<{ours}>");
    for i in 0..150 {
        refs.push_str(&format!(" <other{i}@example.org>"));
    }
    let headers = format!("{UNSIGNED}References: {refs}\r\n");
    let out = me.apply_text("r.eml", &reply_e5(&headers, 1), "2026-03-03");
    assert!(out.contains("unverified sender"), "{out}");
}

#[test]
fn breaks_and_addresses_are_verified_like_moves_and_notes_are_kept() {
    let me = verifying_player();
    let id = game_after_e4(&me);
    let address = format!(
        "{UNSIGNED}From: {PARTNER}\r\nDate: Tue, 3 Mar 2026 10:00:00 +0300\r\n\
         Message-ID: <addr@example.org>\r\nSubject: Change of e-mail address\r\n\r\n\
         Dear Ivan,\r\n\r\nplease note that from 10 March my e-mail address for all our games \
         will be petrov@new.example.net.\r\n\r\nPetrov\r\n"
    );
    let out = me.apply_text("addr.eml", &address, "2026-03-03");
    assert!(out.contains("unverified sender"), "{out}");
    assert_eq!(me.json(&["show", &id])["opponent"], PARTNER);
    let note = format!(
        "{UNSIGNED}From: {PARTNER}\r\nDate: Tue, 3 Mar 2026 11:00:00 +0300\r\n\
         Message-ID: <note@example.org>\r\nSubject: Re: Kubok клуба\r\nIn-Reply-To: <x@y>\r\n\r\n\
         Спасибо за игру, подумаю над ходом.\r\n"
    );
    let out = me.apply_text("note.eml", &note, "2026-03-03");
    assert!(!out.contains("unverified"), "{out}");
}

#[test]
fn without_an_authserv_id_a_legal_move_from_the_partners_address_applies() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = game_after_e4(&me);
    let out = me.apply_text("unsigned.eml", &reply_e5(UNSIGNED, 1), "2026-03-03");
    assert!(out.contains("applied"), "{out}");
    assert_eq!(plies(&me, &id), 2);
}

/// Without `[security] authserv_id` nobody vouches for a letter: its legal move applies, its
/// break does not; its resignation is held until the player accepts it.
#[test]
fn without_an_authserv_id_only_the_move_acts_and_the_rest_waits_for_the_player() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = game_after_e4(&me);
    let with_break = reply_e5("", 1).replace(
        "Sent: 2026-03-03\r\n",
        "Sent: 2026-03-03\r\nI take a break from 2026-03-10 to 2026-03-15\r\n",
    );
    let out = me.apply_text("m.eml", &with_break, "2026-03-03");
    assert!(
        out.contains(
            "applied 1... e5 by Black; not acted on, unverified (set [security] authserv_id): \
             the break notice"
        ),
        "{out}"
    );
    assert_eq!(plies(&me, &id), 2);
    let v = me.json(&["--now", "2026-03-11", "show", &id]);
    assert_eq!(v["clock"]["black"]["on_break"], false, "{v}");
    me.ok(&["--now", "2026-03-04", "move", &id, "Nf3"]);
    let resign = format!(
        "From: {PARTNER}\r\nDate: Thu, 5 Mar 2026 10:00:00 +0300\r\n\
         Message-ID: <resign@example.org>\r\nSubject: Kubok\r\n\r\nI resign.\r\n"
    );
    let out = me.apply_text("r.eml", &resign, "2026-03-05");
    let n = held_number(&out);
    assert!(
        out.contains(
            "Black resigns; result 1-0; unverified: set [security] authserv_id (`ccmail check` \
             proposes it) to act on such letters"
        ),
        "{out}"
    );
    assert_eq!(me.json(&["show", &id])["status"], "active");
    me.ok(&["--now", "2026-03-05", "inbox", "accept", &n, "--game", &id]);
    assert_eq!(me.json(&["show", &id])["status"], "finished");
}

/// Our Message-IDs reach everyone who gets our mail (the partner, the arbiter's copies, any
/// mailbox on the way): under the default config, a letter that answers the one on our last
/// move vouches for nothing. A forged resignation, address change and impossible move, each
/// answering it, change nothing and are held with the reason; nothing is sent.
#[test]
fn without_an_authserv_id_answering_our_message_vouches_for_nothing() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = game_after_e4(&me);
    let ours = our_last_message_id(&me, &id);
    let sent = common::sent_letters(&me, &id).len();
    let letter = |n: u32, body: &str| {
        format!(
            "From: Петров <{PARTNER}>\r\nTo: ivanov@example.org\r\n\
             Date: Tue, 3 Mar 2026 10:00:00 +0300\r\nMessage-ID: <forged{n}@example.org>\r\n\
             In-Reply-To: <{ours}>\r\nReferences: <{ours}>\r\nSubject: Re: Kubok\r\n\r\n{body}"
        )
    };
    let why = "unverified: set [security] authserv_id (`ccmail check` proposes it) to act on \
               such letters";
    let letters = [
        ("I resign.\r\n", "Black resigns; result 1-0"),
        (
            "Dear Ivan,\r\n\r\nplease note that from 10 March my e-mail address for all our \
             games will be thief@evil.test.\r\n\r\nPetrov\r\n",
            "the opponent's address changes from petrov@example.org to thief@evil.test",
        ),
        (
            "Moves: 1. e4\r\nReceived: 2026-03-02\r\nMy move: 1... Ke5\r\nSent: 2026-03-03\r\n",
            "it would cost the partner 2 penalty days and send a correction request (51.4.7)",
        ),
    ];
    for (n, (body, would)) in (1..).zip(letters) {
        let out = me.apply_text("f.eml", &letter(n, body), "2026-03-03");
        held_number(&out);
        assert!(out.contains(would) && out.contains(why), "{out}");
    }
    let v = me.json(&["--now", "2026-03-03", "show", &id]);
    assert_eq!(v["status"], "active", "not resigned: {v}");
    assert_eq!(v["opponent"], PARTNER, "the address unchanged: {v}");
    assert_eq!(v["clock"]["black"]["penalty"], 0, "no penalty: {v}");
    assert_eq!(plies(&me, &id), 1);
    assert_eq!(
        common::sent_letters(&me, &id).len(),
        sent,
        "no correction request, no PGN to the arbiter"
    );
    let inbox = me.json(&["inbox"]);
    let reasons: Vec<&str> = inbox
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 3, "{inbox}");
    for r in &reasons {
        assert!(r.ends_with(why), "{r}");
    }
}

#[test]
fn accepting_a_new_address_says_what_matched_and_never_makes_the_arbiter_the_opponent() {
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = game_after_e4(&me);
    let ours = our_last_message_id(&me, &id);
    let from_new = reply_e5("", 1)
        .replace(&format!("<{PARTNER}>"), "<petrov@new.example.net>")
        .replace(
            "Subject: Kubok\r\n",
            &format!("Subject: Kubok\r\nIn-Reply-To: <{ours}>\r\n"),
        )
        .replace(
            "Moves: 1. e4",
            "Турнир: Кубок клуба 2026\r\nБелые: Иванов\r\nЧерные: Петров\r\nMoves: 1. e4",
        );
    let out = me.apply_text("new.eml", &from_new, "2026-03-03");
    let n = held_number(&out);
    let out = me.ok(&["--now", "2026-03-03", "inbox", "accept", &n, "--game", &id]);
    assert!(
        out.contains(&format!(
            "Message {n} is from petrov@new.example.net, not from {PARTNER}, the address on \
             file for game {id}.\nIt matches the game strongly: it answers a message of this \
             game's correspondence; its game header names this game's event and players; its \
             record of 1 half-moves is this game's.\nAccepting it makes petrov@new.example.net \
             the game's opponent address (51.1.2)."
        )),
        "{out}"
    );
    assert_eq!(
        me.json(&["show", &id])["opponent"],
        "petrov@new.example.net"
    );
    // The arbiter's letter accepted into the game leaves the opponent as it is.
    let me = Player::new("Иванов Иван", "Иванов", "ivanov@example.org");
    let id = game_after_e4(&me);
    let arbiter = reply_e5("", 2).replace(&format!("<{PARTNER}>"), "<arbiter@example.org>");
    let out = me.apply_text("arb.eml", &arbiter, "2026-03-03");
    if out.contains("held as message") {
        let n = held_number(&out);
        me.ok(&["--now", "2026-03-03", "inbox", "accept", &n, "--game", &id]);
    }
    assert_eq!(me.json(&["show", &id])["opponent"], PARTNER);
}
