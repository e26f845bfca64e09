package com.acme.payments.sweep;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves a claimed batch outside any transaction, row by row or — with {@code concurrency} above 1 —
 * on that many workers at once (the caller's thread is one of them). Each row is handed to exactly one
 * worker (one shared cursor), so a row of the batch is resolved once. "Still unknown" is normal and
 * swallowed (the next run retries); an unexpected failure of one row is logged and counted, never
 * allowed to stop the batch or the scheduler; when the PSP looks down (three unreachable answers in a
 * row, across the workers) the batch is abandoned with one log line and the job backs off. Abandoned
 * rows keep their lease and come back when it expires. Returns when every worker has finished.
 */
public final class SweepLoop {

    private static final Logger log = LoggerFactory.getLogger(SweepLoop.class);
    private static final int OUTAGE_THRESHOLD = 3;

    private SweepLoop() {
    }

    /** One row after the other on the caller's thread. */
    public static <T> void process(String job, List<T> rows, Function<T, Outcome> resolver, JobMetrics metrics,
            Backoff backoff, Shutdown shutdown) {
        process(job, rows, resolver, metrics, backoff, shutdown, Runnable::run, 1);
    }

    /**
     * At most {@code concurrency} rows in resolution at once: {@code concurrency - 1} workers on
     * {@code workers} (which must have that many threads to spare) plus the caller's thread.
     */
    public static <T> void process(String job, List<T> rows, Function<T, Outcome> resolver, JobMetrics metrics,
            Backoff backoff, Shutdown shutdown, Executor workers, int concurrency) {
        Batch<T> batch = new Batch<>(job, rows, resolver, metrics, backoff, shutdown);
        int helpers = Math.min(concurrency, rows.size()) - 1;
        List<CompletableFuture<Void>> running = new ArrayList<>();
        for (int i = 0; i < helpers; i++) {
            try {
                running.add(CompletableFuture.runAsync(batch::drain, workers));
            } catch (RejectedExecutionException stopping) {
                break; // the pool is shutting down: the caller's thread still drains the batch
            }
        }
        batch.drain();
        running.forEach(CompletableFuture::join);
        if (batch.stopped.get()) {
            log.info("{}: stopping, {} claimed rows left for the next run", job, batch.left());
        }
    }

    private static final class Batch<T> {

        private final String job;
        private final List<T> rows;
        private final Function<T, Outcome> resolver;
        private final JobMetrics metrics;
        private final Backoff backoff;
        private final Shutdown shutdown;
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger unreachableInARow = new AtomicInteger();
        private final AtomicBoolean abandoned = new AtomicBoolean();
        final AtomicBoolean stopped = new AtomicBoolean();

        Batch(String job, List<T> rows, Function<T, Outcome> resolver, JobMetrics metrics, Backoff backoff,
                Shutdown shutdown) {
            this.job = job;
            this.rows = rows;
            this.resolver = resolver;
            this.metrics = metrics;
            this.backoff = backoff;
            this.shutdown = shutdown;
        }

        int left() {
            return Math.max(0, rows.size() - next.get());
        }

        /** Takes rows off the shared cursor until none is left or the batch ends early. */
        void drain() {
            while (!abandoned.get()) {
                if (shutdown.stopping()) {
                    stopped.set(true);
                    return;
                }
                int i = next.getAndIncrement();
                if (i >= rows.size()) {
                    return;
                }
                resolve(rows.get(i));
            }
        }

        private void resolve(T row) {
            Outcome outcome;
            try {
                outcome = resolver.apply(row);
            } catch (RuntimeException e) {
                metrics.failure();
                log.warn("{}: row {} failed: {}", job, row, e.toString());
                return;
            }
            switch (outcome) {
                case RESOLVED -> metrics.resolved();
                case STILL_UNKNOWN -> metrics.stillUnknown();
                case FENCED -> metrics.fenced();
                case UNREACHABLE -> metrics.stillUnknown();
            }
            if (outcome != Outcome.UNREACHABLE) {
                unreachableInARow.set(0);
                backoff.healthy();
            } else if (unreachableInARow.incrementAndGet() >= OUTAGE_THRESHOLD && abandoned.compareAndSet(false, true)) {
                log.warn("{}: the PSP is unreachable; batch abandoned, next runs paused for {}", job, backoff.outage());
            }
        }
    }
}
