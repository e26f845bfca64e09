package com.acme.payments.psp;

import java.util.Locale;

/**
 * A signed, parseable payment object holding a value we cannot book (see {@link PaymentPayloadRules}), or
 * lacking what applying its state needs (a COMPLETED deposit without amount or currency). Not the PSP's
 * current truth: a webhook's receipt stays open and the replay job reads the payment from the PSP; a
 * look-up answer leaves its row open for the next pass.
 */
public class PaymentPayloadFault extends RuntimeException {

    /** What is wrong; {@link #slug()} is the metric's {@code fault} tag and the inbox's {@code fault} column. */
    public enum Kind {
        CURRENCY, AMOUNT_NOT_A_NUMBER, NEGATIVE_AMOUNT, ZERO_AMOUNT, AMOUNT_TOO_LARGE, FRACTION_DIGITS,
        /** The payment id itself is over the limit: it cannot be looked up at the PSP. */
        ID_TOO_LONG,
        /** Another id or code (referenceId, parentPaymentId, errorCode, paymentType, state) is over the limit. */
        TEXT_TOO_LONG,
        MISSING_AMOUNT;

        public String slug() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Kind kind;
    private final String field;

    public PaymentPayloadFault(Kind kind, String field, String message) {
        super(message);
        this.kind = kind;
        this.field = field;
    }

    public Kind kind() {
        return kind;
    }

    /** The payment object's field holding the value ({@code currency}, {@code referenceId}, …). */
    public String field() {
        return field;
    }

    /** Whether the PSP can still be asked about this payment by its id. */
    public boolean lookupPossible() {
        return kind != Kind.ID_TOO_LONG;
    }
}
