-- Leases for the inbox replay and the straggler poll.

-- Bumped by every replay lease of a receipt; the replay's completion checks it (a fenced lease).
ALTER TABLE psp_webhook_event ADD COLUMN lease_version bigint NOT NULL DEFAULT 0;

-- When the straggler job last polled the PSP for this order (its lease; database clock).
ALTER TABLE orders ADD COLUMN last_polled_at timestamptz;

-- Orders still waiting for a final PSP state: the only rows the straggler job scans.
CREATE INDEX orders_stragglers ON orders (updated_at) WHERE status IN ('PROCESSING', 'AUTHORIZED');
