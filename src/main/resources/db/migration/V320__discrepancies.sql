-- The operator's one list of money that moved in a way no rule allows (over-refunds, contradicting
-- reports). Second charges are listed from duplicate_charge, not copied here. A discrepancy is one row
-- per (psp_payment_id, kind): the same fact learnt twice (webhook, replay, poll) is recorded once, and
-- that pair is also its effect's Idempotency-Key. A new, empty table: no lock on anything in use. Few
-- rows (each one needs a person), so the listing needs no index of its own.
CREATE TABLE discrepancy (
    id             bigserial   PRIMARY KEY,
    kind           text        NOT NULL CHECK (kind IN ('over_refund', 'contradicting_report')),
    order_ref      text        NOT NULL,
    psp_payment_id text        NOT NULL,
    amount         numeric     NOT NULL CHECK (amount >= 0),
    currency       char(3)     NOT NULL,
    detail         text        NOT NULL,
    detected_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (psp_payment_id, kind)
);
