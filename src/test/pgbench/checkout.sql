-- POST /api/orders/{ref}/checkout, the statements in the order the driver's trace shows them
-- (StatementBudgetIntegrationTests: 7 statements, 2 commits; pgbench sends BEGIN on its own where the
-- driver puts it in front of the first statement). -D base=… -D n=0; :n counts this client's operations.
\set n :n + 1
\set g :base + :client_id * 1000000 + :n
\set pay 9000000000000000 + :g
-- OrderStore: the order by reference (autocommit)
SELECT * FROM orders WHERE order_ref = :g \gset o_
BEGIN;
-- AttemptStore: claim (the open attempt, or nothing)
INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_request)
VALUES (:o_id, :pay, 'IN_FLIGHT', :o_amount, :o_currency, 'https://shop.test/thank-you', NULL)
ON CONFLICT (order_id) WHERE state IN ('IN_FLIGHT', 'UNKNOWN', 'READY') DO NOTHING
RETURNING * \gset a_
-- OrderStore: a failed order back to AWAITING_PAYMENT (no row here)
UPDATE orders SET status = 'AWAITING_PAYMENT', updated_at = now()
 WHERE id = :o_id AND status = 'PAYMENT_FAILED';
COMMIT;
BEGIN;
-- AttemptStore.PROMOTE_READY: the PSP's answer
UPDATE psp_attempt
   SET state = 'READY', psp_payment_id = coalesce(psp_payment_id, :pay),
       redirect_url = coalesce(:redirect, redirect_url),
       updated_at = CASE WHEN state = 'READY' AND psp_payment_id IS NOT NULL
                          AND redirect_url IS NOT DISTINCT FROM coalesce(:redirect, redirect_url)
                         THEN updated_at ELSE now() END
 WHERE id = :a_id AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')
RETURNING *;
-- OrderStore: the order PROCESSING
UPDATE orders
   SET status = 'PROCESSING', psp_payment_id = :pay, updated_at = now()
 WHERE id = :o_id AND status IN ('AWAITING_PAYMENT')
   AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.order_id = :o_id
                    AND (a.id > :a_id OR (a.id = :a_id AND a.failure_reason = 'abandoned')));
COMMIT;
