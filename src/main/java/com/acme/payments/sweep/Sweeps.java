package com.acme.payments.sweep;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The one place a sweep is wired (db-scheduler's shape: tasks are beans, one scheduler runs them): every
 * {@link Resolver} bean is discovered, its {@link SweepJob} gets a {@link Sweep} on the
 * {@code payments.sweep.*} schedule, the back-off of its group, its gauges, and its table's part of
 * {@code GET /api/admin/unresolved}. A new claim → call → settle flow adds a Store, an orchestrator and
 * an Applier; nothing here changes (docs/architecture.md).
 */
@Component
public class Sweeps implements SchedulingConfigurer {

    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Map<String, Group> groups = new TreeMap<>();
    private final List<SweptTable<?>> tables = new ArrayList<>();

    Sweeps(List<Resolver<?>> resolvers, SweepProperties properties, Shutdown shutdown, Clock clock,
            MeterRegistry registry, DatabaseGauges gauges) {
        this.properties = properties;
        this.shutdown = shutdown;
        List<Resolver<?>> byName = resolvers.stream()
                .sorted(Comparator.comparing((Resolver<?> r) -> r.job().name())).toList();
        for (Resolver<?> resolver : byName) {
            SweepJob<?> job = resolver.job();
            Group group = groups.computeIfAbsent(job.group(),
                    g -> new Group(Backoff.forJob(clock, properties.interval())));
            group.sweeps.add(sweep(resolver, registry, group.backoff, clock));
            tables.add(job.table());
            if (job.gauge() != null) {
                gauges.registerOpen("payments.attempts.unknown", Tags.of("kind", job.gauge().kind()),
                        job.gauge().countDescription(), job.gauge().ageDescription(),
                        () -> job.table().unknownRows().orElseThrow());
            }
        }
    }

    private <T extends Leased> Sweep<T> sweep(Resolver<T> resolver, MeterRegistry registry, Backoff backoff,
            Clock clock) {
        return new Sweep<>(resolver, properties, registry, backoff, shutdown, clock);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        for (Group group : groups.values()) {
            Schedules.guarded(registrar, properties.enabled(), properties.interval(), properties.initialDelay(),
                    group.backoff, shutdown, group, "run");
        }
    }

    /** One pass of the group's sweeps, in job-name order, as a scheduled turn runs it; tests drive it. */
    public void run(String group) {
        Group sweeps = groups.get(group);
        if (sweeps == null) {
            throw new IllegalArgumentException("no sweep group " + group + " (have " + groups.keySet() + ")");
        }
        sweeps.run();
    }

    /** Every swept table's IN_FLIGHT and UNKNOWN rows, at most {@code limit} per table, oldest first. */
    public List<Unresolved> unresolved(int limit) {
        return tables.stream().flatMap(table -> table.unresolved(limit).stream())
                .sorted(Comparator.comparing(Unresolved::since).thenComparing(Unresolved::referenceId))
                .toList();
    }

    /** The sweeps of one group: one scheduled task, one back-off. Public for the task's observation. */
    public static final class Group {

        private final Backoff backoff;
        private final List<Sweep<?>> sweeps = new ArrayList<>();

        Group(Backoff backoff) {
            this.backoff = backoff;
        }

        public void run() {
            sweeps.forEach(Sweep::run);
        }
    }
}
