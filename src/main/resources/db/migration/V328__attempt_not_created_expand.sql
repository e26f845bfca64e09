-- A provider that can prove nothing was created (Stripe: a session listing around the claim that finds
-- none, taken after the in-flight age) closes the attempt FAILED with failure_reason 'not_created' and
-- frees the order (issue 23). Widening only: old code reads failure_reason as text and never writes the
-- new value. Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

-- The new check binds new writes at once; V329 validates the existing rows without blocking writes.
ALTER TABLE psp_attempt DROP CONSTRAINT psp_attempt_failure_reason_check;
ALTER TABLE psp_attempt ADD CONSTRAINT psp_attempt_failure_reason_check
    CHECK (failure_reason IN ('declined', 'rejected', 'abandoned', 'not_created')) NOT VALID;
