package com.acme.payments.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.transaction.TransactionException;

import com.acme.payments.outbox.OutboxMetrics.Result;

/**
 * Records sink acceptances for the batch: senders only queue theirs; the relay's turn writes every
 * acceptance queued so far in one statement when the batch's calls have all answered, and meanwhile
 * at least every {@code payments.outbox.record-within} (a batch whose calls take long records as it
 * goes). A batch of a sink answering at once costs one write, however many rows it has; the wait
 * between a 2xx and its record stays bounded by that period plus one write, the resend window of
 * {@link OutboxRelay} (docs/outbox.md, "The batch's acceptances in one statement").
 * <p>
 * A write that fails (dropped connection, database restarting) is written again until it lands or the
 * relay stops: the keys stay this relay's while its session lives, so a late record is still a
 * record, while giving up would let the lease bring the row back and send it a second time.
 */
final class SentRecorder {

    private static final Logger log = LoggerFactory.getLogger(SentRecorder.class);
    /** Rows per statement: a full batch (at most 1000) goes in a few. */
    private static final int MAX_GROUP = 500;
    private static final long MAX_PAUSE_MILLIS = 1000;

    /** A sink's 2xx, and when it came (to take the wait for the write out of the latency). */
    private record Acceptance(ClaimedEffect effect, long acceptedAtNanos) {
    }

    private final OutboxStore store;
    private final OutboxMetrics metrics;
    private final RelaySession session;
    private final BooleanSupplier stopping;
    private final ConcurrentLinkedQueue<Acceptance> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock writer = new ReentrantLock();

    SentRecorder(OutboxStore store, OutboxMetrics metrics, RelaySession session, BooleanSupplier stopping) {
        this.store = store;
        this.metrics = metrics;
        this.session = session;
        this.stopping = stopping;
    }

    /** Queues the acceptance; the relay's turn writes it ({@link #drain()}). */
    void accepted(ClaimedEffect effect) {
        queue.add(new Acceptance(effect, System.nanoTime()));
    }

    /** Blocks until every acceptance queued so far is written (end of a batch). */
    void drain() {
        writer.lock();
        try {
            while (!queue.isEmpty()) {
                writeQueued();
            }
        } finally {
            writer.unlock();
        }
    }

    private void writeQueued() {
        List<Acceptance> group = new ArrayList<>();
        Acceptance next;
        while (group.size() < MAX_GROUP && (next = queue.poll()) != null) {
            group.add(next);
        }
        if (group.isEmpty()) {
            return;
        }
        List<ClaimedEffect> effects = new ArrayList<>(group.size());
        group.forEach(acceptance -> effects.add(acceptance.effect()));
        Map<Long, Duration> recorded = null;
        long writtenAt = 0;
        for (int attempt = 1; recorded == null; attempt++) {
            try {
                writtenAt = System.nanoTime();
                recorded = store.markSent(effects);
            } catch (DataAccessException | TransactionException e) {
                if (stopping.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                    // Not recorded: once our session ends, another relay takes these keys over and
                    // sends them again (same keys), counted as taken_over.
                    log.warn("{} sink acceptances not recorded, relay stopping: {}", group.size(),
                            e.getClass().getSimpleName());
                    return;
                }
                if (attempt == 3) {
                    log.warn("{} sink acceptances not recorded yet ({}); writing again until they are",
                            group.size(), e.getClass().getSimpleName());
                }
                // Written again on a fresh connection: only rows still pending under our lease version
                // match, so a first write that did commit makes this one a no-op. Our session first,
                // so that the keys stay ours once the database answers again.
                pause(Math.min(MAX_PAUSE_MILLIS, 50L << Math.min(attempt, 5)));
                try {
                    session.hold();
                } catch (java.sql.SQLException notYet) {
                    // the next write attempt tells
                }
            }
        }
        for (Acceptance acceptance : group) {
            ClaimedEffect effect = acceptance.effect();
            Duration latency = recorded.get(effect.id());
            if (latency != null) {
                metrics.record(effect.kind(), Result.SENT);
                // the metric ends at the sink's 2xx, not at our write (database clock, less our wait)
                Duration toAcceptance = latency.minusNanos(writtenAt - acceptance.acceptedAtNanos());
                metrics.latency(effect.kind(), toAcceptance.isNegative() ? Duration.ZERO : toAcceptance);
            } else {
                metrics.record(effect.kind(), Result.LEASE_LOST);
                log.warn("outbox row {} ({}) was accepted by the sink after another relay took its key over",
                        effect.id(), effect.idempotencyKey());
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
