package com.acme.pspsim;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Locale;
import java.util.Set;

import tools.jackson.databind.JsonNode;

/** A create-payment request as the provider validates it; unknown fields are ignored. */
record CreateRequest(String paymentType, BigDecimal amount, String currency, String referenceId, String returnUrl,
        String webhookUrl, String parentPaymentId, JsonNode customer, JsonNode billingAddress) {

    private static final Set<String> TYPES = Set.of(Payment.DEPOSIT, Payment.REFUND, Payment.WITHDRAWAL);

    /** Reads and validates the body; a {@link GatewayError} 400 when it is not acceptable. */
    static CreateRequest from(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw GatewayError.invalid("the body must be a JSON object");
        }
        String type = text(body, "paymentType");
        if (type == null || !TYPES.contains(type.toUpperCase(Locale.ROOT))) {
            throw GatewayError.invalid("paymentType must be one of " + TYPES);
        }
        type = type.toUpperCase(Locale.ROOT);
        BigDecimal amount = amount(body.get("amount"));
        if (amount == null || amount.signum() <= 0) {
            throw GatewayError.invalid("amount must be a positive decimal");
        }
        String currency = text(body, "currency");
        if (currency == null || !isCurrency(currency)) {
            throw GatewayError.invalid("currency must be an ISO-4217 code");
        }
        String referenceId = text(body, "referenceId");
        if (referenceId == null || referenceId.isBlank()) {
            throw GatewayError.invalid("referenceId is required");
        }
        String parent = text(body, "parentPaymentId");
        if (Payment.REFUND.equals(type) && (parent == null || parent.isBlank())) {
            throw GatewayError.invalid("a REFUND needs parentPaymentId");
        }
        return new CreateRequest(type, amount, currency.toUpperCase(Locale.ROOT), referenceId,
                text(body, "returnUrl"), text(body, "webhookUrl"), parent, object(body, "customer"),
                object(body, "billingAddress"));
    }

    static BigDecimal amount(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            if (node.isNumber()) {
                return node.decimalValue();
            }
            if (node.isString()) {
                return new BigDecimal(node.asString().trim());
            }
        } catch (NumberFormatException e) {
            throw GatewayError.invalid("amount must be a decimal");
        }
        throw GatewayError.invalid("amount must be a decimal");
    }

    private static String text(JsonNode body, String field) {
        JsonNode node = body.get(field);
        return node == null || node.isNull() ? null : node.asString();
    }

    private static JsonNode object(JsonNode body, String field) {
        JsonNode node = body.get(field);
        return node == null || node.isNull() ? null : node;
    }

    private static boolean isCurrency(String code) {
        try {
            Currency.getInstance(code.toUpperCase(Locale.ROOT));
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
