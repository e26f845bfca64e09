package com.acme.payments.psp;

import java.math.BigDecimal;

import com.acme.payments.common.web.StorableText;

import tools.jackson.databind.JsonNode;

/** Reads the PSP's payment object. Amounts are read from the JSON text exactly, never through double. */
public final class PspPayments {

    private PspPayments() {
    }

    /** @throws IllegalArgumentException when the object lacks an id or a state */
    public static PspPayment fromJson(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("payment is not a JSON object");
        }
        String id = text(node, "id");
        String state = text(node, "state");
        if (id == null || id.isBlank() || state == null || state.isBlank()) {
            throw new IllegalArgumentException("payment has no id or state");
        }
        return new PspPayment(id, text(node, "referenceId"), text(node, "paymentType"), state,
                decimal(node.get("amount")), text(node, "currency"), text(node, "redirectUrl"),
                text(node, "errorCode"), text(node, "errorMessage"), text(node, "parentPaymentId"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw new IllegalArgumentException(field + " is not a scalar");
        }
        String text = value.asString();
        if (!StorableText.isStorable(text)) {
            throw new IllegalArgumentException(field + " contains a NUL character or an unpaired surrogate");
        }
        return text;
    }

    private static BigDecimal decimal(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isNumber()) {
            return value.decimalValue();
        }
        if (value.isString()) {
            try {
                return new BigDecimal(value.asString().trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("amount is not a decimal");
            }
        }
        throw new IllegalArgumentException("amount is not a decimal");
    }
}
