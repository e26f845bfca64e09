-- The pruner deletes discarded rows after payments.outbox.prune.retention, as delivered ones, and operators
-- list them: few rows, found by this partial index instead of a scan of the outbox. Built without blocking
-- writes; non-transactional (V326__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY outbox_discarded ON outbox (discarded_at) WHERE state = 'discarded';
