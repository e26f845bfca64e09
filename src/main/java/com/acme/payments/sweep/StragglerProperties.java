package com.acme.payments.sweep;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The straggler polls ({@code payments.stragglers.*}), one setting for both: orders and DONE refunds
 * still non-final at the PSP past {@code grace} are read from the PSP again.
 *
 * @param enabled whether this instance runs the poll
 * @param interval pause between two runs
 * @param initialDelay delay after start before the first run
 * @param grace age of a PROCESSING/AUTHORIZED order before the PSP is asked about it
 * @param batchSize orders claimed per run
 */
@Validated
@ConfigurationProperties("payments.stragglers")
public record StragglerProperties(@DefaultValue("true") Boolean enabled,
        @DefaultValue("5m") @DurationMin(millis = 1) Duration interval,
        @DefaultValue("60s") Duration initialDelay,
        @DefaultValue("15m") @DurationMin(millis = 1) Duration grace,
        @DefaultValue("100") @Min(1) @Max(1000) Integer batchSize) {
}
