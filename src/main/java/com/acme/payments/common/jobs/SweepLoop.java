package com.acme.payments.common.jobs;

import java.util.List;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a claimed batch row by row, outside any transaction. "Still unknown" is normal and
 * swallowed (the next run retries); an unexpected failure of one row is logged and counted, never
 * allowed to stop the batch or the scheduler; when the PSP looks down (three unreachable answers in a
 * row) the batch is abandoned with one log line and the job backs off. Abandoned rows keep their
 * lease and come back when it expires.
 */
public final class SweepLoop {

    private static final Logger log = LoggerFactory.getLogger(SweepLoop.class);
    private static final int OUTAGE_THRESHOLD = 3;

    private SweepLoop() {
    }

    public enum Outcome {
        RESOLVED, STILL_UNKNOWN, FENCED, UNREACHABLE
    }

    public static <T> void process(String job, List<T> rows, Function<T, Outcome> resolver, JobMetrics metrics,
            Backoff backoff, Shutdown shutdown) {
        int unreachableInARow = 0;
        for (int i = 0; i < rows.size(); i++) {
            T row = rows.get(i);
            if (shutdown.stopping()) {
                log.info("{}: stopping, {} claimed rows left for the next run", job, rows.size() - i);
                return;
            }
            Outcome outcome;
            try {
                outcome = resolver.apply(row);
            } catch (RuntimeException e) {
                metrics.failure();
                log.warn("{}: row {} failed: {}", job, row, e.toString());
                continue;
            }
            switch (outcome) {
                case RESOLVED -> metrics.resolved();
                case STILL_UNKNOWN -> metrics.stillUnknown();
                case FENCED -> metrics.fenced();
                case UNREACHABLE -> metrics.stillUnknown();
            }
            if (outcome == Outcome.UNREACHABLE) {
                if (++unreachableInARow >= OUTAGE_THRESHOLD) {
                    log.warn("{}: the PSP is unreachable; batch abandoned, next runs paused for {}", job,
                            backoff.outage());
                    return;
                }
            } else {
                unreachableInARow = 0;
                backoff.healthy();
            }
        }
    }
}
