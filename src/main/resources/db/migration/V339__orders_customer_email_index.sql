-- The e-mail erasure finds orders that still hold a customer's e-mail past payments.retention.customer-email
-- by this partial index (it shrinks as addresses are erased) instead of a scan of the orders. Built without
-- blocking writes; non-transactional (V339__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY orders_customer_email_held ON orders (updated_at) WHERE customer_email IS NOT NULL;
