package com.acme.payments.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.acme.payments.sweep.Outcome;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The loop's own rules with concurrency: every row of a batch goes to exactly one worker, no more
 * than {@code concurrency} are in resolution at once, and the workers really overlap (a barrier of
 * {@code concurrency} parties is only passed when that many resolve at the same time; the waits are
 * upper bounds, a sequential loop fails them). The database side — two instances, each with four
 * workers, resolving 200 attempts exactly once — is TwoInstanceSweepIntegrationTests.
 */
class SweepLoopTests {

    private final ExecutorService workers = Executors.newFixedThreadPool(3);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final JobMetrics metrics = new JobMetrics(registry, "test");
    private final Backoff backoff = new Backoff(Clock.systemUTC(), Duration.ofSeconds(1), Duration.ofMinutes(1));
    private final Shutdown shutdown = new Shutdown();

    SweepLoopTests() {
        shutdown.start();
    }

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void everyRowIsResolvedOnceWithAtMostConcurrencyInFlight() {
        List<Integer> rows = IntStream.range(0, 1000).boxed().toList();
        Map<Integer, AtomicInteger> seen = new ConcurrentHashMap<>();
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        CyclicBarrier overlap = new CyclicBarrier(4);

        SweepLoop.process("test", rows, row -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                if (row < 4) {
                    overlap.await(10, TimeUnit.SECONDS); // the first four rows must be in resolution together
                }
                seen.computeIfAbsent(row, r -> new AtomicInteger()).incrementAndGet();
                return Outcome.RESOLVED;
            } catch (Exception e) {
                throw new IllegalStateException("rows were not resolved concurrently", e);
            } finally {
                inFlight.decrementAndGet();
            }
        }, metrics, backoff, shutdown, workers, 4);

        assertThat(seen).hasSize(1000);
        assertThat(seen.values()).allMatch(n -> n.get() == 1);
        assertThat(maxInFlight.get()).isEqualTo(4);
        assertThat(registry.get("payments.job.resolved").counter().count()).isEqualTo(1000);
        assertThat(registry.get("payments.job.failures").counter().count()).isZero();
    }

    @Test
    void anOutageAbandonsTheBatchAcrossWorkers() {
        List<Integer> rows = IntStream.range(0, 1000).boxed().toList();
        AtomicInteger tried = new AtomicInteger();

        SweepLoop.process("test", rows, row -> {
            tried.incrementAndGet();
            return Outcome.UNREACHABLE;
        }, metrics, backoff, shutdown, workers, 4);

        // three in a row end it; each of the four workers may have had one more row in hand
        assertThat(tried.get()).isBetween(3, 6);
        assertThat(backoff.paused()).isTrue();
    }

    @Test
    void aStoppingInstanceTakesNoNewRows() {
        List<Integer> rows = IntStream.range(0, 100).boxed().toList();
        AtomicInteger tried = new AtomicInteger();

        SweepLoop.process("test", rows, row -> {
            if (tried.incrementAndGet() == 10) {
                shutdown.stop();
            }
            return Outcome.RESOLVED;
        }, metrics, backoff, shutdown, workers, 4);

        assertThat(tried.get()).isBetween(10, 13);
    }
}
