package com.acme.payments.order;

/** The order's payment status, as the shop sees it. */
public enum OrderStatus {
    AWAITING_PAYMENT, PROCESSING, AUTHORIZED, PAID, PAYMENT_FAILED;

    /** Nothing more will happen to it without an operator (refunds aside). */
    public boolean isFinal() {
        return this == PAID || this == PAYMENT_FAILED;
    }
}
