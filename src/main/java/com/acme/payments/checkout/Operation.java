package com.acme.payments.checkout;

import com.acme.payments.sweep.Leased;

/** One capture or void of an AUTHORIZED payment ({@code psp_payment_operation}). */
record Operation(long id, long orderId, Kind kind, String state, String pspPaymentId, long leaseVersion)
        implements Leased {

    enum Kind {
        CAPTURE, VOID
    }

    boolean isOpen() {
        return "IN_FLIGHT".equals(state) || "UNKNOWN".equals(state);
    }
}
