package com.acme.payments.outbox;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.stereotype.Component;

/**
 * The shop's events ({@code SHOP_EVENTS_URL}): one outbox row per transition, written by the Applier that makes
 * the transition, in its transaction ({@link OutboxStore#enqueue(OutboxEntry)} only ever joins one), so an event exists
 * exactly when its transition committed. The aggregate is the order, so the relay delivers an order's events
 * in the order they were written. The id, {@code evt_} and a UUID made here, is the row's key: the same
 * {@code webhook-id} on every retry and resend, the shop's dedup key. While the URL is unset nothing is
 * written (no row waits for a sink nobody subscribed to): {@link #enabled()} lets a caller skip the reads an
 * event's {@code data} would cost.
 */
@Component
public class ShopEvents {

    public static final String PAYMENT_AUTHORIZED = "payment.authorized";
    public static final String PAYMENT_SUCCEEDED = "payment.succeeded";
    public static final String PAYMENT_FAILED = "payment.failed";
    public static final String PAYMENT_VOIDED = "payment.voided";
    public static final String REFUND_SUCCEEDED = "refund.succeeded";
    public static final String REFUND_FAILED = "refund.failed";
    public static final String DISPUTE_OPENED = "dispute.opened";
    static final List<String> TYPES = List.of(PAYMENT_AUTHORIZED, PAYMENT_SUCCEEDED, PAYMENT_FAILED, PAYMENT_VOIDED,
            REFUND_SUCCEEDED, REFUND_FAILED, DISPUTE_OPENED);

    private final OutboxStore outbox;
    private final boolean enabled;

    ShopEvents(OutboxStore outbox, OutboxProperties properties) {
        this.outbox = outbox;
        String url = properties.sinks().shopEventsUrl();
        this.enabled = url != null && !url.isBlank();
    }

    /** Whether events are written at all ({@code SHOP_EVENTS_URL} set). */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Adds the event to the caller's transaction (joins it, never opens one). {@code data} is any value that
     * serialises to a JSON object (a view record, a map).
     */
    public void publish(String type, String orderRef, Object data) {
        entry(type, orderRef, data).ifPresent(outbox::enqueue);
    }

    /**
     * The event as an outbox row for a caller that writes it with its other effects in one statement
     * ({@link OutboxStore#enqueue(List)}); empty while events are off.
     */
    public Optional<OutboxEntry> entry(String type, String orderRef, Object data) {
        if (!enabled) {
            return Optional.empty();
        }
        if (!TYPES.contains(type)) {
            throw new IllegalArgumentException("not a shop event type: " + type);
        }
        String id = "evt_" + UUID.randomUUID().toString().replace("-", "");
        return Optional.of(new OutboxEntry(type, "order", orderRef, id, data, null));
    }
}
