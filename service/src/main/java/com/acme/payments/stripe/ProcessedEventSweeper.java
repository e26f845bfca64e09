package com.acme.payments.stripe;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.Schedules;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Prunes completed event rows older than {@code stripe.prune.retention} (default 30 days, never under
 * Stripe's three-day retry window). Processing rows are never pruned: the claim expiry owns them.
 * Age is judged by the database's {@code now()}, the same clock that stamped the rows.
 */
@Component
class ProcessedEventSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(ProcessedEventSweeper.class);
    static final String JOB = "stripe-event-prune";
    private static final int BATCH = 1000;
    private static final int MAX_BATCHES = 100;

    private final ProcessedEventStore events;
    private final StripeProperties properties;
    /** {@code task=stripe-event-prune}: a pass that threw is counted for JobFailures (and ScheduledTaskErrors). */
    private final JobMetrics job;

    ProcessedEventSweeper(ProcessedEventStore events, StripeProperties properties, MeterRegistry registry) {
        this.events = events;
        this.properties = properties;
        this.job = new JobMetrics(registry, JOB);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        // the interval's default lives once, in the properties record
        Schedules.fixedDelay(registrar, properties.prune().interval(), properties.prune().interval(), this, "scheduled");
    }

    void scheduled() {
        if (properties.prune().enabled()) {
            long started = System.nanoTime();
            try {
                prune();
            } catch (RuntimeException e) {
                job.failure();
                throw e;
            } finally {
                job.run(Duration.ofNanos(System.nanoTime() - started));
            }
        }
    }

    /** One pass; returns the number of rows removed. */
    int prune() {
        int total = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int removed = events.pruneCompleted(properties.prune().retention(), BATCH);
            total += removed;
            if (removed < BATCH) {
                break;
            }
        }
        if (total > 0) {
            log.info("pruned completed stripe events, removed={} retention={}", total, properties.prune().retention());
        }
        return total;
    }
}
