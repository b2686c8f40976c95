-- Senders the player trusts without verification, per game: a partner whose provider does not
-- sign its mail. Only that address, only in that game.
CREATE TABLE trusted_senders (
    game_id TEXT NOT NULL REFERENCES games(id),
    address TEXT NOT NULL,
    since TEXT NOT NULL,
    PRIMARY KEY (game_id, address)
);

-- This database's own secrets: the key that makes ccmail's Message-IDs unguessable, so that a
-- message answering one of them shows that its sender saw our mail.
CREATE TABLE secrets (
    name TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
