package com.acme.payments.checkout;

import java.time.Clock;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.secondcharge.DuplicateChargeProperties;
import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.Shutdown;
import com.acme.payments.sweep.StragglerProperties;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The abandoned-attempt watch ({@code abandoned-watch}): an abandoned attempt's payment may appear at the
 * PSP later, and its webhook may never come (the receiving instance down, the database out). For
 * {@code payments.duplicates.abandoned-watch} after the abandon, each such attempt is claimed when due (SKIP LOCKED,
 * at gaps from {@code last_polled_at} growing from {@code payments.stragglers.grace} to a day with its age)
 * and the PSP asked by its reference; what it shows is applied, so a COMPLETED payment is flagged as a second charge exactly once.
 * Runs on the straggler poll's schedule ({@code payments.stragglers.*}).
 */
@Component
class AbandonedAttemptSweeper implements SchedulingConfigurer {

    private final Poll<Attempt> poll;

    AbandonedAttemptSweeper(AttemptStore attempts, CheckoutOrchestrator checkout, StragglerProperties properties,
            DuplicateChargeProperties duplicates, Shutdown shutdown, Clock clock, MeterRegistry registry) {
        this.poll = new Poll<>("abandoned-watch",
                () -> attempts.claimAbandoned(duplicates.abandonedWatch(), properties.grace(), properties.batchSize()),
                checkout::watchAbandoned, properties, registry, shutdown, clock);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        poll.schedule(registrar, this);
    }

    /** One pass. Package-visible so tests drive it directly. */
    void poll() {
        poll.run();
    }
}
