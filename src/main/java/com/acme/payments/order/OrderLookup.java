package com.acme.payments.order;

import java.util.Optional;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.PathLookup;

/**
 * Finds an order by its public reference, or answers 404. Access was checked before this runs. A
 * controller's {@link Order} parameter is resolved here from {@code {orderRef}}, before its body.
 */
@Component
public class OrderLookup extends PathLookup<Order> {

    private final OrderStore orders;

    OrderLookup(OrderStore orders) {
        super(Order.class, "orderRef", "Order");
        this.orders = orders;
    }

    @Override
    protected Optional<Order> find(String orderRef) {
        return OrderRefs.isWellFormed(orderRef) ? orders.findByRef(orderRef) : Optional.empty();
    }
}
