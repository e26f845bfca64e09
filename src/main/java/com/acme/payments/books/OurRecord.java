package com.acme.payments.books;

import java.math.BigDecimal;

/**
 * A payment or refund as our books hold it. {@code booked}: we count its money as moved or held (a paid or
 * authorized order's payment, a second charge, a {@code DONE} refund); {@code settling}: a booked refund
 * whose PSP state we have not learnt final yet (the straggler poll's), so the PSP may still show it under way.
 * {@code pspPaymentId} is null while the create's outcome is unknown; {@code reference} is ours.
 */
record OurRecord(boolean refund, String pspPaymentId, String reference, String orderRef, String state,
        boolean booked, boolean settling, BigDecimal amount, String currency) {

    /** The record's identity on our side, for counting it once however it was found. */
    String key() {
        return (refund ? "r:" : "p:") + (reference != null ? reference : pspPaymentId);
    }

    BooksSide side() {
        return new BooksSide(state, amount, currency);
    }
}
