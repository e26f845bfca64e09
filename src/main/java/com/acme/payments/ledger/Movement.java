package com.acme.payments.ledger;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One money movement as the ledger lists it. {@code amount} is positive whatever the direction; {@code kind}
 * says which way the money went. {@code pspPaymentId} and {@code referenceId} are the PSP's and our ids of the
 * record the line is about (the refund's for a refund and for its failure), either may be null.
 */
record Movement(Instant occurredAt, Kind kind, String orderRef, String pspPaymentId, String referenceId,
        BigDecimal amount, String currency) {

    /** The kinds, as written in the file. */
    enum Kind {
        /** An order was paid: money in. */
        PAYMENT("payment"),
        /** A refund of an order we made: money out. */
        REFUND("refund"),
        /** A refund that was DONE failed later: its money came back (in). */
        REFUND_FAILED("refund_failed"),
        /** A refund of an order made at the PSP, not through us: money out. */
        EXTERNAL_REFUND("external_refund"),
        /** A second charge: money in that no order booked. */
        DUPLICATE_CHARGE("duplicate_charge"),
        /** A refund of a second charge (ours or made elsewhere): money out. */
        DUPLICATE_REFUND("duplicate_refund");

        final String label;

        Kind(String label) {
            this.label = label;
        }

        static Kind of(String label) {
            for (Kind kind : values()) {
                if (kind.label.equals(label)) {
                    return kind;
                }
            }
            throw new IllegalStateException("no ledger kind " + label);
        }
    }
}
