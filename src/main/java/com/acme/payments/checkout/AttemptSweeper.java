package com.acme.payments.checkout;

import java.time.Clock;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.capture.CaptureOrchestrator;
import com.acme.payments.capture.Operation;
import com.acme.payments.capture.OperationStore;
import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.DatabaseGauges;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.Sweep;
import com.acme.payments.common.jobs.SweepProperties;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Schedules the {@link Sweep} of checkout attempts and then of capture/void operations: what no request
 * resolves is resolved through the same resolve() the request path uses. Both share one back-off, so a
 * PSP outage pauses them together.
 */
@Component
class AttemptSweeper implements SchedulingConfigurer {

    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Backoff backoff;
    private final Sweep<Attempt> attemptSweep;
    private final Sweep<Operation> operationSweep;

    AttemptSweeper(AttemptStore attempts, OperationStore operations, CheckoutOrchestrator checkout,
            CaptureOrchestrator captures, SweepProperties properties, Shutdown shutdown, Clock clock,
            MeterRegistry registry, DatabaseGauges gauges) {
        this.properties = properties;
        this.shutdown = shutdown;
        this.backoff = Backoff.forJob(clock, properties.interval());
        this.attemptSweep = new Sweep<>("checkout-sweep", attempts, attempt -> checkout.resolve(attempt, true),
                properties, registry, backoff, shutdown, clock)
                .withUnknownGauges(gauges, "checkout", "Checkout attempts in UNKNOWN",
                        "Age of the oldest UNKNOWN checkout attempt", attempts::unknownRows);
        this.operationSweep = new Sweep<>("operation-sweep", operations, op -> captures.resolve(op, true),
                properties, registry, backoff, shutdown, clock);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(), backoff,
                shutdown, this, "sweep");
    }

    /** One pass over attempts, then operations. Package-visible so tests drive it directly. */
    void sweep() {
        attemptSweep.run();
        operationSweep.run();
    }
}
