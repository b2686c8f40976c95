-- ccmail's store: games, their moves with dates, every message in and out (raw), penalties,
-- breaks, the outbox and the IMAP sync state. Dates are TEXT 'YYYY-MM-DD'; instants are TEXT
-- RFC 3339. Colours are 'white'/'black'. Append-only history: never edit a merged migration.

-- One correspondence game (51.2.2: competition, start date, both surnames).
CREATE TABLE games (
    id              TEXT PRIMARY KEY,          -- short id shown to the user
    event           TEXT NOT NULL,
    start_date      TEXT NOT NULL,
    white           TEXT NOT NULL,             -- surnames, as in the game header
    black           TEXT NOT NULL,
    my_color        TEXT NOT NULL CHECK (my_color IN ('white', 'black')),
    opponent_email  TEXT NOT NULL,             -- lower case; 51.1.2: mail from elsewhere is held
    arbiter_email   TEXT NOT NULL,
    rules           TEXT NOT NULL CHECK (rules IN ('article51', 'postal104')),
    control_moves   INTEGER NOT NULL CHECK (control_moves > 0),
    control_days    INTEGER NOT NULL CHECK (control_days > 0),
    notation        TEXT NOT NULL,             -- numeric | san | san-ru
    language        TEXT NOT NULL CHECK (language IN ('ru', 'en')),
    status          TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active', 'suspended', 'finished')),
    result          TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    -- 'white'/'black' while that side's draw offer stands (51.8).
    draw_offered_by TEXT CHECK (draw_offered_by IN ('white', 'black')),
    -- 51.3.4: the date we received a faulty message whose correction request is not sent yet.
    correction_due  TEXT,
    -- The date we received the partner's last move while it is ours to answer (our clock
    -- runs from it); NULL while the partner is to move.
    awaited_received TEXT,
    -- Our statements for the next reply (51.2.3: dates substituted or corrected, a wrong
    -- repetition, a penalty), one per line.
    reply_notes     TEXT NOT NULL DEFAULT '',
    -- 51.5.1: the partner repeated a move; our answer goes Cc the arbiter.
    answer_cc_arbiter INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL
);

-- The moves made, ply 1 = White's first. `received` is the date the mover received the
-- previous move (ply 1: the start date), `sent` the date this move was sent (51.4.4).
CREATE TABLE moves (
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL CHECK (ply > 0),
    uci         TEXT NOT NULL,
    san         TEXT NOT NULL,
    received    TEXT NOT NULL,
    sent        TEXT NOT NULL,
    message     INTEGER REFERENCES messages (id),  -- the message that carried it
    PRIMARY KEY (game_id, ply)
);

-- Conditional variations (51.3.7): proposed with ply `proposed_with`, the moves after it as
-- UCI separated by spaces; `accepted_through` is the last ply the partner accepted.
CREATE TABLE variations (
    id                INTEGER PRIMARY KEY,
    game_id           TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    proposed_by       TEXT NOT NULL CHECK (proposed_by IN ('white', 'black')),
    proposed_with     INTEGER NOT NULL,
    moves             TEXT NOT NULL,
    accepted_through  INTEGER
);

-- Every message in and out, raw, with its dates (51.1.3) and what was done with it.
CREATE TABLE messages (
    id            INTEGER PRIMARY KEY,
    direction     TEXT NOT NULL CHECK (direction IN ('in', 'out')),
    message_id    TEXT,                 -- RFC 5322 Message-ID without <>; ours are stable
    content_hash  TEXT NOT NULL,        -- SHA-256 of the raw bytes, for mail without an id
    raw           BLOB NOT NULL,
    game_id       TEXT REFERENCES games (id),
    kind          TEXT NOT NULL,        -- move, resign, draw, repeat, correction, break, claim,
                                        -- pgn, adjudication, address, unknown
    from_addr     TEXT,
    to_addrs      TEXT,                 -- comma-separated
    subject       TEXT,
    date_header   TEXT,                 -- the Date: header, RFC 3339 in the sender's offset
    received_at   TEXT,                 -- arrival (IMAP INTERNALDATE or `apply --received`)
    status        TEXT NOT NULL CHECK (status IN ('applied', 'held', 'dismissed', 'info', 'queued', 'sent')),
    reason        TEXT,                 -- why it was held, in words
    mailbox       TEXT,
    uid_validity  INTEGER,
    uid           INTEGER,
    created_at    TEXT NOT NULL
);
CREATE UNIQUE INDEX messages_by_id ON messages (direction, message_id) WHERE message_id IS NOT NULL;
CREATE UNIQUE INDEX messages_by_hash ON messages (direction, content_hash);
CREATE INDEX messages_by_game ON messages (game_id);
CREATE INDEX messages_held ON messages (status) WHERE status = 'held';

-- 51.4.7 penalties, with their cause and the ply they are recorded at.
CREATE TABLE penalties (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player      TEXT NOT NULL CHECK (player IN ('white', 'black')),
    days        INTEGER NOT NULL CHECK (days >= 0),
    cause       TEXT NOT NULL,          -- illegible, ambiguous, impossible, no_move, wrong_repetition, late_repeat
    ply         INTEGER NOT NULL,
    message     INTEGER REFERENCES messages (id),
    created_at  TEXT NOT NULL
);

-- Thinking periods that are not moves (51.4.8): a correction request's delay, a rejected
-- message's days.
CREATE TABLE extra_periods (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    player      TEXT NOT NULL CHECK (player IN ('white', 'black')),
    from_date   TEXT NOT NULL,
    to_date     TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('correction_request', 'rejected_message')),
    fault       TEXT,                   -- the penalty cause the correction answers
    ply         INTEGER NOT NULL
);

-- Breaks (51.7, 10.4): ours (game_id NULL: they apply to every game) and partners' (per game).
CREATE TABLE breaks (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT REFERENCES games (id) ON DELETE CASCADE,
    from_date   TEXT NOT NULL,
    to_date     TEXT NOT NULL,
    notice_date TEXT,                   -- postal104: the notice's date in that game
    ended_on    TEXT,                   -- ended early: the first day of play again
    created_at  TEXT NOT NULL
);

-- What is to be sent, after the transaction that queued it commits.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,
    message         INTEGER NOT NULL UNIQUE REFERENCES messages (id),
    envelope_from   TEXT NOT NULL,
    recipients      TEXT NOT NULL,      -- comma-separated addresses (To and Cc)
    status          TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    last_error      TEXT,
    sent_at         TEXT
);
CREATE INDEX outbox_due ON outbox (status, next_attempt_at);

-- Per mailbox: which UIDs have been read (UIDVALIDITY + last UID).
CREATE TABLE sync_state (
    mailbox       TEXT PRIMARY KEY,
    uid_validity  INTEGER NOT NULL,
    last_uid      INTEGER NOT NULL,
    updated_at    TEXT NOT NULL
);
