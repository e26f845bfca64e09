package com.acme.payments.refund;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Refund settings ({@code payments.refunds.*}), each default written once here. The sweep is the shared
 * {@code payments.sweep.*}.
 *
 * @param retryAfter the Retry-After of a refund whose outcome is not known yet ({@code refund-outcome-unknown})
 * @param blockedRetryAfter the Retry-After of a new refund refused while another of the order's is UNKNOWN
 *        ({@code refund-blocked-by-unknown}): the sweep has to settle that one first, so longer
 * @param gaugeRefresh how often the reserved-amount gauge is re-read from the database
 * @param abandonedWatch how long after an operator's abandon the refund straggler poll still asks the PSP
 *        by the refund's reference: a refund the PSP made after all is booked again even when its webhook
 *        never comes. Asked at gaps growing from {@code payments.stragglers.grace} to a day with the
 *        refund's age (V322 {@code late_truth_due}), as for abandoned attempts
 */
@Validated
@ConfigurationProperties("payments.refunds")
record RefundProperties(@DefaultValue("10s") @DurationMin(millis = 1) Duration retryAfter,
        @DefaultValue("30s") @DurationMin(millis = 1) Duration blockedRetryAfter,
        @DefaultValue("15s") @DurationMin(millis = 1) Duration gaugeRefresh,
        @DefaultValue("30d") @DurationMin(millis = 1) Duration abandonedWatch) {
}
