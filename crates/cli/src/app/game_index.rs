//! Which games a message from a known address may belong to, found without loading (or
//! looking at) every game with that address.
//!
//! A message from an opponent is matched to one of their games by its header: the event,
//! White and Black it names must each be the same as the game's, one containing the other, in
//! any case. A player with one game per opponent never needs more; one with many games
//! against the same address (a team match's captain, a double round robin, an arbiter who
//! copies every game) would have each message weighed against every one of them, and a first
//! sync would cost games × messages. The index maps an address to its games, and each of the
//! header's fields to the games with that value: a message's event (or White, or Black) that
//! is some game's exactly gives the games it can fit in one lookup.
//!
//! It gives no fewer games than the pass over all of them would keep: a field narrows only
//! where no value of it among the address's games contains another (then a message's value
//! that is one game's exactly can fit no other game's, but those that leave it empty), and
//! the caller still checks each game it gives by the header rule. Where values nest ("Cup"
//! and "Cup 2"), or a message's value is no game's exactly, that field gives no narrowing.
//!
//! The index is built from the games at hand (the daemon: once a pass) and does not follow
//! later changes; a game added meanwhile is found by the next one.

use std::collections::HashMap;
use std::sync::OnceLock;

use ccmail_core::message::MoveMessage;
use ccmail_store::GameRow;

/// The games by opponent address, and by header within an address.
#[derive(Debug, Default)]
pub struct GameIndex {
    by_address: HashMap<String, Games>,
}

/// One address's games, in the order they were given (the store's: oldest first).
#[derive(Debug, Default)]
struct Games {
    ids: Vec<String>,
    /// Each game's event, White and Black, trimmed and in lower case (as the rule compares).
    values: Vec<[String; 3]>,
    /// Per field, made when first asked for.
    fields: [OnceLock<Field>; 3],
}

/// One field of an address's games.
#[derive(Debug, Default)]
struct Field {
    /// The games with each non-empty value.
    exact: HashMap<String, Vec<usize>>,
    /// The games that leave it empty: they fit any value.
    empty: Vec<usize>,
    /// One value contains another: a message's value may fit games beyond its exact ones.
    nested: bool,
}

/// The rule's form of a value: trimmed, in lower case.
fn key(value: &str) -> String {
    value.trim().to_lowercase()
}

impl GameIndex {
    /// The index of these games, by their opponent address as stored.
    pub fn new(games: &[GameRow]) -> GameIndex {
        let mut by_address: HashMap<String, Games> = HashMap::new();
        for g in games {
            let games = by_address.entry(g.opponent_email.clone()).or_default();
            games.ids.push(g.id.clone());
            games
                .values
                .push([key(&g.event), key(&g.white), key(&g.black)]);
        }
        GameIndex { by_address }
    }

    /// How many games have this opponent address.
    pub fn count(&self, address: &str) -> usize {
        self.by_address.get(address).map_or(0, |g| g.ids.len())
    }

    /// The games with this opponent address that `msg`'s header may fit, oldest first: every
    /// one the header rule keeps, and perhaps some it does not.
    pub fn fitting(&self, address: &str, msg: &MoveMessage) -> Vec<&str> {
        let Some(games) = self.by_address.get(address) else {
            return Vec::new();
        };
        let h = &msg.header;
        let mut best: Option<Vec<usize>> = None;
        for (i, theirs) in [&h.event, &h.white, &h.black].into_iter().enumerate() {
            let Some(theirs) = theirs else {
                continue;
            };
            let theirs = key(theirs);
            if theirs.is_empty() {
                // An empty value fits no game.
                return Vec::new();
            }
            let field = games.field(i);
            if field.nested {
                continue;
            }
            let Some(exact) = field.exact.get(&theirs) else {
                continue;
            };
            if best
                .as_ref()
                .is_none_or(|b| exact.len() + field.empty.len() < b.len())
            {
                let mut these: Vec<usize> = exact.iter().chain(&field.empty).copied().collect();
                these.sort_unstable();
                best = Some(these);
            }
        }
        match best {
            Some(these) => these.into_iter().map(|j| games.ids[j].as_str()).collect(),
            None => games.ids.iter().map(String::as_str).collect(),
        }
    }
}

impl Games {
    fn field(&self, i: usize) -> &Field {
        self.fields[i].get_or_init(|| {
            let mut field = Field::default();
            for (j, values) in self.values.iter().enumerate() {
                let value = &values[i];
                if value.is_empty() {
                    field.empty.push(j);
                } else {
                    field.exact.entry(value.clone()).or_default().push(j);
                }
            }
            field.nested = nested(field.exact.keys());
            field
        })
    }
}

/// Whether one of these distinct values contains another.
fn nested<'a>(values: impl Iterator<Item = &'a String>) -> bool {
    let mut values: Vec<&String> = values.collect();
    values.sort_unstable_by_key(|v| v.len());
    // Only a shorter value can be inside a longer one: values of one length are compared with
    // none of their own length.
    values.iter().enumerate().any(|(i, short)| {
        values[i + 1..]
            .iter()
            .any(|long| long.len() > short.len() && long.contains(short.as_str()))
    })
}

#[cfg(test)]
mod tests {
    use ccmail_core::message::{self, Envelope};

    use super::*;

    fn game(id: &str, opponent: &str, event: &str, white: &str, black: &str) -> GameRow {
        GameRow {
            event: event.into(),
            white: white.into(),
            black: black.into(),
            opponent_email: opponent.into(),
            ..GameRow::new(
                id,
                "2026-03-01".parse().unwrap(),
                "2026-03-01T12:00:00+03:00",
            )
        }
    }

    fn msg(event: Option<&str>, white: Option<&str>, black: Option<&str>) -> MoveMessage {
        let mut m = message::read("", &[], &Envelope::default());
        m.header.event = event.map(str::to_owned);
        m.header.white = white.map(str::to_owned);
        m.header.black = black.map(str::to_owned);
        m
    }

    /// What the pass over every game keeps: the header rule of `apply`'s matching.
    fn kept<'a>(games: &'a [GameRow], address: &str, m: &MoveMessage) -> Vec<&'a str> {
        let same = |a: &str, b: &str| {
            let (a, b) = (key(a), key(b));
            !a.is_empty() && (a.contains(&b) || b.contains(&a))
        };
        games
            .iter()
            .filter(|g| g.opponent_email == address)
            .filter(|g| {
                let h = &m.header;
                [
                    (&h.event, &g.event),
                    (&h.white, &g.white),
                    (&h.black, &g.black),
                ]
                .iter()
                .all(|(theirs, ours)| theirs.as_ref().is_none_or(|t| same(t, ours)))
            })
            .map(|g| g.id.as_str())
            .collect()
    }

    #[test]
    fn a_match_against_one_captain_is_one_lookup_and_keeps_what_the_pass_keeps() {
        let captain = "captain@example.org";
        let mut games: Vec<GameRow> = (0..500)
            .map(|i| {
                let event = format!("Match 2026, board {i:03}");
                game(&format!("g{i}"), captain, &event, "Белов", "Чернов")
            })
            .collect();
        games.push(game(
            "other",
            "x@example.org",
            "Match 2026, board 007",
            "A",
            "B",
        ));
        let index = GameIndex::new(&games);
        assert_eq!(index.count(captain), 500);
        let m = msg(
            Some("  MATCH 2026, Board 007 "),
            Some("белов"),
            Some("Чернов"),
        );
        assert_eq!(index.fitting(captain, &m), ["g7"]);
        assert_eq!(kept(&games, captain, &m), ["g7"]);
        // No event: the players fit every board, so every game is given.
        let m = msg(None, Some("Белов"), Some("Чернов"));
        assert_eq!(index.fitting(captain, &m).len(), 500);
        assert_eq!(index.fitting("nobody@example.org", &m), Vec::<&str>::new());
    }

    /// Whatever the values, the index gives every game the pass over all of them keeps.
    #[test]
    fn the_index_never_leaves_out_a_game_the_rule_keeps() {
        let a = "a@example.org";
        let events = [
            "Cup",
            "Cup 2",
            "cup 2 final",
            "",
            "League",
            "league",
            " Open ",
        ];
        let players = ["Белов", "белов", "Чернов", "", "Petrov"];
        let mut games = Vec::new();
        for (i, e) in events.iter().enumerate() {
            for (j, w) in players.iter().enumerate() {
                let b = players[(i + j) % players.len()];
                games.push(game(&format!("g{i}.{j}"), a, e, w, b));
            }
        }
        // The same address with values that never nest, for the narrowing case.
        let flat = "flat@example.org";
        for (i, e) in ["Alpha", "Bravo", "Delta", ""].iter().enumerate() {
            games.push(game(&format!("f{i}"), flat, e, "W", "B"));
        }
        let index = GameIndex::new(&games);
        let asked = [
            "cup",
            "CUP 2",
            "Cup 2 final",
            "",
            "League",
            "open",
            "Alpha",
            "Bravo",
            "x",
        ];
        for address in [a, flat] {
            for e in asked.iter().map(|e| Some(*e)).chain([None]) {
                for w in players.iter().map(|p| Some(*p)).chain([None, Some("W")]) {
                    let m = msg(e, w, None);
                    let given = index.fitting(address, &m);
                    for id in kept(&games, address, &m) {
                        assert!(given.contains(&id), "{address} {e:?} {w:?}: {id} left out");
                    }
                }
            }
        }
        // Where values don't nest, an exact event gives its games and those without one.
        let m = msg(Some("bravo"), None, None);
        assert_eq!(index.fitting(flat, &m), ["f1", "f3"]);
    }
}
