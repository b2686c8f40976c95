-- Each game's moves kept again in the game's own row, so that `ccmail games` reads one row
-- per game instead of every move (1,000 games with 60,000 moves in under 100 ms).
--
-- `record` has one line per ply, in ply order: "ply uci san received sent", separated by
-- a newline. (Ordered by a subquery, not `group_concat(… ORDER BY …)`, so that SQLite
-- before 3.44 — Debian 12's sqlite3 and Python — can still read the schema; the reader
-- sorts by ply in any case.) The moves table stays the truth: the triggers below rebuild a
-- game's record on every insert, update and delete of its moves, inside the same
-- transaction, and nothing else writes it.
ALTER TABLE games ADD COLUMN record TEXT NOT NULL DEFAULT '';

UPDATE games SET record = coalesce((
        SELECT group_concat(line, char(10)) FROM (
            SELECT ply || ' ' || uci || ' ' || san || ' ' || received || ' ' || sent AS line
            FROM moves WHERE moves.game_id = games.id ORDER BY ply)), '');

CREATE TRIGGER moves_record_insert AFTER INSERT ON moves BEGIN
    UPDATE games SET record = coalesce((
        SELECT group_concat(line, char(10)) FROM (
            SELECT ply || ' ' || uci || ' ' || san || ' ' || received || ' ' || sent AS line
            FROM moves WHERE moves.game_id = games.id ORDER BY ply)), '')
    WHERE id = NEW.game_id;
END;

CREATE TRIGGER moves_record_update AFTER UPDATE ON moves BEGIN
    UPDATE games SET record = coalesce((
        SELECT group_concat(line, char(10)) FROM (
            SELECT ply || ' ' || uci || ' ' || san || ' ' || received || ' ' || sent AS line
            FROM moves WHERE moves.game_id = games.id ORDER BY ply)), '')
    WHERE id IN (OLD.game_id, NEW.game_id);
END;

CREATE TRIGGER moves_record_delete AFTER DELETE ON moves BEGIN
    UPDATE games SET record = coalesce((
        SELECT group_concat(line, char(10)) FROM (
            SELECT ply || ' ' || uci || ' ' || san || ' ' || received || ' ' || sent AS line
            FROM moves WHERE moves.game_id = games.id ORDER BY ply)), '')
    WHERE id = OLD.game_id;
END;
