package com.acme.payments.refund;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.DatabaseGauges;
import com.acme.payments.common.jobs.JobMetrics;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.SweepProperties;
import com.acme.payments.common.jobs.SweepLoop;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Resolves refunds no request will: ages IN_FLIGHT refunds whose owner died into UNKNOWN, claims a
 * batch of UNKNOWN ones and settles each through the refunds' own resolve(). The same sweep settings
 * as checkout ({@code payments.sweep.*}, {@link SweepProperties}).
 */
@Component
class RefundSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(RefundSweeper.class);

    private final RefundStore refunds;
    private final RefundOrchestrator orchestrator;
    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Clock clock;
    private final JobMetrics metrics;
    private final Backoff backoff;

    RefundSweeper(RefundStore refunds, RefundOrchestrator orchestrator, SweepProperties properties, Shutdown shutdown,
            Clock clock, MeterRegistry registry, DatabaseGauges gauges) {
        this.refunds = refunds;
        this.orchestrator = orchestrator;
        this.properties = properties;
        this.shutdown = shutdown;
        this.clock = clock;
        this.metrics = new JobMetrics(registry, "refund-sweep");
        this.backoff = new Backoff(clock, properties.interval(), Duration.ofMinutes(15));
        gauges.register("payments.attempts.unknown", "Refund attempts in UNKNOWN", null, Tags.of("kind", "refund"),
                () -> refunds.unknownStats()[0]);
        gauges.register("payments.attempts.unknown.oldest.age", "Age of the oldest UNKNOWN refund attempt", "seconds",
                Tags.of("kind", "refund"), () -> refunds.unknownStats()[1]);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.fixedDelay(registrar, properties.interval(), properties.initialDelay(), this::scheduled);
    }

    void scheduled() {
        if (!properties.enabled() || backoff.paused() || shutdown.stopping()) {
            return;
        }
        sweep();
    }

    void sweep() {
        long started = clock.millis();
        int aged = refunds.ageInFlight(properties.inFlightAge(), properties.batchSize());
        metrics.aged(aged);
        List<Refund> claimed = refunds.claimUnknown(properties.lease(), properties.batchSize());
        metrics.claimed(claimed.size());
        SweepLoop.process("refund-sweep", claimed, refund -> orchestrator.resolve(refund, true), metrics, backoff,
                shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
        if (aged > 0 || !claimed.isEmpty()) {
            log.info("refund sweep: aged={} claimed={}", aged, claimed.size());
        }
    }
}
