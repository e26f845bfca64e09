package com.acme.payments.checkout;

import java.math.BigDecimal;
import java.time.Instant;

/** One row of {@code duplicate_charge}: a second real charge of an order, and its refund if any. */
record DuplicateCharge(long id, long orderId, String orderRef, String pspPaymentId, BigDecimal amount,
        String currency, Instant detectedAt, String refundReferenceId, String refundState,
        String refundPspPaymentId, String refundErrorCode, String refundRequestedBy, long leaseVersion) {

    boolean refundOpen() {
        return "IN_FLIGHT".equals(refundState) || "UNKNOWN".equals(refundState);
    }
}
