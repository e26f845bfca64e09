-- Non-transactional (V325__….sql.conf): each statement commits on its own, so neither holds a lock for
-- long. Both are safe to run again after a failure. Rules: docs/migrations.md.

-- Scans the outbox under SHARE UPDATE EXCLUSIVE: reads and writes go on while it runs.
ALTER TABLE outbox VALIDATE CONSTRAINT outbox_state_check;

-- Refunds made before V313 carry psp_state NULL, so the straggler poll asks the PSP about every one of them
-- (and for ever once the PSP has purged them). Where the inbox still holds the PSP's closed COMPLETED receipt
-- for the refund payment, and no DECLINED/CANCELLED one contradicts it, that is its PSP state. The rest stay
-- NULL: the poll asks about them for payments.refunds.abandoned-watch after their last change, then leaves
-- them (RefundStore.CLAIM_NOT_FINAL). In batches of 1,000 ids, each its own transaction; updated_at is kept.
DO $$
DECLARE
    from_id bigint := 0;
    max_id  bigint;
BEGIN
    SELECT coalesce(max(id), 0) INTO max_id FROM psp_refund_attempt;
    WHILE from_id <= max_id LOOP
        UPDATE psp_refund_attempt r
           SET psp_state = 'COMPLETED'
         WHERE r.id >= from_id AND r.id < from_id + 1000
           AND r.state = 'DONE' AND r.psp_state IS NULL AND r.psp_payment_id IS NOT NULL
           AND EXISTS (SELECT 1 FROM psp_webhook_event e
                        WHERE e.payment_id = r.psp_payment_id AND e.state = 'COMPLETED'
                          AND e.processed_at IS NOT NULL)
           AND NOT EXISTS (SELECT 1 FROM psp_webhook_event e
                            WHERE e.payment_id = r.psp_payment_id AND e.state IN ('DECLINED', 'CANCELLED'));
        COMMIT;
        from_id := from_id + 1000;
    END LOOP;
END $$;
