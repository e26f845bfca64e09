package com.acme.pspsim;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import tools.jackson.databind.JsonNode;

/**
 * One payment as the simulated provider holds it. Immutable: every change is a new copy swapped in
 * by {@link PaymentBook}. {@link #view()} is the JSON shape of the API's {@code result} and of a webhook.
 */
record Payment(long seq, String id, String referenceId, String paymentType, String state, BigDecimal amount,
        String currency, String redirectUrl, String errorCode, String errorMessage, String parentPaymentId,
        String returnUrl, String webhookUrl, JsonNode customer, JsonNode billingAddress, Instant createdAt,
        Instant updatedAt, Instant hiddenUntil) {

    static final String DEPOSIT = "DEPOSIT";
    static final String REFUND = "REFUND";
    static final String WITHDRAWAL = "WITHDRAWAL";

    static final String CHECKOUT = "CHECKOUT";
    static final String AUTHORIZED = "AUTHORIZED";
    static final String COMPLETED = "COMPLETED";
    static final String DECLINED = "DECLINED";
    static final String CANCELLED = "CANCELLED";

    Payment withState(String newState, Instant at) {
        return new Payment(seq, id, referenceId, paymentType, newState, amount, currency, redirectUrl, errorCode,
                errorMessage, parentPaymentId, returnUrl, webhookUrl, customer, billingAddress, createdAt, at,
                hiddenUntil);
    }

    Payment withError(String code, String message) {
        return new Payment(seq, id, referenceId, paymentType, state, amount, currency, redirectUrl, code, message,
                parentPaymentId, returnUrl, webhookUrl, customer, billingAddress, createdAt, updatedAt, hiddenUntil);
    }

    Payment withAmount(BigDecimal newAmount) {
        return new Payment(seq, id, referenceId, paymentType, state, newAmount, currency, redirectUrl, errorCode,
                errorMessage, parentPaymentId, returnUrl, webhookUrl, customer, billingAddress, createdAt, updatedAt,
                hiddenUntil);
    }

    Payment hiddenUntil(Instant until) {
        return new Payment(seq, id, referenceId, paymentType, state, amount, currency, redirectUrl, errorCode,
                errorMessage, parentPaymentId, returnUrl, webhookUrl, customer, billingAddress, createdAt, updatedAt,
                until);
    }

    boolean visibleToLookupsAt(Instant now) {
        return hiddenUntil == null || !now.isBefore(hiddenUntil);
    }

    /** The provider's JSON shape; nulls are omitted. */
    Map<String, Object> view() {
        Map<String, Object> v = new LinkedHashMap<>();
        put(v, "id", id);
        put(v, "referenceId", referenceId);
        put(v, "paymentType", paymentType);
        put(v, "state", state);
        put(v, "amount", amount);
        put(v, "currency", currency);
        put(v, "redirectUrl", redirectUrl);
        put(v, "errorCode", errorCode);
        put(v, "errorMessage", errorMessage);
        put(v, "parentPaymentId", parentPaymentId);
        put(v, "returnUrl", returnUrl);
        put(v, "webhookUrl", webhookUrl);
        put(v, "customer", customer);
        put(v, "billingAddress", billingAddress);
        put(v, "createdAt", createdAt == null ? null : createdAt.toString());
        put(v, "updatedAt", updatedAt == null ? null : updatedAt.toString());
        return v;
    }

    private static void put(Map<String, Object> v, String key, Object value) {
        if (value != null) {
            v.put(key, value);
        }
    }
}
