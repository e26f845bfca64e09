package com.acme.payments.checkout;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Second charges ({@code payments.duplicates.*}).
 *
 * @param autoRefund refund each second charge without an operator ({@code PAYMENTS_DUPLICATES_AUTO_REFUND}),
 *        from the duplicate sweep, which also resolves their UNKNOWN refunds on the {@code payments.sweep.*}
 *        schedule
 */
@ConfigurationProperties("payments.duplicates")
public record DuplicateChargeProperties(@DefaultValue("false") Boolean autoRefund) {
}
