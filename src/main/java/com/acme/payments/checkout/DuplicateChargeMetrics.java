package com.acme.payments.checkout;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.duplicate.charges} (second charges detected) and {@code payments.duplicate.refunds}
 * (their refunds by outcome). A detection counts only once its transaction committed, so a rolled-back
 * apply that is retried is not counted twice.
 */
@Component
class DuplicateChargeMetrics {

    private final Counter detected;
    private final MeterRegistry registry;

    DuplicateChargeMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.detected = Counter.builder("payments.duplicate.charges")
                .description("Second charges detected: COMPLETED payments an order did not book").register(registry);
    }

    void detectedOnCommit() {
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            detected.increment();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                detected.increment();
            }
        });
    }

    void refund(String outcome) {
        Counter.builder("payments.duplicate.refunds").description("Refunds of second charges by outcome")
                .tag("outcome", outcome).register(registry).increment();
    }
}
