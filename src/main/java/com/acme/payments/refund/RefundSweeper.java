package com.acme.payments.refund;

import java.time.Clock;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.DatabaseGauges;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.Sweep;
import com.acme.payments.common.jobs.SweepProperties;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Schedules the {@link Sweep} of refunds: IN_FLIGHT refunds whose owner died are aged into UNKNOWN, and
 * UNKNOWN ones are settled through the refunds' own resolve(). The same sweep settings as checkout
 * ({@code payments.sweep.*}).
 */
@Component
class RefundSweeper implements SchedulingConfigurer {

    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Backoff backoff;
    private final Sweep<Refund> sweep;

    RefundSweeper(RefundStore refunds, RefundOrchestrator orchestrator, SweepProperties properties, Shutdown shutdown,
            Clock clock, MeterRegistry registry, DatabaseGauges gauges) {
        this.properties = properties;
        this.shutdown = shutdown;
        this.backoff = Backoff.forJob(clock, properties.interval());
        this.sweep = new Sweep<>("refund-sweep", refunds, refund -> orchestrator.resolve(refund, true), properties,
                registry, backoff, shutdown, clock)
                .withUnknownGauges(gauges, "refund", "Refund attempts in UNKNOWN",
                        "Age of the oldest UNKNOWN refund attempt", refunds::unknownRows);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(), backoff,
                shutdown, this, "sweep");
    }

    void sweep() {
        sweep.run();
    }
}
