package com.acme.payments.stripe;

import java.util.Set;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Stripe webhook meters: {@code stripe.webhook.events} by {@code type} (the handled types, else
 * {@code other}) and {@code outcome}; {@code stripe.claim.takeovers}; {@code stripe.claim.in_flight};
 * {@code stripe.transaction.retries}; {@code stripe.event.faults} by {@code type}: signed events whose values
 * cannot be stored, kept as faulted.
 */
@Component
class StripeMetrics {

    private final MeterRegistry registry;
    private final Set<String> knownTypes;
    private final Counter takeovers;
    private final Counter inFlight;

    StripeMetrics(MeterRegistry registry, StripeEventRouter router) {
        this.registry = registry;
        this.knownTypes = Set.copyOf(router.handledTypes());
        this.takeovers = Counter.builder("stripe.claim.takeovers")
                .description("Expired processing claims taken over by another delivery").register(registry);
        this.inFlight = Counter.builder("stripe.claim.in_flight")
                .description("Deliveries refused with 503 because another worker holds a live claim")
                .register(registry);
        // The refusals before any parsing (type "other" by construction) exist at zero from the start, so
        // the failure alert and the dashboard have a series before the first bad delivery.
        counter(null, "signature_invalid");
        counter(null, "not_configured");
        knownTypes.forEach(this::faults);
    }

    /** A signed event kept as faulted (its values cannot be stored): answered 200, applied nothing. */
    void fault(String type) {
        faults(type).increment();
        event(type, "faulted");
    }

    private Counter faults(String type) {
        return Counter.builder("stripe.event.faults")
                .description("Signed Stripe events whose values cannot be stored, kept as faulted and answered 200")
                .tag("type", type != null && knownTypes.contains(type) ? type : "other")
                .register(registry);
    }

    void event(String type, String outcome) {
        counter(type, outcome).increment();
    }

    private Counter counter(String type, String outcome) {
        return Counter.builder("stripe.webhook.events")
                .description("Stripe webhook deliveries by event type and outcome")
                .tag("type", type != null && knownTypes.contains(type) ? type : "other")
                .tag("outcome", outcome)
                .register(registry);
    }

    void takeover() {
        takeovers.increment();
    }

    void inFlightRefusal() {
        inFlight.increment();
    }
}
