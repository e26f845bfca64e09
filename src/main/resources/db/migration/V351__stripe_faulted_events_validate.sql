-- Non-transactional (V351__….sql.conf): scans processed_webhook_events under SHARE UPDATE EXCLUSIVE, so reads
-- and writes go on while it runs; safe to run again after a failure. Rules: docs/migrations.md.
ALTER TABLE processed_webhook_events VALIDATE CONSTRAINT processed_webhook_events_state_check;
