-- One checkout and its applied webhook, each statement under EXPLAIN (ANALYZE, BUFFERS, WAL): the WAL
-- records (heap and index entries) and buffers each write costs. On a database seeded by seed-targets.sql
-- with -v base=1000000000 (order '1000000001'). psql -d DB -f explain-paths.sql
\set ON_ERROR_STOP on
SELECT id AS oid FROM orders WHERE order_ref = '1000000001' \gset
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_request)
VALUES (:oid, 'chk_explain', 'IN_FLIGHT', 10.00, 'EUR', 'https://shop.test/thank-you', NULL)
ON CONFLICT (order_id) WHERE state IN ('IN_FLIGHT', 'UNKNOWN', 'READY') DO NOTHING RETURNING *;
COMMIT;
SELECT id AS aid FROM psp_attempt WHERE reference_id = 'chk_explain' \gset
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
UPDATE psp_attempt SET state = 'READY', psp_payment_id = coalesce(psp_payment_id, 'pay_explain'),
       redirect_url = coalesce('https://psp.test/hosted/pay_explain', redirect_url),
       updated_at = CASE WHEN state = 'READY' AND psp_payment_id IS NOT NULL
                          AND redirect_url IS NOT DISTINCT FROM coalesce('https://psp.test/hosted/pay_explain', redirect_url)
                         THEN updated_at ELSE now() END
 WHERE id = :aid AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY') RETURNING *;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
UPDATE orders SET status = 'PROCESSING', psp_payment_id = 'pay_explain', updated_at = now()
 WHERE id = :oid AND status IN ('AWAITING_PAYMENT')
   AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.order_id = :oid
                    AND (a.id > :aid OR (a.id = :aid AND a.failure_reason = 'abandoned')));
COMMIT;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, fault)
VALUES ('pay_explain', 'COMPLETED', 'DEPOSIT', 'chk_explain', '{"id":"pay_explain"}', NULL)
ON CONFLICT (payment_id, state) DO UPDATE SET received_at = now()
 WHERE psp_webhook_event.processed_at IS NULL RETURNING id;
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
UPDATE psp_attempt SET state = 'READY', psp_payment_id = coalesce(psp_payment_id, 'pay_explain'),
       redirect_url = coalesce('https://psp.test/hosted/pay_explain', redirect_url),
       updated_at = CASE WHEN state = 'READY' AND psp_payment_id IS NOT NULL
                          AND redirect_url IS NOT DISTINCT FROM coalesce('https://psp.test/hosted/pay_explain', redirect_url)
                         THEN updated_at ELSE now() END
 WHERE id = :aid AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY') RETURNING *;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
UPDATE orders SET status = 'PAID', paid_amount = 10.00, paid_currency = 'EUR', psp_payment_id = 'pay_explain',
       error_code = NULL, error_message = NULL, updated_at = now()
 WHERE id = :oid AND status IN ('AWAITING_PAYMENT', 'PROCESSING', 'AUTHORIZED')
   AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.order_id = :oid
                    AND (a.id > :aid OR (a.id = :aid AND a.failure_reason = 'abandoned'))) RETURNING *;
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
VALUES ('order_paid', 'order', '1000000001', 'pay_explain:order_paid', '{"orderRef":"1000000001"}', NULL);
EXPLAIN (ANALYZE, BUFFERS, WAL, COSTS OFF, TIMING OFF)
UPDATE psp_webhook_event SET processed_at = now(), processed_reason = 'applied'
 WHERE payment_id = 'pay_explain' AND processed_at IS NULL;
COMMIT;
