package com.acme.payments.outbox;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The outbox's retry delays per effect row: {@code first} after the first failure, doubling after each
 * further one, capped at {@code max}, then spread by ±20 % so rows that failed together do not retry
 * together. Not the sweep's {@code Backoff}, which pauses a whole job while the PSP is down.
 */
record RetrySchedule(Duration first, Duration max, RandomGenerator random) {

    /** The delay before the next try, after {@code failures} failed attempts (1 for the first). */
    Duration delayAfter(int failures) {
        long cap = max.toMillis();
        long base = Math.min(first.toMillis(), cap);
        for (int i = 1; i < failures && base < cap; i++) {
            base = Math.min(base * 2, cap); // stops at the cap, so no overflow
        }
        double factor = 0.8 + 0.4 * random.nextDouble();
        return Duration.ofMillis(Math.max(1, Math.round(base * factor)));
    }
}
