package com.acme.payments.refund;

import java.math.BigDecimal;
import java.time.Instant;

/** One row of {@code psp_refund_attempt}. */
record Refund(long id, long orderId, String refundKey, String referenceId, BigDecimal amount, String currency,
        RefundState state, String pspPaymentId, String errorCode, String errorMessage, Instant createdAt,
        long leaseVersion, String pspState, String requestedBy, String reason, String abandonedBy) {

    boolean abandoned() {
        return state == RefundState.FAILED && "abandoned".equals(errorCode);
    }
}
