package com.acme.payments.refund;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.checkout.StragglerProperties;
import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.JobMetrics;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.SweepLoop;
import com.acme.payments.common.jobs.SweepLoop.Outcome;
import com.acme.payments.psp.PaymentOutcomeUnknown;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The straggler poll for refunds: a DONE refund whose PSP state is not final (the PSP accepted it as
 * PENDING) past the grace period is read from the PSP, so a later DECLINED is not missed when its
 * webhook never comes. Same settings as the order straggler poll ({@code payments.stragglers.*}).
 */
@Component
class RefundStragglerSweeper implements SchedulingConfigurer {

    private final RefundStore refunds;
    private final RefundOrchestrator orchestrator;
    private final StragglerProperties properties;
    private final Shutdown shutdown;
    private final Clock clock;
    private final JobMetrics metrics;
    private final Backoff backoff;

    RefundStragglerSweeper(RefundStore refunds, RefundOrchestrator orchestrator, StragglerProperties properties,
            Shutdown shutdown, Clock clock, MeterRegistry registry) {
        this.refunds = refunds;
        this.orchestrator = orchestrator;
        this.properties = properties;
        this.shutdown = shutdown;
        this.clock = clock;
        this.metrics = new JobMetrics(registry, "refund-straggler-poll");
        this.backoff = new Backoff(clock, properties.interval(), Duration.ofMinutes(15));
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.fixedDelay(registrar, properties.interval(), properties.initialDelay(), this, "scheduled");
    }

    void scheduled() {
        if (!properties.enabled() || backoff.paused() || shutdown.stopping()) {
            return;
        }
        poll();
    }

    void poll() {
        long started = clock.millis();
        List<Refund> due = refunds.claimNotFinal(properties.grace(), properties.batchSize());
        metrics.claimed(due.size());
        SweepLoop.process("refund-straggler-poll", due, this::pollOne, metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
    }

    private Outcome pollOne(Refund refund) {
        try {
            return orchestrator.pollAccepted(refund);
        } catch (PaymentOutcomeUnknown unreachable) {
            return Outcome.UNREACHABLE;
        }
    }
}
