package com.acme.payments.order;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * What a payment provider reports about an order's payment, in the order's own words: the move it asks
 * for and the facts that move books. Each provider's adapter maps its own states into the port's
 * ({@code psp.PaymentProvider}), {@code psp.PspPayment#orderReport} turns those into a report, and the order
 * never reads a provider's types.
 *
 * @param move what the payment asks of the order; {@link PaymentTransition#TO_PROCESSING} for a payment
 *        still under way (any non-final state, one a provider adds later included)
 * @param amount what the provider says was paid (booked by {@code TO_PAID}, never what we asked for)
 * @param errorCode the provider's refusal code ({@code TO_FAILED}), else null
 */
public record PaymentReport(PaymentTransition move, String paymentId, BigDecimal amount, String currency,
        String errorCode, String errorMessage) {

    public PaymentReport {
        Objects.requireNonNull(move, "move");
    }
}
