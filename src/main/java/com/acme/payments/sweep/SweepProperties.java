package com.acme.payments.sweep;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The unknown-outcome sweep ({@code payments.sweep.*}), one setting for every table that follows claim →
 * call → settle → sweep (checkout attempts, capture/void operations, refunds).
 *
 * @param enabled whether this instance runs the sweep
 * @param interval pause between two runs
 * @param initialDelay delay after start before the first run
 * @param inFlightAge age after which an IN_FLIGHT owner is presumed dead and its row turns UNKNOWN; must
 *        exceed the PSP read timeout
 * @param batchSize rows claimed per run and table
 * @param lease how long a row claimed by one instance's pass is hidden from the others while it is resolved
 *        (a pass that ends releases the rows it left UNKNOWN; those of a pass that stopped come back when it
 *        expires); not when a row is due: an UNKNOWN row is due at once
 * @param concurrency rows of a claimed batch resolved at once per instance: the PSP look-ups in flight,
 *        the PSP's rate limit to respect
 */
@Validated
@ConfigurationProperties("payments.sweep")
public record SweepProperties(@DefaultValue("true") Boolean enabled,
        @DefaultValue("2m") @DurationMin(millis = 1) Duration interval,
        @DefaultValue("30s") Duration initialDelay,
        @DefaultValue("5m") @DurationMin(millis = 1) Duration inFlightAge,
        @DefaultValue("100") @Min(1) @Max(1000) Integer batchSize,
        @DefaultValue("2m") @DurationMin(millis = 1) Duration lease,
        @DefaultValue("4") @Min(1) @Max(64) Integer concurrency) {
}
