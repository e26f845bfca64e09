-- The order list filtered by status reads its pages from this index, in the same order as orders_created:
-- a rare status is found without walking past every order of the others. Built without blocking writes;
-- non-transactional (V361__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY orders_status_created ON orders (status, created_at, id);
