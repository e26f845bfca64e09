package com.acme.payments.psp;

import com.acme.payments.order.PaymentReport;
import com.acme.payments.order.PaymentTransition;

/**
 * The PSP Gateway's side of the provider seam: its payment states mapped into the order's words
 * ({@link PaymentReport}). The order package knows no provider; a next provider (Stripe as the PSP)
 * plugs in with a mapping of its own into the same report, and nothing else.
 */
public final class GatewayOrderMapping {

    private GatewayOrderMapping() {
    }

    /** The order move a Gateway payment state asks for: final states move it, any other is under way. */
    public static PaymentTransition move(PaymentState state) {
        if (state == PaymentState.COMPLETED) {
            return PaymentTransition.TO_PAID;
        }
        if (state == PaymentState.AUTHORIZED) {
            return PaymentTransition.TO_AUTHORIZED;
        }
        if (state.isFailure()) {
            return PaymentTransition.TO_FAILED;
        }
        return PaymentTransition.TO_PROCESSING;
    }

    public static PaymentReport report(PspPayment payment) {
        return new PaymentReport(move(payment.paymentState()), payment.id(), payment.amount(), payment.currency(),
                payment.errorCode(), payment.errorMessage());
    }
}
