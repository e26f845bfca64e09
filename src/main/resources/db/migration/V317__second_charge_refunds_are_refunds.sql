-- A second charge's refund is a refund attempt like an order's (issue 21): one psp_refund_attempt row per
-- refund, naming its duplicate_charge, with the same claim, settle, sweep, straggler poll, abandon and
-- listing. It has no caller key (refund_key NULL): the charge itself is what is reserved, by at most one
-- IN_FLIGHT/UNKNOWN/DONE refund per charge (the unique index of V318).
--
-- Expand/contract: the refund_* columns and lease_version of duplicate_charge are no longer written or
-- read by this version; they stay (an old instance still reads them during a rolling deploy) until a later
-- contract migration drops them. So that an old instance can never start a second refund of a charge
-- beside a new one, writes to them are refused from here on: an old instance's claim fails (500) instead.
SET LOCAL lock_timeout = '5s';

ALTER TABLE psp_refund_attempt ALTER COLUMN refund_key DROP NOT NULL;
ALTER TABLE psp_refund_attempt ADD COLUMN duplicate_charge_id bigint;
ALTER TABLE psp_refund_attempt ADD CONSTRAINT psp_refund_duplicate_charge_fk
    FOREIGN KEY (duplicate_charge_id) REFERENCES duplicate_charge (id) NOT VALID;
-- An order refund has its caller's key; a second charge's refund has its charge instead.
ALTER TABLE psp_refund_attempt ADD CONSTRAINT psp_refund_key_or_charge
    CHECK ((refund_key IS NULL) = (duplicate_charge_id IS NOT NULL)) NOT VALID;

CREATE FUNCTION duplicate_charge_refund_columns_retired() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (NEW.refund_reference_id, NEW.refund_state, NEW.refund_psp_payment_id, NEW.refund_error_code,
        NEW.refund_requested_by)
       IS DISTINCT FROM (OLD.refund_reference_id, OLD.refund_state, OLD.refund_psp_payment_id,
                         OLD.refund_error_code, OLD.refund_requested_by) THEN
        RAISE EXCEPTION 'duplicate_charge.refund_* are retired (V317): a second charge''s refund is a psp_refund_attempt row';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER duplicate_charge_refund_columns_retired BEFORE UPDATE ON duplicate_charge
    FOR EACH ROW EXECUTE FUNCTION duplicate_charge_refund_columns_retired();

-- The existing refunds are copied and both constraints validated by V319, outside this transaction.
