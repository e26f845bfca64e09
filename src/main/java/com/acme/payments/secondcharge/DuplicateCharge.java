package com.acme.payments.secondcharge;

import java.math.BigDecimal;
import java.time.Instant;

import com.acme.payments.refund.SecondChargeRefunds;

/**
 * One row of {@code duplicate_charge}: a second real charge of an order, with its refund if any (the live
 * one, else the latest; a {@code psp_refund_attempt} row of the refund feature).
 */
public record DuplicateCharge(long id, long orderId, String orderRef, String pspPaymentId, BigDecimal amount,
        String currency, Instant detectedAt, String refundReferenceId, String refundState, String refundPspState,
        String refundRequestedBy) {

    SecondChargeRefunds.Charge toRefund() {
        return new SecondChargeRefunds.Charge(id, orderId, orderRef, pspPaymentId, amount, currency);
    }
}
