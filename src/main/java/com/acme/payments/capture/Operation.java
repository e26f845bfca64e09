package com.acme.payments.capture;

import com.acme.payments.sweep.Leased;

/** One capture or void of an AUTHORIZED payment ({@code psp_payment_operation}). */
public record Operation(long id, long orderId, Kind kind, String state, String pspPaymentId, long leaseVersion)
        implements Leased {

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

    boolean isOpen() {
        return "IN_FLIGHT".equals(state) || "UNKNOWN".equals(state);
    }
}
