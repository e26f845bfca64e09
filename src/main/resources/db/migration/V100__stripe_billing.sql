-- Stripe billing: the webhook idempotency store, users and credits, the subscription mirror, the grant
-- ledger, one-off purchases and refund/dispute bookkeeping. Every "exactly once" lives in a key here.

-- Receipt is not completion: a claim says 'processing'; only the business transaction says 'completed'.
CREATE TABLE processed_webhook_events (
    id           text        PRIMARY KEY,               -- Stripe's evt_… id
    source       text        NOT NULL,                  -- 'stripe'; the table can serve other providers
    event_type   text,
    state        text        NOT NULL DEFAULT 'processing' CHECK (state IN ('processing', 'completed')),
    -- New on insert and on every takeover; completion and release check it (a slow worker is fenced).
    claim_token  text        NOT NULL,
    claimed_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    CONSTRAINT processed_webhook_events_completed CHECK ((state = 'completed') = (completed_at IS NOT NULL))
);

CREATE INDEX processed_webhook_events_state_claimed ON processed_webhook_events (state, claimed_at);

CREATE TABLE billing_user (
    user_id    text        PRIMARY KEY,
    -- May go below zero when a refund claws back credits already spent: the debt stays visible.
    credits    bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- The mirror of a Stripe subscription: state, moved forward only (guarded on current_period_start).
CREATE TABLE billing_subscription (
    subscription_id      text        PRIMARY KEY,
    user_id              text        NOT NULL REFERENCES billing_user (user_id),
    status               text        NOT NULL,
    current_period_start bigint,     -- epoch seconds, as Stripe sends them
    current_period_end   bigint,
    quantity             integer,
    price_id             text,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX billing_subscription_user ON billing_subscription (user_id);

-- The grant ledger: history, one row per granted period, forever. The checkout grant has no period
-- (the session carries none) and is unique per subscription on its own.
CREATE TABLE billing_grant (
    id              bigserial   PRIMARY KEY,
    subscription_id text        NOT NULL,
    period_start    bigint,
    period_end      bigint,
    source          text        NOT NULL CHECK (source IN ('checkout', 'webhook', 'reconciliation')),
    event_id        text,
    invoice_id      text,
    credits         bigint      NOT NULL,
    granted_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT billing_grant_period UNIQUE (subscription_id, period_start),
    CONSTRAINT billing_grant_checkout_has_no_period CHECK ((source = 'checkout') = (period_start IS NULL))
);

CREATE UNIQUE INDEX billing_grant_checkout ON billing_grant (subscription_id) WHERE period_start IS NULL;

-- One-off purchases (payment-mode sessions), keyed by the PaymentIntent. Minor units, as Stripe.
CREATE TABLE billing_purchase (
    payment_intent_id   text        PRIMARY KEY,
    user_id             text        NOT NULL REFERENCES billing_user (user_id),
    product_id          text,
    session_id          text,
    amount              bigint      NOT NULL CHECK (amount >= 0),
    currency            text        NOT NULL,
    -- Cumulative, as Stripe's amount_refunded; moved by compare-and-swap only.
    refunded_total      bigint      NOT NULL DEFAULT 0 CHECK (refunded_total >= 0),
    disputed_total      bigint      NOT NULL DEFAULT 0 CHECK (disputed_total >= 0),
    credits_granted     bigint      NOT NULL DEFAULT 0,
    credits_clawed_back bigint      NOT NULL DEFAULT 0,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now()
);

-- Paid subscription invoices, so a refund or dispute on their charge finds its subscription.
CREATE TABLE billing_invoice (
    invoice_id          text        PRIMARY KEY,
    subscription_id     text        NOT NULL,
    payment_intent_id   text,
    amount_paid         bigint      NOT NULL CHECK (amount_paid >= 0),
    currency            text        NOT NULL,
    refunded_total      bigint      NOT NULL DEFAULT 0 CHECK (refunded_total >= 0),
    disputed_total      bigint      NOT NULL DEFAULT 0 CHECK (disputed_total >= 0),
    -- The credits this invoice paid for (a granted period's), the base of a proportional clawback.
    credits_basis       bigint      NOT NULL DEFAULT 0,
    credits_clawed_back bigint      NOT NULL DEFAULT 0,
    created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX billing_invoice_payment_intent ON billing_invoice (payment_intent_id)
    WHERE payment_intent_id IS NOT NULL;

-- Every dispute once: a redelivered charge.dispute.created never claws back or alerts twice.
CREATE TABLE billing_dispute (
    dispute_id  text        PRIMARY KEY,
    charge_id   text        NOT NULL,
    amount      bigint      NOT NULL CHECK (amount >= 0),
    currency    text        NOT NULL,
    reason      text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
