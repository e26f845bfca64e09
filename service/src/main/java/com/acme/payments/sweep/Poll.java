package com.acme.payments.sweep;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * One pass of a claim-then-resolve job without aging (the straggler polls): claim a batch in one
 * committed statement, resolve each row in {@link SweepLoop} outside any transaction, count it all under
 * the job's name. {@link Polls} builds one per {@link PollJob}; public for the task's observation.
 */
public final class Poll<T> {

    private final PollJob<T> job;
    private final StragglerProperties schedule;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final Shutdown shutdown;
    private final Clock clock;

    /**
     * A poll on the straggler schedule ({@code payments.stragglers.*}): its own back-off for PSP outages,
     * starting at the schedule's interval.
     */
    Poll(PollJob<T> job, StragglerProperties schedule, MeterRegistry registry, Shutdown shutdown, Clock clock) {
        this.job = job;
        this.schedule = schedule;
        this.metrics = new JobMetrics(registry, job.name());
        this.backoff = Backoff.forJob(clock, schedule.interval());
        this.shutdown = shutdown;
        this.clock = clock;
    }

    /** Registers {@link #run()} on the schedule, skipped while disabled, backed off or stopping. */
    void schedule(ScheduledTaskRegistrar registrar) {
        Schedules.guarded(registrar, schedule.enabled(), schedule.interval(), schedule.initialDelay(), backoff,
                shutdown, this, "run");
    }

    public void run() {
        long started = clock.millis();
        List<T> due = job.claim().apply(schedule);
        metrics.claimed(due.size());
        SweepLoop.process(job.name(), due, job.poll(), metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
    }
}
