package com.acme.payments.outbox;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Schedules;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Deletes delivered and discarded outbox rows after {@code payments.outbox.prune.retention} (a discarded
 * row is settled, like a delivered one; its retention runs from the discard) and dedup records after
 * {@code payments.outbox.prune.dedup-retention}, in small batches (short transactions, short locks).
 * Pending and dead rows are never pruned. A dedup record is what stops a late duplicate row, so its
 * retention is the longest time a duplicate of an effect may still arrive.
 */
@Component
class OutboxPruner implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(OutboxPruner.class);
    static final String JOB = "outbox-prune";

    private final OutboxStore store;
    private final OutboxProperties.Prune settings;
    /** {@code task=outbox-prune}: a pass that failed is logged and retried, and counted for JobFailures. */
    private final JobMetrics job;

    OutboxPruner(OutboxStore store, OutboxProperties properties, MeterRegistry registry) {
        this.store = store;
        this.settings = properties.prune();
        this.job = new JobMetrics(registry, JOB);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        // the interval's default lives once, in the properties record
        Schedules.fixedDelay(registrar, settings.interval(), settings.interval(), this, "scheduledPrune");
    }

    void scheduledPrune() {
        if (!settings.enabled()) {
            return;
        }
        long started = System.nanoTime();
        try {
            prune();
        } catch (DataAccessException e) {
            job.failure();
            log.warn("outbox prune failed, retrying next interval: {}", e.getClass().getSimpleName());
        }
        job.run(Duration.ofNanos(System.nanoTime() - started));
    }

    /** Prunes until nothing old is left; returns {delivered and discarded rows, dedup records} deleted. */
    int[] prune() {
        int rows = 0;
        int deleted;
        do {
            deleted = store.pruneDelivered(settings.retention(), settings.batchSize());
            rows += deleted;
        } while (deleted == settings.batchSize());
        do {
            deleted = store.pruneDiscarded(settings.retention(), settings.batchSize());
            rows += deleted;
        } while (deleted == settings.batchSize());
        int keys = 0;
        do {
            deleted = store.pruneDedup(settings.dedupRetention(), settings.batchSize());
            keys += deleted;
        } while (deleted > 0);
        if (rows > 0 || keys > 0) {
            log.info("outbox pruned: {} delivered or discarded rows, {} dedup records", rows, keys);
        }
        return new int[] { rows, keys };
    }
}
