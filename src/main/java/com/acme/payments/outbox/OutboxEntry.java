package com.acme.payments.outbox;

import java.util.Map;

/**
 * One side effect to deliver. {@code sourceId} is what makes it unique to the outside world: the
 * Stripe event id for billing effects, the PSP payment id for {@code order_paid}; the sink sees
 * {@code <sourceId>:<kind>} as its {@code Idempotency-Key}.
 */
public record OutboxEntry(String kind, String aggregateType, String aggregateId, String sourceId,
        Map<String, Object> payload) {

    public String idempotencyKey() {
        return sourceId + ":" + kind;
    }
}
