package com.acme.payments.checkout;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The straggler poll ({@code payments.stragglers.*}): orders non-final past {@code grace} are polled. */
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
