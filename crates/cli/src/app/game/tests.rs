use super::*;
use ccmail_core::notation;

#[test]
fn numeric_from_uci_matches_the_notation_writer() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1",
    ];
    for fen in fens {
        let pos: Chess = Fen::from_ascii(fen.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for m in pos.legal_moves() {
            assert_eq!(
                numeric_of_uci(&to_uci(m)),
                notation::write_move(&pos, m, Notation::Numeric),
                "{m:?} in {fen}"
            );
        }
    }
}

#[test]
fn the_json_dates_and_numeric_moves_are_the_plain_ones() {
    #[derive(serde::Serialize)]
    struct Row<'a> {
        #[serde(serialize_with = "date_json")]
        date: NaiveDate,
        #[serde(serialize_with = "numeric_json")]
        numeric: &'a str,
    }
    let dates = ["2026-03-01", "0999-12-31", "2024-02-29", "9999-01-09"]
        .map(|d| d.parse::<NaiveDate>().unwrap())
        .into_iter()
        .chain([NaiveDate::MIN, NaiveDate::MAX]);
    for (date, uci) in dates.zip(["e2e4", "a7a8q", "e1g1", "h2h1n", "b7c8r", "0000"]) {
        let json = serde_json::to_value(Row { date, numeric: uci }).unwrap();
        assert_eq!(json["date"], serde_json::to_value(date).unwrap());
        assert_eq!(json["numeric"], numeric_of_uci(uci));
    }
    let json = serde_json::to_value(Row {
        date: "2026-11-30".parse().unwrap(),
        numeric: "g7g8b",
    })
    .unwrap();
    assert_eq!(
        json,
        serde_json::json!({"date": "2026-11-30", "numeric": "77783"})
    );
}

/// Enough games for the two-thread load: every game comes back in order, with its own
/// moves replayed, from [`Game::load_all`] and [`Game::load_all_dates`] alike.
#[tokio::test]
async fn many_games_load_in_order_with_their_own_moves() {
    let store = ccmail_store::Store::memory().await.unwrap();
    let start: NaiveDate = "2026-01-10".parse().unwrap();
    let games = crate::app::PARALLEL_FROM + 7;
    let mut tx = store.begin().await.unwrap();
    for i in 0..games {
        let id = format!("g{i:03}");
        let row = GameRow::new(&id, start, &format!("2026-01-10T00:00:00+00:00 {i:03}"));
        store::insert_game(&mut tx, &row).await.unwrap();
        // Game i has i % 5 plies of 1. e4 e5 2. Nf3 Nc6 3. Bb5.
        for (ply, (uci, san)) in [
            ("e2e4", "e4"),
            ("e7e5", "e5"),
            ("g1f3", "Nf3"),
            ("b8c6", "Nc6"),
        ]
        .into_iter()
        .take(i % 5)
        .enumerate()
        {
            let received = start + Days::new(ply as u64 * 2);
            let m = store::MoveRow {
                game_id: id.clone(),
                ply: ply as i64 + 1,
                uci: uci.into(),
                san: san.into(),
                received,
                sent: received + Days::new(1),
                message: None,
            };
            store::insert_move(&mut tx, &m).await.unwrap();
        }
    }
    tx.commit().await.unwrap();
    let mut conn = store.conn().await.unwrap();
    let full = Game::load_all(&mut conn, false).await.unwrap();
    let dates = Game::load_all_dates(&mut conn, false).await.unwrap();
    assert_eq!(full.len(), games);
    assert_eq!(dates.len(), games);
    for (i, (g, d)) in full.iter().zip(&dates).enumerate() {
        assert_eq!(
            (g.id(), d.id()),
            (&*format!("g{i:03}"), &*format!("g{i:03}"))
        );
        let sans: Vec<&str> = g.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6"][..i % 5], "{}", g.id());
        assert_eq!(g.plies.len(), i % 5);
        assert_eq!(g.to_move(), d.to_move(), "{}", g.id());
        let sent: Vec<_> = d.moves.iter().map(|m| m.sent).collect();
        assert_eq!(sent, g.moves.iter().map(|m| m.sent).collect::<Vec<_>>());
    }
}
