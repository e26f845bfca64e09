package com.acme.payments.secondcharge;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.duplicate.charges} (second charges detected; their refunds are counted by the refund
 * feature, {@code payments.duplicate.refunds}). A detection counts only once its transaction committed, so
 * a rolled-back apply that is retried is not counted twice.
 */
@Component
public class DuplicateChargeMetrics {

    private final Counter detected;

    DuplicateChargeMetrics(MeterRegistry registry) {
        this.detected = Counter.builder("payments.duplicate.charges")
                .description("Second charges detected: COMPLETED payments an order did not book").register(registry);
    }

    public void detectedOnCommit() {
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
}
