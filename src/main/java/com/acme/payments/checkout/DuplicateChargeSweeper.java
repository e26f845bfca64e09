package com.acme.payments.checkout;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.JobMetrics;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.SweepProperties;
import com.acme.payments.common.jobs.SweepLoop;
import com.acme.payments.common.web.ApiProblem;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Second charges' refunds that no request will finish: ages IN_FLIGHT ones whose owner died into
 * UNKNOWN and reconciles UNKNOWN ones by reference (claimed with SKIP LOCKED, fenced by version); with
 * {@code payments.duplicates.auto-refund} it also refunds charges nobody refunded yet — through the
 * same claim as the operator's call, so it never adds a second refund. Runs on {@code payments.sweep.*}.
 */
@Component
class DuplicateChargeSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(DuplicateChargeSweeper.class);

    private final DuplicateChargeStore duplicates;
    private final DuplicateChargeOrchestrator orchestrator;
    private final DuplicateChargeProperties duplicateProperties;
    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Clock clock;
    private final JobMetrics metrics;
    private final Backoff backoff;

    DuplicateChargeSweeper(DuplicateChargeStore duplicates, DuplicateChargeOrchestrator orchestrator,
            DuplicateChargeProperties duplicateProperties, SweepProperties properties, Shutdown shutdown,
            Clock clock, MeterRegistry registry) {
        this.duplicates = duplicates;
        this.orchestrator = orchestrator;
        this.duplicateProperties = duplicateProperties;
        this.properties = properties;
        this.shutdown = shutdown;
        this.clock = clock;
        this.metrics = new JobMetrics(registry, "duplicate-sweep");
        this.backoff = Backoff.forJob(clock, properties.interval());
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(), backoff,
                shutdown, this, "sweep");
    }

    void sweep() {
        long started = clock.millis();
        int aged = duplicates.ageInFlight(properties.inFlightAge(), properties.batchSize());
        metrics.aged(aged);
        List<String> claimed = duplicates.claimUnknown(properties.lease(), properties.batchSize());
        metrics.claimed(claimed.size());
        SweepLoop.process("duplicate-sweep", claimed,
                paymentId -> orchestrator.resolve(orchestrator.current(paymentId), true), metrics, backoff, shutdown);
        if (duplicateProperties.autoRefund()) {
            for (String paymentId : duplicates.notRefunded(properties.batchSize())) {
                if (shutdown.stopping()) {
                    break;
                }
                autoRefund(paymentId);
            }
        }
        metrics.run(Duration.ofMillis(clock.millis() - started));
        if (aged > 0 || !claimed.isEmpty()) {
            log.info("duplicate sweep: aged={} claimed={}", aged, claimed.size());
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
