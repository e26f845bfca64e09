package com.acme.payments.books;

import java.time.Instant;
import java.time.LocalDate;

/** A run in the list: its window, state and counts, without its mismatches. */
public record ReconciliationSummary(String id, Instant from, Instant to, LocalDate night, String state, String requestedBy,
        Instant createdAt, Integer pspRecords, Integer ourRecords, Integer mismatchCount, String failureReason) {

    static ReconciliationSummary of(BooksReconciliationRunStore.Run run) {
        return new ReconciliationSummary(run.id().toString(), run.from(), run.to(), run.night(), run.state(),
                run.requestedBy(), run.createdAt(), run.pspRecords(), run.ourRecords(), run.mismatchCount(),
                run.failureReason());
    }
}
