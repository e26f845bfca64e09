package com.acme.payments.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Instances;
import com.acme.payments.support.Shop;
import com.acme.payments.support.TestDatabase;

/**
 * As a rolling deploy onto an empty database meets it: three instances start at the same
 * moment, Flyway migrates once (its lock makes the other two wait and find the schema up to date), and
 * every instance then serves requests while connecting as a role that owns nothing — the migrations run as
 * their own user ({@code spring.flyway.user} / {@code password}), the pool as a member of an application
 * group role with data privileges only. Two login roles of that group (blue, green) serve side by side, as
 * they do while the database password rolls (docs/runbook.md, "Rotating a secret").
 */
@ExtendWith(OutputCaptureExtension.class)
class ConcurrentStartIntegrationTests {

    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");

    private String database;
    private String url;
    private String group;
    private String blue;
    private String green;

    @BeforeEach
    void emptyDatabaseAndApplicationRoles() throws SQLException {
        String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        database = "concurrent_start_" + suffix;
        group = "payments_app_" + suffix;
        blue = group + "_blue";
        green = group + "_green";
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
            s.execute("CREATE ROLE " + group + " NOLOGIN");
            s.execute("CREATE ROLE " + blue + " LOGIN PASSWORD 'pw-blue' IN ROLE " + group);
            s.execute("CREATE ROLE " + green + " LOGIN PASSWORD 'pw-green' IN ROLE " + group);
        }
        String own = TestDatabase.url();
        int query = own.indexOf('?');
        String base = query < 0 ? own : own.substring(0, query);
        // without user/password parameters (the embedded server's URL names its superuser): they would win
        // over the pool's and Flyway's own logins
        String params = query < 0 ? "" : java.util.Arrays.stream(own.substring(query + 1).split("&"))
                .filter(p -> !p.startsWith("user=") && !p.startsWith("password=")).collect(Collectors.joining("&"));
        url = base.substring(0, base.lastIndexOf('/') + 1) + database + (params.isEmpty() ? "" : "?" + params);
        // what docs/migrations.md asks a DBA to run once, as the migration user, before the first deploy
        try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
                Statement s = c.createStatement()) {
            s.execute("GRANT CONNECT ON DATABASE " + database + " TO " + group);
            s.execute("GRANT USAGE ON SCHEMA public TO " + group);
            s.execute("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO " + group);
            s.execute("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO " + group);
        }
    }

    @AfterEach
    void dropDatabaseAndRoles() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            for (String role : List.of(blue, green, group)) {
                s.execute("DROP ROLE IF EXISTS " + role);
            }
        }
    }

    @Test
    @DisplayName("three instances starting at once on an empty database migrate it once, then serve as a non-owner role")
    void threeInstancesStartingAtOnceMigrateOnceAndServeAsANonOwner(CapturedOutput output) throws Exception {
        List<String[]> logins = List.of(new String[] { blue, "pw-blue" }, new String[] { green, "pw-green" },
                new String[] { blue, "pw-blue" });
        CyclicBarrier together = new CyclicBarrier(logins.size());
        // short thread names of our own: the log pattern cuts a thread's name to 15 characters
        java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
        ExecutorService starter = Executors.newFixedThreadPool(logins.size(),
                r -> new Thread(r, "start-" + started.incrementAndGet()));
        List<Future<ConfigurableApplicationContext>> starts = new ArrayList<>();
        for (String[] login : logins) {
            starts.add(starter.submit(() -> {
                together.await();
                return Instances.start(Map.of("spring.datasource.url", url, "spring.datasource.username", login[0],
                        "spring.datasource.password", login[1], "spring.flyway.user", TestDatabase.user(),
                        "spring.flyway.password", TestDatabase.password()));
            }));
        }
        List<ConfigurableApplicationContext> instances = new ArrayList<>();
        try {
            for (Future<ConfigurableApplicationContext> start : starts) {
                instances.add(start.get(5, TimeUnit.MINUTES));
            }

            try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
                    Statement s = c.createStatement()) {
                var duplicates = s.executeQuery(
                        "SELECT version FROM flyway_schema_history WHERE version IS NOT NULL GROUP BY version HAVING count(*) > 1");
                assertThat(duplicates.next()).as("a version applied twice").isFalse();
                var applied = s.executeQuery(
                        "SELECT count(*) FILTER (WHERE success), count(*) FROM flyway_schema_history WHERE version IS NOT NULL");
                applied.next();
                assertThat(applied.getLong(1)).as("every migration applied, each once").isEqualTo(migrationFiles());
                assertThat(applied.getLong(2)).as("no failed attempt recorded").isEqualTo(applied.getLong(1));
                var owners = s.executeQuery("SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'");
                owners.next();
                assertThat(owners.getString(1)).as("the migration user owns the tables").isEqualTo(TestDatabase.user());
                assertThat(owners.next()).as("and no one else").isFalse();
            }
            // by starting thread: three contexts configuring logging at once may print a line more than once
            assertThat(threadsLogging(output.getAll(), "Successfully applied \\d+ migrations?"))
                    .as("migrated by one instance").hasSize(1);
            assertThat(threadsLogging(output.getAll(), "is up to date\\. No migration necessary"))
                    .as("the other two waited, then found nothing to do").hasSize(2);

            String orderRef = Shop.newOrderRef();
            Http.Response created = http(instances.get(0)).bearer(Shop.SHOP_KEY).post("/api/orders", """
                    {"orderRef":"%s","amount":"10.00","currency":"EUR","customer":{"referenceId":"c","email":"a@b.test"}}"""
                    .formatted(orderRef));
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            for (int i = 0; i < instances.size(); i++) {
                JdbcClient jdbc = instances.get(i).getBean(JdbcClient.class);
                assertThat(jdbc.sql("SELECT current_user").query(String.class).single()).isEqualTo(logins.get(i)[0]);
                assertThat(http(instances.get(i)).bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef).status())
                        .isEqualTo(200);
                assertThatThrownBy(() -> jdbc.sql("DROP TABLE orders").update())
                        .as("the application role owns nothing").rootCause()
                        .hasMessageContaining("must be owner of table orders");
            }
        } finally {
            instances.forEach(ConfigurableApplicationContext::close);
            starter.shutdownNow();
        }
    }

    private static Http http(ConfigurableApplicationContext instance) {
        return new Http("http://localhost:" + instance.getEnvironment().getProperty("local.server.port"));
    }

    private static long migrationFiles() throws IOException {
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            return files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
        }
    }

    /** The starting threads ({@code [start-K]}) that logged a line matching {@code regex}. */
    private static java.util.Set<String> threadsLogging(String log, String regex) {
        Matcher m = Pattern.compile("\\[\\s*(start-\\d+)\\][^\\n]*" + regex).matcher(log);
        java.util.Set<String> threads = new java.util.TreeSet<>();
        while (m.find()) {
            threads.add(m.group(1));
        }
        return threads;
    }
}
