package com.acme.payments.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.TestDatabase;

/**
 * On-demand benchmark (tag {@code benchmark}): the order list's plans at 10^6 orders. A database of its own,
 * migrated as the application migrates it, is seeded with {@code generate_series} (a year of orders, most PAID,
 * few open; {@code bench.orders} to change the count) and VACUUM ANALYZEd; each shape of the list (first page,
 * a later page, a status, a date window, and together) is explained with {@code EXPLAIN (ANALYZE, BUFFERS)},
 * from OrderListStore's own SQL constants, as a custom plan (values inlined) and as the generic plan a prepared
 * statement may settle on, each after one warm-up run. Run: {@code ./mvnw -q test -Pbenchmark
 * -Dtest=OrderListPlanBenchmark -Dsurefire.failIfNoSpecifiedTests=false}; the plans are printed and written to
 * {@code target/benchmarks/order-list-plans.txt}.
 */
@Tag("benchmark")
class OrderListPlanBenchmark {

    private static final String STORE = "com.acme.payments.order.OrderListStore";
    private static final Pattern PARAM = Pattern.compile("(?<![:\\w]):(\\w+)");

    @Test
    void orderListPlansAtAMillionOrders() throws Exception {
        int rows = Integer.getInteger("bench.orders", 1_000_000);
        String database = "order_list_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        String own = TestDatabase.url();
        int query = own.indexOf('?');
        String base = query < 0 ? own : own.substring(0, query);
        String url = base.substring(0, base.lastIndexOf('/') + 1) + database + (query < 0 ? "" : own.substring(query));
        List<String> out = new ArrayList<>();
        try {
            Flyway.configure().dataSource(url, TestDatabase.user(), TestDatabase.password())
                    .locations("classpath:db/migration")
                    .configuration(Map.of("flyway.postgresql.transactional.lock", "false")).load().migrate();
            try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
                    Statement s = c.createStatement()) {
                long started = System.nanoTime();
                for (int from = 1; from <= rows; from += 100_000) {
                    s.execute(seed(from, Math.min(rows, from + 99_999), rows));
                }
                s.execute("VACUUM ANALYZE orders");
                out.add(String.format("OrderListPlanBenchmark: %,d orders seeded and VACUUM ANALYZEd in %.1f s; %s",
                        rows, (System.nanoTime() - started) / 1e9, single(s, "SELECT version()")));
                out.add("orders by status: " + single(s, "SELECT string_agg(status || '=' || n, ', ' ORDER BY n DESC) "
                        + "FROM (SELECT status, count(*) n FROM orders GROUP BY status) t"));
                out.add("sizes: orders " + single(s, "SELECT pg_size_pretty(pg_relation_size('orders'))")
                        + ", orders_created " + single(s, "SELECT pg_size_pretty(pg_relation_size('orders_created'))")
                        + ", orders_status_created "
                        + single(s, "SELECT pg_size_pretty(pg_relation_size('orders_status_created'))"));
                String middle = single(s, "SELECT created_at || '|' || id FROM orders WHERE order_ref = 'list-"
                        + rows / 2 + "'");
                String[] cursor = middle.split("\\|");
                for (Map.Entry<String, Map<String, String>> shape : shapes("'" + cursor[0] + "'", cursor[1]).entrySet()) {
                    String sql = Plans.constant(STORE, shape.getValue().get("constant"));
                    String custom = Plans.bind(sql, shape.getValue());
                    out.add("");
                    out.add("-- " + shape.getKey() + " (" + shape.getValue().get("constant") + "): custom plan");
                    out.add(custom.strip());
                    run(s, custom);
                    out.add(explain(s, "EXPLAIN (ANALYZE, BUFFERS) " + custom));
                    out.add("-- " + shape.getKey() + ": generic plan (plan_cache_mode = force_generic_plan)");
                    out.add(generic(s, sql, shape.getValue()));
                }
            }
        } finally {
            try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            }
        }
        out.forEach(System.out::println);
        Path file = Path.of("target/benchmarks/order-list-plans.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, out);
    }

    /** Orders {@code from}..{@code to} of {@code rows}, created over the year to 2026-01-01 in order of i. */
    private static String seed(int from, int to, int rows) {
        return """
                INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, customer_ref,
                                    client_token_hash, created_at, updated_at)
                SELECT 'list-' || i,
                       CASE WHEN i %% 100 < 75 THEN 'PAID' WHEN i %% 100 < 90 THEN 'PAYMENT_FAILED'
                            WHEN i %% 100 < 97 THEN 'AWAITING_PAYMENT' WHEN i %% 100 < 99 THEN 'PROCESSING'
                            ELSE 'AUTHORIZED' END,
                       10.00, 'EUR', CASE WHEN i %% 100 < 75 THEN 10.00 END, CASE WHEN i %% 100 < 75 THEN 'EUR' END,
                       'cust-' || (i %% 997), decode(md5('list-' || i), 'hex'),
                       timestamptz '2026-01-01 00:00:00Z' - make_interval(secs => (%d - i) * 31536000.0 / %d),
                       timestamptz '2026-01-01 00:00:00Z' - make_interval(secs => (%d - i) * 31536000.0 / %d)
                  FROM generate_series(%d, %d) i
                """.formatted(rows, rows, rows, rows, from, to);
    }

    private static Map<String, Map<String, String>> shapes(String afterAt, String afterId) {
        Map<String, Map<String, String>> shapes = new LinkedHashMap<>();
        shapes.put("first page", values("PAGE", null, null, null, null, null));
        shapes.put("a later page (from the middle of the table)", values("PAGE", null, null, null, afterAt, afterId));
        shapes.put("status PAID, first page", values("PAGE_OF_STATUS", "'PAID'", null, null, null, null));
        shapes.put("status AWAITING_PAYMENT, a later page", values("PAGE_OF_STATUS", "'AWAITING_PAYMENT'", null, null,
                afterAt, afterId));
        shapes.put("status AUTHORIZED, a later page", values("PAGE_OF_STATUS", "'AUTHORIZED'", null, null, afterAt,
                afterId));
        shapes.put("date window (March 2025)", values("PAGE", null, "'2025-03-01 00:00:00Z'", "'2025-04-01 00:00:00Z'",
                null, null));
        shapes.put("date window, a later page", values("PAGE", null, "'2025-03-01 00:00:00Z'",
                "'2025-04-01 00:00:00Z'", "'2025-03-15 00:00:00Z'", "500000000"));
        shapes.put("status PAYMENT_FAILED in the date window", values("PAGE_OF_STATUS", "'PAYMENT_FAILED'",
                "'2025-03-01 00:00:00Z'", "'2025-04-01 00:00:00Z'", null, null));
        return shapes;
    }

    private static Map<String, String> values(String constant, String status, String from, String to, String afterAt,
            String afterId) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("constant", constant);
        if (status != null) {
            v.put("status", status);
        }
        v.put("createdFrom", from == null ? "NULL" : from);
        // the store's one upper bound: the cursor when there is one (every cursor here is inside the window)
        v.put("beforeCreatedAt", afterAt != null ? afterAt : to == null ? "NULL" : to);
        v.put("beforeId", afterId != null ? afterId : to == null ? "NULL" : Long.toString(Long.MIN_VALUE));
        v.put("limit", "21");
        return v;
    }

    private static String generic(Statement s, String sql, Map<String, String> values) throws Exception {
        Matcher m = PARAM.matcher(sql);
        StringBuilder prepared = new StringBuilder();
        List<String> arguments = new ArrayList<>();
        while (m.find()) {
            arguments.add(values.get(m.group(1)));
            m.appendReplacement(prepared, "\\$" + arguments.size());
        }
        m.appendTail(prepared);
        s.execute("SET plan_cache_mode = force_generic_plan");
        s.execute("PREPARE page AS " + prepared);
        try {
            String execute = "EXECUTE page(" + String.join(", ", arguments) + ")";
            run(s, execute);
            return explain(s, "EXPLAIN (ANALYZE, BUFFERS) " + execute);
        } finally {
            s.execute("DEALLOCATE page");
            s.execute("RESET plan_cache_mode");
        }
    }

    private static void run(Statement s, String sql) throws Exception {
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                // warm-up: the plan shown is the second run's
            }
        }
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
