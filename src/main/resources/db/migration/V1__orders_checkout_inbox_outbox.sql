-- Orders, checkout attempts, the PSP webhook inbox and the outbox.
-- Every guarantee of the checkout path lives in a constraint here, not in Java code.

CREATE TABLE orders (
    id                bigserial    PRIMARY KEY,
    order_ref         text         NOT NULL UNIQUE,
    status            text         NOT NULL
        CHECK (status IN ('AWAITING_PAYMENT', 'PROCESSING', 'AUTHORIZED', 'PAID', 'PAYMENT_FAILED')),
    amount            numeric      NOT NULL CHECK (amount > 0),
    currency          char(3)      NOT NULL,
    paid_amount       numeric,
    paid_currency     char(3),
    -- DONE refunds plus open reservations; never more than what was paid.
    refunded_amount   numeric      NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0),
    psp_payment_id    text,
    error_code        text,
    error_message     text,
    customer_ref      text         NOT NULL,
    customer_email    text,
    client_token_hash bytea        NOT NULL UNIQUE,
    created_at        timestamptz  NOT NULL DEFAULT now(),
    updated_at        timestamptz  NOT NULL DEFAULT now(),
    CONSTRAINT orders_refund_within_paid CHECK (refunded_amount <= coalesce(paid_amount, 0))
);

CREATE INDEX orders_psp_payment ON orders (psp_payment_id) WHERE psp_payment_id IS NOT NULL;

CREATE TABLE psp_attempt (
    id              bigserial   PRIMARY KEY,
    order_id        bigint      NOT NULL REFERENCES orders (id),
    reference_id    text        NOT NULL UNIQUE,
    state           text        NOT NULL CHECK (state IN ('IN_FLIGHT', 'UNKNOWN', 'READY', 'FAILED')),
    amount          numeric     NOT NULL,
    currency        char(3)     NOT NULL,
    return_url      text        NOT NULL,
    psp_payment_id  text,
    redirect_url    text,
    error_code      text,
    error_message   text,
    failure_reason  text        CHECK (failure_reason IN ('declined', 'rejected', 'abandoned')),
    abandoned_by    text,
    -- Bumped by every claim of this row (owner or sweep); the write that settles checks it.
    lease_version   bigint      NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- At most one open attempt per order. UNKNOWN is inside: an unresolved attempt keeps blocking new
-- payments until it is settled. FAILED is outside: a refusal frees the order.
CREATE UNIQUE INDEX psp_attempt_open ON psp_attempt (order_id)
    WHERE state IN ('IN_FLIGHT', 'UNKNOWN', 'READY');
CREATE INDEX psp_attempt_unresolved ON psp_attempt (updated_at) WHERE state IN ('IN_FLIGHT', 'UNKNOWN');
CREATE INDEX psp_attempt_payment ON psp_attempt (psp_payment_id) WHERE psp_payment_id IS NOT NULL;
CREATE INDEX psp_attempt_order ON psp_attempt (order_id, id);

-- The inbox: one row per (payment, state) ever received. Never a tombstone: a receipt stays open
-- (processed_at NULL) until its state was applied or found already past.
CREATE TABLE psp_webhook_event (
    id               bigserial   PRIMARY KEY,
    payment_id       text        NOT NULL,
    state            text        NOT NULL,
    payment_type     text,
    reference_id     text,
    payload          jsonb       NOT NULL,
    first_received_at timestamptz NOT NULL DEFAULT now(),
    received_at      timestamptz NOT NULL DEFAULT now(),
    processed_at     timestamptz,
    processed_reason text        CHECK (processed_reason IN ('applied', 'duplicate', 'superseded', 'ignored')),
    UNIQUE (payment_id, state)
);

CREATE INDEX psp_webhook_event_unprocessed ON psp_webhook_event (received_at) WHERE processed_at IS NULL;

-- Side effects, written in the same transaction as the business change that causes them and
-- delivered at least once by the relay. idempotency_key is '<source id>:<kind>'.
CREATE TABLE outbox (
    id               bigserial   PRIMARY KEY,
    kind             text        NOT NULL,
    aggregate_type   text        NOT NULL,
    aggregate_id     text        NOT NULL,
    idempotency_key  text        NOT NULL,
    payload          jsonb       NOT NULL,
    state            text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    lease_owner      text,
    lease_version    bigint      NOT NULL DEFAULT 0,
    lease_until      timestamptz,
    last_error       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    delivered_at     timestamptz
);

CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE state = 'pending';
CREATE INDEX outbox_aggregate ON outbox (aggregate_type, aggregate_id, id) WHERE state = 'pending';
