-- When money moved, kept for the ledger export (GET /api/admin/ledger.csv): the order's payment (paid_at), a
-- refund's move to DONE (done_at) and to FAILED (failed_at: after done_at, its money came back). Until now only
-- updated_at held a time, and every later change of the row overwrites it. Set by triggers on the state moves,
-- so every writer records them alike, this release's and, during a rolling deploy, the previous one's; the
-- clock is the database's now() (the transaction's start), as for updated_at. Expand only: nullable columns
-- old code never reads. Rows from before are backfilled by V391. Rules: docs/migrations.md.
SET LOCAL lock_timeout = '5s';

ALTER TABLE orders ADD COLUMN paid_at timestamptz;
ALTER TABLE psp_refund_attempt ADD COLUMN done_at timestamptz, ADD COLUMN failed_at timestamptz;

CREATE FUNCTION orders_paid_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.paid_at := now();
    RETURN NEW;
END
$$;
-- PAID is final (no move leaves it), so an order is paid once.
CREATE TRIGGER orders_paid_at BEFORE UPDATE OF status ON orders
    FOR EACH ROW WHEN (NEW.status = 'PAID' AND OLD.status <> 'PAID')
    EXECUTE FUNCTION orders_paid_at();

CREATE FUNCTION psp_refund_moved_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.state = 'DONE' THEN
        NEW.done_at := now();
    ELSE
        NEW.failed_at := now();
    END IF;
    RETURN NEW;
END
$$;
-- A refund made elsewhere is inserted settled (DONE, or FAILED when first seen failed); ours move there.
CREATE TRIGGER psp_refund_settled_at_insert BEFORE INSERT ON psp_refund_attempt
    FOR EACH ROW WHEN (NEW.state IN ('DONE', 'FAILED'))
    EXECUTE FUNCTION psp_refund_moved_at();
CREATE TRIGGER psp_refund_settled_at_update BEFORE UPDATE OF state ON psp_refund_attempt
    FOR EACH ROW WHEN (NEW.state IN ('DONE', 'FAILED') AND NEW.state <> OLD.state)
    EXECUTE FUNCTION psp_refund_moved_at();
