package com.acme.payments.sweep;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * One pass of a claim-then-resolve job without aging (the polls): claim a batch in one
 * committed statement, resolve each row in {@link SweepLoop} outside any transaction, count it all under
 * the job's name. {@link Polls} builds one per {@link PollJob}; public for the task's observation.
 */
public final class Poll<T> {

    private final PollJob<T> job;
    private final boolean enabled;
    private final Duration interval;
    private final Duration initialDelay;
    private final Supplier<List<T>> claim;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final Shutdown shutdown;
    private final Clock clock;

    /**
     * A poll on the schedule its job names ({@code payments.stragglers.*} or {@code payments.sweep.*}): its
     * own back-off for PSP outages, starting at that schedule's interval.
     */
    Poll(PollJob<T> job, StragglerProperties stragglers, SweepProperties sweep, MeterRegistry registry,
            Shutdown shutdown, Clock clock) {
        this.job = job;
        if (job.claim() instanceof PollJob.OnSweep<T> onSweep) {
            this.enabled = sweep.enabled();
            this.interval = sweep.interval();
            this.initialDelay = sweep.initialDelay();
            this.claim = () -> onSweep.batch().apply(sweep);
        } else if (job.claim() instanceof PollJob.OnStragglers<T> onStragglers) {
            this.enabled = stragglers.enabled();
            this.interval = stragglers.interval();
            this.initialDelay = stragglers.initialDelay();
            this.claim = () -> onStragglers.batch().apply(stragglers);
        } else {
            throw new IllegalArgumentException("poll " + job.name() + " names no schedule");
        }
        this.metrics = new JobMetrics(registry, job.name());
        this.backoff = Backoff.forJob(clock, interval);
        this.shutdown = shutdown;
        this.clock = clock;
    }

    /** Registers {@link #run()} on the schedule, skipped while disabled, backed off or stopping. */
    void schedule(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, enabled, interval, initialDelay, backoff, shutdown, this, "run");
    }

    public void run() {
        long started = clock.millis();
        List<T> due = claim.get();
        metrics.claimed(due.size());
        SweepLoop.process(job.name(), due, job.poll(), metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
    }
}
