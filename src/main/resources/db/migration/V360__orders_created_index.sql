-- The order list (GET /api/orders, newest first, cursor paging on (created_at, id)) reads its pages from this
-- index, scanned backwards from the cursor, instead of sorting the orders. Built without blocking writes;
-- non-transactional (V360__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY orders_created ON orders (created_at, id);
