-- The operator audit records what became of each action (issue 21): the row is still written when the
-- action is asked for (an action whose instance dies mid-way stays on record, outcome NULL), and the
-- answer's HTTP status and its meaning are added when the request completes. Additive: old code's rows
-- (and those of old instances during a rolling deploy) keep NULL.
SET LOCAL lock_timeout = '5s';

ALTER TABLE operator_action
    ADD COLUMN outcome text,
    ADD COLUMN status  smallint;

-- NOT VALID: no scan of the audit trail under the lock; every existing row is NULL, which passes, and new
-- rows are checked from now on. A later migration may VALIDATE it.
ALTER TABLE operator_action
    ADD CONSTRAINT operator_action_outcome CHECK (outcome IN ('done', 'refused', 'unknown', 'failed')) NOT VALID;
