package com.acme.payments.outbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The outbox's meters. Gauges read a snapshot of the open rows that is refreshed at most once per
 * {@code payments.outbox.metrics-refresh}, so scrapes never hammer the database; a failed refresh
 * keeps the last figures. Counters and timers are registered once per (kind, result).
 */
@Component
class OutboxMetrics {

    private static final Logger log = LoggerFactory.getLogger(OutboxMetrics.class);

    /** Results of one row's turn in the relay; the {@code result} tag of the deliveries counter. */
    enum Result {
        /** The sink answered 2xx. */
        SENT,
        /** Another row with the same key was already sent: settled without a call. */
        DUPLICATE,
        /** Another row with the same key is being sent right now: handed back for later. */
        BUSY,
        /** The sink failed; retried after a backoff. */
        FAILED,
        /** The sink failed for the last allowed time: parked dead. */
        DEAD,
        /** Not sent because the relay is stopping or its lease is nearly over; handed back. */
        ABANDONED,
        /** The outcome could not be recorded: another relay took the row's key over (this relay's session had ended). */
        LEASE_LOST,
        /**
         * This relay took over a key whose holder's database session had ended before it recorded an
         * outcome: the earlier call's outcome is unknown, so this send may be the second (same key).
         */
        TAKEN_OVER;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The {@code sink} tag of a kind no sink knows (a row written by newer code). */
    static final String UNKNOWN_SINK = "unknown";
    private static final List<String> SINKS = Stream.concat(
            SinkRoutes.sinkByKind().values().stream().distinct(), Stream.of(UNKNOWN_SINK)).toList();

    private final MeterRegistry registry;
    private final OutboxStatsStore store;
    private final SinkRoutes routes;
    private final Clock clock;
    private final Duration refreshEvery;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    private volatile OutboxStatsStore.Stats stats = OutboxStatsStore.Stats.NONE;
    private volatile Instant refreshedAt = Instant.MIN;

    OutboxMetrics(MeterRegistry registry, OutboxStatsStore store, SinkRoutes routes, Clock clock,
            OutboxProperties properties) {
        this.registry = registry;
        this.store = store;
        this.routes = routes;
        this.clock = clock;
        this.refreshEvery = properties.metricsRefresh();
        gauge("payments.outbox.pending", "Rows not yet delivered (state pending, in flight included)",
                OutboxStatsStore.Stats::pending, null);
        gauge("payments.outbox.inflight", "Pending rows currently leased by a relay",
                OutboxStatsStore.Stats::inFlight, null);
        gauge("payments.outbox.dead", "Rows parked dead after the last attempt; need a redrive or a discard",
                OutboxStatsStore.Stats::dead, null);
        gauge("payments.outbox.discarded", "Dead rows an operator discarded (settled unsent), until pruned",
                OutboxStatsStore.Stats::discarded, null);
        gauge("payments.outbox.unroutable", "Pending rows whose kind has no configured sink",
                OutboxStatsStore.Stats::unroutable, null);
        // per sink: one slow or failing sink must show even while the others deliver at once
        for (String sink : SINKS) {
            Gauge.builder("payments.outbox.oldest.pending.age", this, m -> oldestPending(m.current(), sink))
                    .description("Age of the oldest pending row, by the sink its kind goes to")
                    .baseUnit("seconds").tag("sink", sink).register(registry);
        }
        // every routable kind's delivery meters exist from the start: dashboards and alerts see zero, not
        // "no data", and a scrape right after the first delivery does not race its recording
        for (String kind : routes.routableKinds()) {
            for (Result result : Result.values()) {
                counter(kind, result);
            }
            timer(kind);
        }
    }

    private void gauge(String name, String description, ToDoubleFunction<OutboxStatsStore.Stats> value,
            String unit) {
        Gauge.builder(name, this, m -> value.applyAsDouble(m.current()))
                .description(description)
                .baseUnit(unit)
                .register(registry);
    }

    /** Seconds since the oldest pending row of any kind that goes to {@code sink}; 0 when it has none. */
    static double oldestPending(OutboxStatsStore.Stats stats, String sink) {
        return stats.oldestPendingByKind().entrySet().stream()
                .filter(e -> sink.equals(SinkRoutes.sinkByKind().getOrDefault(e.getKey(), UNKNOWN_SINK)))
                .mapToDouble(Map.Entry::getValue).max().orElse(0);
    }

    void record(String kind, Result result) {
        counter(kind, result).increment();
    }

    /** Time from the row's commit (created_at) to the sink's acceptance. */
    void latency(String kind, Duration fromCommitToAcceptance) {
        timer(kind).record(fromCommitToAcceptance);
    }

    private Counter counter(String kind, Result result) {
        return counters.computeIfAbsent(kind + "/" + result.tag(), k -> Counter.builder("payments.outbox.deliveries")
                .description("Outbox rows settled or retried, by kind and result")
                .tag("kind", kind)
                .tag("result", result.tag())
                .register(registry));
    }

    private Timer timer(String kind) {
        return timers.computeIfAbsent(kind, k -> Timer.builder("payments.outbox.delivery.latency")
                .description("From the outbox row's commit to the sink's 2xx")
                .tag("kind", kind)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(5))
                .maximumExpectedValue(Duration.ofHours(1))
                .register(registry));
    }

    /** Reloads the gauges' figures now (tests, and after a redrive). */
    void refreshNow() {
        try {
            stats = store.stats(routes.routableKinds());
        } catch (RuntimeException e) {
            log.warn("outbox gauges not refreshed: {}", e.getClass().getSimpleName());
        }
        refreshedAt = clock.instant();
    }

    private OutboxStatsStore.Stats current() {
        if (refreshedAt.plus(refreshEvery).isBefore(clock.instant())) {
            synchronized (this) {
                if (refreshedAt.plus(refreshEvery).isBefore(clock.instant())) {
                    refreshNow();
                }
            }
        }
        return stats;
    }
}
