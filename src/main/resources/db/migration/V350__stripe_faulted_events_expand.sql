-- A signed Stripe event whose values cannot be stored (a NUL, an overlong id, a currency that is not ISO 4217)
-- is kept as 'faulted' with why, answered 200 so Stripe stops redelivering it, and listed for operators.
-- Expand only: a nullable column and a wider state check. Old code passes a 'faulted' row over (its claim
-- finds no 'processing' row to take over and answers retry-later). Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

ALTER TABLE processed_webhook_events ADD COLUMN fault_reason text;

-- The new check binds new writes at once; V351 validates the existing rows without blocking writes.
ALTER TABLE processed_webhook_events DROP CONSTRAINT processed_webhook_events_state_check;
ALTER TABLE processed_webhook_events ADD CONSTRAINT processed_webhook_events_state_check
    CHECK (state IN ('processing', 'completed', 'faulted')) NOT VALID;
