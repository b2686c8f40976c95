-- Why a finished game ended, recorded when it ends: checkmate, stalemate,
-- insufficient_material, resignation, agreement, time_forfeit or adjudication (the side is
-- the loser of `result`). `show`, `games --all` and the PGN say it. NULL while the game goes
-- on, and for a game that ended before this column: its ending is then read from the final
-- position, its letters and the clock, as before.
ALTER TABLE games ADD COLUMN ending TEXT;
