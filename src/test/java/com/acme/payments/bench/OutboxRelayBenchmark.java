package com.acme.payments.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import com.acme.payments.PaymentsApplication;
import com.acme.payments.outbox.OutboxRelay;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.PspStub;
import com.acme.payments.support.TestDatabase;

/**
 * On-demand benchmark (tag {@code benchmark}, excluded from the normal run): 20,000 outbox rows
 * delivered to a local sink that answers 200 at once, with one relay and then with two (two
 * application contexts on one database), printed beside {@code pgbench -N -c 8 -j 2 -T 20} on the same
 * PostgreSQL server. Run:
 * {@code TEST_DATABASE_URL=jdbc:postgresql://127.0.0.1:5432/postgres ./mvnw -B test -Dtest=OutboxRelayBenchmark -Dsurefire.excludedGroups=}
 */
@Tag("benchmark")
class OutboxRelayBenchmark extends IntegrationTest {

    private static final int ROWS = 20_000;
    private static final CountingSink SINK = new CountingSink();

    @Autowired
    private OutboxRelay relay;
    @Autowired
    private JdbcClient jdbc;

    @DynamicPropertySource
    static void localSink(DynamicPropertyRegistry registry) {
        registry.add("payments.outbox.sinks.notify-url", () -> SINK.url() + "/notify");
        registry.add("payments.outbox.sinks.conversion-url", () -> SINK.url() + "/conversion");
        registry.add("payments.outbox.sinks.fulfilment-url", () -> SINK.url() + "/fulfilment");
        // -Dbench.concurrency / -Dbench.batch-size try other settings; by default the shipped ones
        if (System.getProperty("bench.concurrency") != null) {
            registry.add("payments.outbox.concurrency", () -> System.getProperty("bench.concurrency"));
        }
        if (System.getProperty("bench.batch-size") != null) {
            registry.add("payments.outbox.batch-size", () -> System.getProperty("bench.batch-size"));
        }
    }

    @AfterAll
    static void stopSink() {
        SINK.stop();
    }

    @Test
    void deliveriesPerSecondWithOneAndTwoRelaysBesidePgbench() throws Exception {
        settleLeftovers();
        double one = measure("one", List.of(relay));
        double two;
        ConfigurableApplicationContext second = secondInstance();
        try {
            two = measure("two", List.of(relay, second.getBean(OutboxRelay.class)));
        } finally {
            second.close();
        }
        double pgbench = pgbenchTps();
        System.out.printf("%n== outbox relay benchmark: %d rows, local sink answering 200 at once ==%n", ROWS);
        System.out.printf("one relay : %8.0f deliveries/s  (%.2f x pgbench)%n", one, one / pgbench);
        System.out.printf("two relays: %8.0f deliveries/s  (%.2f x pgbench, %.2f x one relay)%n", two, two / pgbench,
                two / one);
        System.out.printf("pgbench -N -c 8 -j 2 -T 20: %8.0f tps%n", pgbench);
        System.out.printf("relay settings: concurrency %s, batch-size %s; cores: %d%n%n",
                System.getProperty("bench.concurrency", "4 (default)"), System.getProperty("bench.batch-size", "100 (default)"),
                Runtime.getRuntime().availableProcessors());
    }

    /** Delivers what other runs left behind, so the measured batches are ours only. */
    private void settleLeftovers() {
        relay.runUntilIdle(Duration.ofMinutes(2));
    }

    private double measure(String label, List<OutboxRelay> relays) throws Exception {
        String prefix = "bench_" + label + "_" + System.nanoTime() + "_";
        jdbc.sql("""
                INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload)
                SELECT 'renewal_notice', 'subscription', :prefix || g, :prefix || g || ':renewal_notice',
                       jsonb_build_object('kind', 'renewal_notice', 'userId', 'user_' || g,
                                          'subscriptionId', :prefix || g, 'periodStart', 1767225600)
                  FROM generate_series(1, :rows) AS g
                """).param("prefix", prefix).param("rows", ROWS).update();
        jdbc.sql("ANALYZE outbox").update();
        SINK.received.clear();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        int liveBefore = threads.getThreadCount();
        long startedBefore = threads.getTotalStartedThreadCount();
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (OutboxRelay r : relays) {
            workers.add(CompletableFuture.runAsync(() -> {
                while (r.runUntilIdle(Duration.ofSeconds(5)) > 0 || pending(prefix) > 0) {
                    // keep going until every row of this run is settled
                }
            }));
        }
        for (CompletableFuture<Void> worker : workers) {
            worker.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(SINK.received).hasSize(ROWS);
        assertThat(SINK.received.values().stream().mapToInt(AtomicInteger::get).max().orElse(0)).isEqualTo(1);
        // this JVM holds the relay(s), the sink and the test: its CPU per row bounds the relay's from above
        System.out.printf("%s relay(s): %d rows in %.1f s; JVM CPU %.2f ms per row; threads %d -> %d live, %d started%n",
                label, ROWS, seconds, (os.getProcessCpuTime() - cpuBefore) / 1e6 / ROWS, liveBefore,
                threads.getThreadCount(), threads.getTotalStartedThreadCount() - startedBefore);
        return ROWS / seconds;
    }

    private long pending(String prefix) {
        return jdbc.sql("SELECT count(*) FROM outbox WHERE state = 'pending' AND idempotency_key LIKE :p")
                .param("p", prefix + "%").query(Long.class).single();
    }

    private ConfigurableApplicationContext secondInstance() {
        return new SpringApplicationBuilder(PaymentsApplication.class).profiles("test").run(
                "--spring.datasource.url=" + TestDatabase.url(),
                "--spring.datasource.username=" + TestDatabase.user(),
                "--spring.datasource.password=" + TestDatabase.password(),
                "--payments.psp.api-url=" + PspStub.baseUrl(),
                "--payments.outbox.sinks.notify-url=" + SINK.url() + "/notify",
                "--payments.outbox.sinks.conversion-url=" + SINK.url() + "/conversion",
                "--payments.outbox.sinks.fulfilment-url=" + SINK.url() + "/fulfilment",
                "--payments.outbox.concurrency=" + System.getProperty("bench.concurrency", "4"),
                "--payments.outbox.batch-size=" + System.getProperty("bench.batch-size", "100"),
                "--server.port=0");
    }

    /** pgbench -i on a database of its own, then -N -c 8 -j 2 -T 20 against the same server. */
    private static double pgbenchTps() throws Exception {
        Pgbench pgbench = new Pgbench("outbox_bench_pgbench");
        pgbench.init();
        return pgbench.tps();
    }
}
