package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.UUID;

import com.acme.payments.support.TestDatabase;

/**
 * The chaos run's database: a fresh one of its own on the test PostgreSQL server (the server of
 * {@link TestDatabase#url()}), so the invariants see only the run's rows and the run's jobs never touch
 * the rows of other test classes sharing the suite's database. Dropped by {@link #drop()}.
 * The harness's own connections carry an application name the connection killer spares.
 */
final class TestDatabaseName {

    static final String HARNESS = "chaos-harness";

    private static String name;
    private static String url;

    private TestDatabaseName() {
    }

    static synchronized String url() {
        if (url == null) {
            name = "payments_chaos_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            url = TestDatabase.developmentUrl(name);
        }
        return url;
    }

    static synchronized String current() {
        url();
        return name;
    }

    static Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", TestDatabase.user());
        properties.setProperty("password", TestDatabase.password());
        properties.setProperty("ApplicationName", HARNESS);
        return DriverManager.getConnection(url(), properties);
    }

    /** Drops the run's database (from the suite's database: one cannot drop the one connected to). */
    static synchronized void drop() {
        if (name == null) {
            return;
        }
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            System.err.println("could not drop " + name + ": " + e.getMessage());
        }
        name = null;
        url = null;
    }
}
