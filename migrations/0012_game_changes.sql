-- What a game was created or imported with, changed afterwards (`ccmail game set`), one row
-- per field changed: the old and new values as shown, and for a change that moves a clock
-- (control, rules, start, last-sent) both clocks before and after, in words. `show` lists them.
CREATE TABLE game_changes (
    id       INTEGER PRIMARY KEY,
    game_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at       TEXT NOT NULL,
    field    TEXT NOT NULL,
    old      TEXT NOT NULL,
    new      TEXT NOT NULL,
    clock    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX game_changes_by_game ON game_changes (game_id);

-- The PGN Round tag of an imported game ('' for none): it goes back out with the export.
ALTER TABLE games ADD COLUMN round TEXT NOT NULL DEFAULT '';
-- An archived game (`ccmail game archive`) is kept whole, out of `games`; `games --all` lists it.
ALTER TABLE games ADD COLUMN archived INTEGER NOT NULL DEFAULT 0;
-- A game imported with no date for our last move: that move's ply. While it is the last
-- ply, the partner's clock, the repeat (51.5.1) and the silence rule (51.5.3) wait for the
-- date (`game set --last-sent`). 0: every date is known.
ALTER TABLE games ADD COLUMN unknown_sent_ply INTEGER NOT NULL DEFAULT 0;
