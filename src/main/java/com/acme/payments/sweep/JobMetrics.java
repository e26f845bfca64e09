package com.acme.payments.sweep;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The meters every background job records, tagged {@code task=<name>}: {@code payments.job.runs},
 * {@code .claimed}, {@code .resolved}, {@code .still_unknown}, {@code .failures}, {@code .fenced},
 * {@code .aged} and the timer {@code payments.job.duration}. The tag is {@code task}, not {@code job}:
 * Prometheus keeps {@code job} for its scrape job and would rename ours {@code exported_job}.
 */
public final class JobMetrics {

    /** The tag naming the job on every meter here. */
    public static final String TAG = "task";

    private final Counter runs;
    private final Counter claimed;
    private final Counter resolved;
    private final Counter stillUnknown;
    private final Counter failures;
    private final Counter fenced;
    private final Counter aged;
    private final Timer duration;

    public JobMetrics(MeterRegistry registry, String job) {
        this.runs = counter(registry, "payments.job.runs", job, "Job runs");
        this.claimed = counter(registry, "payments.job.claimed", job, "Rows claimed by the job");
        this.resolved = counter(registry, "payments.job.resolved", job, "Rows the job settled");
        this.stillUnknown = counter(registry, "payments.job.still_unknown", job, "Rows still unresolved after a try");
        this.failures = counter(registry, "payments.job.failures", job, "Rows whose processing failed");
        this.fenced = counter(registry, "payments.job.fenced", job, "Rows whose lease was taken over before completion");
        this.aged = counter(registry, "payments.job.aged", job, "IN_FLIGHT rows presumed abandoned and made UNKNOWN");
        this.duration = Timer.builder("payments.job.duration").description("Job run duration").tag(TAG, job)
                .register(registry);
    }

    private static Counter counter(MeterRegistry registry, String name, String job, String description) {
        return Counter.builder(name).description(description).tag(TAG, job).register(registry);
    }

    public void run(Duration took) {
        runs.increment();
        duration.record(took);
    }

    public void claimed(int n) {
        claimed.increment(n);
    }

    public void resolved() {
        resolved.increment();
    }

    public void stillUnknown() {
        stillUnknown.increment();
    }

    public void failure() {
        failures.increment();
    }

    public void fenced() {
        fenced.increment();
    }

    public void aged(int n) {
        aged.increment(n);
    }
}
