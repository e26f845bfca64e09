package com.acme.payments.psp;

import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/** {@code payments.webhook.psp} counter by outcome (applied, duplicate, ignored, unknown_payment, bad_signature, unparseable). */
@Component
class PspWebhookMetrics {

    private final MeterRegistry registry;

    PspWebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    void outcome(String outcome) {
        Counter.builder("payments.webhook.psp").description("PSP webhook deliveries by outcome")
                .tag("outcome", outcome).register(registry).increment();
    }
}
