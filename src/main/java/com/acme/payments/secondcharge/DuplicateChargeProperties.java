package com.acme.payments.secondcharge;

import java.time.Duration;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Second charges ({@code payments.duplicates.*}).
 *
 * @param autoRefund refund each second charge without an operator ({@code PAYMENTS_DUPLICATES_AUTO_REFUND}),
 *        from the {@code duplicate-auto-refund} poll on the {@code payments.sweep.*} schedule, through the
 *        operator's claim; the refunds themselves are the refund feature's (swept, polled and abandoned as
 *        any refund)
 * @param abandonedWatch how long after an operator's abandon the PSP is still asked by the attempt's
 *        reference ({@code PAYMENTS_DUPLICATES_ABANDONED_WATCH}): a payment that appears in that time is
 *        applied even if its webhook never comes (a COMPLETED one is a second charge). Polled on the
 *        {@code payments.stragglers.*} schedule at gaps growing from {@code grace} to a day with the
 *        attempt's age (V322 {@code late_truth_due}): about 37 look-ups in 30 days
 */
@Validated
@ConfigurationProperties("payments.duplicates")
public record DuplicateChargeProperties(@DefaultValue("false") Boolean autoRefund,
        @DefaultValue("30d") @DurationMin(millis = 1) Duration abandonedWatch) {
}
