package com.acme.payments.psp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code payments.webhook.psp} counter by outcome (applied, duplicate, ignored, unknown_payment, bad_signature, unparseable). */
@Component
class PspWebhookMetrics {

    private final MeterRegistry registry;
    /** Each outcome's counter, registered once: not a builder and a registry look-up per delivery */
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    PspWebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
        // at zero from the start, so dashboards and rate() see every outcome before its first event
        for (WebhookOutcome outcome : WebhookOutcome.values()) {
            counter(outcome.value());
        }
        counter("bad_signature");
        counter("unparseable");
    }

    void outcome(String outcome) {
        counter(outcome).increment();
    }

    private Counter counter(String outcome) {
        return counters.computeIfAbsent(outcome, this::register);
    }

    private Counter register(String outcome) {
        return Counter.builder("payments.webhook.psp").description("PSP webhook deliveries by outcome")
                .tag("outcome", outcome).register(registry);
    }
}
