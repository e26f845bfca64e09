-- Validates V328's widened check apart from the transaction that added it, so the scan holds only
-- SHARE UPDATE EXCLUSIVE and writes go on. Rules: docs/migrations.md.
ALTER TABLE psp_attempt VALIDATE CONSTRAINT psp_attempt_failure_reason_check;
