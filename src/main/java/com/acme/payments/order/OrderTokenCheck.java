package com.acme.payments.order;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.OrderTokens;
import com.acme.payments.common.web.Secrets;

/** Per-order client tokens, compared as stored SHA-256 hashes in constant time. */
@Component
class OrderTokenCheck implements OrderTokens {

    private final OrderStore orders;

    OrderTokenCheck(OrderStore orders) {
        this.orders = orders;
    }

    @Override
    public boolean belongsTo(String orderRef, byte[] tokenHash) {
        return OrderRefs.isWellFormed(orderRef) && orders.findByRef(orderRef)
                .map(order -> Secrets.constantTimeEquals(order.clientTokenHash(), tokenHash))
                .orElse(false);
    }

    @Override
    public boolean exists(byte[] tokenHash) {
        return orders.tokenExists(tokenHash);
    }
}
