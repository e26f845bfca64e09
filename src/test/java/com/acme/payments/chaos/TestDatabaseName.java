package com.acme.payments.chaos;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

import com.acme.payments.support.TestDatabase;

/** The harness's own connections, named so the connection killer spares them. */
final class TestDatabaseName {

    static final String HARNESS = "chaos-harness";

    private TestDatabaseName() {
    }

    static String current() {
        String url = TestDatabase.url();
        int query = url.indexOf('?');
        String base = query < 0 ? url : url.substring(0, query);
        return base.substring(base.lastIndexOf('/') + 1);
    }

    static Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", TestDatabase.user());
        properties.setProperty("password", TestDatabase.password());
        properties.setProperty("ApplicationName", HARNESS);
        return DriverManager.getConnection(TestDatabase.url(), properties);
    }
}
