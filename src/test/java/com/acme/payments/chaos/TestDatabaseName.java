package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

import com.acme.payments.support.TestDatabase;

/**
 * The chaos run's database: a fresh one of its own, so the invariants see only the run's rows. On the
 * run's own PostgreSQL server ({@link ChaosPostgres}) when it has one — then the run may stop and start
 * that server — else on the test PostgreSQL server (the server of {@link TestDatabase#url()}), never
 * stopped. Dropped (or the own server removed) by {@link #drop()}. The harness's own connections carry
 * an application name the connection killer spares.
 */
final class TestDatabaseName {

    static final String HARNESS = "chaos-harness";

    private static ChaosPostgres own;
    private static String name;
    private static String url;

    private TestDatabaseName() {
    }

    /** From now on the run's database lives on this server, which the run owns. */
    static synchronized void useOwnServer(ChaosPostgres server) {
        own = server;
        name = null;
        url = null;
    }

    /** The run's own server, if it has one (only then can it be stopped). */
    static synchronized Optional<ChaosPostgres> ownServer() {
        return Optional.ofNullable(own);
    }

    static synchronized String url() {
        if (url == null) {
            name = "payments_chaos_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            if (own != null) {
                own.createDatabase(name);
                url = own.urlFor(name);
            } else {
                url = TestDatabase.developmentUrl(name);
            }
        }
        return url;
    }

    static synchronized String current() {
        url();
        return name;
    }

    static String user() {
        return ownServer().isPresent() ? "postgres" : TestDatabase.user();
    }

    static String password() {
        return ownServer().isPresent() ? "" : TestDatabase.password();
    }

    static Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user());
        properties.setProperty("password", password());
        properties.setProperty("ApplicationName", HARNESS);
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(url(), properties);
    }

    /** Keeps the run's database as a plain-SQL dump, when the run has its own server (else it is shared). */
    static synchronized void dumpTo(java.nio.file.Path file) {
        if (own != null && name != null) {
            own.dump(name, file);
        }
    }

    /** Drops the run's database (from the suite's database: one cannot drop the one connected to). */
    static synchronized void drop() {
        if (own != null) {
            own.close();
            own = null;
        } else if (name != null) {
            try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (SQLException e) {
                System.err.println("could not drop " + name + ": " + e.getMessage());
            }
        }
        name = null;
        url = null;
    }
}
