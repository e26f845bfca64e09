-- One UNKNOWN attempt the PSP shows COMPLETED, settled by the sweep: one fenced transaction, 5 statements
-- (StatementBudgetIntegrationTests: lease lock, promote, PAID move, order_paid, COMMIT), on the rows
-- seed-targets.sql numbered; -D afirst / ofirst: the first seeded attempt / order id, -D per: as seeded.
\set n :n + 1
\set g :base + :client_id * 1000000 + :n
\set aid :afirst + :client_id * :per + :n - 1
\set oid :ofirst + :client_id * :per + :n - 1
\set pay 8000000000000000 + :g
BEGIN;
SELECT id FROM psp_attempt WHERE id = :aid AND lease_version = :lv FOR UPDATE;
UPDATE psp_attempt
   SET state = 'READY', psp_payment_id = coalesce(psp_payment_id, :pay),
       redirect_url = coalesce(:redirect, redirect_url),
       updated_at = CASE WHEN state = 'READY' AND psp_payment_id IS NOT NULL
                          AND redirect_url IS NOT DISTINCT FROM coalesce(:redirect, redirect_url)
                         THEN updated_at ELSE now() END
 WHERE id = :aid AND state IN ('IN_FLIGHT', 'UNKNOWN', 'READY')
RETURNING *;
UPDATE orders
   SET status = 'PAID', paid_amount = 10.00, paid_currency = 'EUR',
       psp_payment_id = :pay, error_code = NULL, error_message = NULL, updated_at = now()
 WHERE id = :oid AND status IN ('AWAITING_PAYMENT', 'PROCESSING', 'AUTHORIZED')
   AND NOT EXISTS (SELECT 1 FROM psp_attempt a WHERE a.order_id = :oid
                    AND (a.id > :aid OR (a.id = :aid AND a.failure_reason = 'abandoned')))
RETURNING * \gset p_
INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
VALUES ('order_paid', 'order', :p_order_ref, :pay, CAST(:effect AS jsonb), NULL);
COMMIT;
