package com.acme.payments.sweep;

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

    /**
     * The usual job: {@code target.method()} runs only while {@code enabled}, not backing off after a PSP
     * outage and not shutting down (then it leaves its rows to the leases). Skipped turns are not observed.
     */
    public static void guarded(ScheduledTaskRegistrar registrar, boolean enabled, Duration interval,
            Duration initialDelay, Backoff backoff, Shutdown shutdown, Object target, String method) {
        Runnable job = observed(registrar, target, method);
        registrar.addFixedDelayTask(new FixedDelayTask(() -> {
            if (enabled && !backoff.paused() && !shutdown.stopping()) {
                job.run();
            }
        }, interval, initialDelay));
    }

    /** Runs {@code target.method()} (no arguments) every {@code interval} after {@code initialDelay}. */
    public static void fixedDelay(ScheduledTaskRegistrar registrar, Duration interval, Duration initialDelay,
            Object target, String method) {
        registrar.addFixedDelayTask(new FixedDelayTask(observed(registrar, target, method), interval, initialDelay));
    }

    private static Runnable observed(ScheduledTaskRegistrar registrar, Object target, String method) {
        Method job = ReflectionUtils.findMethod(target.getClass(), method);
        if (job == null || job.getParameterCount() != 0) {
            throw new IllegalArgumentException(target.getClass().getName() + " has no method " + method + "()");
        }
        // the registry is read when a turn runs: Boot sets it on the registrar in its own configurer
        return new ScheduledMethodRunnable(target, job, null, registrar::getObservationRegistry);
    }
}
