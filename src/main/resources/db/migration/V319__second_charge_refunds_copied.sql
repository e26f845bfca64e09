-- Non-transactional (V319__….sql.conf): each statement commits on its own, so none holds a lock for long;
-- safe to run again after a failure. Rules: docs/migrations.md.

-- The refunds of existing second charges move into the new shape (V317), in batches of 1,000 charge ids,
-- each its own transaction. Their PSP state was never stored: a DONE one keeps psp_state NULL (V325 sets it
-- from a closed COMPLETED receipt; otherwise the straggler poll reads it from the PSP, learning a late
-- DECLINED it may have missed). An open one is swept by reference as any refund. V317's trigger already
-- refuses new writes to the old columns, so nothing is missed between the batches.
DO $$
DECLARE
    from_id bigint := 0;
    max_id  bigint;
BEGIN
    SELECT coalesce(max(id), 0) INTO max_id FROM duplicate_charge;
    WHILE from_id <= max_id LOOP
        INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, amount, currency, state,
                                        psp_payment_id, error_code, requested_by, created_at, updated_at)
        SELECT order_id, id, refund_reference_id, amount, currency, refund_state, refund_psp_payment_id,
               refund_error_code, refund_requested_by, coalesce(refund_updated_at, detected_at),
               coalesce(refund_updated_at, detected_at)
          FROM duplicate_charge
         WHERE id >= from_id AND id < from_id + 1000 AND refund_reference_id IS NOT NULL
        ON CONFLICT (reference_id) DO NOTHING;
        COMMIT;
        from_id := from_id + 1000;
    END LOOP;
END $$;

-- Scan under SHARE UPDATE EXCLUSIVE: reads and writes go on while they run.
ALTER TABLE psp_refund_attempt VALIDATE CONSTRAINT psp_refund_duplicate_charge_fk;
ALTER TABLE psp_refund_attempt VALIDATE CONSTRAINT psp_refund_key_or_charge;
