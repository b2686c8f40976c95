use super::*;

const ID: &str = "mail.example.test";

fn judged(from: &str, results: &[&str], answers: Option<&str>, trusted: bool) -> Verdict {
    let results: Vec<String> = results.iter().map(|s| (*s).to_owned()).collect();
    judge(&Evidence {
        authserv_id: Some(ID),
        results: &results,
        from,
        answers_ours: answers,
        trusted,
    })
}

fn verified(v: &Verdict) -> bool {
    matches!(v, Verdict::Verified(_))
}

/// The evidence of an unverified sender, in English and in Russian.
fn unverified(v: &Verdict) -> &crate::judge::Said {
    match v {
        Verdict::Unverified(why) => why,
        other => panic!("not unverified: {other:?}"),
    }
}

#[test]
fn reads_the_headers_real_servers_write() {
    // OpenDKIM, as the test servers write it.
    let r = parse(
        "mail.example.test;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=example.test \
         header.i=@example.test header.a=rsa-sha256 header.s=ccmail header.b=AbCdEf12",
    )
    .unwrap();
    assert_eq!(r.authserv_id, "mail.example.test");
    assert_eq!(r.methods.len(), 1);
    assert_eq!(r.methods[0].method, "dkim");
    assert_eq!(r.methods[0].result, "pass");
    assert_eq!(r.methods[0].prop("header.d"), Some("example.test"));
    assert_eq!(r.methods[0].prop("header.i"), Some("@example.test"));
    // Gmail.
    let r = parse(
        "mx.google.com;\r\n       dkim=pass header.i=@yandex.ru header.s=mail header.b=Xy1;\r\n       \
         spf=pass (google.com: domain of petrov@yandex.ru designates 1.2.3.4 as permitted sender) \
         smtp.mailfrom=petrov@yandex.ru;\r\n       dmarc=pass (p=REJECT sp=NONE dis=NONE) \
         header.from=yandex.ru",
    )
    .unwrap();
    assert_eq!(r.authserv_id, "mx.google.com");
    let methods: Vec<_> = r.methods.iter().map(|m| (&*m.method, &*m.result)).collect();
    assert_eq!(
        methods,
        [("dkim", "pass"), ("spf", "pass"), ("dmarc", "pass")]
    );
    assert_eq!(r.methods[2].prop("header.from"), Some("yandex.ru"));
    // A version, a reason in quotes, a comment with a nested comment and a `;` inside.
    let r = parse(
        "mx.yandex.ru 1; dkim=fail (bad (very; bad) sig) reason=\"signature verification \
         failed\" header.d=mail.ru",
    )
    .unwrap();
    assert_eq!(r.authserv_id, "mx.yandex.ru");
    assert_eq!(
        r.methods[0].reason.as_deref(),
        Some("signature verification failed")
    );
    assert_eq!(r.methods[0].prop("header.d"), Some("mail.ru"));
    // Outlook writes no authserv-id.
    let r = parse(
        "spf=pass (sender IP is 1.2.3.4) smtp.mailfrom=gmail.com; dkim=pass (signature was \
         verified) header.d=gmail.com;dmarc=pass action=none header.from=gmail.com;compauth=pass \
         reason=100",
    )
    .unwrap();
    assert_eq!(r.authserv_id, "");
    assert_eq!(r.methods.len(), 4);
    assert_eq!(r.methods[1].prop("header.d"), Some("gmail.com"));
    // "none": no result at all.
    let r = parse("mail.example.test; none").unwrap();
    assert_eq!(r.authserv_id, "mail.example.test");
    assert!(r.methods.is_empty());
    assert_eq!(parse(""), None);
    assert_eq!(parse("  (only a comment) "), None);
}

#[test]
fn hostile_headers_neither_panic_nor_run_long() {
    for v in [
        "((((((((((",
        "\"unterminated",
        "a; =; ==; dkim=; =pass; dkim/=pass",
        ";;;;;;;",
        "\\",
        "x; dkim=pass header.d=",
    ] {
        let _ = parse(v);
    }
    let long = "(".repeat(200_000) + &"x=y; ".repeat(100_000);
    let _ = parse(&long);
}

/// The table: what the player's server wrote, and what ccmail concludes.
#[allow(
    clippy::too_many_lines,
    reason = "a test's table or scenario reads best in one piece"
)]
#[test]
fn the_verdict_table() {
    let pass = "mail.example.test; dkim=pass (2048-bit key) header.d=example.test \
                header.i=@example.test";
    type Row<'a> = (&'a str, &'a [&'a str], Option<&'a str>, bool, bool);
    let cases: &[Row] = &[
        // (From, headers topmost first, answers ours, trusted, verified?)
        ("white@example.test", &[pass], None, false, true),
        // A subdomain's or a parent's signature is aligned (relaxed).
        (
            "white@chess.example.test",
            &["mail.example.test; dkim=pass header.d=example.test"],
            None,
            false,
            true,
        ),
        (
            "white@example.test",
            &["mail.example.test; dkim=pass header.d=mx.example.test"],
            None,
            false,
            true,
        ),
        // Signed by someone else's domain: not the sender's.
        (
            "white@example.test",
            &["mail.example.test; dkim=pass header.d=evil.test"],
            None,
            false,
            false,
        ),
        // A bare top-level domain aligns with nothing.
        (
            "white@example.test",
            &["mail.example.test; dkim=pass header.d=test"],
            None,
            false,
            false,
        ),
        // Look-alike: not a label boundary.
        (
            "white@example.test",
            &["mail.example.test; dkim=pass header.d=xample.test"],
            None,
            false,
            false,
        ),
        (
            "white@example.test",
            &["mail.example.test; dkim=none"],
            None,
            false,
            false,
        ),
        (
            "white@example.test",
            &[
                "mail.example.test; dkim=fail reason=\"signature verification failed\" \
               header.d=example.test",
            ],
            None,
            false,
            false,
        ),
        // DMARC for the From domain.
        (
            "petrov@yandex.ru",
            &["mail.example.test; dkim=none; dmarc=pass header.from=yandex.ru"],
            None,
            false,
            true,
        ),
        (
            "petrov@yandex.ru",
            &["mail.example.test; dmarc=pass header.from=evil.ru"],
            None,
            false,
            false,
        ),
        // Another server's pass counts for nothing.
        (
            "white@example.test",
            &["mx.evil.test; dkim=pass header.d=example.test"],
            None,
            false,
            false,
        ),
        // Only the topmost header with our id counts: a pass the sender wrote below ours is
        // worth nothing.
        (
            "white@example.test",
            &["mail.example.test; dkim=none", pass],
            None,
            false,
            false,
        ),
        // The id is matched without regard to case.
        (
            "white@example.test",
            &["Mail.Example.Test; dkim=pass header.d=Example.Test"],
            None,
            false,
            true,
        ),
        // Nothing from our server at all.
        ("white@example.test", &[], None, false, false),
        // Answering one of our messages is evidence too (with the id set: without it, see
        // `without_an_authserv_id_only_the_players_trust_verifies`).
        (
            "white@example.test",
            &["mail.example.test; dkim=none"],
            Some("ccmail.g1.3.aa.bb@example.test"),
            false,
            true,
        ),
        // But not for a message whose signature of the sender's domain no longer verifies:
        // a partner's real message, replayed with its move changed.
        (
            "white@example.test",
            &[
                "mail.example.test; dkim=fail reason=\"signature verification failed\" \
               header.d=example.test",
            ],
            Some("ccmail.g1.3.aa.bb@example.test"),
            false,
            false,
        ),
        // A broken signature of someone else (a list's, say) does not count against it.
        (
            "white@example.test",
            &["mail.example.test; dkim=fail header.d=list.test"],
            Some("ccmail.g1.3.aa.bb@example.test"),
            false,
            true,
        ),
        // So is the player's trust.
        ("white@small.test", &[], None, true, true),
    ];
    for (i, (from, headers, answers, trusted, want)) in cases.iter().enumerate() {
        let v = judged(from, headers, *answers, *trusted);
        assert_eq!(verified(&v), *want, "row {i}: {from} {headers:?} -> {v:?}");
    }
}

#[test]
fn the_evidence_is_said_in_words() {
    let v = judged(
        "white@example.test",
        &["mail.example.test; dkim=none"],
        None,
        false,
    );
    assert_eq!(
        unverified(&v).en,
        "mail.example.test found no DKIM signature (dkim=none) for example.test; it does \
         not answer a message ccmail sent in this game"
    );
    assert_eq!(
        unverified(&v).ru,
        "mail.example.test сообщает: нет подписи DKIM (dkim=none) для example.test; оно не \
         отвечает ни на одно письмо, отправленное ccmail в этой партии"
    );
    let v = judged(
        "white@example.test",
        &[
            "mail.example.test; dkim=fail reason=\"signature verification failed\" \
           header.d=example.test",
        ],
        None,
        false,
    );
    assert_eq!(
        unverified(&v).en,
        "mail.example.test found a DKIM signature that did not verify (dkim=fail: signature \
         verification failed); it does not answer a message ccmail sent in this game"
    );
    let v = judged(
        "white@example.test",
        &["mx.evil.test; dkim=pass"],
        None,
        false,
    );
    assert_eq!(
        unverified(&v).en,
        "the message carries no Authentication-Results from mail.example.test, so the \
         player's server vouched for nothing; it does not answer a message ccmail sent in \
         this game"
    );
    let v = judged(
        "white@example.test",
        &["mail.example.test; dkim=pass header.d=evil.test; spf=pass"],
        None,
        false,
    );
    assert_eq!(
        unverified(&v).en,
        "mail.example.test found a valid DKIM signature of evil.test, not of example.test, \
         spf=pass; it does not answer a message ccmail sent in this game"
    );
    let ok = judged(
        "white@example.test",
        &["mail.example.test; dkim=pass header.d=example.test"],
        None,
        false,
    );
    assert_eq!(ok, Verdict::Verified(Proof::Dkim("example.test".into())));
    assert_eq!(
        Proof::Dkim("example.test".into()).to_string(),
        "signed by example.test (DKIM)"
    );
}

#[test]
fn without_an_authserv_id_only_the_players_trust_verifies() {
    let pass = ["mail.example.test; dkim=pass header.d=example.test".to_owned()];
    let forged = ["mail.example.test; dmarc=fail header.from=example.test".to_owned()];
    let mid = "ccmail.g1.3.aa.bb@example.test";
    type Row<'a> = (&'a [String], Option<&'a str>, bool, Verdict);
    let cases: &[Row] = &[
        // No header is anyone's in particular: a pass may be the sender's own.
        (&pass, None, false, Verdict::NotChecked),
        (&forged, None, false, Verdict::NotChecked),
        (&[], None, false, Verdict::NotChecked),
        // Answering one of our Message-IDs is no proof: everyone our mail reached has them
        // (the partner, the arbiter's copies, any mailbox on the way).
        (&[], Some(mid), false, Verdict::NotChecked),
        (&pass, Some(mid), false, Verdict::NotChecked),
        (&forged, Some(mid), false, Verdict::NotChecked),
        // Only the player's own word.
        (&[], None, true, Verdict::Verified(Proof::Trusted)),
        (&[], Some(mid), true, Verdict::Verified(Proof::Trusted)),
    ];
    for (i, (results, answers_ours, trusted, want)) in cases.iter().enumerate() {
        let v = judge(&Evidence {
            authserv_id: None,
            results,
            from: "white@example.test",
            answers_ours: *answers_ours,
            trusted: *trusted,
        });
        assert_eq!(&v, want, "row {i}");
    }
}

#[test]
fn check_proposes_the_topmost_server() {
    let headers = [
        "mx.google.com; dkim=pass header.d=x.test",
        "mail.x.test; dkim=pass header.d=x.test",
    ];
    assert_eq!(
        proposed_authserv_id(headers.iter().copied()).as_deref(),
        Some("mx.google.com")
    );
    assert_eq!(proposed_authserv_id(["dkim=pass"]), None);
}

#[test]
fn what_must_be_verified() {
    use crate::message::MessageKind as K;
    for k in [
        K::Move,
        K::Repeat,
        K::DrawAccept,
        K::Resignation,
        K::BreakNotice,
        K::BreakEnd,
        K::AddressChange,
        K::CorrectionRequest,
        K::Claim,
        K::Adjudication,
    ] {
        assert!(must_be_verified(k), "{k:?}");
    }
    assert!(!must_be_verified(K::Note));
    assert!(!must_be_verified(K::Other));
}

#[test]
fn a_pattern_names_every_server_of_a_provider() {
    assert!(is_ours("mx.google.com", "MX.Google.com"));
    assert!(!is_ours("mx.google.com", "mx.google.com.evil.test"));
    assert!(is_ours("*.mail.yandex.net", "mxfront1o.mail.yandex.net"));
    assert!(is_ours("*.mail.yandex.net", "a.b.mail.yandex.net"));
    assert!(!is_ours("*.mail.yandex.net", "mail.yandex.net"));
    assert!(!is_ours("*.mail.yandex.net", "evilmail.yandex.net"));
    assert!(!is_ours("*.mail.yandex.net", "mail.yandex.net.evil.test"));
    let v = judge(&Evidence {
        authserv_id: Some("*.mail.yandex.net"),
        results: &["mxfront7j.mail.yandex.net; dkim=pass header.i=@gmail.com".to_owned()],
        from: "petrov@gmail.com",
        answers_ours: None,
        trusted: false,
    });
    assert_eq!(v, Verdict::Verified(Proof::Dkim("gmail.com".into())));
}

#[test]
fn what_check_proposes_from_the_newest_mail() {
    let ids = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert_eq!(propose(&[]), None);
    assert_eq!(
        propose(&ids(&["mx.google.com", "mx.google.com", "mail.other.test"])).as_deref(),
        Some("mx.google.com")
    );
    // Each receiving server writes its own name.
    assert_eq!(
        propose(&ids(&[
            "mxfront1o.mail.yandex.net",
            "mxfront2j.mail.yandex.net",
            "mxback5.mail.yandex.net",
        ]))
        .as_deref(),
        Some("*.mail.yandex.net")
    );
    // Nothing shared but a top-level domain: the newest of the most frequent.
    assert_eq!(
        propose(&ids(&["a.example.com", "b.other.com"])).as_deref(),
        Some("a.example.com")
    );
}

#[test]
fn an_altered_answer_says_so() {
    let v = judged(
        "white@example.test",
        &[
            "mail.example.test; dkim=fail reason=\"signature verification failed\" \
           header.d=example.test",
        ],
        Some("ccmail.g1.3.aa.bb@example.test"),
        false,
    );
    assert_eq!(
        unverified(&v).en,
        "mail.example.test found a DKIM signature that did not verify (dkim=fail: signature \
         verification failed); it answers a message ccmail sent in this game, but was \
         changed after it was signed"
    );
}

#[test]
fn the_forged_from_outweighs_thread_and_trust() {
    let answers = Some("ccmail.g1.3.aa.bb@example.test");
    type Row<'a> = (&'a str, Option<&'a str>, bool, bool);
    let cases: &[Row] = &[
        // (our server's header, answers ours, trusted, forged?)
        (
            "mail.example.test; dmarc=fail header.from=example.test",
            answers,
            false,
            true,
        ),
        (
            "mail.example.test; dmarc=fail header.from=example.test",
            None,
            true,
            true,
        ),
        (
            "mail.example.test; dkim=none; dmarc=fail",
            answers,
            false,
            true,
        ),
        (
            "mail.example.test; spf=fail smtp.mailfrom=example.test",
            answers,
            false,
            true,
        ),
        (
            "mail.example.test; spf=fail; dkim=pass header.d=evil.test",
            answers,
            true,
            true,
        ),
        // A forwarded letter: SPF fails, the partner's signature stands.
        (
            "mail.example.test; spf=fail; dkim=pass header.d=example.test",
            None,
            false,
            false,
        ),
        // Another domain's DMARC, or a softer SPF result, is no finding of forgery.
        (
            "mail.example.test; dmarc=fail header.from=other.test",
            answers,
            false,
            false,
        ),
        ("mail.example.test; spf=softfail", answers, false, false),
        // Only our server's header counts, and only its topmost.
        (
            "mx.evil.test; dmarc=fail header.from=example.test",
            answers,
            false,
            false,
        ),
    ];
    for (i, (header, answers, trusted, want)) in cases.iter().enumerate() {
        let v = judged("white@example.test", &[header], *answers, *trusted);
        assert_eq!(
            matches!(v, Verdict::Forged(_)),
            *want,
            "row {i}: {header} -> {v:?}"
        );
    }
    let v = judged(
        "white@example.test",
        &["mail.example.test; dmarc=fail header.from=example.test"],
        answers,
        false,
    );
    let Verdict::Forged(why) = v else {
        panic!("{v:?}")
    };
    assert_eq!(
        why.en,
        "mail.example.test found dmarc=fail for example.test: the From address is forged"
    );
    assert_eq!(
        why.ru,
        "mail.example.test сообщает: dmarc=fail для example.test, адрес в From подделан"
    );
}

#[test]
fn only_the_topmost_header_is_proposed() {
    // The topmost names no server (Outlook): a named one below may be the sender's own.
    let headers = ["spf=pass smtp.mailfrom=x.test", "mx.google.com; dkim=pass"];
    assert_eq!(proposed_authserv_id(headers.iter().copied()), None);
    assert_eq!(
        proposed_authserv_id(["(a comment only)", "mx.google.com; dkim=pass"]),
        None
    );
    assert_eq!(proposed_authserv_id([]), None);
}
