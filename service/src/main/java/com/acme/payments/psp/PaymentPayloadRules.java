package com.acme.payments.psp;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

import com.acme.payments.common.money.Amounts;
import com.acme.payments.psp.PaymentPayloadFault.Kind;

/**
 * What a PSP payment object must hold before any of its values reaches a statement: the one check for
 * webhooks and every look-up answer alike, so no value can fail a {@code char(3)} or {@code CHECK}
 * constraint halfway through a transaction. Pure, so a test or the chaos workload can reuse it.
 */
public final class PaymentPayloadRules {

    /** The longest id, reference or code we book (the PSP's own ids are far shorter). */
    public static final int MAX_TEXT = 255;
    /** More significant digits than any bookable amount below {@link Amounts#MAX} at three decimals has. */
    private static final int MAX_PRECISION = 40;
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    private PaymentPayloadRules() {
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
            digits = CURRENCY.matcher(payment.currency()).matches() ? Amounts.fractionDigits(payment.currency())
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
}
