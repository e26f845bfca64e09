package com.acme.payments.sweep;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The one place a poll is wired, as {@link Sweeps} is for the sweeps: every {@link Poller} bean is
 * discovered and each of its {@link PollJob}s gets a {@link Poll} on the schedule it names (the straggler
 * schedule {@code payments.stragglers.*}, or {@code payments.sweep.*}), one scheduled task and one back-off
 * each (docs/architecture.md).
 */
@Component
public class Polls implements SchedulingConfigurer {

    private final Map<String, Poll<?>> polls = new TreeMap<>();

    Polls(List<Poller> pollers, StragglerProperties stragglers, SweepProperties sweep, Shutdown shutdown, Clock clock,
            MeterRegistry registry) {
        for (Poller poller : pollers) {
            for (PollJob<?> job : poller.polls()) {
                if (polls.put(job.name(), new Poll<>(job, stragglers, sweep, registry, shutdown, clock)) != null) {
                    throw new IllegalStateException("two polls named " + job.name());
                }
            }
        }
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        polls.values().forEach(poll -> poll.schedule(registrar));
    }

    /** One pass of the named poll, as a scheduled turn runs it; tests drive it. */
    public void run(String job) {
        Poll<?> poll = polls.get(job);
        if (poll == null) {
            throw new IllegalArgumentException("no poll " + job + " (have " + polls.keySet() + ")");
        }
        poll.run();
    }
}
