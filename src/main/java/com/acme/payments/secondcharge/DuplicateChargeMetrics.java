package com.acme.payments.secondcharge;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import com.acme.payments.sweep.DatabaseGauges;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * {@code payments.duplicate.charges} (second charges detected; their refunds are counted by the refund
 * feature, {@code payments.duplicate.refunds}). A detection counts only once its transaction committed, so
 * a rolled-back apply that is retried is not counted twice. {@code payments.duplicate.charges.unrefunded}
 * and its {@code .oldest.age}: the second charges whose customer has not been paid back yet.
 */
@Component
public class DuplicateChargeMetrics {

    private final Counter detected;

    DuplicateChargeMetrics(MeterRegistry registry, DuplicateChargeStore duplicates, DatabaseGauges gauges) {
        this.detected = Counter.builder("payments.duplicate.charges")
                .description("Second charges detected: COMPLETED payments an order did not book").register(registry);
        gauges.registerOpen("payments.duplicate.charges.unrefunded", Tags.empty(),
                "Second charges no refund of which is DONE yet (none asked, in progress, or FAILED)",
                "Age of the oldest second charge not refunded yet", duplicates::unrefunded);
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
