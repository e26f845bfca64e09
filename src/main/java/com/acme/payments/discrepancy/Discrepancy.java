package com.acme.payments.discrepancy;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One discrepancy. {@code pspPaymentId} is the PSP payment it is about: the REFUND payment for a refund's
 * contradicting report or over-refund, the deposit for a payment's contradicting report or a second
 * charge. {@code amount} is the money in question (the excess for an over-refund). {@code detectedAt} is
 * null until recorded.
 */
public record Discrepancy(DiscrepancyKind kind, String orderRef, String pspPaymentId, BigDecimal amount,
        String currency, String detail, Instant detectedAt) {

    public static Discrepancy of(DiscrepancyKind kind, String orderRef, String pspPaymentId, BigDecimal amount,
            String currency, String detail) {
        return new Discrepancy(kind, orderRef, pspPaymentId, amount, currency, detail, null);
    }
}
