package com.acme.payments.order;

import java.math.BigDecimal;
import java.time.Instant;

/** One row of {@code orders}. The client token is held only as its SHA-256 hash. */
public record Order(long id, String orderRef, OrderStatus status, BigDecimal amount, String currency,
        BigDecimal paidAmount, String paidCurrency, BigDecimal refundedAmount, String pspPaymentId,
        String errorCode, String errorMessage, String customerRef, String customerEmail, byte[] clientTokenHash,
        Instant createdAt, Instant updatedAt) {

    @Override
    public String toString() {
        return "Order[id=" + id + ", orderRef=" + orderRef + ", status=" + status + "]";
    }
}
