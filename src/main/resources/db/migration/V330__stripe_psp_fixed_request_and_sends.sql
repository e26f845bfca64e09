-- Stripe as the PSP (issue 23). Expand only: a new nullable column old code never reads, and a new table.
-- Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

-- What the provider fixed at the claim (Stripe: the Checkout Session's form body with its expires_at, and
-- the claim time), so a replay of the create is byte-identical whatever the config says later. NULL for the
-- Gateway, which fixes nothing, and for every row written by old code.
ALTER TABLE psp_attempt ADD COLUMN psp_request text;

-- The Stripe adapter's send log, one row per Idempotency-Key (our attempt or refund reference): when it was
-- first and last sent (recorded before each send, by the service's clock), and why replays ended (a stored
-- 5xx or an idempotency_error: a replay would only repeat it). Read by the reconcile to bound its session
-- listing and to prove, past the in-flight age, that nothing was created.
CREATE TABLE stripe_psp_send (
    reference_id       text PRIMARY KEY,
    first_sent_at      timestamptz NOT NULL,
    last_sent_at       timestamptz NOT NULL,
    sends              integer NOT NULL DEFAULT 1 CHECK (sends > 0),
    replay_closed_why  text CHECK (replay_closed_why IN ('stored_5xx', 'idempotency_error')),
    replay_closed_at   timestamptz
);
