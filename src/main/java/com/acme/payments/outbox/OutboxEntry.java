package com.acme.payments.outbox;

/**
 * One side effect to deliver. {@code sourceId} is what makes it unique to the outside world: the
 * Stripe event id for billing effects, the PSP payment id for {@code order_paid}; the sink sees
 * {@code <sourceId>:<keySuffix>} as its {@code Idempotency-Key}. The suffix is the kind, except where
 * one kind carries several facts about one source ({@code discrepancy}: the discrepancy's own kind). A shop
 * event has no suffix: its key is its own id ({@code evt_…}), the {@code webhook-id} the shop dedups on.
 * {@code payload} is any value that serialises to a JSON object (a map, a view record).
 */
public record OutboxEntry(String kind, String aggregateType, String aggregateId, String sourceId,
        Object payload, String keySuffix) {

    public OutboxEntry(String kind, String aggregateType, String aggregateId, String sourceId,
            Object payload) {
        this(kind, aggregateType, aggregateId, sourceId, payload, kind);
    }

    public String idempotencyKey() {
        return keySuffix == null ? sourceId : sourceId + ":" + keySuffix;
    }
}
