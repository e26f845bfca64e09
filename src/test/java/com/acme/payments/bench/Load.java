package com.acme.payments.bench;

import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop load: {@code threads} clients each repeating one unit of work (a checkout flow, a
 * webhook) until the time is up or the work runs out, printing a progress line every 2 s. A warm-up
 * phase runs first and is not counted. Latencies are kept per named step, in microseconds.
 */
final class Load {

    /** One unit of work; returns false when there is no more work. */
    interface Unit {
        boolean run(int thread, Load load) throws Exception;
    }

    private final String label;
    private final AtomicLong done = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final Map<String, ConcurrentLinkedQueue<Long>> latencies = new ConcurrentHashMap<>();
    private final AtomicInteger errorSamples = new AtomicInteger();
    private volatile boolean counting;
    private volatile boolean stop;
    double seconds;

    Load(String label) {
        this.label = label;
    }

    /** Runs the load; returns the counted units per second. {@code seconds} 0 = until the work runs out. */
    double run(int threads, int warmupSeconds, int measureSeconds, Unit unit) throws InterruptedException {
        CountDownLatch finished = new CountDownLatch(threads);
        counting = warmupSeconds == 0; // a fixed amount of work counts from its first unit
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                try {
                    while (!stop) {
                        try {
                            if (!unit.run(thread, this)) {
                                break;
                            }
                            if (counting) {
                                done.incrementAndGet();
                            }
                        } catch (Exception e) {
                            error(e.toString());
                        }
                    }
                } finally {
                    finished.countDown();
                }
            }, "bench-" + label + "-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        if (warmupSeconds > 0) {
            progress("warm-up", warmupSeconds);
        }
        latencies.clear();
        done.set(0);
        counting = true;
        long start = System.nanoTime();
        Thread ticker = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(2000);
                    double s = (System.nanoTime() - start) / 1e9;
                    System.out.printf("[bench %s] %s: %.0f s, %d done (%.0f/s), errors %d%n", now(), label, s,
                            done.get(), done.get() / s, errors.get());
                }
            } catch (InterruptedException e) {
                // finished
            }
        });
        ticker.setDaemon(true);
        ticker.start();
        if (measureSeconds > 0) {
            finished.await(measureSeconds, java.util.concurrent.TimeUnit.SECONDS);
            stop = true;
        }
        finished.await();
        seconds = (System.nanoTime() - start) / 1e9;
        ticker.interrupt();
        counting = false;
        return done.get() / seconds;
    }

    long done() {
        return done.get();
    }

    long errors() {
        return errors.get();
    }

    void error(String what) {
        errors.incrementAndGet();
        if (errorSamples.incrementAndGet() <= 5) {
            System.out.println("[bench] " + label + " error: " + what);
        }
    }

    /** Records one step's latency (only while counting). */
    void record(String step, long nanos) {
        if (!counting) {
            return;
        }
        latencies.computeIfAbsent(step, k -> new ConcurrentLinkedQueue<>()).add(nanos / 1000);
    }

    /** p50, p99, p90 and the maximum of a step in milliseconds (that order, so callers of [0] and [1] keep theirs). */
    double[] percentilesMs(String step) {
        long[] all = latencies.getOrDefault(step, new ConcurrentLinkedQueue<>()).stream().mapToLong(Long::longValue)
                .sorted().toArray();
        if (all.length == 0) {
            return new double[] { Double.NaN, Double.NaN, Double.NaN, Double.NaN };
        }
        return new double[] { all[(int) (all.length * 0.50)] / 1000.0,
                all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1000.0,
                all[(int) (all.length * 0.90)] / 1000.0, all[all.length - 1] / 1000.0 };
    }

    private void progress(String phase, int seconds) throws InterruptedException {
        System.out.printf("[bench %s] %s: %s %d s%n", now(), label, phase, seconds);
        Thread.sleep(seconds * 1000L);
    }

    static String now() {
        return LocalTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
