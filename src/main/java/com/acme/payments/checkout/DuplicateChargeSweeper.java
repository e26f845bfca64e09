package com.acme.payments.checkout;

import java.time.Clock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.Sweep;
import com.acme.payments.common.jobs.SweepProperties;
import com.acme.payments.common.web.ApiProblem;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Second charges' refunds that no request will finish: ages IN_FLIGHT ones whose owner died into
 * UNKNOWN and reconciles UNKNOWN ones by reference (claimed with SKIP LOCKED, fenced by version); with
 * {@code payments.duplicates.auto-refund} it also refunds charges nobody refunded yet — through the
 * same claim as the operator's call, so it never adds a second refund. The first part is the one
 * {@link Sweep} every such table uses; runs on {@code payments.sweep.*}.
 */
@Component
class DuplicateChargeSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(DuplicateChargeSweeper.class);

    private final DuplicateChargeStore duplicates;
    private final DuplicateChargeOrchestrator orchestrator;
    private final DuplicateChargeProperties duplicateProperties;
    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Backoff backoff;
    private final Sweep<String> refundSweep;

    DuplicateChargeSweeper(DuplicateChargeStore duplicates, DuplicateChargeOrchestrator orchestrator,
            DuplicateChargeProperties duplicateProperties, SweepProperties properties, Shutdown shutdown,
            Clock clock, MeterRegistry registry) {
        this.duplicates = duplicates;
        this.orchestrator = orchestrator;
        this.duplicateProperties = duplicateProperties;
        this.properties = properties;
        this.shutdown = shutdown;
        this.backoff = Backoff.forJob(clock, properties.interval());
        this.refundSweep = new Sweep<>("duplicate-sweep", duplicates,
                paymentId -> orchestrator.resolve(orchestrator.current(paymentId), true), properties, registry,
                backoff, shutdown, clock);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(), backoff,
                shutdown, this, "sweep");
    }

    void sweep() {
        refundSweep.run();
        if (duplicateProperties.autoRefund()) {
            for (String paymentId : duplicates.notRefunded(properties.batchSize())) {
                if (shutdown.stopping()) {
                    break;
                }
                autoRefund(paymentId);
            }
        }
    }

    private void autoRefund(String paymentId) {
        try {
            orchestrator.refund(paymentId, "auto-refund");
        } catch (ApiProblem stillOpen) {
            log.info("auto refund of duplicate charge payment={}: {}", paymentId, stillOpen.getMessage());
        } catch (RuntimeException failed) {
            log.warn("auto refund of duplicate charge payment={} failed: {}", paymentId, failed.toString());
        }
    }
}
