-- A game brought in already under way (`ccmail game import`) may not have every move's
-- dates. The days both players had used by ply `carried_through`, as the last message before
-- the import stated them, stand for those plies in the clock (`Carried` in the core's clock).
-- 0 in `carried_through`: nothing is carried, every ply is charged by its own dates.
ALTER TABLE games ADD COLUMN carried_through INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN carried_white INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN carried_black INTEGER NOT NULL DEFAULT 0;

-- A game brought in finished: its PGN for the arbiter (51.9.1) was the player's to send when
-- it finished, before ccmail kept it; ccmail does not send it again. 1 for every other game.
ALTER TABLE games ADD COLUMN pgn_due INTEGER NOT NULL DEFAULT 1;
