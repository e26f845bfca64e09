package com.acme.payments.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.acme.payments.support.TestDatabase;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The order list reads its pages from an index, never a scan and sort of the orders: each query shape of
 * {@link OrderListStore} (its own SQL constants) is explained on a database of its own, migrated as the
 * application migrates it, holding 20,000 orders over a year in realistic proportions (most PAID, few
 * AUTHORIZED) and ANALYZEd, both as a custom plan (the values inlined) and as the generic plan a prepared
 * statement may settle on. The 10^6-row figures are OrderListPlanBenchmark's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderListPlanIntegrationTests {

    private static final Pattern PARAM = Pattern.compile("(?<![:\\w]):(\\w+)");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_PAGES_READ = 40;

    private String database;
    private String url;

    @BeforeAll
    void seededDatabase() throws SQLException {
        database = "order_list_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        String own = TestDatabase.url();
        int query = own.indexOf('?');
        String base = query < 0 ? own : own.substring(0, query);
        url = base.substring(0, base.lastIndexOf('/') + 1) + database + (query < 0 ? "" : own.substring(query));
        Flyway.configure().dataSource(url, TestDatabase.user(), TestDatabase.password())
                .locations("classpath:db/migration")
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false")).load().migrate();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(seed(20_000));
            s.execute("VACUUM ANALYZE orders");
        }
    }

    @AfterAll
    void dropDatabase() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    /**
     * {@code rows} orders created over a year (about one a second at the end), most PAID, then failed, a few
     * open: the shape of a shop's history. Shared with the benchmark, which seeds 10^6.
     */
    static String seed(int rows) {
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
                  FROM generate_series(1, %d) i
                """.formatted(rows, rows, rows, rows, rows);
    }

    /** The literal values of each shape's parameters: NULL is an absent filter or cursor. */
    static Map<String, Map<String, String>> shapes() {
        Map<String, Map<String, String>> shapes = new LinkedHashMap<>();
        shapes.put("first page", values("PAGE", null, null, null, null, null));
        shapes.put("a later page", values("PAGE", null, null, null, "'2025-07-01 00:00:00Z'", "10000"));
        shapes.put("status PAID", values("PAGE_OF_STATUS", "'PAID'", null, null, null, null));
        shapes.put("status AWAITING_PAYMENT, a later page", values("PAGE_OF_STATUS", "'AWAITING_PAYMENT'", null,
                null, "'2025-07-01 00:00:00Z'", "10000"));
        shapes.put("status AUTHORIZED, a later page", values("PAGE_OF_STATUS", "'AUTHORIZED'", null, null,
                "'2025-07-01 00:00:00Z'", "10000"));
        shapes.put("date window", values("PAGE", null, "'2025-03-01 00:00:00Z'", "'2025-04-01 00:00:00Z'", null, null));
        shapes.put("date window, a later page", values("PAGE", null, "'2025-03-01 00:00:00Z'",
                "'2025-04-01 00:00:00Z'", "'2025-03-15 00:00:00Z'", "5000"));
        shapes.put("status and date window", values("PAGE_OF_STATUS", "'PAYMENT_FAILED'", "'2025-03-01 00:00:00Z'",
                "'2025-04-01 00:00:00Z'", null, null));
        return shapes;
    }

    private static Map<String, String> values(String constant, String status, String from, String to, String afterAt,
            String afterId) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("constant", constant);
        v.put("status", status);
        v.put("createdFrom", from == null ? "NULL" : from);
        // the store's one upper bound: the cursor when there is one (every cursor here is inside the window)
        v.put("beforeCreatedAt", afterAt != null ? afterAt : to == null ? "NULL" : to);
        v.put("beforeId", afterId != null ? afterId : to == null ? "NULL" : Long.toString(Long.MIN_VALUE));
        v.put("limit", "21");
        return v;
    }

    /** The index each shape must be read from (the custom and the generic plan alike). */
    @ParameterizedTest(name = "{0}: {2} plan")
    @CsvSource(delimiter = '|', textBlock = """
            first page                             | orders_created                         | custom
            first page                             | orders_created                         | generic
            a later page                           | orders_created                         | custom
            a later page                           | orders_created                         | generic
            status PAID                            | orders_status_created                  | custom
            status PAID                            | orders_status_created                  | generic
            status AWAITING_PAYMENT, a later page  | orders_status_created                  | custom
            status AWAITING_PAYMENT, a later page  | orders_status_created                  | generic
            status AUTHORIZED, a later page        | orders_status_created                  | custom
            status AUTHORIZED, a later page        | orders_status_created                  | generic
            date window                            | orders_created                         | custom
            date window                            | orders_created                         | generic
            date window, a later page              | orders_created                         | custom
            date window, a later page              | orders_created                         | generic
            status and date window                 | orders_status_created                  | custom
            status and date window                 | orders_status_created                  | generic
            """)
    @DisplayName("each shape of the list is an Index Scan on a list index reading a few pages, no Seq Scan, no Sort")
    void everyShapeReadsItsIndexInOrder(String shape, String index, String mode) throws Exception {
        Map<String, String> values = shapes().get(shape);
        String sql = constant(values.get("constant"));
        JsonNode plan = "custom".equals(mode) ? explainCustom(sql, values) : explainGeneric(sql, values);
        List<String> nodes = new ArrayList<>();
        List<String> indexes = new ArrayList<>();
        walk(plan, nodes, indexes);
        assertThat(nodes).as("%s", plan).contains("Index Scan").doesNotContain("Seq Scan", "Bitmap Heap Scan");
        assertThat(indexes).as("%s", plan).containsOnly(index);
        assertThat(nodes).as("%s", plan).doesNotContain("Sort", "Incremental Sort");
        // a page of 21 is a few index pages and at most 21 heap pages; a scan started at the wrong end of the
        // window, or walking another status's orders, reads past every newer order (61 pages here)
        assertThat(plan.path("Shared Hit Blocks").asInt() + plan.path("Shared Read Blocks").asInt())
                .as("pages read for one page of orders: %s", plan).isLessThanOrEqualTo(MAX_PAGES_READ);
    }

    static String constant(String name) throws Exception {
        Field f = OrderListStore.class.getDeclaredField(name);
        f.setAccessible(true);
        return (String) f.get(null);
    }

    static String bind(String sql, Map<String, String> values) {
        Matcher m = PARAM.matcher(sql);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("no value for :" + m.group(1));
            }
            m.appendReplacement(b, Matcher.quoteReplacement(v));
        }
        return m.appendTail(b).toString();
    }

    private JsonNode explainCustom(String sql, Map<String, String> values) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            return json(s, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + bind(sql, values));
        }
    }

    /** The plan a prepared statement gets once PostgreSQL stops planning it per execution. */
    private JsonNode explainGeneric(String sql, Map<String, String> values) throws SQLException {
        Matcher m = PARAM.matcher(sql);
        StringBuilder prepared = new StringBuilder();
        List<String> arguments = new ArrayList<>();
        while (m.find()) {
            arguments.add(values.get(m.group(1)));
            m.appendReplacement(prepared, "\\$" + arguments.size());
        }
        m.appendTail(prepared);
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("SET plan_cache_mode = force_generic_plan");
            s.execute("PREPARE page AS " + prepared);
            return json(s, "EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE page(" + String.join(", ", arguments) + ")");
        }
    }

    private static JsonNode json(Statement s, String explain) throws SQLException {
        try (ResultSet rs = s.executeQuery(explain)) {
            rs.next();
            return JSON.readTree(rs.getString(1)).get(0).path("Plan");
        }
    }

    private static void walk(JsonNode node, List<String> nodes, List<String> indexes) {
        nodes.add(node.path("Node Type").asString());
        if (node.has("Index Name")) {
            indexes.add(node.path("Index Name").asString());
        }
        for (JsonNode child : node.path("Plans")) {
            walk(child, nodes, indexes);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
    }
}
