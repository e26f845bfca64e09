package com.acme.payments.bench;

import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.payment;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.retention.Retentions;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

/**
 * On-demand benchmark (tag {@code benchmark}): does the hot path cost more when the pruned tables hold a lot of
 * history, and what do the tables weigh after a pruning pass? Per level (default 10^4, then 10^6 rows per
 * table): seed that many rows of history past their retention into {@code orders} (with e-mail),
 * {@code psp_webhook_event} (closed), {@code outbox} (delivered) and {@code processed_webhook_events}
 * (completed); warm up; run the hot path — create an order, check it out (WireMock PSP), the signed
 * {@code COMPLETED} webhook — and read the CPU per flow from {@code /proc/<pid>/stat}: this JVM (service and
 * client are one process here) and the PostgreSQL client backends of this run's database (autovacuum apart: the
 * seeded tables are vacuumed and analysed before the flows); then prune with every retention job until nothing
 * is left and print each table's size on disk before, after the pass, and after a plain {@code VACUUM}. Run (embedded PostgreSQL, no {@code TEST_DATABASE_URL}):
 * {@code ./mvnw -q -pl service -am test -Pbenchmark -Dtest=RetentionBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * [-Dbench.retention.levels=10000,100000] [-Dbench.retention.flows=1000]}; the figures are in
 * {@code target/benchmarks/retention-benchmark.txt}.
 */
@Tag("benchmark")
class RetentionBenchmark extends IntegrationTest {

    private static final List<String> TABLES = List.of("orders", "psp_webhook_event", "outbox",
            "processed_webhook_events");
    private static final long TICK_MS = 10; // USER_HZ 100

    @Autowired
    Retentions retentions;
    @Autowired
    JdbcClient jdbc;

    private final List<String> out = new ArrayList<>();

    @Test
    void hotPathCpuPerFlowAtSmallAndLargeHistoryAndTableSizesAfterAPrune() throws Exception {
        List<Integer> levels = new ArrayList<>();
        for (String level : System.getProperty("bench.retention.levels", "10000,1000000").split(",")) {
            levels.add(Integer.parseInt(level.trim()));
        }
        int flows = Integer.getInteger("bench.retention.flows", 1000);
        int warmup = Integer.getInteger("bench.retention.warmup", 400);
        print("RetentionBenchmark: levels " + levels + ", " + flows + " flows measured per level after " + warmup
                + " warm-up flows; " + Runtime.getRuntime().availableProcessors() + " cores");
        flow(warmup); // JIT before anything is measured
        for (int level : levels) {
            long seedStart = System.nanoTime();
            seed(level);
            // settled as autovacuum would leave them, so its catch-up on the seeded rows is not measured as the flows'
            jdbc.sql("VACUUM ANALYZE orders, psp_webhook_event, outbox, processed_webhook_events").update();
            print(String.format("level %,d: seeded (and VACUUM ANALYZE) in %.1f s; history rows %s", level,
                    (System.nanoTime() - seedStart) / 1e9, historyRows()));
            flow(warmup / 2);
            long[] blocksBefore = blocks();
            long jvmBefore = ticks(Path.of("/proc/self/stat"));
            Map<Integer, Long> backendsBefore = backendTicks();
            long started = System.nanoTime();
            flow(flows);
            double seconds = (System.nanoTime() - started) / 1e9;
            long[] after = { ticks(Path.of("/proc/self/stat")), 0 };
            long[] before = { jvmBefore, 0 };
            // per backend: one that started meanwhile counts from zero, one that ended is left out
            for (Map.Entry<Integer, Long> e : backendTicks().entrySet()) {
                after[1] += e.getValue() - backendsBefore.getOrDefault(e.getKey(), 0L);
            }
            print(String.format("level %,d: %d flows in %.1f s (%.0f flows/s); CPU per flow: JVM %.2f ms, "
                    + "PostgreSQL backends %.2f ms", level, flows, seconds, flows / seconds,
                    (after[0] - before[0]) * TICK_MS / (double) flows, (after[1] - before[1]) * TICK_MS / (double) flows));
            // where PostgreSQL's extra cost at a larger history would come from: pages not in shared_buffers
            long[] blocksAfter = blocks();
            print(String.format("level %,d: per flow, shared_buffers hits %.1f, blocks read from outside them %.2f",
                    level, (blocksAfter[0] - blocksBefore[0]) / (double) flows,
                    (blocksAfter[1] - blocksBefore[1]) / (double) flows));
            Map<String, String> sizesBefore = sizes();
            long pruneStart = System.nanoTime();
            Map<String, Integer> pruned = pruneAll();
            double pruneSeconds = (System.nanoTime() - pruneStart) / 1e9;
            Map<String, String> sizesAfter = sizes();
            jdbc.sql("VACUUM orders, psp_webhook_event, outbox, processed_webhook_events").update();
            Map<String, String> sizesVacuumed = sizes();
            print(String.format("level %,d: pruning pass %.1f s, rows taken %s; history rows left %s", level,
                    pruneSeconds, pruned, historyRows()));
            for (String table : TABLES) {
                print(String.format("level %,d:   %-26s total size before %-9s after the pass %-9s after VACUUM %s",
                        level, table, sizesBefore.get(table), sizesAfter.get(table), sizesVacuumed.get(table)));
            }
        }
        Path file = Path.of("target/benchmarks/retention-benchmark.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, out);
    }

    /** One flow: create, checkout, the COMPLETED webhook (applied). */
    private void flow(int n) {
        Shop shop = new Shop(http());
        for (int i = 0; i < n; i++) {
            var order = shop.createOrder("10.00", "EUR");
            String paymentId = "pay-bench-" + order.orderRef();
            psp.stubFor(createCall().willReturn(created(paymentId, "CHECKOUT", "10.00", "EUR")));
            assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
            assertThat(shop.webhook(payment(paymentId, null, "DEPOSIT", "COMPLETED", "10.00", "EUR")).json()
                    .path("status").asString()).isEqualTo("applied");
            psp.resetAll();
        }
    }

    /** {@code rows} rows of history past retention per table, in chunks of 100,000 (one statement each). */
    private void seed(int rows) {
        String run = Long.toString(System.nanoTime(), 36);
        for (int from = 1; from <= rows; from += 100_000) {
            int to = Math.min(rows, from + 99_999);
            jdbc.sql("""
                    INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, psp_payment_id,
                                        customer_ref, customer_email, client_token_hash, created_at, updated_at)
                    SELECT 'bench-' || :run || '-' || i, 'PAID', 10.00, 'EUR', 10.00, 'EUR', 'pay-hist-' || :run || '-' || i,
                           'cust-' || i, 'customer' || i || '@example.test', decode(md5(:run || i), 'hex'),
                           now() - interval '601 days', now() - interval '600 days'
                      FROM generate_series(:from, :to) i
                    """).param("run", run).param("from", from).param("to", to).update();
            jdbc.sql("""
                    INSERT INTO psp_webhook_event (payment_id, state, payment_type, payload, first_received_at,
                                                   received_at, processed_at, processed_reason)
                    SELECT 'pay-hist-' || :run || '-' || i, 'COMPLETED', 'DEPOSIT',
                           jsonb_build_object('id', 'pay-hist-' || :run || '-' || i, 'state', 'COMPLETED',
                                              'amount', '10.00', 'currency', 'EUR'),
                           now() - interval '101 days', now() - interval '101 days', now() - interval '100 days',
                           'applied'
                      FROM generate_series(:from, :to) i
                    """).param("run", run).param("from", from).param("to", to).update();
            jdbc.sql("""
                    INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, state, attempts,
                                        created_at, delivered_at, settled_as)
                    SELECT 'order_paid', 'order', 'bench-' || :run || '-' || i, 'bench-' || :run || '-' || i || ':order_paid',
                           jsonb_build_object('orderRef', 'bench-' || :run || '-' || i, 'amount', '10.00'), 'delivered', 1,
                           now() - interval '9 days', now() - interval '8 days', 'sent'
                      FROM generate_series(:from, :to) i
                    """).param("run", run).param("from", from).param("to", to).update();
            jdbc.sql("""
                    INSERT INTO processed_webhook_events (id, source, event_type, state, claim_token, claimed_at,
                                                          completed_at)
                    SELECT 'evt_bench_' || :run || '_' || i, 'stripe', 'invoice.paid', 'completed', md5(:run || i),
                           now() - interval '31 days', now() - interval '31 days'
                      FROM generate_series(:from, :to) i
                    """).param("run", run).param("from", from).param("to", to).update();
        }
        jdbc.sql("ANALYZE orders, psp_webhook_event, outbox, processed_webhook_events").update();
    }

    /** Every retention job, pass after pass, until a pass takes nothing. */
    private Map<String, Integer> pruneAll() {
        Map<String, Integer> total = new LinkedHashMap<>();
        boolean more = true;
        while (more) {
            more = false;
            for (String job : retentions.jobs()) {
                for (Map.Entry<String, Integer> e : retentions.run(job).entrySet()) {
                    total.merge(job + " " + e.getKey(), e.getValue(), Integer::sum);
                    more |= e.getValue() > 0;
                }
            }
        }
        return total;
    }

    private Map<String, Long> historyRows() {
        Map<String, Long> rows = new LinkedHashMap<>();
        rows.put("orders with e-mail", count("SELECT count(*) FROM orders WHERE customer_email IS NOT NULL"));
        rows.put("closed receipts", count("SELECT count(*) FROM psp_webhook_event WHERE processed_at IS NOT NULL"));
        rows.put("delivered outbox", count("SELECT count(*) FROM outbox WHERE state = 'delivered'"));
        rows.put("completed stripe events", count("SELECT count(*) FROM processed_webhook_events WHERE state = 'completed'"));
        return rows;
    }

    private long count(String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }

    private Map<String, String> sizes() {
        Map<String, String> sizes = new HashMap<>();
        for (String table : TABLES) {
            sizes.put(table, jdbc.sql("SELECT pg_size_pretty(pg_total_relation_size(CAST(:t AS regclass)))")
                    .param("t", table).query(String.class).single());
        }
        return sizes;
    }

    /** utime+stime (ticks) of every backend connected to this run's database. */
    /**
     * This database's shared_buffers hits and blocks read (pg_stat_database), after every backend of the pool
     * has flushed its counters: an idle backend flushes within PostgreSQL's 10 s idle interval.
     */
    private long[] blocks() throws InterruptedException {
        Thread.sleep(11_000);
        return jdbc.sql("SELECT blks_hit, blks_read FROM pg_stat_database WHERE datname = current_database()")
                .query((rs, n) -> new long[] { rs.getLong(1), rs.getLong(2) }).single();
    }

    private Map<Integer, Long> backendTicks() throws IOException {
        Map<Integer, Long> ticks = new HashMap<>();
        for (Integer pid : jdbc.sql("""
                SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'
                """)
                .query(Integer.class).list()) {
            ticks.put(pid, ticks(Path.of("/proc", pid.toString(), "stat")));
        }
        return ticks;
    }

    private static long ticks(Path stat) throws IOException {
        if (!Files.exists(stat)) {
            return 0;
        }
        String line = Files.readString(stat);
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime (fields 14 and 15)
    }

    private void print(String line) {
        System.out.println(line);
        out.add(line);
    }
}
