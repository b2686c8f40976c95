-- The games are listed oldest first (`games`, the daemon's pass over every game). Without an
-- index SQLite sorts every row, each with its whole move record, and with a thousand games it
-- spills the sort to a temporary file: `games` read 2 MB and wrote it out again before
-- printing a line.
CREATE INDEX games_in_order ON games (created_at, id);
