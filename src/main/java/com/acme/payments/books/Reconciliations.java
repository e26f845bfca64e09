package com.acme.payments.books;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Component;

import com.acme.payments.common.web.Problems;

/**
 * Reconciliation runs for the operators, one place for the API's and the console's: start one over a window
 * (the window's rules checked here, so both answer the same 400), list the newest, read one with its mismatches
 * (404 for an id that names none).
 */
@Component
public class Reconciliations {

    /** The longest window a run covers (http-contract.md). */
    static final Duration MAX_WINDOW = Duration.ofDays(31);
    private static final int LISTED = 100;

    private final BooksReconciliationOrchestrator orchestrator;
    private final BooksReconciliationRunStore runs;

    Reconciliations(BooksReconciliationOrchestrator orchestrator, BooksReconciliationRunStore runs) {
        this.orchestrator = orchestrator;
        this.runs = runs;
    }

    /** Checks {@code [from, to)} (after, at most 31 days) before the caller hands its note over. */
    public void checkWindow(Instant from, Instant to) {
        if (!from.isBefore(to)) {
            throw Problems.ValidationFailed.of("to", "must be after from");
        }
        if (Duration.between(from, to).compareTo(MAX_WINDOW) > 0) {
            throw Problems.ValidationFailed.of("to", "the window is at most 31 days");
        }
    }

    /** A run of a window {@link #checkWindow} accepted, in the background (or the one running for it). */
    public UUID start(Instant from, Instant to, String requestedBy) {
        checkWindow(from, to);
        return orchestrator.start(from, to, requestedBy);
    }

    /** The newest runs (up to 100), newest first. */
    public List<ReconciliationSummary> newest() {
        return runs.newest(LISTED).stream().map(ReconciliationSummary::of).toList();
    }

    /** One run with its mismatches, or 404. */
    public ReconciliationView find(String id) {
        UUID runId = runId(id);
        BooksReconciliationRunStore.Run run = runs.find(runId)
                .orElseThrow(() -> new Problems.NotFound("Reconciliation run " + id));
        return ReconciliationView.of(run, runs.mismatches(runId));
    }

    private static UUID runId(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException notAnId) {
            throw new Problems.NotFound("Reconciliation run " + id);
        }
    }
}
