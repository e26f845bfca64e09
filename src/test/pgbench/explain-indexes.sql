-- Each secondary index of orders and psp_attempt that the hot paths' updates maintain, the statements that
-- read it (the Stores' constants, binds written out), with the index and then without it (dropped inside a
-- transaction that rolls back). psql -d <10^5 database> -f explain-indexes.sql
\set ON_ERROR_STOP on
\echo '=== orders_psp_payment: OrderStore.BY_PAYMENT (CheckoutPayments, StripePaymentEventApplier)'
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT * FROM orders WHERE psp_payment_id = 'pay_h2_4242' ORDER BY id DESC LIMIT 1;
DROP INDEX orders_psp_payment;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT * FROM orders WHERE psp_payment_id = 'pay_h2_4242' ORDER BY id DESC LIMIT 1;
ROLLBACK;
\echo '=== orders_stragglers: OrderStore.CLAIM_STRAGGLERS'
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) UPDATE orders SET last_polled_at = now()
 WHERE id IN (SELECT id FROM orders WHERE status IN ('PROCESSING', 'AUTHORIZED')
                AND updated_at < now() - 120 * interval '1 second'
                AND (last_polled_at IS NULL OR last_polled_at < now() - 120 * interval '1 second')
              ORDER BY last_polled_at NULLS FIRST, updated_at LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING id;
ROLLBACK;
BEGIN;
DROP INDEX orders_stragglers;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) UPDATE orders SET last_polled_at = now()
 WHERE id IN (SELECT id FROM orders WHERE status IN ('PROCESSING', 'AUTHORIZED')
                AND updated_at < now() - 120 * interval '1 second'
                AND (last_polled_at IS NULL OR last_polled_at < now() - 120 * interval '1 second')
              ORDER BY last_polled_at NULLS FIRST, updated_at LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING id;
ROLLBACK;
\echo '=== orders_customer_email_held: OrderStore.ERASE_CUSTOMER_EMAIL (retention)'
BEGIN;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) UPDATE orders SET customer_email = NULL
 WHERE id IN (SELECT id FROM orders WHERE customer_email IS NOT NULL
                AND updated_at < now() - make_interval(secs => 2592000) LIMIT 500 FOR UPDATE SKIP LOCKED);
DROP INDEX orders_customer_email_held;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) UPDATE orders SET customer_email = NULL
 WHERE id IN (SELECT id FROM orders WHERE customer_email IS NOT NULL
                AND updated_at < now() - make_interval(secs => 2592000) LIMIT 500 FOR UPDATE SKIP LOCKED);
ROLLBACK;
\echo '=== orders_client_token_hash_key: OrderStore.TOKEN_EXISTS (and the uniqueness of client tokens)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT EXISTS (SELECT 1 FROM orders WHERE client_token_hash = sha256('x'));
\echo '=== psp_attempt_unresolved: AttemptStore ageing and claim (the sweep)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT id FROM psp_attempt
 WHERE state = 'UNKNOWN' AND updated_at < now() - 120 * interval '1 second' ORDER BY updated_at LIMIT 100 FOR UPDATE SKIP LOCKED;
BEGIN;
DROP INDEX psp_attempt_unresolved;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT id FROM psp_attempt
 WHERE state = 'UNKNOWN' AND updated_at < now() - 120 * interval '1 second' ORDER BY updated_at LIMIT 100 FOR UPDATE SKIP LOCKED;
ROLLBACK;
\echo '=== psp_attempt_payment: AttemptStore.BY_PAYMENT (the webhook)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT * FROM psp_attempt WHERE psp_payment_id = 'pay_h2_4242' ORDER BY id DESC LIMIT 1;
\echo '=== psp_attempt_order: OrderStore.NEWEST_ATTEMPT_WINS (every status move)'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT 1 FROM psp_attempt a WHERE a.order_id = 4242
  AND (a.id > 4242 OR (a.id = 4242 AND a.failure_reason = 'abandoned'));
\echo '=== psp_attempt_abandoned_watch: AttemptStore abandoned watch'
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT id FROM psp_attempt
 WHERE failure_reason = 'abandoned' AND watch_closed_at IS NULL AND state = 'FAILED'
   AND abandoned_at > now() - 2592000 * interval '1 second'
 ORDER BY last_polled_at NULLS FIRST, abandoned_at LIMIT 100 FOR UPDATE SKIP LOCKED;
