package com.acme.payments.sweep;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * One pass of the unknown-outcome sweep over one {@link SweptTable}: age dead owners' IN_FLIGHT rows into
 * UNKNOWN, claim a batch of UNKNOWN rows (committed, SKIP LOCKED), and resolve each under its lease
 * through the flow's own {@link Resolver} in {@link SweepLoop}, outside any transaction,
 * {@code payments.sweep.concurrency} rows at a time. Every instance runs it; the claim makes sure no row
 * is resolved by two at once. Rows the PSP still shows nothing final for are released at the end of the
 * pass (one statement), so the next pass looks again; rows of an abandoned batch (outage, shutdown) or
 * that failed keep their lease until it expires. {@link Sweeps} builds and schedules one per resolver.
 */
final class Sweep<T extends Leased> {

    private static final Logger log = LoggerFactory.getLogger(Sweep.class);

    private final String job;
    private final SweptTable<T> store;
    private final Resolver<T> resolver;
    private final SweepProperties properties;
    private final JobMetrics metrics;
    private final Backoff backoff;
    private final Shutdown shutdown;
    private final Clock clock;
    private final ThreadPoolExecutor workers;

    Sweep(Resolver<T> resolver, SweepProperties properties, MeterRegistry registry, Backoff backoff,
            Shutdown shutdown, Clock clock) {
        this.job = resolver.job().name();
        this.store = resolver.job().table();
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

    /** One pass; the scheduled caller checks enabled / back-off / shutdown first. */
    void run() {
        long started = clock.millis();
        int aged = store.ageInFlight(properties.inFlightAge(), properties.batchSize());
        metrics.aged(aged);
        List<T> claimed = store.claimUnknown(properties.lease(), properties.batchSize());
        metrics.claimed(claimed.size());
        Queue<Lease> stillUnknown = new ConcurrentLinkedQueue<>();
        SweepLoop.process(job, claimed, row -> {
            Outcome outcome = resolver.resolve(row, row.lease());
            if (outcome == Outcome.STILL_UNKNOWN) {
                stillUnknown.add(row.lease());
            }
            return outcome;
        }, metrics, backoff, shutdown, workers, properties.concurrency());
        store.releaseLeases(stillUnknown);
        metrics.run(Duration.ofMillis(clock.millis() - started));
        if (aged > 0 || !claimed.isEmpty()) {
            log.info("{}: aged={} claimed={}", job, aged, claimed.size());
        }
    }
}
