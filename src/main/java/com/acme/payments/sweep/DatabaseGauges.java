package com.acme.payments.sweep;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * Gauges whose values come from the database (open UNKNOWN attempts, oldest unprocessed receipt…).
 * They are refreshed on a schedule, not on every scrape, so Prometheus never drives queries, and every
 * instance reports the same shared figure.
 */
@Component
public class DatabaseGauges {

    private static final Logger log = LoggerFactory.getLogger(DatabaseGauges.class);

    private final MeterRegistry registry;
    private final Map<String, Snapshot> snapshots = new ConcurrentHashMap<>();

    DatabaseGauges(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Registers a gauge read from {@code query} at every refresh. */
    public void register(String name, String description, String baseUnit, Tags tags, Supplier<Number> query) {
        Snapshot snapshot = new Snapshot(() -> {
            Number n = query.get();
            return new OpenRows(n == null ? 0 : n.doubleValue(), Double.NaN);
        });
        if (snapshots.putIfAbsent(name + tags, snapshot) == null) {
            Gauge.builder(name, snapshot, s -> s.count).description(description).baseUnit(baseUnit).tags(tags)
                    .register(registry);
            snapshot.refresh();
        }
    }

    /**
     * Registers {@code name} (the count) and {@code name.oldest.age} (seconds) from one query, run once
     * per refresh for both.
     */
    public void registerOpen(String name, Tags tags, String countDescription, String ageDescription,
            Supplier<OpenRows> query) {
        Snapshot snapshot = new Snapshot(query);
        if (snapshots.putIfAbsent(name + tags, snapshot) == null) {
            Gauge.builder(name, snapshot, s -> s.count).description(countDescription).tags(tags).register(registry);
            Gauge.builder(name + ".oldest.age", snapshot, s -> s.oldestAge).description(ageDescription)
                    .baseUnit("seconds").tags(tags).register(registry);
            snapshot.refresh();
        }
    }

    @Scheduled(fixedDelayString = "${payments.gauges.refresh:15s}", initialDelayString = "${payments.gauges.refresh:15s}")
    public void refresh() {
        snapshots.values().forEach(Snapshot::refresh);
    }

    private static final class Snapshot {
        private final Supplier<OpenRows> query;
        private volatile double count = Double.NaN;
        private volatile double oldestAge = Double.NaN;

        Snapshot(Supplier<OpenRows> query) {
            this.query = query;
        }

        void refresh() {
            try {
                OpenRows rows = query.get();
                count = rows.count();
                oldestAge = rows.oldestAgeSeconds();
            } catch (RuntimeException e) {
                log.warn("gauge refresh failed: {}", e.getClass().getSimpleName());
            }
        }
    }
}
