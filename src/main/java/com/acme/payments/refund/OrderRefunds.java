package com.acme.payments.refund;

import java.util.List;

import org.springframework.stereotype.Component;

/** An order's refunds, oldest first, for the console's order page (a second charge's refunds are not the order's). */
@Component
public class OrderRefunds {

    private final RefundStore refunds;

    OrderRefunds(RefundStore refunds) {
        this.refunds = refunds;
    }

    public List<Refund> of(long orderId) {
        return refunds.forOrder(orderId);
    }
}
