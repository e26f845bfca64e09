-- Rolling-deploy guard for V317's shape. The release before V317 knew only order refunds: on a refund it
-- moves to FAILED (a late DECLINED for a DONE refund, a declined UNKNOWN one, an abandon) it gives the
-- amount back on the order (refunded_amount - amount). Running beside this version, it finds a second
-- charge's refund in psp_refund_attempt too (by reference or PSP id, or its sweep's claim) and would give
-- back on the order an amount the order never reserved (the charge is that refund's reservation), freeing
-- room for refunds above what the order paid.
--
-- So the database allows an order's refunded_amount to go down only by what refunds of that order
-- (duplicate_charge_id NULL) moved to FAILED in the same transaction: the refund row's move notes the
-- amount (a transaction-local setting, undone with a rolled-back savepoint), the order's release uses
-- it up. Every release of this version and of the previous one updates the refund row first (the lock
-- order), so only the old code's release for a second charge's refund is refused (check_violation): its
-- transaction rolls back and the report is retried until a current instance applies it.
SET LOCAL lock_timeout = '5s';

CREATE FUNCTION psp_refund_release_noted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    setting text := 'payments.refund_release_' || NEW.order_id;
BEGIN
    PERFORM set_config(setting,
        (coalesce(nullif(current_setting(setting, true), ''), '0')::numeric + NEW.amount)::text, true);
    RETURN NULL;
END
$$;
CREATE TRIGGER psp_refund_release_noted AFTER UPDATE OF state ON psp_refund_attempt
    FOR EACH ROW WHEN (NEW.state = 'FAILED' AND OLD.state <> 'FAILED' AND NEW.duplicate_charge_id IS NULL)
    EXECUTE FUNCTION psp_refund_release_noted();

CREATE FUNCTION orders_refund_release_backed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    setting text := 'payments.refund_release_' || NEW.id;
    noted numeric := coalesce(nullif(current_setting(setting, true), ''), '0')::numeric;
    released numeric := OLD.refunded_amount - NEW.refunded_amount;
BEGIN
    IF released > noted THEN
        RAISE EXCEPTION 'order % refunded_amount lowered by %, its refunds failed in this transaction hold %', NEW.id,
            released, noted USING ERRCODE = 'check_violation';
    END IF;
    PERFORM set_config(setting, (noted - released)::text, true);
    RETURN NEW;
END
$$;
CREATE TRIGGER orders_refund_release_backed BEFORE UPDATE OF refunded_amount ON orders
    FOR EACH ROW WHEN (NEW.refunded_amount < OLD.refunded_amount)
    EXECUTE FUNCTION orders_refund_release_backed();
