package com.acme.payments.books;

import java.time.Duration;

import org.springframework.stereotype.Component;

import com.acme.payments.sweep.DatabaseGauges;
import com.acme.payments.sweep.JobMetrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The runs' meters: {@code payments.job.*{task="books-reconciliation"}} for every run, and the gauge
 * {@code payments.reconciliation.mismatches} (Prometheus {@code payments_reconciliation_mismatches}): the
 * mismatches of the newest finished nightly run, read from the database, so every instance reports the same
 * figure and it stays until the next night replaces it. A gauge, not a counter: a counter's Prometheus name
 * would end in {@code _total}, and what an operator asks is "how far apart were the books last night".
 */
@Component
class BooksMetrics {

    static final String JOB = "books-reconciliation";
    static final String MISMATCHES = "payments.reconciliation.mismatches";

    private final JobMetrics job;

    BooksMetrics(MeterRegistry registry, DatabaseGauges gauges, BooksReconciliationRunStore runs) {
        this.job = new JobMetrics(registry, JOB);
        gauges.register(MISMATCHES, "Mismatches the last nightly reconciliation found between our books and the PSP's",
                null, Tags.empty(), runs::lastNightMismatches);
    }

    void finished(Duration took) {
        job.run(took);
        job.resolved();
    }

    void failed() {
        job.failure();
    }

    /** A nightly run started here, or a dead instance's run taken over here. */
    void claimed(int runs) {
        job.claimed(runs);
    }
}
