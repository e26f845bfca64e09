package com.acme.payments.capture;

import com.acme.payments.sweep.Leased;

/** One capture or void of an AUTHORIZED payment ({@code psp_payment_operation}). */
public record Operation(long id, long orderId, Kind kind, String state, String pspPaymentId, long leaseVersion)
        implements Leased {

    enum Kind {
        CAPTURE, VOID
    }

    boolean isOpen() {
        return "IN_FLIGHT".equals(state) || "UNKNOWN".equals(state);
    }
}
