-- Validates V346's checks apart from the transaction that added them, so the scan holds only
-- SHARE UPDATE EXCLUSIVE and writes go on. Rules: docs/migrations.md.
ALTER TABLE psp_refund_attempt VALIDATE CONSTRAINT psp_refund_origin;
ALTER TABLE psp_refund_attempt VALIDATE CONSTRAINT psp_refund_key_or_charge;
