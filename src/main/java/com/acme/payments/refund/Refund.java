package com.acme.payments.refund;

import java.math.BigDecimal;
import java.time.Instant;

import com.acme.payments.sweep.Leased;

/**
 * One row of {@code psp_refund_attempt}: a refund of an order's payment (with the caller's
 * {@code refundKey}) or of a second charge ({@code duplicateChargeId}, no key). {@code origin} is
 * {@code api} for ours and {@code external} for one made at the PSP by someone else (no key, no requester). {@code parent} is what the
 * refund was sent against, read with the row where the create is rebuilt from it (the sweep's claim); null
 * where the row was read alone.
 */
public record Refund(long id, long orderId, String refundKey, String referenceId, BigDecimal amount, String currency,
        RefundState state, String pspPaymentId, String errorCode, String errorMessage, Instant createdAt,
        long leaseVersion, String pspState, String requestedBy, String reason, String abandonedBy,
        Long duplicateChargeId, String origin, RefundStore.Parent parent) implements Leased {

    static final String API = "api";
    static final String EXTERNAL = "external";

    /** The row read alone, without what it was sent against. */
    Refund(long id, long orderId, String refundKey, String referenceId, BigDecimal amount, String currency,
            RefundState state, String pspPaymentId, String errorCode, String errorMessage, Instant createdAt,
            long leaseVersion, String pspState, String requestedBy, String reason, String abandonedBy,
            Long duplicateChargeId, String origin) {
        this(id, orderId, refundKey, referenceId, amount, currency, state, pspPaymentId, errorCode, errorMessage,
                createdAt, leaseVersion, pspState, requestedBy, reason, abandonedBy, duplicateChargeId, origin, null);
    }

    boolean abandoned() {
        return state == RefundState.FAILED && "abandoned".equals(errorCode);
    }

    /** A second charge's refund: the charge itself is its reservation, not the order's refunded_amount. */
    boolean ofSecondCharge() {
        return duplicateChargeId != null;
    }
}
