-- The books' reconciliation reads a window of refunds by creation time. Built without blocking writes;
-- non-transactional (V397__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY psp_refund_attempt_created ON psp_refund_attempt (created_at);
