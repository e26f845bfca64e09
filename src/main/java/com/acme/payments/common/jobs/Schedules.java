package com.acme.payments.common.jobs;

import java.time.Duration;

import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * Registers a job at the timing its {@code *Properties} record holds, so each default is written once
 * (in the record), not again in an {@code @Scheduled} placeholder. Used from
 * {@code SchedulingConfigurer.configureTasks}; the tasks run on the same scheduler as {@code @Scheduled}.
 */
public final class Schedules {

    private Schedules() {
    }

    /**
     * The usual job: runs only while {@code enabled}, not backing off after a PSP outage and not
     * shutting down (then it leaves its rows to the leases).
     */
    public static void guarded(ScheduledTaskRegistrar registrar, boolean enabled, Duration interval,
            Duration initialDelay, Backoff backoff, Shutdown shutdown, Runnable job) {
        fixedDelay(registrar, interval, initialDelay, () -> {
            if (enabled && !backoff.paused() && !shutdown.stopping()) {
                job.run();
            }
        });
    }

    public static void fixedDelay(ScheduledTaskRegistrar registrar, Duration interval, Duration initialDelay,
            Runnable job) {
        registrar.addFixedDelayTask(new FixedDelayTask(job, interval, initialDelay));
    }
}
