package com.acme.payments.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.scheduling.config.IntervalTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;

/**
 * A {@link PollJob} runs on the schedule it names: {@code PollJob.onSweep} on {@code payments.sweep.*}
 * (its interval, initial delay, enabled flag and batch size: the duplicate auto-refund's settings as they
 * were), the plain constructor on {@code payments.stragglers.*}. The two settings differ in every value
 * used, so a poll on the wrong one fails.
 */
class PollOnSweepScheduleTests {

    private final SweepProperties sweep = new SweepProperties(true, Duration.ofMinutes(2), Duration.ofSeconds(30),
            Duration.ofMinutes(5), 7, Duration.ofMinutes(2), 4);
    private final StragglerProperties stragglers = new StragglerProperties(true, Duration.ofMinutes(5),
            Duration.ofSeconds(60), Duration.ofMinutes(15), 100);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Shutdown shutdown = new Shutdown();
    private final List<Integer> batchSizes = new ArrayList<>();

    PollOnSweepScheduleTests() {
        shutdown.start();
    }

    @Test
    void aPollOnTheSweepRunsOnPaymentsSweep() {
        IntervalTask task = scheduled(new Poll<>(onSweep(), stragglers, sweep, registry, shutdown, Clock.systemUTC()));

        assertThat(task.getIntervalDuration()).isEqualTo(Duration.ofMinutes(2));
        assertThat(task.getInitialDelayDuration()).isEqualTo(Duration.ofSeconds(30));
        task.getRunnable().run();
        assertThat(batchSizes).as("the claim is handed payments.sweep.batch-size").containsExactly(7);
        assertThat(registry.counter("payments.job.runs", JobMetrics.TAG, "on-sweep").count()).isEqualTo(1);
        assertThat(registry.counter("payments.job.claimed", JobMetrics.TAG, "on-sweep").count()).isEqualTo(1);
        assertThat(registry.counter("payments.job.resolved", JobMetrics.TAG, "on-sweep").count()).isEqualTo(1);
    }

    @Test
    void aPollOnTheSweepIsOffWithTheSweep() {
        SweepProperties off = new SweepProperties(false, sweep.interval(), sweep.initialDelay(), sweep.inFlightAge(),
                sweep.batchSize(), sweep.lease(), sweep.concurrency());
        scheduled(new Poll<>(onSweep(), stragglers, off, registry, shutdown, Clock.systemUTC())).getRunnable().run();

        assertThat(batchSizes).as("payments.sweep.enabled=false: not run").isEmpty();
    }

    @Test
    void aPollByDefaultRunsOnPaymentsStragglers() {
        PollJob<String> job = new PollJob<>("on-stragglers", schedule -> claim(schedule.batchSize()),
                row -> Outcome.RESOLVED);
        IntervalTask task = scheduled(new Poll<>(job, stragglers, sweep, registry, shutdown, Clock.systemUTC()));

        assertThat(task.getIntervalDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(task.getInitialDelayDuration()).isEqualTo(Duration.ofSeconds(60));
        task.getRunnable().run();
        assertThat(batchSizes).containsExactly(100);
    }

    private PollJob<String> onSweep() {
        return new PollJob<>("on-sweep", PollJob.onSweep(schedule -> claim(schedule.batchSize())),
                row -> Outcome.RESOLVED);
    }

    private List<String> claim(int batchSize) {
        batchSizes.add(batchSize);
        return List.of("row");
    }

    private static IntervalTask scheduled(Poll<?> poll) {
        ScheduledTaskRegistrar registrar = new ScheduledTaskRegistrar();
        registrar.setObservationRegistry(ObservationRegistry.NOOP);
        poll.schedule(registrar);
        assertThat(registrar.getFixedDelayTaskList()).hasSize(1);
        return registrar.getFixedDelayTaskList().get(0);
    }
}
