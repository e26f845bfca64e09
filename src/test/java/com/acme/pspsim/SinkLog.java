package com.acme.pspsim;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.stereotype.Component;

/** What the sink received, in order. */
@Component
class SinkLog {

    /** One request to {@code /sink/**}; {@code signatureVerified}: its sink has a secret and the signature matched. */
    record Received(long seq, String method, String path, String idempotencyKey, String contentType, String body,
            Instant receivedAt, boolean signatureVerified) {
    }

    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicLong sequence = new AtomicLong();

    Received add(String method, String path, String idempotencyKey, String contentType, String body, Instant at,
            boolean signatureVerified) {
        Received r = new Received(sequence.incrementAndGet(), method, path, idempotencyKey, contentType, body, at,
                signatureVerified);
        received.add(r);
        return r;
    }

    List<Received> all() {
        return List.copyOf(received);
    }

    void clear() {
        received.clear();
    }
}
