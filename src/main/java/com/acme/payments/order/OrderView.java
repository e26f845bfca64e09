package com.acme.payments.order;

import java.math.BigDecimal;

import com.acme.payments.common.money.Amounts;
import com.fasterxml.jackson.annotation.JsonInclude;

/** The order as the contract shows it: money as decimal strings in major units. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record OrderView(String orderRef, String status, String amount, String currency, String paidAmount,
        String paidCurrency, String refundedAmount, String pspPaymentId, String errorCode) {

    public static OrderView of(Order order) {
        return new OrderView(order.orderRef(), order.status().name(), money(order.amount()), order.currency(),
                money(order.paidAmount()), order.paidCurrency(),
                money(Amounts.canonical(order.refundedAmount(), currencyOf(order))),
                order.pspPaymentId(), order.errorCode());
    }

    private static String currencyOf(Order order) {
        return order.paidCurrency() != null ? order.paidCurrency() : order.currency();
    }

    static String money(BigDecimal value) {
        return value == null ? null : value.toPlainString();
    }
}
