-- The books' reconciliation reads a window of attempts by creation time. Built without blocking writes;
-- non-transactional (V396__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY psp_attempt_created ON psp_attempt (created_at);
