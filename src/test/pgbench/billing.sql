-- billing's Stripe invoice.paid for a renewal (each a new user, subscription and grant, as ServiceBenchmark
-- sends it): the claim, then one transaction; 13 statements, 1 commit (StripeEventStatementBudgetIntegrationTests).
-- Ids are a hash of the operation's number, so concurrent keys do not sit side by side, as the benchmark's.
\set n :n + 1
\set h abs(hash(:base + :client_id * 1000000 + :n))
-- ProcessedEventStore: the claim (autocommit)
WITH claimed AS (
    INSERT INTO processed_webhook_events (id, source, event_type, claim_token)
    VALUES (:h, 'stripe', 'invoice.paid', :token)
    ON CONFLICT (id) DO NOTHING
    RETURNING id)
SELECT 'claimed' AS state, false AS expired, 0::bigint AS seconds_left FROM claimed
UNION ALL
SELECT state,
       claimed_at < now() - :lease * INTERVAL '1 millisecond' AS expired,
       CEIL(EXTRACT(EPOCH FROM (claimed_at + :lease * INTERVAL '1 millisecond' - now())))::bigint
           AS seconds_left
FROM processed_webhook_events
WHERE id = :h AND NOT EXISTS (SELECT 1 FROM claimed);
BEGIN;
UPDATE processed_webhook_events
SET state = 'completed', completed_at = now()
WHERE id = :h AND state = 'processing' AND claim_token = :token;
SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended(:h, 0))) AS locked;
INSERT INTO billing_user (user_id) VALUES (:h)
ON CONFLICT (user_id) DO NOTHING;
INSERT INTO billing_subscription (subscription_id, user_id, status)
VALUES (:h, :h, 'active')
ON CONFLICT (subscription_id) DO NOTHING;
INSERT INTO billing_invoice (invoice_id, subscription_id, payment_intent_id, amount_paid, currency,
                             credits_basis)
VALUES (:h, :h, NULL, 2900, 'eur', 500)
ON CONFLICT (invoice_id) DO NOTHING;
INSERT INTO billing_grant (subscription_id, period_start, period_end, source, event_id, invoice_id, credits)
VALUES (:h, 1738281600, 1740873600, 'webhook', :h, :h, 500)
ON CONFLICT (subscription_id, period_start) DO NOTHING;
UPDATE billing_subscription
SET current_period_start = 1738281600, current_period_end = 1740873600, status = 'active', updated_at = now()
WHERE subscription_id = :h AND status <> 'canceled'
  AND (current_period_start IS NULL OR current_period_start <= 1738281600);
UPDATE billing_user SET credits = credits + 500, updated_at = now()
WHERE user_id = :h;
INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
VALUES ('renewal_notice', 'subscription', :h, :h, CAST(:notice AS jsonb), :trace);
INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
VALUES ('conversion', 'subscription', :h, :h, CAST(:conversion AS jsonb), :trace);
-- the payment-intent half is NULL for a renewal (the driver binds NULL; pgbench cannot, so it is written out)
SELECT event_id, kind, payment_intent_id, invoice_id, charge_id, amount, dispute_id
FROM billing_pending_reversal
WHERE applied_at IS NULL
  AND ((CAST(NULL AS text) IS NOT NULL AND payment_intent_id = NULL)
       OR (CAST(:h AS text) IS NOT NULL AND invoice_id = :h))
ORDER BY received_at, event_id
FOR UPDATE;
COMMIT;
