package com.acme.payments.psp;

import java.util.Locale;

/** The PSP's payment states. Anything the PSP adds later is {@link #UNRECOGNIZED}: non-final. */
public enum PaymentState {
    CHECKOUT, PENDING, AWAITING_APPROVAL, AUTHORIZED, COMPLETED, DECLINED, CANCELLED, UNRECOGNIZED;

    public static PaymentState of(String value) {
        if (value == null) {
            return UNRECOGNIZED;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return UNRECOGNIZED;
        }
    }

    /** Money will not move: the payment was refused or cancelled. */
    public boolean isFailure() {
        return this == DECLINED || this == CANCELLED;
    }

    public boolean isFinal() {
        return this == COMPLETED || isFailure();
    }
}
