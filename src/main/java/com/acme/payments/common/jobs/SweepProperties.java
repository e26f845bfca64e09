package com.acme.payments.common.jobs;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The unknown-outcome sweep ({@code payments.sweep.*}), one setting for every table that follows claim →
 * call → settle → sweep (checkout attempts, capture/void operations, refunds): how often, when the first
 * run starts, how many rows per claim, when an IN_FLIGHT owner is presumed dead (must exceed the PSP read
 * timeout), how long a claimed row is hidden from other instances' sweeps (the lease), and how many rows
 * of a claimed batch are resolved at once per instance ({@code concurrency}: PSP look-ups in flight, the
 * PSP's rate limit to respect).
 */
@ConfigurationProperties("payments.sweep")
public record SweepProperties(Boolean enabled, Duration interval, Duration initialDelay, Duration inFlightAge,
        Integer batchSize, Duration lease, Integer concurrency) {

    public SweepProperties {
        enabled = enabled == null || enabled;
        interval = interval == null ? Duration.ofMinutes(2) : interval;
        initialDelay = initialDelay == null ? Duration.ofSeconds(30) : initialDelay;
        inFlightAge = inFlightAge == null ? Duration.ofMinutes(5) : inFlightAge;
        batchSize = batchSize == null ? 100 : batchSize;
        lease = lease == null ? Duration.ofMinutes(2) : lease;
        concurrency = concurrency == null ? 4 : concurrency;
        if (concurrency < 1 || concurrency > 64) {
            throw new IllegalArgumentException("payments.sweep.concurrency must be between 1 and 64");
        }
        if (batchSize < 1 || batchSize > 1000) {
            throw new IllegalArgumentException("payments.sweep.batch-size must be between 1 and 1000");
        }
    }
}
