package com.acme.payments.retention;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;

import com.acme.payments.retention.RetentionJob.Settings;
import com.acme.payments.retention.RetentionJob.Step;
import com.acme.payments.sweep.Shutdown;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** The shape every retention job shares: batch after batch, short ones end a step, a cap ends a pass. */
class RetentionPassTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Shutdown shutdown = new Shutdown();

    RetentionPassTests() {
        shutdown.start();
    }

    @Test
    void eachStepRunsBatchAfterBatchUntilOneIsShortThenTheNextStep() {
        List<String> calls = new ArrayList<>();
        AtomicInteger backlog = new AtomicInteger(7);
        RetentionJob job = new RetentionJob("test-prune", new Settings(true, Duration.ofHours(1), 3, 100), List.of(
                new Step("a", n -> {
                    calls.add("a" + n);
                    int took = Math.min(n, backlog.get());
                    backlog.addAndGet(-took);
                    return took;
                }), new Step("b", n -> {
                    calls.add("b" + n);
                    return 0;
                })));

        var taken = pass(job).run();

        assertThat(calls).containsExactly("a3", "a3", "a3", "b3"); // 3 + 3 + 1: the short batch ends step a
        assertThat(taken).containsEntry("a", 7).containsEntry("b", 0);
        assertThat(count("payments.job.claimed", "test-prune")).isEqualTo(7);
        assertThat(count("payments.job.runs", "test-prune")).isEqualTo(1);
    }

    @Test
    void aPassStopsAtTheCapAndLeavesTheRestToTheNextPass() {
        AtomicInteger batches = new AtomicInteger();
        RetentionJob job = new RetentionJob("test-capped", new Settings(true, Duration.ofHours(1), 10, 4),
                List.of(new Step("a", n -> {
                    batches.incrementAndGet();
                    return n; // a backlog that never ends
                })));

        assertThat(pass(job).run()).containsEntry("a", 40);
        assertThat(batches).hasValue(4);
    }

    @Test
    void aStoppingInstanceTakesNoFurtherBatch() {
        AtomicInteger batches = new AtomicInteger();
        RetentionJob job = new RetentionJob("test-stopping", new Settings(true, Duration.ofHours(1), 10, 100),
                List.of(new Step("a", n -> {
                    if (batches.incrementAndGet() == 2) {
                        shutdown.stop();
                    }
                    return n;
                })));

        pass(job).run();

        assertThat(batches).hasValue(2);
    }

    @Test
    void aDatabaseFailureEndsThePassCountedAndTheNextPassStartsOver() {
        AtomicInteger calls = new AtomicInteger();
        RetentionJob job = new RetentionJob("test-failing", new Settings(true, Duration.ofHours(1), 10, 100),
                List.of(new Step("a", n -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new QueryTimeoutException("canceling statement due to statement timeout");
                    }
                    return 0;
                })));
        RetentionPass pass = pass(job);

        pass.run();
        pass.run();

        assertThat(calls).hasValue(2);
        assertThat(count("payments.job.failures", "test-failing")).isEqualTo(1);
        assertThat(count("payments.job.runs", "test-failing")).isEqualTo(2);
    }

    @Test
    void aDisabledJobsScheduledTurnDoesNothing() {
        AtomicInteger calls = new AtomicInteger();
        RetentionJob job = new RetentionJob("test-off", new Settings(false, Duration.ofHours(1), 10, 100),
                List.of(new Step("a", n -> calls.incrementAndGet())));

        pass(job).scheduled();

        assertThat(calls).hasValue(0);
    }

    /** The job's counter, whatever its tag is called. */
    private double count(String name, String job) {
        return registry.find(name).counters().stream()
                .filter(c -> c.getId().getTags().stream().anyMatch(t -> t.getValue().equals(job)))
                .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
    }

    private RetentionPass pass(RetentionJob job) {
        return new RetentionPass(job, registry, shutdown, Clock.systemUTC());
    }
}
