package com.acme.payments.checkout;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code payments.checkout.attempts} by outcome: created, declined, rejected, unknown, joined. */
@Component
class CheckoutMetrics {

    private final MeterRegistry registry;

    CheckoutMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void checkout(String outcome) {
        Counter.builder("payments.checkout.attempts").description("Checkout calls by outcome")
                .tag("outcome", outcome).register(registry).increment();
    }
}
