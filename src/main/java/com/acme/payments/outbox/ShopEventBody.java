package com.acme.payments.outbox;

import tools.jackson.databind.json.JsonMapper;

/**
 * The body of a shop event, {@code {id, type, createdAt, data}}: the event's id (its {@code webhook-id}), its
 * type (the row's kind), when it was written (the row's creation, RFC 3339 UTC) and the stored payload as
 * {@code data}. All from the row, so every retry and resend is the same bytes; the payload is spliced as text,
 * as {@link SinkBody} does, so its amounts reach the shop as stored.
 */
final class ShopEventBody {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ShopEventBody() {
    }

    static String of(ClaimedEffect effect) {
        String data = effect.payload().strip();
        if (!data.startsWith("{") || !data.endsWith("}")) {
            throw new IllegalStateException("outbox payload is not a JSON object");
        }
        return "{\"id\":" + JSON.writeValueAsString(effect.idempotencyKey())
                + ",\"type\":" + JSON.writeValueAsString(effect.kind())
                + ",\"createdAt\":" + JSON.writeValueAsString(effect.createdAt().toString())
                + ",\"data\":" + data + "}";
    }
}
