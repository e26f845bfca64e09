-- The books held against the PSP's: one row per reconciliation run, and the mismatches it found. New tables
-- only. The run row is also its lease: the instance named in owner runs the window while lease_until is
-- ahead (database clock); a running row whose lease ran out is taken over by another instance, at most
-- a few times (takeovers), then marked failed. A night's run has its night: one run per UTC day.
CREATE TABLE books_reconciliation_run (
    id               uuid        PRIMARY KEY,
    window_from      timestamptz NOT NULL,
    window_to        timestamptz NOT NULL,
    night            date        UNIQUE,
    state            text        NOT NULL CHECK (state IN ('running', 'done', 'failed')),
    requested_by     text        NOT NULL,
    owner            text        NOT NULL,
    lease_until      timestamptz NOT NULL,
    takeovers        integer     NOT NULL DEFAULT 0,
    created_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz,
    psp_records      integer,
    our_records      integer,
    mismatch_count   integer,
    failure_reason   text,
    CONSTRAINT books_reconciliation_run_window CHECK (window_from < window_to),
    CONSTRAINT books_reconciliation_run_finished CHECK ((state = 'running') = (finished_at IS NULL))
);

-- One live run per window: a second request for the same window joins the running one.
CREATE UNIQUE INDEX books_reconciliation_run_one_per_window ON books_reconciliation_run (window_from, window_to)
    WHERE state = 'running';
CREATE INDEX books_reconciliation_run_newest ON books_reconciliation_run (created_at DESC, id);
CREATE INDEX books_reconciliation_run_lease ON books_reconciliation_run (lease_until) WHERE state = 'running';

CREATE TABLE books_reconciliation_mismatch (
    run_id          uuid    NOT NULL REFERENCES books_reconciliation_run (id) ON DELETE CASCADE,
    seq             integer NOT NULL,
    kind            text    NOT NULL
        CHECK (kind IN ('missing_here', 'missing_there', 'amount_mismatch', 'state_mismatch')),
    psp_payment_id  text    NOT NULL,
    order_ref       text,
    ours            jsonb,
    theirs          jsonb,
    PRIMARY KEY (run_id, seq)
);
