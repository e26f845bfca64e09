package com.acme.payments.refund;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.operator.PaymentLookup;
import com.acme.payments.order.OrderStore;

/**
 * A refund's PSP payment (the REFUND payment) for the operators' look-up: role {@code refund} for an
 * order's refund, {@code duplicate_refund} for a second charge's; state the refund's.
 */
@Component
class RefundPayments implements PaymentLookup {

    private final RefundStore refunds;
    private final OrderStore orders;

    RefundPayments(RefundStore refunds, OrderStore orders) {
        this.refunds = refunds;
        this.orders = orders;
    }

    @Override
    public int rank() {
        return 2;
    }

    @Override
    public Optional<PaymentRole> find(String pspPaymentId) {
        return refunds.findForPayment(pspPaymentId, null).map(refund -> new PaymentRole(pspPaymentId,
                orders.findById(refund.orderId()).orElseThrow().orderRef(),
                refund.ofSecondCharge() ? "duplicate_refund" : "refund", refund.state().name()));
    }
}
