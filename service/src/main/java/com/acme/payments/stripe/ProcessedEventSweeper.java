package com.acme.payments.stripe;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Schedules;

/**
 * Prunes completed event rows older than {@code stripe.prune.retention} (default 30 days, never under
 * Stripe's three-day retry window). Processing rows are never pruned: the claim expiry owns them.
 * Age is judged by the database's {@code now()}, the same clock that stamped the rows.
 */
@Component
class ProcessedEventSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(ProcessedEventSweeper.class);
    private static final int BATCH = 1000;
    private static final int MAX_BATCHES = 100;

    private final ProcessedEventStore events;
    private final StripeProperties properties;

    ProcessedEventSweeper(ProcessedEventStore events, StripeProperties properties) {
        this.events = events;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        // the interval's default lives once, in the properties record
        Schedules.fixedDelay(registrar, properties.prune().interval(), properties.prune().interval(), this, "scheduled");
    }

    void scheduled() {
        if (properties.prune().enabled()) {
            prune();
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
