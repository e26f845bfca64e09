-- Refund attempts and capture/void operations. One logical refund = one caller key = one reference forever.

CREATE TABLE psp_refund_attempt (
    id              bigserial   PRIMARY KEY,
    order_id        bigint      NOT NULL REFERENCES orders (id),
    refund_key      text        NOT NULL,
    reference_id    text        NOT NULL UNIQUE,
    amount          numeric     NOT NULL CHECK (amount > 0),
    currency        char(3)     NOT NULL,
    state           text        NOT NULL,
    psp_payment_id  text,
    error_code      text,
    error_message   text,
    lease_version   bigint      NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT psp_refund_state CHECK (state IN ('IN_FLIGHT', 'UNKNOWN', 'DONE', 'FAILED')),
    CONSTRAINT psp_refund_key UNIQUE (order_id, refund_key)
);

CREATE INDEX psp_refund_unresolved ON psp_refund_attempt (updated_at) WHERE state IN ('IN_FLIGHT', 'UNKNOWN');
CREATE INDEX psp_refund_payment ON psp_refund_attempt (psp_payment_id) WHERE psp_payment_id IS NOT NULL;

-- Capture / void of an AUTHORIZED payment: claimed and committed before the PSP call, like an attempt.
CREATE TABLE psp_payment_operation (
    id              bigserial   PRIMARY KEY,
    order_id        bigint      NOT NULL REFERENCES orders (id),
    kind            text        NOT NULL CHECK (kind IN ('CAPTURE', 'VOID')),
    state           text        NOT NULL CHECK (state IN ('IN_FLIGHT', 'UNKNOWN', 'DONE', 'FAILED')),
    psp_payment_id  text        NOT NULL,
    error_code      text,
    error_message   text,
    lease_version   bigint      NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

-- One capture or void in progress per order; a settled one leaves the index.
CREATE UNIQUE INDEX psp_operation_open ON psp_payment_operation (order_id) WHERE state IN ('IN_FLIGHT', 'UNKNOWN');
CREATE INDEX psp_operation_unresolved ON psp_payment_operation (updated_at) WHERE state IN ('IN_FLIGHT', 'UNKNOWN');
