-- The times of V390 for rows settled before it, in batches of 10,000 ids, each its own transaction; only NULLs
-- are set, so it is safe to run again and never overwrites what the triggers recorded meanwhile. The exact
-- times were never kept, so these are the best the rows still tell: an order was paid at its last update, or
-- before its first refund was asked for when that came earlier (a refund moves updated_at on); a DONE refund
-- at its last update. A refund that failed after it was DONE cannot be told from one that never was (both
-- FAILED), so it gets no done_at and the ledger shows neither of its movements. Non-transactional
-- (V391__….sql.conf). Rules: docs/migrations.md.
DO $$
DECLARE
    from_id bigint := 0;
    max_id  bigint;
BEGIN
    SELECT coalesce(max(id), 0) INTO max_id FROM orders;
    WHILE from_id <= max_id LOOP
        UPDATE orders o
           SET paid_at = least(o.updated_at, (SELECT min(r.created_at) FROM psp_refund_attempt r
                                                WHERE r.order_id = o.id AND r.duplicate_charge_id IS NULL))
         WHERE o.id >= from_id AND o.id < from_id + 10000 AND o.status = 'PAID' AND o.paid_at IS NULL;
        COMMIT;
        from_id := from_id + 10000;
    END LOOP;

    from_id := 0;
    SELECT coalesce(max(id), 0) INTO max_id FROM psp_refund_attempt;
    WHILE from_id <= max_id LOOP
        UPDATE psp_refund_attempt SET done_at = updated_at
         WHERE id >= from_id AND id < from_id + 10000 AND state = 'DONE' AND done_at IS NULL;
        COMMIT;
        from_id := from_id + 10000;
    END LOOP;
END $$;
