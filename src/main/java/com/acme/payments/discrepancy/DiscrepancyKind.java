package com.acme.payments.discrepancy;

import java.util.Locale;

/**
 * What moved wrongly. {@link #OVER_REFUND} and {@link #CONTRADICTING_REPORT} are recorded here;
 * {@link #DUPLICATE_CHARGE} is the checkout feature's record, listed while the charge is not refunded.
 */
public enum DiscrepancyKind {
    OVER_REFUND, CONTRADICTING_REPORT, DUPLICATE_CHARGE;

    /** The wire name: the list's {@code kind}, the metric's tag, the effect's {@code discrepancy}. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
