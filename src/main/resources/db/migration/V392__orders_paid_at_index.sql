-- The ledger export reads an order's payment by when it happened, in that order (paid_at, then id), from this
-- index instead of scanning and sorting the orders. Built without blocking writes; non-transactional
-- (V392__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY orders_paid_at ON orders (paid_at, id) WHERE paid_at IS NOT NULL;
