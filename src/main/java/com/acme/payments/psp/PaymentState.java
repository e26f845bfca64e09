package com.acme.payments.psp;

import java.util.Locale;

import com.acme.payments.order.PaymentTransition;

/**
 * Our payment states, the port's ({@link PaymentProvider}): each adapter maps its provider's states into
 * these (the Gateway's are ours already; Stripe's: {@code psp.stripe.StripeObjects}), and these into the
 * order's moves ({@link #orderMove}), so the order knows no provider. Anything the PSP adds later is
 * {@link #UNRECOGNIZED}: non-final.
 */
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

    /** The order move this state asks for: final states move it, any other is under way. */
    public PaymentTransition orderMove() {
        if (this == COMPLETED) {
            return PaymentTransition.TO_PAID;
        }
        if (this == AUTHORIZED) {
            return PaymentTransition.TO_AUTHORIZED;
        }
        return isFailure() ? PaymentTransition.TO_FAILED : PaymentTransition.TO_PROCESSING;
    }
}
