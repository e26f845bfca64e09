package com.acme.payments.common.jobs;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The straggler polls ({@code payments.stragglers.*}), one setting for both: orders and DONE refunds
 * still non-final at the PSP past {@code grace} are read from the PSP again.
 */
@ConfigurationProperties("payments.stragglers")
public record StragglerProperties(Boolean enabled, Duration interval, Duration initialDelay, Duration grace,
        Integer batchSize) {

    public StragglerProperties {
        enabled = enabled == null || enabled;
        interval = interval == null ? Duration.ofMinutes(5) : interval;
        initialDelay = initialDelay == null ? Duration.ofSeconds(60) : initialDelay;
        grace = grace == null ? Duration.ofMinutes(15) : grace;
        batchSize = batchSize == null ? 100 : batchSize;
    }
}
