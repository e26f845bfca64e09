package com.acme.payments.order;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.PathLookup;
import com.acme.payments.common.web.Problems;

/**
 * Finds an order by its public reference, or answers 404. Access was checked before this runs. A
 * controller's {@link Order} parameter is resolved here from {@code {orderRef}}, before its body.
 */
@Component
public class OrderLookup implements PathLookup<Order> {

    private final OrderStore orders;

    OrderLookup(OrderStore orders) {
        this.orders = orders;
    }

    @Override
    public Class<Order> type() {
        return Order.class;
    }

    @Override
    public String variable() {
        return "orderRef";
    }

    @Override
    public Order require(String orderRef) {
        if (!OrderRefs.isWellFormed(orderRef)) {
            throw new Problems.NotFound("Order");
        }
        return orders.findByRef(orderRef).orElseThrow(() -> new Problems.NotFound("Order"));
    }
}
