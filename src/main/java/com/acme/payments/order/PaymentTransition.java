package com.acme.payments.order;

import java.util.List;

/**
 * The whitelist of order moves a payment may cause (which provider state asks for which move is the
 * provider's mapping, {@link PaymentReport}). {@code from} is the {@code WHERE status
 * IN (…)} of the conditional UPDATE: re-applying or downgrading matches zero rows, which is
 * information, not an error.
 */
public enum PaymentTransition {
    TO_PAID(OrderStatus.PAID, List.of(OrderStatus.AWAITING_PAYMENT, OrderStatus.PROCESSING, OrderStatus.AUTHORIZED)),
    TO_AUTHORIZED(OrderStatus.AUTHORIZED, List.of(OrderStatus.AWAITING_PAYMENT, OrderStatus.PROCESSING)),
    TO_FAILED(OrderStatus.PAYMENT_FAILED,
            List.of(OrderStatus.AWAITING_PAYMENT, OrderStatus.PROCESSING, OrderStatus.AUTHORIZED)),
    TO_PROCESSING(OrderStatus.PROCESSING, List.of(OrderStatus.AWAITING_PAYMENT));

    private final OrderStatus target;
    private final List<OrderStatus> from;

    PaymentTransition(OrderStatus target, List<OrderStatus> from) {
        this.target = target;
        this.from = from;
    }

    public OrderStatus target() {
        return target;
    }

    public List<String> fromNames() {
        return from.stream().map(Enum::name).toList();
    }
}
