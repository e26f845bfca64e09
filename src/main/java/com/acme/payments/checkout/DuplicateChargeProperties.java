package com.acme.payments.checkout;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Second charges ({@code payments.duplicates.*}): {@code autoRefund}
 * ({@code PAYMENTS_DUPLICATES_AUTO_REFUND}, default false) refunds each one without an operator, from the
 * duplicate sweep, which also resolves their UNKNOWN refunds on the {@code payments.sweep.*} schedule.
 */
@ConfigurationProperties("payments.duplicates")
public record DuplicateChargeProperties(Boolean autoRefund) {

    public DuplicateChargeProperties {
        autoRefund = autoRefund != null && autoRefund;
    }
}
