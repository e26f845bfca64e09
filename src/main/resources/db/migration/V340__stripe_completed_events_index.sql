-- The Stripe event pruner deletes completed events older than stripe.prune.retention by completed_at; the
-- index on (state, claimed_at) does not order them by that, so a large table was read in full. Built without
-- blocking writes; non-transactional (V340__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY processed_webhook_events_completed_at ON processed_webhook_events (completed_at)
    WHERE state = 'completed';
