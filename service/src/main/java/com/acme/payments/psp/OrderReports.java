package com.acme.payments.psp;

import com.acme.payments.order.PaymentReport;
import com.acme.payments.order.PaymentTransition;

/**
 * Our payment states in the order's words ({@link PaymentReport}). The order package knows no provider,
 * and this mapping knows none either: each {@link PaymentProvider} adapter maps its provider's states into
 * {@link PaymentState} (the Gateway's are ours already; Stripe's: {@code psp.stripe.StripeObjects}), and
 * the order hears of any of them only through here.
 */
public final class OrderReports {

    private OrderReports() {
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
