package com.acme.payments.outbox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.stereotype.Component;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shop's events ({@code SHOP_EVENTS_URL}): one outbox row per transition, written by the Applier that makes
 * the transition, in its transaction ({@link OutboxStore#enqueue} only ever joins one), so an event exists
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

    private static final TypeReference<LinkedHashMap<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final OutboxStore outbox;
    private final JsonMapper json;
    private final boolean enabled;

    ShopEvents(OutboxStore outbox, JsonMapper json, OutboxProperties properties) {
        this.outbox = outbox;
        this.json = json;
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
        if (!enabled) {
            return;
        }
        if (!TYPES.contains(type)) {
            throw new IllegalArgumentException("not a shop event type: " + type);
        }
        Map<String, Object> payload = json.convertValue(data, OBJECT);
        String id = "evt_" + UUID.randomUUID().toString().replace("-", "");
        outbox.enqueue(new OutboxEntry(type, "order", orderRef, id, payload, null));
    }
}
