-- The Gateway's signed COMPLETED webhook, applied: 6 statements, 1 commit (StatementBudgetIntegrationTests),
-- for the READY attempt checkout.sql left with the same -D base and the same clients and counts.
\set n :n + 1
\set g :base + :client_id * 1000000 + :n
\set pay 9000000000000000 + :g
-- InboxStore: the receipt (autocommit)
INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, fault)
VALUES (:pay, 'COMPLETED', 'DEPOSIT', :pay, CAST(:payload AS jsonb), NULL)
ON CONFLICT (payment_id, state) DO UPDATE SET received_at = now()
 WHERE psp_webhook_event.processed_at IS NULL
RETURNING id \gset w_
BEGIN;
-- AttemptStore: the attempt by payment id
SELECT * FROM psp_attempt WHERE psp_payment_id = :pay ORDER BY id DESC LIMIT 1 \gset a_
-- AttemptStore.PROMOTE_READY again (nothing changes: HOT-able)
UPDATE psp_attempt
   SET state = 'READY', psp_payment_id = coalesce(psp_payment_id, :pay),
       redirect_url = coalesce(:redirect, redirect_url),
       updated_at = CASE WHEN state = 'READY' AND psp_payment_id IS NOT NULL
                          AND redirect_url IS NOT DISTINCT FROM coalesce(:redirect, redirect_url)
                         THEN updated_at ELSE now() END
 WHERE id = :a_id AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')
RETURNING *;
-- OrderStore: PAID
UPDATE orders
   SET status = 'PAID', paid_amount = 10.00, paid_currency = 'EUR',
       psp_payment_id = :pay, error_code = NULL, error_message = NULL, updated_at = now()
 WHERE id = :a_order_id AND status IN ('AWAITING_PAYMENT', 'PROCESSING', 'AUTHORIZED')
   AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.order_id = :a_order_id
                    AND (a.id > :a_id OR (a.id = :a_id AND a.failure_reason = 'abandoned')))
RETURNING * \gset p_
-- OutboxStore.INSERT_TWO: order_paid and the shop's payment.succeeded, one statement
INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
VALUES ('order_paid', 'order', :p_order_ref, :pay, CAST(:effect AS jsonb), :trace),
       ('payment.succeeded', 'order', :p_order_ref, :evt, CAST(:event AS jsonb), :trace);
-- InboxStore: the receipt closed
UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'applied'
 WHERE id = :w_id AND processed_at IS NULL;
COMMIT;
