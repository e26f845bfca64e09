-- The checkout sweep's claim (AttemptStore): up to :batch UNKNOWN attempts no pass holds (:claimage: the lease in seconds), each with its
-- order's part of the reconcile's request. One transaction per claim, as the sweep's.
UPDATE psp_attempt SET state = 'UNKNOWN', updated_at = now()
 WHERE id IN (SELECT id FROM psp_attempt
               WHERE state = 'IN_FLIGHT' AND updated_at < now() - 300 * interval '1 second'
               ORDER BY updated_at LIMIT :batch FOR UPDATE SKIP LOCKED);
WITH claimed AS (
  UPDATE psp_attempt SET lease_version = lease_version + 1, updated_at = now(),
                         lease_until = now() + :claimage * interval '1 second'
   WHERE id IN (SELECT id FROM psp_attempt
                 WHERE state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
                 ORDER BY updated_at LIMIT :batch FOR UPDATE SKIP LOCKED)
  RETURNING *)
SELECT c.*, o.order_ref AS payer_order_ref, o.customer_ref AS payer_customer_ref,
       o.customer_email AS payer_customer_email
  FROM claimed c JOIN orders o ON o.id = c.order_id;
UPDATE psp_payment_operation SET state = 'UNKNOWN', updated_at = now()
 WHERE id IN (SELECT id FROM psp_payment_operation
               WHERE state = 'IN_FLIGHT' AND updated_at < now() - 300 * interval '1 second'
               ORDER BY updated_at LIMIT :batch FOR UPDATE SKIP LOCKED);
UPDATE psp_payment_operation SET lease_version = lease_version + 1, updated_at = now(),
                                 lease_until = now() + 120 * interval '1 second'
 WHERE id IN (SELECT id FROM psp_payment_operation
               WHERE state = 'UNKNOWN' AND (lease_until IS NULL OR lease_until <= now())
               ORDER BY updated_at LIMIT :batch FOR UPDATE SKIP LOCKED)
RETURNING id, order_id, kind, state, psp_payment_id, lease_version, amount, idempotency_key;
