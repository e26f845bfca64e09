package com.acme.pspsim;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/**
 * Stripe's idempotency layer for POSTs: the first request with a key that begins executing stores its
 * status and body (a 500 included); the same key with the same endpoint and parameters gets that
 * answer back, with different ones an {@code idempotency_error}, and while the first is still
 * executing a 409 {@code idempotency_key_in_use}. A request refused by validation stores nothing, so
 * it may be sent again. Keys are kept {@code pspsim.stripe.idempotency-retention} (24 h), then forgotten.
 */
@Component
class StripeIdempotency {

    /** The stored first answer of a key. */
    record Answer(int status, byte[] body) {
    }

    /** What a request with a key finds: run it, replay an answer, or refuse. */
    sealed interface Outcome {
    }

    record Run() implements Outcome {
    }

    record Replay(Answer answer) implements Outcome {
    }

    record Refuse(StripeError error) implements Outcome {
    }

    private static final class Entry {
        final String endpoint;
        final Map<String, String> parameters;
        final Instant createdAt;
        volatile Answer answer;

        Entry(String endpoint, Map<String, String> parameters, Instant createdAt) {
            this.endpoint = endpoint;
            this.parameters = parameters;
            this.createdAt = createdAt;
        }
    }

    private final Map<String, Entry> keys = new ConcurrentHashMap<>();
    /** Every POST with a key, by key: lost (nothing stored), refused and replayed ones included; never forgotten. */
    private final Map<String, Integer> posts = new ConcurrentHashMap<>();
    private final StripeSettings settings;
    private final Clock clock;

    StripeIdempotency(StripeSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    /** Counts a POST with {@code key}; answers how many came before it (0: the first). */
    int notePost(String key) {
        return posts.merge(key, 1, Integer::sum) - 1;
    }

    /** How many POSTs each key was sent with, whatever became of them. */
    Map<String, Integer> posts() {
        return Map.copyOf(posts);
    }

    /** Claims {@code key} for this request, or says what the earlier request with it decides. */
    synchronized Outcome begin(String key, String endpoint, Map<String, String> parameters) {
        Instant now = clock.instant();
        keys.values().removeIf(e -> e.answer != null && !e.createdAt.plus(settings.idempotencyRetention()).isAfter(now));
        Entry entry = keys.get(key);
        if (entry == null) {
            keys.put(key, new Entry(endpoint, parameters, now));
            return new Run();
        }
        if (!entry.endpoint.equals(endpoint) || !entry.parameters.equals(parameters)) {
            return new Refuse(new StripeError(org.springframework.http.HttpStatus.BAD_REQUEST, "idempotency_error",
                    null, null, "Keys for idempotent requests can only be used with the same parameters they were "
                            + "first used with. Try using a key other than '" + key
                            + "' if you meant to execute a different request."));
        }
        if (entry.answer == null) {
            return new Refuse(new StripeError(org.springframework.http.HttpStatus.CONFLICT, "idempotency_error",
                    "idempotency_key_in_use", null, "There is currently another in-progress request using this "
                            + "Idempotent Key (that probably means you submitted twice, and the other request is "
                            + "still going through): " + key + ". Please try again later."));
        }
        return new Replay(entry.answer);
    }

    /** The request executed: its answer is the key's from now on. */
    void complete(String key, int status, byte[] body) {
        Entry entry = keys.get(key);
        if (entry != null) {
            entry.answer = new Answer(status, body);
        }
    }

    /** The request never began executing (validation, a refusal before acting): the key is free again. */
    synchronized void release(String key) {
        Entry entry = keys.get(key);
        if (entry != null && entry.answer == null) {
            keys.remove(key);
        }
    }

    void clear() {
        keys.clear();
        posts.clear();
    }
}
