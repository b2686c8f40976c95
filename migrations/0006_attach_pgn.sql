-- Whether our move messages in a game carry the game so far as a PGN attachment
-- (`ccmail game new --attach-pgn`, `ccmail game set GAME --attach-pgn on|off`, the config's
-- `[defaults] attach_pgn`): for a partner who loads games into Scid, cmail or ChessBase.
-- Off for every game made before.
ALTER TABLE games ADD COLUMN attach_pgn INTEGER NOT NULL DEFAULT 0;
-- (A friendly game, made without --arbiter, keeps an empty arbiter_email: that needs no
-- column.)
