package com.acme.payments.outbox;

import java.time.Instant;

/**
 * An outbox row leased to this relay. {@code leaseVersion} is the fence: every write that settles the
 * row checks it, so a relay that lost its lease (expired, taken over) cannot settle the row.
 * {@code traceParent} is the trace of the transaction that wrote the row (null outside a trace).
 */
record ClaimedEffect(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey,
        String payload, long leaseVersion, int attempts, Instant createdAt, String traceParent) {
}
