package com.acme.payments.psp;

import java.time.Duration;
import java.util.Optional;

/**
 * We cannot tell what the PSP did: a timeout, a reset, a 5xx, a body that is not the JSON envelope.
 * The payment may exist. The only safe follow-up is to look it up by the stored reference, never to
 * POST again.
 */
public final class PaymentOutcomeUnknown extends RuntimeException {

    private final transient Duration retryAfter;

    public PaymentOutcomeUnknown(String message, Throwable cause) {
        super(message, cause);
        this.retryAfter = null;
    }

    public PaymentOutcomeUnknown(String message) {
        super(message);
        this.retryAfter = null;
    }

    /** A read the PSP asked us to repeat later (a 429 or a 5xx with {@code Retry-After}): only reads carry one. */
    public PaymentOutcomeUnknown(String message, Duration retryAfter) {
        super(message);
        this.retryAfter = retryAfter;
    }

    /** How long the PSP asked us to wait before asking again, when it said so ({@code Retry-After} in seconds). */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** {@code Retry-After} in delta-seconds (the form both PSPs send); null when absent or in another form. */
    public static Duration retryAfter(String header) {
        if (header == null || !header.strip().matches("\\d{1,6}")) {
            return null;
        }
        return Duration.ofSeconds(Long.parseLong(header.strip()));
    }
}
