-- Mail from a correspondent finds its game by the opponent's address (`games_with`). Without
-- an index each message read every game's row: 53 µs a message with 200 games in the bench
-- store, the largest single cost of the store's thread on a first sync of 5,000 messages.
CREATE INDEX games_by_opponent ON games (opponent_email, created_at);
