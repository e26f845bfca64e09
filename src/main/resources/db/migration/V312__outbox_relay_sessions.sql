-- Issue 12: a dedup key in 'sending' belongs to the relay that took it for as long as that relay's
-- database session lives, not only until its lease runs out. Each relay holds a session-level
-- advisory lock (31012, holder) on a connection of its own; another relay may take an expired key
-- over only when that lock is free (the holder died, or its session ended), so a slow but living
-- relay is never doubled. NULL: a key taken before this migration (lease expiry alone decides).
ALTER TABLE outbox_dedup ADD COLUMN holder integer;

-- One id per relay (per process start), the second key of the advisory lock.
CREATE SEQUENCE outbox_relay_holder_seq AS integer CYCLE;
