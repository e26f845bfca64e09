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
 * Records sink acceptances with group commit: a sender that finds no write in progress writes every
 * acceptance queued so far in one transaction; a sender that finds one in progress leaves its
 * acceptance for that writer's next round. Under light load every row gets its own commit at once;
 * under load, rows share commits. The wait between a 2xx and its record stays one write long, so the
 * resend window (see {@link OutboxRelay}) does not grow with the batch.
 * <p>
 * A write that fails (dropped connection, database restarting) is written again until it lands or the
 * relay stops: the keys stay this relay's while its session lives, so a late record is still a
 * record, while giving up would let the lease bring the row back and send it a second time.
 */
final class SentRecorder {

    private static final Logger log = LoggerFactory.getLogger(SentRecorder.class);
    private static final int MAX_GROUP = 200;
    private static final long MAX_PAUSE_MILLIS = 1000;

    private final OutboxStore store;
    private final OutboxMetrics metrics;
    private final RelaySession session;
    private final BooleanSupplier stopping;
    private final ConcurrentLinkedQueue<ClaimedEffect> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock writer = new ReentrantLock();

    SentRecorder(OutboxStore store, OutboxMetrics metrics, RelaySession session, BooleanSupplier stopping) {
        this.store = store;
        this.metrics = metrics;
        this.session = session;
        this.stopping = stopping;
    }

    /** Queues the acceptance and writes it now unless another thread is writing (it will take it). */
    void accepted(ClaimedEffect effect) {
        queue.add(effect);
        // Re-check after each write: an acceptance queued while we wrote is ours to write.
        while (!queue.isEmpty() && writer.tryLock()) {
            try {
                writeQueued();
            } finally {
                writer.unlock();
            }
        }
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
        List<ClaimedEffect> group = new ArrayList<>();
        ClaimedEffect next;
        while (group.size() < MAX_GROUP && (next = queue.poll()) != null) {
            group.add(next);
        }
        if (group.isEmpty()) {
            return;
        }
        Map<Long, Duration> recorded = null;
        for (int attempt = 1; recorded == null; attempt++) {
            try {
                recorded = store.markSent(group);
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
        for (ClaimedEffect effect : group) {
            Duration latency = recorded.get(effect.id());
            if (latency != null) {
                metrics.record(effect.kind(), Result.SENT);
                metrics.latency(effect.kind(), latency);
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
