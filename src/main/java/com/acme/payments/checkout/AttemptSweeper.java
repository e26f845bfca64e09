package com.acme.payments.checkout;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.common.jobs.Backoff;
import com.acme.payments.common.jobs.DatabaseGauges;
import com.acme.payments.common.jobs.JobMetrics;
import com.acme.payments.common.jobs.Schedules;
import com.acme.payments.common.jobs.Shutdown;
import com.acme.payments.common.jobs.SweepProperties;
import com.acme.payments.common.jobs.SweepLoop;
import com.acme.payments.common.jobs.SweepLoop.Outcome;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import jakarta.annotation.PreDestroy;

/**
 * Resolves the checkout attempts and capture/void operations no request will: IN_FLIGHT rows whose
 * owner died are aged into UNKNOWN, then a batch of UNKNOWN rows is claimed (committed, SKIP LOCKED)
 * and each is resolved through the same resolve() the request path uses, outside any transaction,
 * {@code payments.sweep.concurrency} rows at a time.
 * Every instance runs it; the claim makes sure no row is resolved by two at once.
 */
@Component
class AttemptSweeper implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(AttemptSweeper.class);

    private final AttemptStore attempts;
    private final OperationStore operations;
    private final CheckoutOrchestrator checkout;
    private final CaptureOrchestrator captures;
    private final SweepProperties properties;
    private final Shutdown shutdown;
    private final Clock clock;
    private final JobMetrics attemptMetrics;
    private final JobMetrics operationMetrics;
    private final Backoff backoff;
    private final ThreadPoolExecutor workers;

    AttemptSweeper(AttemptStore attempts, OperationStore operations, CheckoutOrchestrator checkout,
            CaptureOrchestrator captures, SweepProperties properties, Shutdown shutdown, Clock clock,
            MeterRegistry registry, DatabaseGauges gauges) {
        this.attempts = attempts;
        this.operations = operations;
        this.checkout = checkout;
        this.captures = captures;
        this.properties = properties;
        this.shutdown = shutdown;
        this.clock = clock;
        this.attemptMetrics = new JobMetrics(registry, "checkout-sweep");
        this.operationMetrics = new JobMetrics(registry, "operation-sweep");
        this.backoff = new Backoff(clock, properties.interval(), Duration.ofMinutes(15));
        this.workers = workers(properties.concurrency());
        gauges.register("payments.attempts.unknown", "Checkout attempts in UNKNOWN", null, Tags.of("kind", "checkout"),
                () -> attempts.unknownStats()[0]);
        gauges.register("payments.attempts.unknown.oldest.age", "Age of the oldest UNKNOWN checkout attempt", "seconds",
                Tags.of("kind", "checkout"), () -> attempts.unknownStats()[1]);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Schedules.fixedDelay(registrar, properties.interval(), properties.initialDelay(), this::scheduled);
    }

    void scheduled() {
        if (!properties.enabled() || backoff.paused() || shutdown.stopping()) {
            return;
        }
        sweep();
    }

    /** One pass over attempts, then operations. Public to the package so tests drive it directly. */
    void sweep() {
        long started = clock.millis();
        int aged = attempts.ageInFlight(properties.inFlightAge(), properties.batchSize());
        attemptMetrics.aged(aged);
        List<Attempt> claimed = attempts.claimUnknown(properties.lease(), properties.batchSize());
        attemptMetrics.claimed(claimed.size());
        SweepLoop.process("checkout-sweep", claimed, this::resolveAttempt, attemptMetrics, backoff, shutdown, workers,
                properties.concurrency());
        attemptMetrics.run(Duration.ofMillis(clock.millis() - started));
        if (aged > 0 || !claimed.isEmpty()) {
            log.info("checkout sweep: aged={} claimed={}", aged, claimed.size());
        }

        started = clock.millis();
        operationMetrics.aged(operations.ageInFlight(properties.inFlightAge(), properties.batchSize()));
        List<Operation> ops = operations.claimUnknown(properties.lease(), properties.batchSize());
        operationMetrics.claimed(ops.size());
        SweepLoop.process("operation-sweep", ops, op -> captures.resolve(op, true), operationMetrics, backoff, shutdown,
                workers, properties.concurrency());
        operationMetrics.run(Duration.ofMillis(clock.millis() - started));
    }

    /** concurrency - 1 helpers beside the scheduler's thread; they end after a minute without a batch. */
    private static ThreadPoolExecutor workers(int concurrency) {
        int helpers = Math.max(1, concurrency - 1);
        CustomizableThreadFactory threads = new CustomizableThreadFactory("checkout-sweep-");
        threads.setDaemon(true);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(helpers, helpers, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), threads);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    @PreDestroy
    void stopWorkers() {
        workers.shutdown(); // a running batch sees Shutdown.stopping() and ends after its current rows
    }

    private Outcome resolveAttempt(Attempt attempt) {
        CheckoutOrchestrator.Resolution resolution = checkout.resolve(attempt, true);
        return switch (resolution) {
            case READY, FAILED -> Outcome.RESOLVED;
            case STILL_UNKNOWN -> Outcome.STILL_UNKNOWN;
            case UNREACHABLE -> Outcome.UNREACHABLE;
            case FENCED -> Outcome.FENCED;
        };
    }
}
