package com.acme.payments.refund;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code payments.refunds} (counter by outcome: done, failed, rejected, unknown) and
 * {@code payments.refunds.reserved} (gauge by currency: amount reserved by refunds not yet settled),
 * refreshed every 15 s from the database so every instance reports the same figure.
 */
@Component
class RefundMetrics {

    private final MeterRegistry registry;
    private final RefundStore refunds;
    private final Map<String, BigDecimal> reserved = new ConcurrentHashMap<>();

    RefundMetrics(MeterRegistry registry, RefundStore refunds) {
        this.registry = registry;
        this.refunds = refunds;
        // at zero from the start, so dashboards and rate() see every outcome before its first event
        List.of("done", "failed", "rejected", "unknown").forEach(this::counter);
    }

    void settled(String outcome) {
        counter(outcome).increment();
    }

    private Counter counter(String outcome) {
        return Counter.builder("payments.refunds").description("Refund settlements by outcome").tag("outcome", outcome)
                .register(registry);
    }

    @Scheduled(fixedDelayString = "${payments.refunds.gauge-refresh:15s}", initialDelayString = "5s")
    void refreshReserved() {
        Map<String, BigDecimal> now = refunds.reservedByCurrency();
        reserved.replaceAll((currency, amount) -> BigDecimal.ZERO);
        now.forEach((currency, amount) -> {
            if (reserved.put(currency, amount) == null) {
                Gauge.builder("payments.refunds.reserved", reserved,
                        m -> m.getOrDefault(currency, BigDecimal.ZERO).doubleValue())
                        .description("Amount reserved by refunds whose outcome is not settled yet")
                        .tag("currency", currency).register(registry);
            }
        });
    }
}
