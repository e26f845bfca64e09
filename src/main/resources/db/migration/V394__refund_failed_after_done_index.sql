-- The ledger export reads the refunds that failed after they were DONE (their money came back) by when
-- (failed_at, then id) from this small partial index. Built without blocking writes; non-transactional
-- (V394__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY psp_refund_failed_after_done ON psp_refund_attempt (failed_at, id)
    WHERE state = 'FAILED' AND done_at IS NOT NULL;
