package com.acme.payments.psp;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.OptionalInt;

import com.acme.payments.common.money.Amounts;
import com.acme.payments.common.web.StorableText;
import com.acme.payments.psp.PaymentPayloadFault.Kind;

import tools.jackson.databind.JsonNode;

/**
 * A PSP payment object's way in: read from its JSON exactly (amounts from the JSON text, never through
 * double; text that PostgreSQL can store), and what it must hold before any of its values reaches a
 * statement. The one check for webhooks and every look-up answer alike, so no value can fail a
 * {@code char(3)} or {@code CHECK} constraint halfway through a transaction. Pure, so a test or the chaos
 * workload can reuse it.
 */
public final class PaymentPayloadRules {

    /** The longest id, reference or code we book (the PSP's own ids are far shorter). */
    public static final int MAX_TEXT = 255;
    /** More significant digits than any bookable amount below {@link Amounts#MAX} at three decimals has. */
    private static final int MAX_PRECISION = 40;

    private PaymentPayloadRules() {
    }

    /**
     * A look-up answer: a payment whose every value can be booked.
     *
     * @throws IllegalArgumentException when the object is not a payment (no id or state, a container or
     *         unstorable text where a value belongs)
     * @throws PaymentPayloadFault when a value cannot be booked ({@link #faultIn})
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
        Optional<PaymentPayloadFault> fault = faultIn(payment);
        if (notANumber && (fault.isEmpty() || fault.get().kind() == Kind.MISSING_AMOUNT)) {
            fault = Optional.of(new PaymentPayloadFault(Kind.AMOUNT_NOT_A_NUMBER, "amount", "amount is not a number"));
        }
        return new Reading(payment, fault);
    }

    /** A payment object as read, and the first of its values that cannot be booked. */
    record Reading(PspPayment payment, Optional<PaymentPayloadFault> fault) {
    }

    /** The first value of {@code payment} that cannot be booked, or empty when every value can. */
    public static Optional<PaymentPayloadFault> faultIn(PspPayment payment) {
        if (tooLong(payment.id())) {
            return fault(Kind.ID_TOO_LONG, "id", "id is " + payment.id().length() + " characters, at most " + MAX_TEXT);
        }
        String[][] texts = { { "referenceId", payment.referenceId() }, { "parentPaymentId", payment.parentPaymentId() },
                { "errorCode", payment.errorCode() }, { "paymentType", payment.paymentType() },
                { "state", payment.state() } };
        for (String[] text : texts) {
            if (tooLong(text[1])) {
                return fault(Kind.TEXT_TOO_LONG, text[0], text[0] + " is " + text[1].length() + " characters, at most "
                        + MAX_TEXT);
            }
        }
        OptionalInt digits = OptionalInt.empty();
        if (payment.currency() != null) {
            digits = Amounts.isCurrencyCode(payment.currency()) ? Amounts.fractionDigits(payment.currency())
                    : OptionalInt.empty();
            if (digits.isEmpty()) {
                return fault(Kind.CURRENCY, "currency", "currency is not an ISO-4217 code");
            }
        }
        if (payment.paymentState() == PaymentState.COMPLETED && isDeposit(payment)
                && (payment.amount() == null || payment.currency() == null)) {
            // money moved: the booking needs both (a refund's amount is ours, never read back)
            return fault(Kind.MISSING_AMOUNT, payment.amount() == null ? "amount" : "currency",
                    "a COMPLETED deposit without amount or currency");
        }
        return payment.amount() == null ? Optional.empty() : amountFault(payment.amount(), digits, payment.paymentState());
    }

    private static boolean isDeposit(PspPayment payment) {
        return payment.paymentType() == null || "DEPOSIT".equalsIgnoreCase(payment.paymentType());
    }

    /** The same check, thrown: for readers that must not hand on a payment that cannot be booked. */
    public static PspPayment requireBookable(PspPayment payment) {
        Optional<PaymentPayloadFault> fault = faultIn(payment);
        if (fault.isPresent()) {
            throw fault.get();
        }
        return payment;
    }

    private static Optional<PaymentPayloadFault> amountFault(BigDecimal amount, OptionalInt digits, PaymentState state) {
        if (amount.signum() < 0) {
            return fault(Kind.NEGATIVE_AMOUNT, "amount", "amount is negative");
        }
        if (amount.signum() == 0 && state == PaymentState.COMPLETED) {
            return fault(Kind.ZERO_AMOUNT, "amount", "amount is zero for a COMPLETED payment");
        }
        if (amount.compareTo(Amounts.MAX) >= 0) {
            return fault(Kind.AMOUNT_TOO_LARGE, "amount", "amount is not below " + Amounts.MAX.toPlainString());
        }
        // precision first: stripping the zeros of a megabyte of digits would take a long time
        if (amount.precision() > MAX_PRECISION
                || digits.isPresent() && amount.scale() > digits.getAsInt()
                        && amount.stripTrailingZeros().scale() > digits.getAsInt()) {
            return fault(Kind.FRACTION_DIGITS, "amount", "amount has more fraction digits than its currency");
        }
        return Optional.empty();
    }

    /** A value for a log line: an overlong one abbreviated, so a hostile id cannot flood the logs. */
    public static String forLog(String value) {
        return tooLong(value) ? value.substring(0, value.offsetByCodePoints(0, 64)) + "…(" + value.length() + " chars)"
                : value;
    }

    private static boolean tooLong(String text) {
        return text != null && text.length() > MAX_TEXT;
    }

    private static Optional<PaymentPayloadFault> fault(Kind kind, String field, String message) {
        return Optional.of(new PaymentPayloadFault(kind, field, message));
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
