package com.acme.payments.psp;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The inbox replay ({@code payments.replay.*}).
 *
 * @param enabled whether this instance runs the replay
 * @param interval pause between two runs
 * @param initialDelay delay after start before the first run
 * @param minAge age of an unprocessed receipt before it is replayed; also its lease
 * @param batchSize receipts leased per run
 */
@Validated
@ConfigurationProperties("payments.replay")
record ReplayProperties(@DefaultValue("true") Boolean enabled,
        @DefaultValue("1m") @DurationMin(millis = 1) Duration interval,
        @DefaultValue("30s") Duration initialDelay,
        @DefaultValue("5m") @DurationMin(millis = 1) Duration minAge,
        @DefaultValue("100") @Min(1) @Max(1000) Integer batchSize) {
}
