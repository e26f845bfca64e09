package com.acme.payments.outbox;

import java.time.Instant;

import tools.jackson.databind.json.JsonMapper;

/**
 * The body a sink receives: the stored payload plus what every effect says of itself, {@code effectId} (its
 * {@code Idempotency-Key}) and {@code createdAt} (when the row was written, RFC 3339 UTC). Added at send time,
 * in this one place, so rows written before either existed carry them too; both come from the row, so every
 * resend of an effect is the same bytes (and its signature is over exactly those). The payload is spliced as
 * text rather than parsed and written again, so its amounts and key order reach the sink as stored.
 */
final class SinkBody {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private SinkBody() {
    }

    static String of(ClaimedEffect effect) {
        return of(effect.payload(), effect.idempotencyKey(), effect.createdAt());
    }

    /** {@code payload} is a JSON object (every outbox payload is one). */
    static String of(String payload, String effectId, Instant createdAt) {
        String object = payload.strip();
        int close = object.lastIndexOf('}');
        if (!object.startsWith("{") || close != object.length() - 1) {
            throw new IllegalStateException("outbox payload is not a JSON object");
        }
        String inside = object.substring(1, close).strip();
        return "{" + inside + (inside.isEmpty() ? "" : ",")
                + "\"effectId\":" + JSON.writeValueAsString(effectId)
                + ",\"createdAt\":" + JSON.writeValueAsString(createdAt.toString()) + "}";
    }
}
