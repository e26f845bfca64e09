package com.acme.payments.common.jobs;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The unknown-outcome sweep ({@code payments.sweep.*}), one setting for every table that follows claim →
 * call → settle → sweep (checkout attempts, capture/void operations, refunds): how often, when the first
 * run starts, how many rows per claim, when an IN_FLIGHT owner is presumed dead (must exceed the PSP read
 * timeout), and how long a claimed row is hidden from other instances' sweeps (the lease).
 */
@ConfigurationProperties("payments.sweep")
public record SweepProperties(Boolean enabled, Duration interval, Duration initialDelay, Duration inFlightAge,
        Integer batchSize, Duration lease) {

    public SweepProperties {
        enabled = enabled == null || enabled;
        interval = interval == null ? Duration.ofMinutes(2) : interval;
        initialDelay = initialDelay == null ? Duration.ofSeconds(30) : initialDelay;
        inFlightAge = inFlightAge == null ? Duration.ofMinutes(5) : inFlightAge;
        batchSize = batchSize == null ? 100 : batchSize;
        lease = lease == null ? Duration.ofMinutes(2) : lease;
        if (batchSize < 1 || batchSize > 1000) {
            throw new IllegalArgumentException("payments.sweep.batch-size must be between 1 and 1000");
        }
    }
}
