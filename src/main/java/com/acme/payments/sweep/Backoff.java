package com.acme.payments.sweep;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Keeps a job from hammering a PSP that is down: after a run that hit the outage, the next runs are
 * skipped for a doubling pause (capped). The first successful call resets it.
 */
public final class Backoff {

    private final Clock clock;
    private final Duration first;
    private final Duration max;
    private Duration current = Duration.ZERO;
    private Instant pausedUntil = Instant.MIN;

    /** A job's usual back-off: the first pause is one interval, doubling up to 15 minutes. */
    public static Backoff forJob(Clock clock, Duration interval) {
        return new Backoff(clock, interval, Duration.ofMinutes(15));
    }

    public Backoff(Clock clock, Duration first, Duration max) {
        this.clock = clock;
        this.first = first;
        this.max = max;
    }

    public synchronized boolean paused() {
        return clock.instant().isBefore(pausedUntil);
    }

    /** Records an outage run; returns the pause now in force. */
    public synchronized Duration outage() {
        current = current.isZero() ? first : current.multipliedBy(2);
        if (current.compareTo(max) > 0) {
            current = max;
        }
        pausedUntil = clock.instant().plus(current);
        return current;
    }

    public synchronized void healthy() {
        current = Duration.ZERO;
        pausedUntil = Instant.MIN;
    }
}
