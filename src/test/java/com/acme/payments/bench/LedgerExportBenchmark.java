package com.acme.payments.bench;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.Shop;
import com.acme.payments.support.TestDatabase;

/**
 * On-demand benchmark (tag {@code benchmark}): the ledger export of a year at 10^6 orders. A database of its own,
 * migrated as the application migrates it, is seeded with {@code generate_series} (a year of orders, 75 % PAID
 * each with its attempt; refunds of 10 % of the paid ones, a fifth of those made elsewhere; one in a hundred
 * paid orders with a refund that failed after it was DONE; a second charge, refunded, for one in a thousand) and
 * VACUUM ANALYZEd; the export's statement is explained for a day and for the year. Then one service instance (its
 * own JVM, {@code -Xmx} from {@code bench.ledger.heap}, default 256m) exports the whole year over HTTP while its
 * {@code jvm.memory.used} (heap) is sampled every 200 ms: rows, bytes, wall time and the largest heap seen are
 * printed. Run: {@code ./mvnw -q test -Pbenchmark -Dtest=LedgerExportBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.orders=1000000] [-Dbench.ledger.heap=256m]
 * [-Dbench.ledger.keep=true]} (keeps the seeded database, to explain by hand); the figures are
 * written to {@code target/benchmarks/ledger-export.txt}.
 */
@Tag("benchmark")
class LedgerExportBenchmark {

    private static final Path DIR = Path.of("target/benchmarks");
    private static final String STORE = "com.acme.payments.ledger.LedgerStore";
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void exportAYearAtAMillionOrders() throws Exception {
        int rows = Integer.getInteger("bench.orders", 1_000_000);
        String heap = System.getProperty("bench.ledger.heap", "256m");
        String database = "ledger_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        String own = TestDatabase.url();
        int query = own.indexOf('?');
        String base = query < 0 ? own : own.substring(0, query);
        String url = base.substring(0, base.lastIndexOf('/') + 1) + database + (query < 0 ? "" : own.substring(query));
        List<String> out = new ArrayList<>();
        Files.createDirectories(DIR);
        try {
            Flyway.configure().dataSource(url, TestDatabase.user(), TestDatabase.password())
                    .locations("classpath:db/migration")
                    .configuration(Map.of("flyway.postgresql.transactional.lock", "false")).load().migrate();
            try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
                    Statement s = c.createStatement()) {
                long started = System.nanoTime();
                seed(s, rows);
                out.add(String.format("LedgerExportBenchmark: %,d orders seeded and VACUUM ANALYZEd in %.1f s; %s",
                        rows, (System.nanoTime() - started) / 1e9, single(s, "SELECT version()")));
                out.add("seeded: " + single(s, """
                        SELECT format('%s paid orders, %s attempts, %s refunds DONE (%s made elsewhere), %s failed after
                                DONE, %s second charges', (SELECT count(*) FROM orders WHERE paid_at IS NOT NULL),
                               (SELECT count(*) FROM psp_attempt), (SELECT count(*) FROM psp_refund_attempt
                                WHERE done_at IS NOT NULL), (SELECT count(*) FROM psp_refund_attempt
                                WHERE origin = 'external'), (SELECT count(*) FROM psp_refund_attempt
                                WHERE state = 'FAILED'), (SELECT count(*) FROM duplicate_charge))""").replaceAll("\\s+", " "));
                out.add("sizes: orders_paid_at " + single(s, "SELECT pg_size_pretty(pg_relation_size('orders_paid_at'))")
                        + ", psp_refund_done_at " + single(s,
                                "SELECT pg_size_pretty(pg_relation_size('psp_refund_done_at'))")
                        + ", psp_refund_failed_after_done " + single(s,
                                "SELECT pg_size_pretty(pg_relation_size('psp_refund_failed_after_done'))"));
                String sql = Plans.constant(STORE, "MOVEMENTS");
                s.execute(Plans.constant(STORE, "NO_JIT").replace(" LOCAL", "")); // as the Store runs it
                for (String[] window : new String[][] { { "a day", "'2025-06-01 00:00:00Z'", "'2025-06-02 00:00:00Z'" },
                        { "the year", "'2025-01-01 00:00:00Z'", "'2026-01-01 00:00:00Z'" } }) {
                    String literal = Plans.bind(sql, Map.of("from", window[1], "to", window[2]));
                    out.add("");
                    out.add("-- MOVEMENTS over " + window[0] + ": EXPLAIN (ANALYZE, BUFFERS)");
                    out.add(explain(s, "EXPLAIN (ANALYZE, BUFFERS) " + literal));
                }
            }
            out.add(export(url, heap));
        } finally {
            if (Boolean.getBoolean("bench.ledger.keep")) {
                out.add("kept for plans by hand: database " + database + " (drop it when done)");
            } else {
                try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                }
            }
        }
        out.forEach(System.out::println);
        Files.write(DIR.resolve("ledger-export.txt"), out);
    }

    /** The year 2025 over HTTP from one instance, its heap sampled meanwhile. */
    private static String export(String url, String heap) throws Exception {
        List<String> props = List.of("spring.datasource.url=" + url, "spring.datasource.username=" + TestDatabase.user(),
                "spring.datasource.password=" + TestDatabase.password(), "payments.psp.api-url=http://127.0.0.1:9");
        try (ServiceProcess service = ServiceProcess.start("ledger-export", DIR, props, null, heap)) {
            service.awaitHealthy(Duration.ofMinutes(5));
            double idle = service.heapAfterGcMiB();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong maxHeap = new AtomicLong();
            Thread sampler = new Thread(() -> {
                while (running.get()) {
                    try {
                        double used = ServiceProcess.metric(service.prometheus("jvm_memory_used_bytes"),
                                "jvm_memory_used_bytes", "area=\"heap\"");
                        maxHeap.accumulateAndGet((long) used, Math::max);
                        Thread.sleep(200);
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "heap-sampler");
            sampler.setDaemon(true);
            sampler.start();
            long started = System.nanoTime();
            HttpResponse<InputStream> answer = HTTP.send(HttpRequest.newBuilder(URI.create(service.url()
                    + "/api/admin/ledger.csv?from=2025-01-01T00:00:00Z&to=2026-01-01T00:00:00Z"))
                    .header("Authorization", "Bearer " + Shop.ADMIN_KEY).build(), HttpResponse.BodyHandlers.ofInputStream());
            long bytes = 0;
            long lines = 0;
            long firstByte = 0;
            byte[] buffer = new byte[1 << 16];
            try (InputStream body = answer.body()) {
                for (int n; (n = body.read(buffer)) > 0;) {
                    if (bytes == 0) {
                        firstByte = System.nanoTime() - started;
                    }
                    bytes += n;
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            lines++;
                        }
                    }
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            running.set(false);
            sampler.join();
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("the export answered " + answer.statusCode());
            }
            return String.format("""

                    export of 2025 over HTTP (-Xmx%s): %d, %,d rows (+ header), %,d bytes (%.1f MiB) in %.1f s \
                    (%,.0f rows/s; first byte after %.2f s); heap: %.1f MiB after GC before the export, at most \
                    %.1f MiB in use while it ran (jvm.memory.used, area heap, every 200 ms), %.1f MiB after GC after""",
                    heap, answer.statusCode(), lines - 1, bytes, bytes / 1048576.0, seconds, (lines - 1) / seconds,
                    firstByte / 1e9, idle, maxHeap.get() / 1048576.0, service.heapAfterGcMiB());
        }
    }

    /**
     * 2025 in order of i; triggers off (session_replication_role = replica) so the seeded times stand: the
     * triggers would date every row now. Amounts vary so the file is not all one figure.
     */
    private static void seed(Statement s, int rows) throws Exception {
        s.execute("SET session_replication_role = replica");
        for (int from = 1; from <= rows; from += 100_000) {
            s.execute("""
                    INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, psp_payment_id,
                                        customer_ref, client_token_hash, created_at, updated_at, paid_at)
                    SELECT 'led-' || i, CASE WHEN i %% 100 < 75 THEN 'PAID' WHEN i %% 100 < 90 THEN 'PAYMENT_FAILED'
                                             ELSE 'AWAITING_PAYMENT' END,
                           10 + i %% 90 + 0.5, 'EUR', CASE WHEN i %% 100 < 75 THEN 10 + i %% 90 + 0.5 END,
                           CASE WHEN i %% 100 < 75 THEN 'EUR' END, CASE WHEN i %% 100 < 75 THEN 'pay-' || i END,
                           'cust-' || (i %% 997), decode(md5('led-' || i), 'hex'), t, t,
                           CASE WHEN i %% 100 < 75 THEN t + interval '20 seconds' END
                      FROM generate_series(%d, %d) i,
                           LATERAL (SELECT timestamptz '2025-01-01 00:00:00Z'
                                           + make_interval(secs => (i - 1) * 31536000.0 / %d) AS t) x
                    """.formatted(from, Math.min(rows, from + 99_999), rows));
        }
        s.execute("""
                INSERT INTO psp_attempt (order_id, reference_id, state, amount, currency, return_url, psp_payment_id,
                                         created_at, updated_at)
                SELECT id, 'att-' || id, 'READY', amount, currency, 'https://shop.test/return', psp_payment_id,
                       created_at, created_at
                  FROM orders WHERE paid_at IS NOT NULL
                """);
        // a refund a day after the payment: ours (api), or one in five made elsewhere; one in a hundred paid orders
        // has one that failed two days after it was DONE
        s.execute("""
                INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state,
                                                psp_payment_id, psp_state, origin, created_at, updated_at, done_at,
                                                failed_at)
                SELECT id, CASE WHEN id % 50 = 0 THEN NULL ELSE 'key-' || id END,
                       CASE WHEN id % 50 = 0 THEN 'bo-' || id ELSE 'ref-' || id END, 5.00, 'EUR', 'DONE',
                       CASE WHEN id % 50 = 0 THEN 'bo-' || id ELSE 'rfp-' || id END, 'COMPLETED',
                       CASE WHEN id % 50 = 0 THEN 'external' ELSE 'api' END,
                       paid_at + interval '1 day', paid_at + interval '1 day', paid_at + interval '1 day', NULL
                  FROM orders WHERE paid_at IS NOT NULL AND id % 10 = 0
                UNION ALL
                SELECT id, 'late-' || id, 'late-' || id, 4.00, 'EUR', 'FAILED', 'rfl-' || id, 'DECLINED', 'api',
                       paid_at + interval '1 day', paid_at + interval '2 days', paid_at + interval '1 day',
                       paid_at + interval '2 days'
                  FROM orders WHERE paid_at IS NOT NULL AND id % 100 = 3
                """);
        s.execute("""
                INSERT INTO duplicate_charge (order_id, psp_payment_id, amount, currency, detected_at)
                SELECT id, 'dup-' || id, paid_amount, 'EUR', paid_at + interval '10 minutes'
                  FROM orders WHERE paid_at IS NOT NULL AND id % 1000 = 7
                """);
        s.execute("""
                INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, amount, currency, state,
                                                psp_payment_id, psp_state, created_at, updated_at, done_at)
                SELECT order_id, id, 'dcr-' || id, amount, currency, 'DONE', 'dcrp-' || id, 'COMPLETED',
                       detected_at + interval '1 hour', detected_at + interval '1 hour', detected_at + interval '1 hour'
                  FROM duplicate_charge
                """);
        s.execute("SET session_replication_role = DEFAULT");
        s.execute("VACUUM ANALYZE orders");
        s.execute("VACUUM ANALYZE psp_attempt");
        s.execute("VACUUM ANALYZE psp_refund_attempt");
        s.execute("VACUUM ANALYZE duplicate_charge");
    }

    private static String explain(Statement s, String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    private static String single(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
