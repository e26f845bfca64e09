package com.acme.payments.stripe;

import java.sql.SQLException;
import java.time.Duration;
import java.util.function.IntFunction;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.retry.RetryException;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Runs a whole business transaction again when PostgreSQL aborted it for a serialization failure
 * (40001) or a deadlock (40P01): three attempts in all, a short jittered pause between them. Every
 * other failure passes through at once. Past the bound it throws {@link RetriesExhausted}: the caller
 * must answer 5xx and give the work back, never swallow it.
 */
@Component
public class SerializationRetry {

    static final int ATTEMPTS = 3;
    private static final Logger log = LoggerFactory.getLogger(SerializationRetry.class);

    private final RetryTemplate template;
    private final Counter retries;

    SerializationRetry(MeterRegistry registry) {
        this.template = new RetryTemplate(RetryPolicy.builder()
                .maxRetries(ATTEMPTS - 1)
                .delay(Duration.ofMillis(20))
                .jitter(Duration.ofMillis(10))
                .multiplier(2)
                .predicate(SerializationRetry::isConflict)
                .build());
        this.retries = Counter.builder("stripe.transaction.retries")
                .description("Business transactions retried after a serialization failure or deadlock")
                .register(registry);
    }

    /** Runs {@code work} (given the 1-based attempt number) with the bounded retry. */
    public <T> T run(String what, IntFunction<T> work) {
        int[] attempt = { 0 };
        Throwable[] lastFailure = { null };
        try {
            return template.execute(() -> {
                int current = ++attempt[0];
                if (current > 1) {
                    retries.increment();
                    log.info("retrying {} after a serialization conflict, attempt={} sqlState={}", what, current,
                            sqlState(lastFailure[0]));
                }
                try {
                    return work.apply(current);
                } catch (RuntimeException | Error failure) {
                    lastFailure[0] = failure;
                    throw failure;
                }
            });
        } catch (RetryException e) {
            Throwable last = e.getLastException() != null ? e.getLastException() : e.getCause();
            if (isConflict(last)) {
                log.warn("{} still conflicting after {} attempts", what, attempt[0]);
                throw new RetriesExhausted(what, last);
            }
            if (last instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (last instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(what + " failed", last);
        }
    }

    private static String sqlState(Throwable failure) {
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                return sql.getSQLState();
            }
        }
        return null;
    }

    /** True for PostgreSQL's 40001 (serialization failure) and 40P01 (deadlock detected). */
    static boolean isConflict(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if ("40001".equals(state) || "40P01".equals(state)) {
                    return true;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    /** The conflict outlived the bound: answer 5xx and let the redelivery bring the work back. */
    public static final class RetriesExhausted extends RuntimeException {
        RetriesExhausted(String what, Throwable last) {
            super(what + ": serialization conflict persisted after " + ATTEMPTS + " attempts", last);
        }
    }
}
