-- The daemon's failed tries at reading a message, by mailbox (the sync state's key) and UID: a
-- message whose reading or applying failed twice (an error, or a pass that died on it) is held
-- unread, and the pass moves on past it. One letter must not stop the daemon.
CREATE TABLE read_tries (
    mailbox TEXT NOT NULL,
    uid_validity INTEGER NOT NULL,
    uid INTEGER NOT NULL,
    tries INTEGER NOT NULL,
    -- The error of the last failed try; NULL when the pass died without one (a crash, a
    -- memory limit).
    last_error TEXT,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (mailbox, uid_validity, uid)
);

-- A pass under way, by mailbox: the UID it reads after, the message it reads when it reads one
-- at a time, and the machine's count of processes killed for want of memory when it began. One
-- left behind says that the pass died: the next reads one message at a time, and the message
-- it died on counts a failed try if the count grew meanwhile (a memory limit, not a kill).
CREATE TABLE read_passes (
    mailbox TEXT PRIMARY KEY,
    uid_validity INTEGER NOT NULL,
    after_uid INTEGER NOT NULL,
    reading_uid INTEGER,
    oom_kills INTEGER,
    started_at TEXT NOT NULL
);
