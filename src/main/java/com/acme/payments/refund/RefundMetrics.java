package com.acme.payments.refund;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.DatabaseGauges;
import com.acme.payments.sweep.Schedules;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * {@code payments.refunds} (counter by outcome: done, failed, rejected, unknown, abandoned, reversed,
 * revived, external: a refund made at the PSP by someone else, booked), {@code payments.duplicate.refunds} (the same outcomes for second charges' refunds) and
 * {@code payments.refunds.reserved} (gauge by currency: amount reserved by refunds not yet settled),
 * re-read from the database every {@code payments.refunds.gauge-refresh} (15 s) so every instance reports
 * the same figure.
 */
@Component
class RefundMetrics implements SchedulingConfigurer {

    private static final Duration FIRST_REFRESH = Duration.ofSeconds(5);
    private static final String ORDER_REFUNDS = "payments.refunds";
    private static final String CHARGE_REFUNDS = "payments.duplicate.refunds";

    private final MeterRegistry registry;
    private final RefundStore refunds;
    private final Duration refresh;
    private final Map<String, BigDecimal> reserved = new ConcurrentHashMap<>();

    RefundMetrics(MeterRegistry registry, RefundStore refunds, RefundProperties properties, DatabaseGauges gauges) {
        // payments.attempts.open{kind="refund", state}: refunds of orders and of second charges alike
        for (RefundState state : List.of(RefundState.IN_FLIGHT, RefundState.UNKNOWN)) {
            gauges.register("payments.attempts.open",
                    "Checkout attempts and refunds in an open state, by kind and state", null,
                    Tags.of("kind", "refund", "state", state.name()), () -> refunds.countOpen(state));
        }
        this.registry = registry;
        this.refunds = refunds;
        this.refresh = properties.gaugeRefresh();
        // at zero from the start, so dashboards and rate() see every outcome before its first event
        List.of("done", "failed", "rejected", "unknown", "abandoned", "reversed", "revived", "external").forEach(outcome -> {
            counter(ORDER_REFUNDS, outcome);
            counter(CHARGE_REFUNDS, outcome);
        });
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.fixedDelay(registrar, refresh, FIRST_REFRESH, this, "refreshReserved");
    }

    void settled(Refund refund, String outcome) {
        counter(refund.ofSecondCharge() ? CHARGE_REFUNDS : ORDER_REFUNDS, outcome).increment();
    }

    private Counter counter(String name, String outcome) {
        return Counter.builder(name)
                .description(name.equals(ORDER_REFUNDS) ? "Refund settlements by outcome"
                        : "Refunds of second charges by outcome")
                .tag("outcome", outcome).register(registry);
    }

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
