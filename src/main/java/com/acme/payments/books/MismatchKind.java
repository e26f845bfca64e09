package com.acme.payments.books;

import java.util.Locale;

/** How a record of the PSP's books and ours disagree (the contract's four kinds). */
enum MismatchKind {
    /** Money moved (or is held) at the PSP that we have not booked. */
    MISSING_HERE,
    /** We booked money the PSP does not show. */
    MISSING_THERE,
    /** Both booked it, for different amounts or currencies. */
    AMOUNT_MISMATCH,
    /** Both know the record, but one shows money moved and the other does not (our DONE refund the PSP failed). */
    STATE_MISMATCH;

    String slug() {
        return name().toLowerCase(Locale.ROOT);
    }

    static MismatchKind of(String slug) {
        return valueOf(slug.toUpperCase(Locale.ROOT));
    }
}
