package com.acme.payments.checkout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import com.acme.payments.sweep.DatabaseGauges;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * {@code payments.checkout.attempts} by outcome: created, declined, rejected, unknown, joined; and
 * {@code payments.attempts.open{kind="checkout", state}}: attempts IN_FLIGHT, UNKNOWN or READY (read from the
 * database at the gauges' refresh; final states are the counters' business, their rows only grow).
 */
@Component
class CheckoutMetrics {

    private final MeterRegistry registry;
    /** Each outcome's counter, registered once (not a builder and a registry look-up per checkout). */
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /** Registered at zero at start, so dashboards and rate() see every outcome before its first event. */
    private static final List<String> OUTCOMES = List.of("created", "declined", "rejected", "unknown", "joined");

    CheckoutMetrics(MeterRegistry registry, DatabaseGauges gauges, AttemptStore attempts) {
        this.registry = registry;
        OUTCOMES.forEach(this::counter);
        for (AttemptState state : List.of(AttemptState.IN_FLIGHT, AttemptState.UNKNOWN, AttemptState.READY)) {
            gauges.register(OPEN, OPEN_DESCRIPTION, null, Tags.of("kind", "checkout", "state", state.name()),
                    () -> attempts.countOpen(state));
        }
    }

    /** The open-state gauge, shared with the refunds ({@code kind="refund"}). */
    static final String OPEN = "payments.attempts.open";
    static final String OPEN_DESCRIPTION = "Checkout attempts and refunds in an open state, by kind and state";

    void checkout(String outcome) {
        counter(outcome).increment();
    }

    private Counter counter(String outcome) {
        return counters.computeIfAbsent(outcome, this::register);
    }

    private Counter register(String outcome) {
        return Counter.builder("payments.checkout.attempts").description("Checkout calls by outcome")
                .tag("outcome", outcome).register(registry);
    }
}
