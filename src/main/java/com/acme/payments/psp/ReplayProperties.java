package com.acme.payments.psp;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The inbox replay ({@code payments.replay.*}): period, receipt age before replay (also the lease), batch. */
@ConfigurationProperties("payments.replay")
record ReplayProperties(Boolean enabled, Duration interval, Duration initialDelay, Duration minAge,
        Integer batchSize) {

    ReplayProperties {
        enabled = enabled == null || enabled;
        interval = interval == null ? Duration.ofMinutes(1) : interval;
        initialDelay = initialDelay == null ? Duration.ofSeconds(30) : initialDelay;
        minAge = minAge == null ? Duration.ofMinutes(5) : minAge;
        batchSize = batchSize == null ? 100 : batchSize;
    }
}
