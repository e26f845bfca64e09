package com.acme.payments.access;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Keys issued at run time ({@code payments.access.*}), each default written once here.
 *
 * @param refresh how often each instance re-reads the keys not revoked from the database: a key revoked on
 *        another instance is refused here at most this long (plus one read) later. At most 2s, so the contract's
 *        5 seconds hold
 * @param maxStaleness how old this instance's copy of the issued keys may grow (the database unreachable) before
 *        it refuses every issued key (401) rather than honour one that may have been revoked; configured keys are
 *        unaffected. At most 4s
 * @param usageFlush how often each instance writes the keys' last use it has seen since (one statement per key
 *        used, never one per request); {@code lastUsedAt} is at most this late
 */
@Validated
@ConfigurationProperties("payments.access")
record AccessProperties(
        @DefaultValue("1s") @DurationMin(millis = 100) @DurationMax(seconds = 2) Duration refresh,
        @DefaultValue("4s") @DurationMin(millis = 500) @DurationMax(seconds = 4) Duration maxStaleness,
        @DefaultValue("10s") @DurationMin(millis = 100) Duration usageFlush) {
}
