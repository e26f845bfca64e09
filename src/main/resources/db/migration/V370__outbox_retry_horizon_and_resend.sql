-- Deliveries are retried for a time (payments.outbox.retry-horizon) rather than a count, and an operator can
-- have a delivered effect sent once more. Expand only: two nullable columns the running old code never reads
-- or writes. Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

-- first_failed_at: the first failed try since the row was last put in line (written, redriven or resent);
-- the retry horizon counts from it. NULL until it fails (rows that failed under older code get it at their
-- next failure). resent_at: when an operator last had the delivered row sent once more.
ALTER TABLE outbox
    ADD COLUMN first_failed_at timestamptz,
    ADD COLUMN resent_at       timestamptz;
