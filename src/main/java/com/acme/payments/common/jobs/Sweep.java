package com.acme.payments.common.jobs;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * One pass of the unknown-outcome sweep over one {@link Sweepable} table: age dead owners' IN_FLIGHT rows into
 * UNKNOWN, claim a batch of UNKNOWN rows (committed, SKIP LOCKED), and resolve each through the feature's
 * own resolve() in {@link SweepLoop}, outside any transaction, {@code payments.sweep.concurrency} rows at a
 * time. Every instance runs it; the claim makes sure
 * no row is resolved by two at once. The {@code *Sweeper} of each feature only wires and schedules it.
 */
public final class Sweep<T> {

    private static final Logger log = LoggerFactory.getLogger(Sweep.class);

    private final String job;
    private final Sweepable<T> store;
    private final Function<T, SweepLoop.Outcome> resolver;
    private final SweepProperties properties;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final Shutdown shutdown;
    private final Clock clock;
    private final ThreadPoolExecutor workers;

    public Sweep(String job, Sweepable<T> store, Function<T, SweepLoop.Outcome> resolver,
            SweepProperties properties, MeterRegistry registry, Backoff backoff, Shutdown shutdown, Clock clock) {
        this.job = job;
        this.store = store;
        this.resolver = resolver;
        this.properties = properties;
        this.metrics = new JobMetrics(registry, job);
        this.backoff = backoff;
        this.shutdown = shutdown;
        this.clock = clock;
        this.workers = workers(job, properties.concurrency());
    }

    /** concurrency - 1 helpers beside the scheduler's thread; they end after a minute without a batch. */
    private static ThreadPoolExecutor workers(String job, int concurrency) {
        int helpers = Math.max(1, concurrency - 1);
        CustomizableThreadFactory threads = new CustomizableThreadFactory(job + "-");
        threads.setDaemon(true);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(helpers, helpers, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Registers {@code payments.attempts.unknown{kind}} and its oldest age, read once per refresh. */
    public Sweep<T> withUnknownGauges(DatabaseGauges gauges, String kind, String countDescription,
            String ageDescription, Supplier<OpenRows> unknownRows) {
        gauges.registerOpen("payments.attempts.unknown", Tags.of("kind", kind), countDescription, ageDescription,
                unknownRows);
        return this;
    }

    /** One pass; the scheduled caller checks enabled / back-off / shutdown first. */
    public void run() {
        long started = clock.millis();
        int aged = store.ageInFlight(properties.inFlightAge(), properties.batchSize());
        metrics.aged(aged);
        List<T> claimed = store.claimUnknown(properties.lease(), properties.batchSize());
        metrics.claimed(claimed.size());
        SweepLoop.process(job, claimed, resolver, metrics, backoff, shutdown, workers, properties.concurrency());
        metrics.run(Duration.ofMillis(clock.millis() - started));
        if (aged > 0 || !claimed.isEmpty()) {
            log.info("{}: aged={} claimed={}", job, aged, claimed.size());
        }
    }
}
