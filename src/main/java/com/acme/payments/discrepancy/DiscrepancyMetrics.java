package com.acme.payments.discrepancy;

import java.util.EnumMap;
import java.util.Map;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.discrepancies{kind}}: first records only, counted once their transaction committed (a
 * rolled-back apply that is retried is not counted twice). Every kind is registered at start, so the
 * series exist at 0 and the alert's {@code increase()} sees the first one.
 */
@Component
class DiscrepancyMetrics {

    private final Map<DiscrepancyKind, Counter> recorded = new EnumMap<>(DiscrepancyKind.class);

    DiscrepancyMetrics(MeterRegistry registry) {
        for (DiscrepancyKind kind : DiscrepancyKind.values()) {
            recorded.put(kind, Counter.builder("payments.discrepancies")
                    .description("Money that moved in a way no rule allows, by kind (first records only)")
                    .tag("kind", kind.value()).register(registry));
        }
    }

    void recordedOnCommit(DiscrepancyKind kind) {
        Counter counter = recorded.get(kind);
        if (!TransactionSynchronizationManager.isSynchronizationActive()) {
            counter.increment();
            return;
        }
        TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
                counter.increment();
            }
        });
    }
}
