package com.acme.payments.common.jobs;

import java.lang.reflect.Method;
import java.time.Duration;

import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.scheduling.support.ScheduledMethodRunnable;
import org.springframework.util.ReflectionUtils;

/**
 * Registers a job at the timing its {@code *Properties} record holds, so each default is written once
 * (in the record), not again in an {@code @Scheduled} placeholder. Used from
 * {@code SchedulingConfigurer.configureTasks}; the tasks run on the same scheduler as {@code @Scheduled}
 * and through the same {@link ScheduledMethodRunnable}, so each turn is observed like an
 * {@code @Scheduled} one ({@code tasks.scheduled.execution}, tagged with the class and method; the
 * dashboard and the {@code ScheduledTaskErrors} alert read it).
 */
public final class Schedules {

    private Schedules() {
    }

    /** Runs {@code target.method()} (no arguments) every {@code interval} after {@code initialDelay}. */
    public static void fixedDelay(ScheduledTaskRegistrar registrar, Duration interval, Duration initialDelay,
            Object target, String method) {
        Method job = ReflectionUtils.findMethod(target.getClass(), method);
        if (job == null || job.getParameterCount() != 0) {
            throw new IllegalArgumentException(target.getClass().getName() + " has no method " + method + "()");
        }
        // the registry is read when a turn runs: Boot sets it on the registrar in its own configurer
        Runnable observed = new ScheduledMethodRunnable(target, job, null, registrar::getObservationRegistry);
        registrar.addFixedDelayTask(new FixedDelayTask(observed, interval, initialDelay));
    }
}
