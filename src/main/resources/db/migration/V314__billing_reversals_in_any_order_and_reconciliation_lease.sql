-- A refund or dispute that arrives before the payment it reverses is kept here and applied, exactly
-- once, by the transaction that records that payment (the purchase or the invoice).
CREATE TABLE billing_pending_reversal (
    event_id          text        PRIMARY KEY,           -- the charge.refunded / charge.dispute.created event
    kind              text        NOT NULL CHECK (kind IN ('refund', 'dispute')),
    payment_intent_id text,
    invoice_id        text,                              -- from the charge or GET /v1/invoice_payments
    charge_id         text        NOT NULL,
    -- refund: Stripe's cumulative amount_refunded; dispute: the disputed amount. Minor units.
    amount            bigint      NOT NULL CHECK (amount >= 0),
    dispute_id        text,
    received_at       timestamptz NOT NULL DEFAULT now(),
    applied_at        timestamptz,
    applied_to        text,                              -- 'purchase:<pi>' or 'invoice:<id>'
    CONSTRAINT billing_pending_reversal_has_a_key CHECK (payment_intent_id IS NOT NULL OR invoice_id IS NOT NULL),
    CONSTRAINT billing_pending_reversal_applied CHECK ((applied_at IS NULL) = (applied_to IS NULL))
);

CREATE INDEX billing_pending_reversal_by_payment_intent ON billing_pending_reversal (payment_intent_id)
    WHERE applied_at IS NULL;
CREATE INDEX billing_pending_reversal_by_invoice ON billing_pending_reversal (invoice_id)
    WHERE applied_at IS NULL;

-- The nightly reconciliation's lease: one row per night (UTC date); the instance that inserted it runs
-- the pass and records what it did. A row left unfinished past its lease may be taken over.
CREATE TABLE billing_reconciliation_run (
    night           date        PRIMARY KEY,
    owner           text        NOT NULL,
    started_at      timestamptz NOT NULL DEFAULT now(),
    lease_until     timestamptz NOT NULL,
    finished_at     timestamptz,
    subscriptions   integer,
    granted         integer,
    failed          integer,
    granted_periods jsonb,                               -- [{"subscriptionId":…,"periodStart":…}]
    CONSTRAINT billing_reconciliation_run_finished CHECK ((finished_at IS NULL) = (granted IS NULL))
);
