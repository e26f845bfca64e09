package com.acme.payments.outbox;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.retention.Retainer;
import com.acme.payments.retention.RetentionJob;
import com.acme.payments.retention.RetentionJob.Step;

/**
 * The outbox's retention job {@code outbox-prune} (run by {@code retention/Retentions}): delivered and
 * discarded rows go after {@code payments.outbox.prune.retention} (a discarded row is settled, like a
 * delivered one; its retention runs from the discard), dedup records after
 * {@code payments.outbox.prune.dedup-retention}, in batches of {@code prune.batch-size}. Pending and dead
 * rows are never pruned. A dedup record is what stops a late duplicate row, so its retention is the longest
 * time a duplicate of an effect may still arrive.
 */
@Component
class OutboxPruner implements Retainer {

    static final String JOB = "outbox-prune";

    private final OutboxStore store;
    private final OutboxProperties.Prune settings;

    OutboxPruner(OutboxStore store, OutboxProperties properties) {
        this.store = store;
        this.settings = properties.prune();
    }

    @Override
    public List<RetentionJob> retentionJobs() {
        // a pass empties the backlog, as the outbox has always been pruned (every batch is its own transaction)
        return List.of(new RetentionJob(JOB,
                new RetentionJob.Settings(settings.enabled(), settings.interval(), settings.batchSize(),
                        Integer.MAX_VALUE),
                List.of(new Step("delivered rows", n -> store.pruneDelivered(settings.retention(), n)),
                        new Step("discarded rows", n -> store.pruneDiscarded(settings.retention(), n)),
                        new Step("dedup records", n -> store.pruneDedup(settings.dedupRetention(), n)))));
    }
}
