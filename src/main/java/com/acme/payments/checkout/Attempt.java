package com.acme.payments.checkout;

import java.math.BigDecimal;

import com.acme.payments.sweep.Leased;

/**
 * One row of {@code psp_attempt}. {@code pspRequest} is what the provider fixed at the claim
 * ({@code PaymentProvider.fixRequest}; null for the Gateway). {@code payer} is the order's part of the
 * create as it was sent, read with the row where a caller rebuilds that request (the sweep's claim); null
 * where the row was read alone.
 */
public record Attempt(long id, long orderId, String referenceId, AttemptState state, BigDecimal amount,
        String currency, String returnUrl, String pspPaymentId, String redirectUrl, String errorCode,
        String errorMessage, String failureReason, long leaseVersion, String pspRequest, Payer payer)
        implements Leased {

    /** The row read alone, without its order's part. */
    public Attempt(long id, long orderId, String referenceId, AttemptState state, BigDecimal amount, String currency,
            String returnUrl, String pspPaymentId, String redirectUrl, String errorCode, String errorMessage,
            String failureReason, long leaseVersion, String pspRequest) {
        this(id, orderId, referenceId, state, amount, currency, returnUrl, pspPaymentId, redirectUrl, errorCode,
                errorMessage, failureReason, leaseVersion, pspRequest, null);
    }

    /** This row with its order's part of the request, where the caller already holds the order. */
    Attempt withPayer(Payer orderPart) {
        return new Attempt(id, orderId, referenceId, state, amount, currency, returnUrl, pspPaymentId, redirectUrl,
                errorCode, errorMessage, failureReason, leaseVersion, pspRequest, orderPart);
    }

    /** The order's fields a reconcile's request carries (CreatePayment.deposit). */
    public record Payer(String orderRef, String customerRef, String customerEmail) {
        @Override
        public String toString() { // the customer's email: never in a log line
            return "Payer[orderRef=" + orderRef + "]";
        }
    }

    @Override
    public String toString() { // the fixed request holds the customer's email: never in a log line
        return "Attempt[id=" + id + ", referenceId=" + referenceId + ", state=" + state + "]";
    }
}
