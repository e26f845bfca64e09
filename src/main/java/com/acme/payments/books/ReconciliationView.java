package com.acme.payments.books;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * One run: its window, {@code running}/{@code done}/{@code failed}, the records compared on each side, the
 * mismatches kept ({@code mismatchCount} counts all of them) and, for a failed run, why.
 */
public record ReconciliationView(String id, Instant from, Instant to, LocalDate night, String state, String requestedBy,
        Instant createdAt, Integer pspRecords, Integer ourRecords, Integer mismatchCount, String failureReason,
        List<MismatchView> mismatches) {

    static ReconciliationView of(BooksReconciliationRunStore.Run run, List<Mismatch> mismatches) {
        return new ReconciliationView(run.id().toString(), run.from(), run.to(), run.night(), run.state(),
                run.requestedBy(), run.createdAt(), run.pspRecords(), run.ourRecords(), run.mismatchCount(),
                run.failureReason(), mismatches.stream().map(MismatchView::of).toList());
    }

    /** {@code kind}: {@code missing_here}, {@code missing_there}, {@code amount_mismatch}, {@code state_mismatch}. */
    public record MismatchView(String kind, String pspPaymentId, String orderRef, BooksSide ours, BooksSide theirs) {

        static MismatchView of(Mismatch m) {
            return new MismatchView(m.kind().slug(), m.pspPaymentId(), m.orderRef(), m.ours(), m.theirs());
        }
    }
}
