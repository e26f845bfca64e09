-- One operation per caller key and order, found by it on a repeat. Built without blocking writes;
-- non-transactional (V366__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE UNIQUE INDEX CONCURRENTLY psp_operation_key ON psp_payment_operation (order_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
