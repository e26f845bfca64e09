package com.acme.payments.checkout;

import java.time.Clock;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Poll;
import com.acme.payments.sweep.Shutdown;
import com.acme.payments.sweep.StragglerProperties;
import com.acme.payments.sweep.Outcome;
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
    private final Poll<Long> poll;

    StragglerSweeper(OrderStore orders, CheckoutOrchestrator checkout, StragglerProperties properties,
            Shutdown shutdown, Clock clock, MeterRegistry registry) {
        this.orders = orders;
        this.checkout = checkout;
        this.poll = new Poll<>("straggler-poll", () -> orders.claimStragglers(properties.grace(), properties.batchSize()),
                this::pollOne, properties, registry, shutdown, clock);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        poll.schedule(registrar, this);
    }

    void poll() {
        poll.run();
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
