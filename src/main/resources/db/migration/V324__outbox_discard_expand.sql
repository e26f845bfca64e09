-- Dead effects can be discarded (issue 21): an operator settles a dead effect without sending it, so the
-- effects behind it in its stream go on. Expand only: new nullable columns and a wider state check, which
-- the running old code never reads or writes (it lists, claims and counts 'pending'/'dead'/'delivered'
-- only, and a 'discarded' row holds nothing back in its claim). Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

-- dead_at: when the relay parked the row dead (NULL for rows parked by older code: they read as dead since
-- their last scheduled attempt). discarded_*: who settled it unsent, why, when.
ALTER TABLE outbox
    ADD COLUMN dead_at        timestamptz,
    ADD COLUMN discarded_at   timestamptz,
    ADD COLUMN discarded_by   text,
    ADD COLUMN discard_reason text;

-- The new check binds new writes at once; V325 validates the existing rows without blocking writes.
ALTER TABLE outbox DROP CONSTRAINT outbox_state_check;
ALTER TABLE outbox ADD CONSTRAINT outbox_state_check
    CHECK (state IN ('pending', 'delivered', 'dead', 'discarded')) NOT VALID;
