-- The inbox pruner deletes receipts closed longer ago than payments.retention.inbox-closed: they are found by
-- this partial index instead of a scan of the inbox. Built without blocking writes; non-transactional
-- (V338__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY psp_webhook_event_closed ON psp_webhook_event (processed_at) WHERE processed_at IS NOT NULL;
