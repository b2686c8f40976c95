-- An outbox item in a sender's hands. A sender claims an item (in_flight = 1), sends it, and
-- records the outcome (in_flight = 0) — each step committed on its own. Senders take turns
-- through a lock file beside the database that the kernel releases when a process dies, so a
-- sender holding that lock knows no other sender is alive: an item still in flight was left
-- by one that died mid-send (kill -9, a power cut) and is made due again at once. It is sent
-- with the same bytes, so a message the server had taken already arrives twice with the same
-- Message-ID, and the receiving ccmail ignores the second.
ALTER TABLE outbox ADD COLUMN in_flight INTEGER NOT NULL DEFAULT 0 CHECK (in_flight IN (0, 1));
