-- Settled history as ServiceBenchmark's Seeder.history writes it: :n PAID orders with their READY attempt,
-- DONE refund, processed receipt, delivered outbox row and dedup record; :n completed Stripe events with
-- their user, subscription mirror and grant. psql -v prefix=h1_ -v n=10000 -f seed-history.sql
WITH o AS (
  INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, refunded_amount,
                      psp_payment_id, customer_ref, client_token_hash, created_at, updated_at)
  SELECT :'prefix' || g, 'PAID', 10.00, 'EUR', 10.00, 'EUR', 1.00, 'pay_' || :'prefix' || g, 'cust-' || g,
         sha256(convert_to(:'prefix' || g, 'UTF8')), now() - interval '30 days', now() - interval '30 days'
    FROM generate_series(1, :n) g
  RETURNING id, order_ref, psp_payment_id),
a AS (
  INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                           redirect_url, created_at, updated_at)
  SELECT id, 'chk_' || order_ref, 'READY', 10.00, 'EUR', 'https://shop.test/r', psp_payment_id,
         'https://psp.test/hosted/' || psp_payment_id, now() - interval '30 days', now() - interval '30 days'
    FROM o RETURNING order_id),
r AS (
  INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state, psp_payment_id,
                                  created_at, updated_at)
  SELECT id, 'rk-' || order_ref, 'rfd_' || order_ref, 1.00, 'EUR', 'DONE', 'r' || psp_payment_id,
         now() - interval '29 days', now() - interval '29 days'
    FROM o RETURNING order_id),
w AS (
  INSERT INTO psp_webhook_event (payment_id, state, payment_type, reference_id, payload, first_received_at,
                                 received_at, processed_at, processed_reason)
  SELECT psp_payment_id, 'COMPLETED', 'DEPOSIT', 'chk_' || order_ref,
         jsonb_build_object('id', psp_payment_id, 'state', 'COMPLETED'),
         now() - interval '30 days', now() - interval '30 days', now() - interval '30 days', 'applied'
    FROM o RETURNING id),
x AS (
  INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, state, attempts,
                      created_at, delivered_at, settled_as, next_attempt_at)
  SELECT 'order_paid', 'order', order_ref, psp_payment_id || ':order_paid',
         jsonb_build_object('orderRef', order_ref, 'pspPaymentId', psp_payment_id), 'delivered', 1,
         now() - interval '30 days', now() - interval '30 days', 'sent', now() - interval '30 days'
    FROM o RETURNING id, idempotency_key)
INSERT INTO outbox_dedup (idempotency_key, state, outbox_id, lease_version, claimed_at, sent_at)
SELECT idempotency_key, 'sent', id, 1, now() - interval '30 days', now() - interval '30 days' FROM x;

WITH e AS (
  INSERT INTO processed_webhook_events (id, source, event_type, state, claim_token, claimed_at, completed_at)
  SELECT 'evt_' || :'prefix' || g, 'stripe', 'invoice.paid', 'completed', 't', now() - interval '20 days',
         now() - interval '20 days'
    FROM generate_series(1, :n) g RETURNING id),
u AS (
  INSERT INTO billing_user (user_id, credits) SELECT 'user_' || id, 500 FROM e RETURNING user_id),
s AS (
  INSERT INTO billing_subscription (subscription_id, user_id, status, current_period_start, current_period_end)
  SELECT 'sub_' || user_id, user_id, 'active', 1738281600, 1740873600 FROM u RETURNING subscription_id)
INSERT INTO billing_grant (subscription_id, period_start, period_end, source, event_id, credits)
SELECT subscription_id, 1738281600, 1740873600, 'webhook', 'evt_x', 500 FROM s;
ANALYZE;
