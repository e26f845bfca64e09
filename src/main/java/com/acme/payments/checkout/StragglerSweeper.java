package com.acme.payments.checkout;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.JobMetrics;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.SweepLoop;
import com.acme.payments.common.jobs.SweepLoop.Outcome;
import com.acme.payments.order.Order;
import com.acme.payments.order.OrderStore;
import com.acme.payments.psp.PaymentOutcomeUnknown;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Polling is the second path: orders whose webhook never came (PROCESSING or AUTHORIZED past the grace
 * period) are read from the PSP and moved by the same conditional transition as a webhook.
 */
@Component
class StragglerSweeper implements SchedulingConfigurer {

    private final OrderStore orders;
    private final CheckoutOrchestrator checkout;
    private final StragglerProperties properties;
    private final Shutdown shutdown;
    private final Clock clock;
    private final JobMetrics metrics;
    private final Backoff backoff;

    StragglerSweeper(OrderStore orders, CheckoutOrchestrator checkout, StragglerProperties properties,
            Shutdown shutdown, Clock clock, MeterRegistry registry) {
        this.orders = orders;
        this.checkout = checkout;
        this.properties = properties;
        this.shutdown = shutdown;
        this.clock = clock;
        this.metrics = new JobMetrics(registry, "straggler-poll");
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
        List<Long> due = orders.claimStragglers(properties.grace(), properties.batchSize());
        metrics.claimed(due.size());
        SweepLoop.process("straggler-poll", due, this::pollOne, metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
    }

    private Outcome pollOne(long orderId) {
        Order before = orders.findById(orderId).orElseThrow();
        try {
            checkout.pollPsp(before);
        } catch (PaymentOutcomeUnknown unreachable) {
            return Outcome.UNREACHABLE;
        }
        Order after = orders.findById(orderId).orElseThrow();
        return after.status() != before.status() ? Outcome.RESOLVED : Outcome.STILL_UNKNOWN;
    }
}
