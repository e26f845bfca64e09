package com.acme.payments.outbox;

import java.time.Instant;

/**
 * An outbox row leased to this relay. {@code leaseVersion} is the fence: every write that settles the
 * row checks it, so a relay that lost its lease (expired, taken over) cannot settle the row.
 */
record ClaimedEffect(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey,
        String payload, long leaseVersion, int attempts, Instant createdAt) {
}
