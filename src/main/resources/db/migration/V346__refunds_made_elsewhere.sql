-- Refunds made elsewhere (Stripe's Dashboard, the PSP's back office) on one of our payments are booked as
-- refunds of that order: origin 'external', no caller key (and no charge, unless it refunds a second
-- charge). Ours are 'api'. Expand only: old instances keep writing rows that take the default, and read
-- an external row like any DONE/FAILED refund. Both checks are validated by V347, outside this transaction.
SET LOCAL lock_timeout = '5s';
ALTER TABLE psp_refund_attempt ADD COLUMN origin text NOT NULL DEFAULT 'api';
ALTER TABLE psp_refund_attempt ADD CONSTRAINT psp_refund_origin CHECK (origin IN ('api', 'external')) NOT VALID;
-- An order refund has its caller's key, a second charge's refund its charge; a refund made elsewhere has
-- no key, and names a charge only when it refunded one.
ALTER TABLE psp_refund_attempt DROP CONSTRAINT psp_refund_key_or_charge;
ALTER TABLE psp_refund_attempt ADD CONSTRAINT psp_refund_key_or_charge
    CHECK (CASE WHEN origin = 'external' THEN refund_key IS NULL
                ELSE (refund_key IS NULL) = (duplicate_charge_id IS NOT NULL) END) NOT VALID;
-- A refund made elsewhere has left already: it counts in refunded_amount even past what was paid (the
-- excess is an over_refund discrepancy for an operator), so that bound is no longer the table's. Our own
-- refunds are still bounded where they are reserved (OrderStore's conditional UPDATE, under the row lock).
ALTER TABLE orders DROP CONSTRAINT orders_refund_within_paid;
