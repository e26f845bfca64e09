-- A second charge is refunded at most once at a time: at most one IN_FLIGHT, UNKNOWN or DONE refund per
-- charge, enforced by PostgreSQL (the charge is the refund's reservation, as refunded_amount is an
-- order's). A FAILED refund's id is its own key, so any number of failed ones may sit beside the live
-- one, and the same index finds every refund of a charge (the listing, "not refunded").
CREATE UNIQUE INDEX CONCURRENTLY psp_refund_one_live_per_charge ON psp_refund_attempt
    (duplicate_charge_id, (CASE WHEN state = 'FAILED' THEN id ELSE 0 END))
    WHERE duplicate_charge_id IS NOT NULL;
