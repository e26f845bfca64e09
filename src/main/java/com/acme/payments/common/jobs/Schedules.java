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

    public static void fixedDelay(ScheduledTaskRegistrar registrar, Duration interval, Duration initialDelay,
            Runnable job) {
        registrar.addFixedDelayTask(new FixedDelayTask(job, interval, initialDelay));
    }
}
