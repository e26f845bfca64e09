package com.acme.payments.outbox;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

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
 */
final class SentRecorder {

    private static final Logger log = LoggerFactory.getLogger(SentRecorder.class);
    private static final int MAX_GROUP = 200;
    /** A dropped connection loses one write, not the record: the write is fenced and conditional. */
    private static final int WRITE_ATTEMPTS = 3;

    private final OutboxRelayStore store;
    private final OutboxMetrics metrics;
    private final ConcurrentLinkedQueue<ClaimedEffect> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock writer = new ReentrantLock();

    SentRecorder(OutboxRelayStore store, OutboxMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
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
                if (attempt >= WRITE_ATTEMPTS) {
                    // Not recorded: the leases bring these rows back and they are sent again, same keys.
                    log.warn("{} sink acceptances not recorded: {}", group.size(), e.getClass().getSimpleName());
                    return;
                }
                // Written again on a fresh connection: only rows still pending under our lease version
                // match, so a first write that did commit makes this one a no-op.
                pause(50L * attempt);
            }
        }
        for (ClaimedEffect effect : group) {
            Duration latency = recorded.get(effect.id());
            if (latency != null) {
                metrics.record(effect.kind(), Result.SENT);
                metrics.latency(effect.kind(), latency);
            } else {
                metrics.record(effect.kind(), Result.LEASE_LOST);
                log.warn("outbox row {} ({}) was accepted by the sink after its lease was lost", effect.id(),
                        effect.idempotencyKey());
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
