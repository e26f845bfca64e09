-- Exits, late truths and second charges (issue 13): who did what, a refund's PSP state, duplicate charges.

-- Who asked for it, why, and when: every operator action is attributed (the name of the admin key).
ALTER TABLE psp_refund_attempt
    ADD COLUMN requested_by   text,
    ADD COLUMN reason         text,
    -- The PSP's state of the REFUND payment; a DONE refund whose PSP state is not final is polled.
    ADD COLUMN psp_state      text,
    ADD COLUMN abandoned_by   text,
    ADD COLUMN abandoned_at   timestamptz,
    -- The straggler poll's lease on a DONE refund whose PSP state is not final (database clock).
    ADD COLUMN last_polled_at timestamptz;

CREATE INDEX psp_refund_not_final ON psp_refund_attempt (last_polled_at NULLS FIRST)
    WHERE state = 'DONE' AND (psp_state IS NULL OR psp_state NOT IN ('COMPLETED', 'DECLINED', 'CANCELLED'));

ALTER TABLE psp_attempt
    ADD COLUMN abandon_reason text,
    ADD COLUMN abandoned_at   timestamptz;

ALTER TABLE psp_payment_operation ADD COLUMN requested_by text;

-- A second real charge of one order: a COMPLETED payment that is not the order's booked payment.
-- Recorded once (unique payment id); refunded at most once: one refund reference at a time, a new
-- one only after the PSP confirmed the previous one failed.
CREATE TABLE duplicate_charge (
    id                    bigserial   PRIMARY KEY,
    order_id              bigint      NOT NULL REFERENCES orders (id),
    psp_payment_id        text        NOT NULL UNIQUE,
    amount                numeric     NOT NULL CHECK (amount > 0),
    currency              char(3)     NOT NULL,
    detected_at           timestamptz NOT NULL DEFAULT now(),
    refund_reference_id   text        UNIQUE,
    refund_state          text        CHECK (refund_state IN ('IN_FLIGHT', 'UNKNOWN', 'DONE', 'FAILED')),
    refund_psp_payment_id text,
    refund_error_code     text,
    refund_requested_by   text,
    refund_updated_at     timestamptz,
    lease_version         bigint      NOT NULL DEFAULT 0,
    CHECK ((refund_reference_id IS NULL) = (refund_state IS NULL))
);

CREATE INDEX duplicate_charge_open_refund ON duplicate_charge (refund_updated_at)
    WHERE refund_state IS NULL OR refund_state IN ('IN_FLIGHT', 'UNKNOWN');

-- The inbox verdict of a second charge.
ALTER TABLE psp_webhook_event DROP CONSTRAINT psp_webhook_event_processed_reason_check;
ALTER TABLE psp_webhook_event ADD CONSTRAINT psp_webhook_event_processed_reason_check
    CHECK (processed_reason IN ('applied', 'duplicate', 'superseded', 'ignored', 'duplicate_charge'));

-- Operator actions that have no row of their own to carry the actor (redrive, sync), and all the others
-- too, so one place answers "who did what, when, and why".
CREATE TABLE operator_action (
    id         bigserial   PRIMARY KEY,
    actor      text        NOT NULL,
    action     text        NOT NULL,
    target     text        NOT NULL,
    reason     text,
    at         timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX operator_action_target ON operator_action (target, id);
