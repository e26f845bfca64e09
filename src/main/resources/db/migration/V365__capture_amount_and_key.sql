-- A capture may take less than was authorized: the amount asked for is fixed at the claim, so a replay or
-- a sweep of that operation acts on exactly it (NULL: all of it). Capture and void take the caller's
-- Idempotency-Key; a repeat with it answers the first. Expand only: nullable columns old code ignores.
-- Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

ALTER TABLE psp_payment_operation ADD COLUMN amount numeric;
ALTER TABLE psp_payment_operation ADD COLUMN idempotency_key text;
