package com.acme.payments.refund;

import java.time.Clock;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.Shutdown;
import com.acme.payments.sweep.StragglerProperties;
import com.acme.payments.sweep.Outcome;
import com.acme.payments.psp.PaymentOutcomeUnknown;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The straggler poll for refunds: a DONE refund whose PSP state is not final (the PSP accepted it as
 * PENDING) past the grace period is read from the PSP, so a later DECLINED is not missed when its
 * webhook never comes; and a refund an operator abandoned is asked about by its reference for
 * {@code payments.refunds.abandoned-watch}, so one the PSP made after all is booked again even when its
 * webhook is lost. Same schedule as the order straggler poll ({@code payments.stragglers.*}).
 */
@Component
class RefundStragglerSweeper implements SchedulingConfigurer {

    private final RefundOrchestrator orchestrator;
    private final Poll<Refund> poll;

    RefundStragglerSweeper(RefundStore refunds, RefundOrchestrator orchestrator, StragglerProperties properties,
            RefundProperties refundProperties, Shutdown shutdown, Clock clock, MeterRegistry registry) {
        this.orchestrator = orchestrator;
        this.poll = new Poll<>("refund-straggler-poll",
                () -> refunds.claimNotFinal(properties.grace(), refundProperties.abandonedWatch(),
                        properties.batchSize()), this::pollOne, properties, registry, shutdown, clock);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        poll.schedule(registrar, this);
    }

    void poll() {
        poll.run();
    }

    private Outcome pollOne(Refund refund) {
        try {
            return orchestrator.pollAccepted(refund);
        } catch (PaymentOutcomeUnknown unreachable) {
            return Outcome.UNREACHABLE;
        }
    }
}
