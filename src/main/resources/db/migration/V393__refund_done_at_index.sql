-- The ledger export reads the refunds that were DONE by when (done_at, then id) from this index. Built without
-- blocking writes; non-transactional (V393__….sql.conf), alone in its migration. Rules: docs/migrations.md.
CREATE INDEX CONCURRENTLY psp_refund_done_at ON psp_refund_attempt (done_at, id) WHERE done_at IS NOT NULL;
