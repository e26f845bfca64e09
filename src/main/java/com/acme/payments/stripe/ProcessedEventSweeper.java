package com.acme.payments.stripe;

import java.util.List;

import org.springframework.stereotype.Component;

import com.acme.payments.retention.Retainer;
import com.acme.payments.retention.RetentionJob;
import com.acme.payments.retention.RetentionJob.Step;

/**
 * Stripe's retention job {@code stripe-event-prune} (run by {@code retention/Retentions}): completed event
 * rows older than {@code stripe.prune.retention} (default 30 days, never under Stripe's three-day retry
 * window) go, 1,000 a batch, at most 100 batches a pass. Processing rows are never pruned: the claim expiry
 * owns them. Age is judged by the database's {@code now()}, the same clock that stamped the rows.
 */
@Component
class ProcessedEventSweeper implements Retainer {

    static final String JOB = "stripe-event-prune";
    private static final int BATCH = 1000;
    private static final int MAX_BATCHES = 100;

    private final ProcessedEventStore events;
    private final StripeProperties properties;

    ProcessedEventSweeper(ProcessedEventStore events, StripeProperties properties) {
        this.events = events;
        this.properties = properties;
    }

    @Override
    public List<RetentionJob> retentionJobs() {
        StripeProperties.Prune prune = properties.prune();
        return List.of(new RetentionJob(JOB,
                new RetentionJob.Settings(prune.enabled(), prune.interval(), BATCH, MAX_BATCHES),
                List.of(new Step("completed events", n -> events.pruneCompleted(prune.retention(), n)))));
    }
}
