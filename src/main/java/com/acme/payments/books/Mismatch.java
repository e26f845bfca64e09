package com.acme.payments.books;

/**
 * One disagreement found by a run: {@code pspPaymentId} is the PSP's id of the record (a refund's own id for a
 * refund); {@code ours} is null for {@code missing_here}, {@code theirs} null for {@code missing_there}.
 */
record Mismatch(MismatchKind kind, String pspPaymentId, String orderRef, BooksSide ours, BooksSide theirs) {
}
