package com.acme.payments.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Shop;
import com.acme.payments.support.SimulatorStack;

import tools.jackson.databind.JsonNode;

/**
 * On-demand benchmark (tag {@code benchmark}): a 31-day reconciliation run at 10^6 orders a year, about
 * 85,000 payments in the window, seeded on both sides — paid orders with their attempts in PostgreSQL, the same
 * COMPLETED payments in the simulator's Gateway, created evenly over the window — and run over HTTP as an
 * operator would. Prints the run's wall time and the used heap (sampled every 20 ms; the simulator shares
 * this JVM and holds its 85,000 payments before the run starts, so the figure is the peak above that
 * baseline, garbage included). Run: {@code TEST_DATABASE_URL=… ./mvnw -q test -Pbenchmark
 * -Dtest=BooksReconciliationBenchmark -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.books.payments=85000]};
 * the figures are in {@code target/benchmarks/books-reconciliation-benchmark.txt}.
 */
@Tag("benchmark")
class BooksReconciliationBenchmark {

    @Test
    void aMonthAtAMillionOrdersAYear() throws IOException {
        int payments = Integer.getInteger("bench.books.payments", 85_000);
        SimulatorStack stack = SimulatorStack.start("sim-admin", serviceUrl -> Map.of(
                "pspsim.api-key", "test-psp-key", "pspsim.signing-key", "test-signing-key"),
                (serviceUrl, simulatorUrl) -> Map.of("payments.checkout.public-url", serviceUrl,
                        "payments.psp.api-url", simulatorUrl));
        try {
            JdbcClient jdbc = stack.jdbc();
            Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofDays(32));
            Instant to = from.plus(Duration.ofDays(31));
            long step = Duration.ofDays(31).toMillis() / payments;
            long seedStarted = System.nanoTime();
            jdbc.sql("""
                    INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, psp_payment_id,
                                        customer_ref, client_token_hash, created_at, updated_at)
                    SELECT 'bench-' || i, 'PAID', 10.00, 'EUR', 10.00, 'EUR', 'pay_bench_' || i, 'c',
                           decode(md5('bench-' || i), 'hex'), t, t
                    FROM generate_series(0, :n - 1) AS i,
                         LATERAL (SELECT CAST(:from AS timestamptz) + i * :step * interval '1 millisecond') AS s(t)
                    """).param("n", payments).param("from", from.atOffset(java.time.ZoneOffset.UTC)).param("step", step)
                    .update();
            jdbc.sql("""
                    INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                                             created_at, updated_at)
                    SELECT o.id, 'chk_' || o.psp_payment_id, 'READY', 10.00, 'EUR', 'https://shop.test/thank-you',
                           o.psp_payment_id, o.created_at, o.created_at
                    FROM orders o WHERE o.order_ref LIKE 'bench-%'
                    """).update();
            jdbc.sql("VACUUM ANALYZE orders, psp_attempt").update();
            Http sim = stack.sim();
            for (int chunk = 0; chunk < payments; chunk += 10_000) {
                int n = Math.min(10_000, payments - chunk);
                // one prefix, so ids run pay_bench_0 … in the order PostgreSQL has them
                assertThat(sim.post("/sim/payments/seed", "{\"prefix\":\"pay_bench_\",\"count\":" + n + ",\"from\":\""
                        + from.plusMillis(step * chunk) + "\",\"stepMillis\":" + step + ",\"offset\":" + chunk + "}")
                        .status()).isEqualTo(200);
            }
            double seedSeconds = (System.nanoTime() - seedStarted) / 1e9;

            MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
            System.gc();
            long baseline = memory.getHeapMemoryUsage().getUsed();
            AtomicLong peak = new AtomicLong(baseline);
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            Http admin = stack.api().bearer(Shop.ADMIN_KEY);
            long started = System.nanoTime();
            String id = admin.post("/api/admin/reconciliations", "{\"from\":\"" + from + "\",\"to\":\"" + to + "\"}")
                    .json().path("id").asString();
            await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> !"running".equals(admin.get("/api/admin/reconciliations/" + id).json().path("state")
                            .asString()));
            double seconds = (System.nanoTime() - started) / 1e9;
            sampler.interrupt();
            JsonNode run = admin.get("/api/admin/reconciliations/" + id).json();
            String line = String.format("books reconciliation, 31 days, %,d payments seeded (%.1f s): state %s, "
                    + "pspRecords %d, ourRecords %d, mismatches %d; %.1f s; heap %.0f MiB before, peak +%.0f MiB; "
                    + "max heap %.0f MiB; %d cores", payments, seedSeconds, run.path("state").asString(),
                    run.path("pspRecords").asInt(), run.path("ourRecords").asInt(), run.path("mismatchCount").asInt(),
                    seconds, baseline / 1048576.0, (peak.get() - baseline) / 1048576.0,
                    Runtime.getRuntime().maxMemory() / 1048576.0, Runtime.getRuntime().availableProcessors());
            System.out.println(line);
            Files.createDirectories(Path.of("target/benchmarks"));
            Files.writeString(Path.of("target/benchmarks/books-reconciliation-benchmark.txt"), line + "\n");
            assertThat(run.path("state").asString()).isEqualTo("done");
            assertThat(run.path("pspRecords").asInt()).isEqualTo(payments);
        } finally {
            stack.close();
        }
    }
}
