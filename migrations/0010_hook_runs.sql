-- What the daemon's `on_deadline` hook was told, so that it is told once a day per deadline,
-- across restarts: the hook, the game, the deadline (its kind and date), and the day it ran.
CREATE TABLE hook_runs (
    hook TEXT NOT NULL,
    game_id TEXT NOT NULL,
    what TEXT NOT NULL,
    day TEXT NOT NULL,
    PRIMARY KEY (hook, game_id, what, day)
);
