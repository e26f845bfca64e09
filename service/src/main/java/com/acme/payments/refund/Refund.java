package com.acme.payments.refund;

import java.math.BigDecimal;
import java.time.Instant;

import com.acme.payments.sweep.Leased;

/**
 * One row of {@code psp_refund_attempt}: a refund of an order's payment (with the caller's
 * {@code refundKey}) or of a second charge ({@code duplicateChargeId}, no key).
 */
record Refund(long id, long orderId, String refundKey, String referenceId, BigDecimal amount, String currency,
        RefundState state, String pspPaymentId, String errorCode, String errorMessage, Instant createdAt,
        long leaseVersion, String pspState, String requestedBy, String reason, String abandonedBy,
        Long duplicateChargeId) implements Leased {

    boolean abandoned() {
        return state == RefundState.FAILED && "abandoned".equals(errorCode);
    }

    /** A second charge's refund: the charge itself is its reservation, not the order's refunded_amount. */
    boolean ofSecondCharge() {
        return duplicateChargeId != null;
    }
}
