package com.acme.payments.billing;

import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.DatabaseGauges;
import com.acme.payments.sweep.JobMetrics;
import com.acme.payments.sweep.LeaseOwner;
import com.acme.payments.sweep.Schedules;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The nightly repair: once per night across all instances (the instance that takes the night's lease
 * row runs it; the others skip), reconciles every subscription that has not ended and records who ran
 * it and what it granted. A failure on one subscription is logged and does not stop the others. Every
 * {@code billing.reconciliation.check-interval} each instance looks whether the night's pass is due (past
 * the cron's firing that UTC day) and free (not finished, no live lease): a runner renews its short lease
 * after each subscription, so one that dies is taken over within about a lease and a check, the same
 * night. Off when {@code billing.reconciliation.enabled} is false.
 */
@Component
class ReconciliationSweeper implements SchedulingConfigurer {

    static final String JOB = "billing-reconciliation";
    private static final Logger log = LoggerFactory.getLogger(ReconciliationSweeper.class);

    private final ReconciliationOrchestrator reconciliation;
    private final SubscriptionStore subscriptions;
    private final ReconciliationRunStore runs;
    private final BillingProperties properties;
    private final Clock clock;
    private final JobMetrics metrics;
    private final Counter skipped;
    private final String owner = LeaseOwner.newName();

    ReconciliationSweeper(ReconciliationOrchestrator reconciliation, SubscriptionStore subscriptions,
            ReconciliationRunStore runs, BillingProperties properties, Clock clock, MeterRegistry registry,
            DatabaseGauges gauges) {
        this.reconciliation = reconciliation;
        this.subscriptions = subscriptions;
        this.runs = runs;
        this.properties = properties;
        this.clock = clock;
        this.metrics = new JobMetrics(registry, JOB);
        this.skipped = Counter.builder("billing.reconciliation.skipped")
                .description("Nightly reconciliations left to the instance that holds the night's lease")
                .register(registry);
        gauges.register("billing.reconciliation.last_finished_age", "Seconds since a nightly reconciliation last "
                + "finished, on any instance", "seconds", Tags.empty(), runs::lastFinishedAgeSeconds);
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        Duration every = properties.reconciliation().checkInterval();
        Schedules.fixedDelay(registrar, every, every, this, "nightly");
    }

    /** One check (the scheduled turn). */
    void nightly() {
        if (properties.reconciliation().enabled()) {
            runIfDue(ZonedDateTime.now(clock.withZone(ZoneOffset.UTC)));
        }
    }

    /**
     * The night of {@code now} (UTC) if its pass is due and free: past the cron's firing that day, not
     * finished, and not held by a live runner; else nothing ({@code ran=false}, not counted as skipped).
     */
    Result runIfDue(ZonedDateTime now) {
        LocalDate night = now.withZoneSameInstant(ZoneOffset.UTC).toLocalDate();
        boolean due = properties.reconciliation().dueAt(night).filter(at -> !now.isBefore(at)).isPresent();
        if (!due || !runs.free(night)) {
            return new Result(false, 0, 0);
        }
        return run(night);
    }

    /** The night's pass if this instance takes the night's lease; what it granted, or {@code ran=false}. */
    Result run(LocalDate night) {
        Duration lease = properties.reconciliation().lease();
        if (!runs.take(night, owner, lease)) {
            skipped.increment();
            log.info("nightly reconciliation runs elsewhere, night={} owner={}", night, owner);
            return new Result(false, 0, 0);
        }
        long started = System.nanoTime();
        List<Map<String, Object>> granted = new ArrayList<>();
        int failed = 0;
        List<String> open = subscriptions.openIds();
        metrics.claimed(open.size());
        for (String subscriptionId : open) {
            try {
                for (Long periodStart : reconciliation.sync(subscriptionId)) {
                    Map<String, Object> period = new LinkedHashMap<>();
                    period.put("subscriptionId", subscriptionId);
                    period.put("periodStart", periodStart);
                    granted.add(period);
                    metrics.resolved();
                }
            } catch (RuntimeException e) {
                failed++;
                metrics.failure();
                log.warn("reconciliation failed, subscriptionId={} error={}", subscriptionId,
                        e.getClass().getSimpleName());
            }
            if (!runs.renew(night, owner, lease)) {
                return fenced(night, started, granted.size(), failed); // the night's pass is the new owner's
            }
        }
        if (!runs.finish(night, owner, open.size(), granted, failed)) {
            return fenced(night, started, granted.size(), failed);
        }
        metrics.run(Duration.ofNanos(System.nanoTime() - started));
        log.info("nightly reconciliation done, night={} owner={} subscriptions={} granted={} failed={}", night, owner,
                open.size(), granted.size(), failed);
        return new Result(true, granted.size(), failed);
    }

    /** Our lease lapsed and another instance took the night over: it runs the whole pass; we stop. */
    private Result fenced(LocalDate night, long started, int granted, int failed) {
        metrics.fenced();
        metrics.run(Duration.ofNanos(System.nanoTime() - started));
        log.warn("nightly reconciliation lease was taken over before it finished, night={} owner={} granted={}",
                night, owner, granted);
        return new Result(true, granted, failed);
    }

    record Result(boolean ran, int granted, int failed) {
    }
}
