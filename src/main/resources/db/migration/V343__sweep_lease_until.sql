-- The sweep's lease apart from when a row is due (expand only: a nullable column old code never reads).
-- An UNKNOWN row is due at once; a claim hides it from the other instances' passes until lease_until
-- (database clock). Before, the claim's bumped updated_at was the lease, so a row just turned UNKNOWN
-- (updated_at = now()) also waited one lease for its first look. NULL: never claimed since it turned
-- UNKNOWN. While old instances still run they claim without writing it; the lease_version fence keeps
-- a row they hold from being settled twice. Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

ALTER TABLE psp_attempt ADD COLUMN lease_until timestamptz;
ALTER TABLE psp_refund_attempt ADD COLUMN lease_until timestamptz;
ALTER TABLE psp_payment_operation ADD COLUMN lease_until timestamptz;
