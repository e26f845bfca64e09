package com.acme.payments.checkout;

import java.math.BigDecimal;

import com.acme.payments.sweep.Leased;

/**
 * One row of {@code psp_attempt}. {@code pspRequest} is what the provider fixed at the claim
 * ({@code PaymentProvider.fixRequest}; null for the Gateway).
 */
public record Attempt(long id, long orderId, String referenceId, AttemptState state, BigDecimal amount,
        String currency, String returnUrl, String pspPaymentId, String redirectUrl, String errorCode,
        String errorMessage, String failureReason, long leaseVersion, String pspRequest) implements Leased {

    @Override
    public String toString() { // the fixed request holds the customer's email: never in a log line
        return "Attempt[id=" + id + ", referenceId=" + referenceId + ", state=" + state + "]";
    }
}
