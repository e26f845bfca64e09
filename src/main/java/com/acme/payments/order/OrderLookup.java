package com.acme.payments.order;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;

/** Finds an order by its public reference, or answers 404. Access was checked before this runs. */
@Component
public class OrderLookup {

    private final OrderStore orders;

    OrderLookup(OrderStore orders) {
        this.orders = orders;
    }

    public Order require(String orderRef) {
        if (!OrderRefs.isWellFormed(orderRef)) {
            throw new Problems.NotFound("Order");
        }
        return orders.findByRef(orderRef).orElseThrow(() -> new Problems.NotFound("Order"));
    }
}
