package com.acme.payments.outbox;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The outbox relay's settings ({@code payments.outbox.*}). Sink URLs are optional: a kind whose sink
 * is not configured stays pending (never dead, never dropped) and shows in the
 * {@code payments.outbox.unroutable} gauge.
 */
@ConfigurationProperties("payments.outbox")
public record OutboxProperties(Boolean enabled, Duration interval, Integer batchSize, Integer concurrency,
        Duration lease, Integer maxAttempts, Duration backoff, Duration maxBackoff, Duration metricsRefresh,
        Sinks sinks, Prune prune) {

    public OutboxProperties {
        enabled = enabled == null || enabled;
        interval = positive(interval, Duration.ofSeconds(1), "interval");
        batchSize = batchSize == null ? 100 : batchSize;
        concurrency = concurrency == null ? 4 : concurrency;
        lease = positive(lease, Duration.ofSeconds(60), "lease");
        maxAttempts = maxAttempts == null ? 10 : maxAttempts;
        backoff = positive(backoff, Duration.ofSeconds(1), "backoff");
        maxBackoff = positive(maxBackoff, Duration.ofMinutes(10), "max-backoff");
        metricsRefresh = positive(metricsRefresh, Duration.ofSeconds(5), "metrics-refresh");
        sinks = sinks == null ? new Sinks(null, null, null, null, null, null, null, null) : sinks;
        prune = prune == null ? new Prune(null, null, null, null, null) : prune;
        if (batchSize < 1 || batchSize > 1000) {
            throw new IllegalArgumentException("payments.outbox.batch-size must be between 1 and 1000");
        }
        if (concurrency < 1 || concurrency > 64) {
            throw new IllegalArgumentException("payments.outbox.concurrency must be between 1 and 64");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("payments.outbox.max-attempts must be at least 1");
        }
        // A row's lease must outlive one sink call, or a slow call would always lose its lease.
        if (lease.compareTo(sinks.callBudget().multipliedBy(2)) < 0) {
            throw new IllegalArgumentException(
                    "payments.outbox.lease must be at least twice the sink connect + read timeout");
        }
    }

    /**
     * Where each effect kind goes, how long one call may take, and each sink's signing secret (blank:
     * that sink's deliveries are not signed).
     */
    public record Sinks(String notifyUrl, String conversionUrl, String fulfilmentUrl, Duration connectTimeout,
            Duration readTimeout, String notifySecret, String conversionSecret, String fulfilmentSecret) {

        public Sinks {
            connectTimeout = positive(connectTimeout, Duration.ofSeconds(2), "sinks.connect-timeout");
            readTimeout = positive(readTimeout, Duration.ofSeconds(10), "sinks.read-timeout");
        }

        /** The longest one sink call can take. */
        Duration callBudget() {
            return connectTimeout.plus(readTimeout);
        }

        @Override
        public String toString() { // never the secrets
            return "Sinks[notifyUrl=" + notifyUrl + ", conversionUrl=" + conversionUrl + ", fulfilmentUrl="
                    + fulfilmentUrl + ", connectTimeout=" + connectTimeout + ", readTimeout=" + readTimeout + "]";
        }
    }

    /** Deletion of delivered rows and old dedup records. */
    public record Prune(Boolean enabled, Duration interval, Duration retention, Duration dedupRetention,
            Integer batchSize) {

        public Prune {
            enabled = enabled == null || enabled;
            interval = positive(interval, Duration.ofHours(1), "prune.interval");
            retention = positive(retention, Duration.ofDays(7), "prune.retention");
            dedupRetention = positive(dedupRetention, Duration.ofDays(30), "prune.dedup-retention");
            batchSize = batchSize == null ? 1000 : batchSize;
        }
    }

    private static Duration positive(Duration value, Duration fallback, String name) {
        if (value == null) {
            return fallback;
        }
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException("payments.outbox." + name + " must be positive");
        }
        return value;
    }
}
