package com.acme.payments.checkout;

import java.math.BigDecimal;

import com.acme.payments.sweep.Leased;

/** One row of {@code psp_attempt}. */
public record Attempt(long id, long orderId, String referenceId, AttemptState state, BigDecimal amount,
        String currency, String returnUrl, String pspPaymentId, String redirectUrl, String errorCode,
        String errorMessage, String failureReason, long leaseVersion) implements Leased {
}
