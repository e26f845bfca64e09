package com.acme.payments.checkout;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.operator.PaymentLookup;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStore;

/**
 * A checkout's PSP payment for the operators' look-up: the payment an order booked, else one of its
 * attempts' payments (role {@code payment}, state the order's status).
 */
@Component
class CheckoutPayments implements PaymentLookup {

    private final OrderStore orders;
    private final AttemptStore attempts;

    CheckoutPayments(OrderStore orders, AttemptStore attempts) {
        this.orders = orders;
        this.attempts = attempts;
    }

    @Override
    public int rank() {
        return 3;
    }

    @Override
    public Optional<PaymentRole> find(String pspPaymentId) {
        Optional<Order> order = orders.findByPaymentId(pspPaymentId)
                .or(() -> attempts.findForPayment(pspPaymentId, null).flatMap(a -> orders.findById(a.orderId())));
        return order.map(o -> new PaymentRole(pspPaymentId, o.orderRef(), "payment", o.status().name()));
    }
}
