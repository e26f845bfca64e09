package com.acme.payments.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A third instance with every background job at its default interval: its idle CPU, then the
 * statements and round trips each operation sends, counted from the PostgreSQL driver's own trace
 * ({@code org.postgresql.core.v3.QueryExecutorImpl} at TRACE, switched on through
 * {@code /actuator/loggers} only for the counting, and only lines of request threads are counted, so the
 * jobs' statements are not). One client, one operation at a time.
 */
final class Probe implements AutoCloseable {

    /** The test profile switches the jobs off; the probe runs them as production would. */
    static final List<String> JOBS_AT_DEFAULTS = List.of("payments.sweep.enabled=true", "payments.replay.enabled=true",
            "payments.stragglers.enabled=true", "payments.outbox.enabled=true", "payments.outbox.prune.enabled=true",
            "stripe.prune.enabled=true", "payments.gauges.refresh=15s", "payments.refunds.gauge-refresh=15s",
            "management.endpoints.web.exposure.include=health,prometheus,loggers");

    private static final String DRIVER = "org.postgresql.core.v3.QueryExecutorImpl";

    final ServiceProcess instance;
    private final Path log;

    Probe(ServiceProcess instance, Path log) {
        this.instance = instance;
        this.log = log;
    }

    /** CPU of the idle instance over {@code seconds}, in % of one core. */
    double idlePercentOfCore(int seconds) throws IOException, InterruptedException {
        long before = ticks();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        long after = ticks();
        double elapsed = (System.nanoTime() - t0) / 1e9;
        return (after - before) / 100.0 / elapsed * 100;
    }

    /** The driver's trace on or off (TRACE maps to JUL FINEST, which the driver checks). */
    void trace(boolean on) throws IOException, InterruptedException {
        var r = Client.post(instance.url() + "/actuator/loggers/" + DRIVER,
                on ? "{\"configuredLevel\":\"TRACE\"}" : "{\"configuredLevel\":null}");
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("loggers endpoint answered " + r.statusCode() + " " + r.body());
        }
    }

    /** Statements, round trips and commits of request threads for {@code n} runs of one operation. */
    String count(String workload, int n, ServiceBenchmark.Op op) throws Exception {
        trace(true);
        Thread.sleep(200);
        long from = lines().size();
        int ok = 0;
        for (int i = 0; i < n; i++) {
            ok += op.run(i) ? 1 : 0;
        }
        Thread.sleep(300); // the console appender writes synchronously; this is only slack for the file
        List<String> trace = lines();
        trace(false);
        long statements = 0;
        long roundTrips = 0;
        long commits = 0;
        for (String line : trace.subList((int) from, trace.size())) {
            if (!line.contains("exec-")) {
                continue; // a job's thread, not the request's
            }
            if (line.contains("FE=> Execute(")) {
                statements++;
            } else if (line.contains("FE=> Sync")) {
                roundTrips++;
            }
            if (line.contains("COMMIT")) {
                commits++;
            }
        }
        return String.format("%-34s %5.1f statements/op (driver Execute messages, COMMIT included), %4.1f round trips/op, %4.1f COMMIT lines/op"
                + " (%d of %d answered as expected)", workload, statements / (double) n, roundTrips / (double) n,
                commits / (double) n, ok, n);
    }

    private List<String> lines() throws IOException {
        byte[] bytes = Files.readAllBytes(log);
        return new ArrayList<>(List.of(new String(bytes, StandardCharsets.UTF_8).split("\n", -1)));
    }

    private long ticks() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(instance.pid()), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    @Override
    public void close() throws InterruptedException {
        instance.close();
    }
}
