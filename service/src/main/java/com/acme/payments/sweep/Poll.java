package com.acme.payments.sweep;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * One pass of a claim-then-resolve job without aging (the straggler polls): claim a batch in one
 * committed statement, resolve each row in {@link SweepLoop} outside any transaction, count it all under
 * the job's name. The {@code *Sweeper} of each feature only wires it and names the scheduled method.
 */
public final class Poll<T> {

    private final String job;
    private final Supplier<List<T>> claim;
    private final Function<T, Outcome> resolver;
    private final StragglerProperties schedule;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final Shutdown shutdown;
    private final Clock clock;

    /**
     * A poll on the straggler schedule ({@code payments.stragglers.*}): its own back-off for PSP outages,
     * starting at the schedule's interval.
     */
    public Poll(String job, Supplier<List<T>> claim, Function<T, Outcome> resolver,
            StragglerProperties schedule, MeterRegistry registry, Shutdown shutdown, Clock clock) {
        this.job = job;
        this.claim = claim;
        this.resolver = resolver;
        this.schedule = schedule;
        this.metrics = new JobMetrics(registry, job);
        this.backoff = Backoff.forJob(clock, schedule.interval());
        this.shutdown = shutdown;
        this.clock = clock;
    }

    /**
     * Registers {@code target.poll()} on the schedule, skipped while disabled, backed off or stopping. The
     * task is the feature's own method, so its observation carries the feature's name.
     */
    public void schedule(ScheduledTaskRegistrar registrar, Object target) {
        Schedules.guarded(registrar, schedule.enabled(), schedule.interval(), schedule.initialDelay(), backoff,
                shutdown, target, "poll");
    }

    public void run() {
        long started = clock.millis();
        List<T> due = claim.get();
        metrics.claimed(due.size());
        SweepLoop.process(job, due, resolver, metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
    }
}
