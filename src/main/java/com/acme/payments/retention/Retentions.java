package com.acme.payments.retention;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import com.acme.payments.sweep.Schedules;
import com.acme.payments.sweep.Shutdown;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The one place a retention job is wired, as {@code Polls} is for the polls: every {@link Retainer} bean is
 * discovered and each of its {@link RetentionJob}s gets a {@link RetentionPass} on its own interval (one
 * scheduled task each, through {@link Schedules}, so each turn is observed like any other job's).
 */
@Component
public class Retentions implements SchedulingConfigurer {

    private final Map<String, RetentionPass> passes = new TreeMap<>();

    Retentions(List<Retainer> retainers, Shutdown shutdown, Clock clock, MeterRegistry registry) {
        for (Retainer retainer : retainers) {
            for (RetentionJob job : retainer.retentionJobs()) {
                if (passes.put(job.name(), new RetentionPass(job, registry, shutdown, clock)) != null) {
                    throw new IllegalStateException("two retention jobs named " + job.name());
                }
            }
        }
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        for (RetentionPass pass : passes.values()) {
            Schedules.fixedDelay(registrar, pass.job().settings().interval(), pass.job().settings().interval(), pass,
                    "scheduled");
        }
    }

    /** One pass of the named job, whether or not it is enabled here (tests and benchmarks drive it). */
    public Map<String, Integer> run(String job) {
        RetentionPass pass = passes.get(job);
        if (pass == null) {
            throw new IllegalArgumentException("no retention job " + job + " (have " + passes.keySet() + ")");
        }
        return pass.run();
    }

    /** The registered jobs' names. */
    public List<String> jobs() {
        return List.copyOf(passes.keySet());
    }
}
