//! Whatever ccmail writes, it reads back to the same values.
//!
//! 200 games of random legal play from a fixed seed: every move survives write→read in every
//! notation, and a standard-form message written at points of each game reads back to the
//! same header, record, move, variation, dates, days, totals and flags.

use ccmail_core::message::{
    self, BreakNotice, Envelope, Language, Outgoing, PartnerMove, Signature, Totals,
};
use ccmail_core::notation::{Notation, read_move, write_move};
use chrono::{DateTime, Days, NaiveDate};
use shakmaty::{Chess, Move, Position};

/// xorshift64*: a fixed-seed generator, so every run plays the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of up to `max_plies`, stopping at mate or stalemate.
fn random_game(rng: &mut Rng, max_plies: usize) -> Vec<Move> {
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    while moves.len() < max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Prefer promotions and castling now and then, so they appear often enough.
        let special: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.is_promotion() || m.is_castle() || m.is_en_passant())
            .collect();
        let m = if !special.is_empty() && rng.below(3) == 0 {
            special[rng.below(special.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        pos.play_unchecked(m);
        moves.push(m);
    }
    moves
}

fn games() -> Vec<Vec<Move>> {
    let mut rng = Rng(0x00c0_ffee_d00d_f00d);
    (0..200)
        .map(|i| random_game(&mut rng, 40 + (i % 5) * 40))
        .collect()
}

#[test]
fn every_move_of_200_games_in_every_notation() {
    let mut checked = 0;
    let mut seen_promotion = 0;
    let mut seen_castle = 0;
    for game in games() {
        let mut pos = Chess::default();
        for &m in &game {
            for notation in Notation::ALL {
                let text = write_move(&pos, m, notation);
                let back = read_move(&pos, &text)
                    .unwrap_or_else(|e| panic!("{notation} {text:?} in {pos:?}: {e}"));
                assert_eq!(back, m, "{notation} {text:?}");
                checked += 1;
            }
            seen_promotion += usize::from(m.is_promotion());
            seen_castle += usize::from(m.is_castle());
            pos.play_unchecked(m);
        }
    }
    assert!(checked > 100_000, "only {checked} moves checked");
    assert!(
        seen_promotion > 100 && seen_castle > 50,
        "{seen_promotion} promotions, {seen_castle} castles"
    );
}

fn d(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

#[test]
fn messages_written_at_random_points_read_back() {
    let mut rng = Rng(42);
    let mut checked = 0;
    for (g, game) in games().into_iter().enumerate() {
        if game.len() < 4 {
            continue;
        }
        for _ in 0..3 {
            let ply = 1 + rng.below(game.len() - 2);
            let language = if rng.below(2) == 0 {
                Language::Ru
            } else {
                Language::En
            };
            let notation = [Notation::Numeric, Notation::San, Notation::SanRu][rng.below(3)];
            let start = d("2026-01-14") + Days::new(rng.below(300) as u64);
            let partner_sent = start + Days::new(rng.below(400) as u64);
            let received = partner_sent + Days::new(rng.below(3) as u64);
            let sent = received + Days::new(rng.below(20) as u64);
            let variation_len = rng.below(4).min(game.len() - ply - 1);
            let o = Outgoing {
                language,
                notation,
                event: format!("Кубок «Ладья» {g}"),
                start,
                white: "Смирнов".into(),
                black: "O'Neill-Кузнецов".into(),
                moves: game[..ply].to_vec(),
                partner: Some(PartnerMove {
                    sent: partner_sent,
                    received,
                    accepted: 0,
                }),
                my_move: Some(game[ply]),
                variation: game[ply + 1..ply + 1 + variation_len].to_vec(),
                draw_offer: rng.below(4) == 0,
                draw_accept: false,
                resign: false,
                break_notice: (rng.below(5) == 0).then(|| BreakNotice {
                    from: sent + Days::new(3),
                    to: sent + Days::new(12),
                }),
                repeat_of: (rng.below(6) == 0).then_some(partner_sent),
                notes: vec![],
                sent,
                move_days: rng.below(30) as u32,
                totals: Totals {
                    white: rng.below(200) as u32,
                    black: rng.below(200) as u32,
                },
                signature: Signature {
                    name: "Смирнов Андрей".into(),
                    email: Some("a.smirnov@example.org".into()),
                },
            };
            let text = message::write(&o);
            let envelope = Envelope {
                from: Some("a.smirnov@example.org".into()),
                from_name: Some("Смирнов Андрей".into()),
                subject: Some(message::subject(&o)),
                date: Some(
                    DateTime::parse_from_rfc3339(&format!("{sent}T21:00:00+03:00")).unwrap(),
                ),
                replies: false,
                automatic: false,
            };
            let r = message::read(&text, &[], &envelope);
            let ctx = format!("game {g} ply {ply} {language} {notation}:\n{text}");
            assert_eq!(r.problems, [], "{ctx}");
            assert_eq!(r.header.event.as_deref(), Some(o.event.as_str()), "{ctx}");
            assert_eq!(r.header.start, Some(o.start), "{ctx}");
            assert_eq!(r.header.white.as_deref(), Some("Смирнов"), "{ctx}");
            assert_eq!(r.header.black.as_deref(), Some("O'Neill-Кузнецов"), "{ctx}");
            assert_eq!(r.moves, o.moves, "{ctx}");
            assert_eq!(r.new_move, o.my_move, "{ctx}");
            assert_eq!(r.variation, o.variation, "{ctx}");
            assert_eq!(r.partner_move_sent, Some(partner_sent), "{ctx}");
            assert_eq!(r.received, Some(received), "{ctx}");
            assert_eq!(r.sent, Some(sent), "{ctx}");
            assert_eq!(r.move_days, Some(o.move_days), "{ctx}");
            assert_eq!(r.total_days, Some(o.totals), "{ctx}");
            assert_eq!(r.draw_offer, o.draw_offer, "{ctx}");
            assert!(!r.draw_accept && !r.resign, "{ctx}");
            assert_eq!(r.break_notice, o.break_notice, "{ctx}");
            assert_eq!(r.repeat, o.repeat_of.is_some(), "{ctx}");
            assert_eq!(r.signature.as_ref(), Some(&o.signature), "{ctx}");
            checked += 1;
        }
    }
    assert!(checked >= 500, "only {checked} messages");
}
