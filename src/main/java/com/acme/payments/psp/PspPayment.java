package com.acme.payments.psp;

import java.math.BigDecimal;

import com.acme.payments.order.PaymentReport;

import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A payment as the PSP reports it (create/get/find answers and webhooks share this shape). The
 * customer block is deliberately not read: it is never stored or logged by us.
 *
 * <p>{@code supersedesProvisional}: the provider makes at most one payment under our reference (its create
 * is idempotent on the reference) and {@code id} is that payment's lasting id, so any other id the
 * reference's attempt holds was the provider's provisional name for this same payment, and this id replaces
 * it (Stripe: the Checkout Session's id until its PaymentIntent is known, {@code StripeObjects}). Set only by
 * an adapter's mapping, never read from a payload; false for a provisional id itself, for refunds, and
 * wherever one reference may carry several payments (the Gateway: its {@code referenceId} is not
 * idempotent, so a second id under one reference is a second payment).
 */
@Schema(description = "The PSP Gateway API's payment object (its calls and states: docs/providers.md); unknown fields are ignored")
public record PspPayment(String id, String referenceId, String paymentType, String state, BigDecimal amount,
        String currency, String redirectUrl, String errorCode, String errorMessage, String parentPaymentId,
        @Schema(hidden = true) boolean supersedesProvisional) {

    /** A report of a provider whose reference may carry several payments (or of a refund): replaces nothing. */
    public PspPayment(String id, String referenceId, String paymentType, String state, BigDecimal amount,
            String currency, String redirectUrl, String errorCode, String errorMessage, String parentPaymentId) {
        this(id, referenceId, paymentType, state, amount, currency, redirectUrl, errorCode, errorMessage,
                parentPaymentId, false);
    }

    public PaymentState paymentState() {
        return PaymentState.of(state);
    }

    /** This payment in the order's words: the move its state asks for and the facts that move books. */
    public PaymentReport orderReport() {
        return new PaymentReport(paymentState().orderMove(), id, amount, currency, errorCode, errorMessage);
    }

    @Schema(hidden = true) // not a field of the PSP object
    public boolean isRefund() {
        return "REFUND".equalsIgnoreCase(paymentType);
    }

    @Override
    public String toString() { // ids and state only; amounts and URLs are not secrets but add nothing to logs
        return "PspPayment[id=" + id + ", referenceId=" + referenceId + ", type=" + paymentType + ", state="
                + state + "]";
    }
}
