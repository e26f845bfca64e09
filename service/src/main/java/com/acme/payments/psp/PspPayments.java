package com.acme.payments.psp;

import java.math.BigDecimal;
import java.util.Optional;

import com.acme.payments.common.web.StorableText;
import com.acme.payments.psp.PaymentPayloadFault.Kind;

import tools.jackson.databind.JsonNode;

/** Reads the PSP's payment object. Amounts are read from the JSON text exactly, never through double. */
public final class PspPayments {

    private PspPayments() {
    }

    /**
     * A look-up answer: a payment whose every value can be booked.
     *
     * @throws IllegalArgumentException when the object is not a payment (no id or state, a container or
     *         unstorable text where a value belongs)
     * @throws PaymentPayloadFault when a value cannot be booked ({@link PaymentPayloadRules})
     */
    public static PspPayment fromJson(JsonNode node) {
        Reading reading = read(node);
        if (reading.fault().isPresent()) {
            throw reading.fault().get();
        }
        return reading.payment();
    }

    /**
     * A webhook: the payment with the first value that cannot be booked, if any, so the receipt can be kept.
     * An amount that is not a number is read as absent, with its fault.
     *
     * @throws IllegalArgumentException when the object is not a payment at all
     */
    static Reading read(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("payment is not a JSON object");
        }
        String id = text(node, "id");
        String state = text(node, "state");
        if (id == null || id.isBlank() || state == null || state.isBlank()) {
            throw new IllegalArgumentException("payment has no id or state");
        }
        JsonNode amountValue = node.get("amount");
        BigDecimal amount = decimalOrNull(amountValue);
        boolean notANumber = amount == null && amountValue != null && !amountValue.isNull();
        PspPayment payment = new PspPayment(id, text(node, "referenceId"), text(node, "paymentType"), state,
                amount, text(node, "currency"), text(node, "redirectUrl"),
                text(node, "errorCode"), text(node, "errorMessage"), text(node, "parentPaymentId"));
        Optional<PaymentPayloadFault> fault = PaymentPayloadRules.faultIn(payment);
        if (notANumber && (fault.isEmpty() || fault.get().kind() == Kind.MISSING_AMOUNT)) {
            fault = Optional.of(new PaymentPayloadFault(Kind.AMOUNT_NOT_A_NUMBER, "amount", "amount is not a number"));
        }
        return new Reading(payment, fault);
    }

    /** A payment object as read, and the first of its values that cannot be booked. */
    record Reading(PspPayment payment, Optional<PaymentPayloadFault> fault) {
    }

    /**
     * A provider object's scalar field as text we can store: null when the object or the field is absent or
     * null; refused (IllegalArgumentException, a malformed object) when it is not a scalar or holds what
     * PostgreSQL's {@code text} cannot (NUL, an unpaired surrogate). Shared by every adapter's mapping.
     */
    public static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        if (value == null || value.isNull() || value.isMissingNode()) {
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

    /** Null when absent or not a number (the caller tells which: a payload fault, not a malformed object). */
    private static BigDecimal decimalOrNull(JsonNode value) {
        try {
            if (value != null && value.isNumber()) {
                return value.decimalValue();
            }
            if (value != null && value.isString()) {
                return new BigDecimal(value.asString().trim());
            }
        } catch (NumberFormatException | ArithmeticException notADecimal) {
            return null;
        }
        return null;
    }
}
