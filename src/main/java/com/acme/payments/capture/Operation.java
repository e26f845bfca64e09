package com.acme.payments.capture;

import java.math.BigDecimal;

import com.acme.payments.sweep.Leased;

/**
 * One capture or void of an AUTHORIZED payment ({@code psp_payment_operation}): a capture's {@code amount}
 * (null: all that is authorized) and the caller's {@code idempotencyKey} (null: none) are fixed at the claim.
 */
public record Operation(long id, long orderId, Kind kind, String state, String pspPaymentId, long leaseVersion,
        BigDecimal amount, String idempotencyKey) implements Leased {

    enum Kind {
        CAPTURE, VOID
    }

    /**
     * Our reference of this operation, the provider's idempotency key where it takes one (Stripe): stable
     * for the row, unique across databases because the provider's payment id is.
     */
    String referenceId() {
        return pspPaymentId + ":" + kind.name().toLowerCase(java.util.Locale.ROOT) + ":" + id;
    }

    /** Whether a repeat under the same key asks for the same thing (the same kind and amount). */
    boolean sameRequest(Kind otherKind, BigDecimal otherAmount) {
        return kind == otherKind && (amount == null ? otherAmount == null
                : otherAmount != null && amount.compareTo(otherAmount) == 0);
    }

    boolean isOpen() {
        return "IN_FLIGHT".equals(state) || "UNKNOWN".equals(state);
    }
}
