package com.acme.payments.checkout;

import java.util.List;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code payments.checkout.attempts} by outcome: created, declined, rejected, unknown, joined. */
@Component
class CheckoutMetrics {

    private final MeterRegistry registry;

    /** Registered at zero at start, so dashboards and rate() see every outcome before its first event. */
    private static final List<String> OUTCOMES = List.of("created", "declined", "rejected", "unknown", "joined");

    CheckoutMetrics(MeterRegistry registry) {
        this.registry = registry;
        OUTCOMES.forEach(this::counter);
    }

    void checkout(String outcome) {
        counter(outcome).increment();
    }

    private Counter counter(String outcome) {
        return Counter.builder("payments.checkout.attempts").description("Checkout calls by outcome")
                .tag("outcome", outcome).register(registry);
    }
}
