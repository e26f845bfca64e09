package com.acme.payments.common.jobs;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * One pass of a claim-then-resolve job without aging (the straggler polls): claim a batch in one
 * committed statement, resolve each row in {@link SweepLoop} outside any transaction, count it all under
 * the job's name. The {@code *Sweeper} of each feature only wires and schedules it.
 */
public final class Poll<T> {

    private final String job;
    private final Supplier<List<T>> claim;
    private final Function<T, SweepLoop.Outcome> resolver;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final Shutdown shutdown;
    private final Clock clock;

    public Poll(String job, Supplier<List<T>> claim, Function<T, SweepLoop.Outcome> resolver, MeterRegistry registry,
            Backoff backoff, Shutdown shutdown, Clock clock) {
        this.job = job;
        this.claim = claim;
        this.resolver = resolver;
        this.metrics = new JobMetrics(registry, job);
        this.backoff = backoff;
        this.shutdown = shutdown;
        this.clock = clock;
    }

    public void run() {
        long started = clock.millis();
        List<T> due = claim.get();
        metrics.claimed(due.size());
        SweepLoop.process(job, due, resolver, metrics, backoff, shutdown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
    }
}
