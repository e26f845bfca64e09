package com.acme.payments.migration;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.TestDatabase;

/**
 * V325 on a database as V316 left it: DONE refunds from before V313 carry psp_state NULL. Where the inbox
 * holds the PSP's closed COMPLETED receipt for the refund payment and nothing contradicts it, psp_state
 * becomes COMPLETED; every other row is left as it was. A database of its own, migrated by Flyway as the
 * application does (session-level lock, the script configs), in batches that cross id ranges.
 */
class RefundPspStateBackfillIntegrationTests {

    private String database;
    private String url;

    @BeforeEach
    void databaseAtV316() throws SQLException {
        database = "backfill_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        String own = TestDatabase.url();
        int query = own.indexOf('?');
        String base = query < 0 ? own : own.substring(0, query);
        url = base.substring(0, base.lastIndexOf('/') + 1) + database + (query < 0 ? "" : own.substring(query));
        flyway("316").migrate();
    }

    @AfterEach
    void dropDatabase() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    @Test
    @DisplayName("V325 backfills psp_state COMPLETED from closed receipts, in batches, and touches nothing else")
    void refundsFromBeforeV313GetTheirPspStateFromClosedReceipts() throws SQLException {
        execute("""
                INSERT INTO orders (id, order_ref, status, amount, currency, paid_amount, paid_currency,
                                    refunded_amount, customer_ref, client_token_hash)
                VALUES (1, 'ord-1', 'PAID', 100, 'EUR', 100, 'EUR', 60, 'c1', '\\x01');
                INSERT INTO psp_refund_attempt (id, order_id, refund_key, reference_id, amount, currency, state,
                                                psp_payment_id, updated_at)
                VALUES (5,    1, 'k5',    'rfd_5',    10, 'EUR', 'DONE',   'rf-completed',  now() - interval '200 days'),
                       (2500, 1, 'k2500', 'rfd_2500', 10, 'EUR', 'DONE',   'rf-completed-2', now() - interval '100 days'),
                       (6,    1, 'k6',    'rfd_6',    10, 'EUR', 'DONE',   'rf-contradicted', now()),
                       (7,    1, 'k7',    'rfd_7',    10, 'EUR', 'DONE',   'rf-no-receipt', now()),
                       (8,    1, 'k8',    'rfd_8',    10, 'EUR', 'DONE',   'rf-open-receipt', now()),
                       (9,    1, 'k9',    'rfd_9',    10, 'EUR', 'FAILED', 'rf-failed', now()),
                       (10,   1, 'k10',   'rfd_10',   10, 'EUR', 'DONE',   NULL, now());
                INSERT INTO psp_webhook_event (payment_id, state, payment_type, payload, processed_at, processed_reason)
                VALUES ('rf-completed', 'COMPLETED', 'REFUND', '{}', now(), 'applied'),
                       ('rf-completed-2', 'PENDING', 'REFUND', '{}', now(), 'applied'),
                       ('rf-completed-2', 'COMPLETED', 'REFUND', '{}', now(), 'applied'),
                       ('rf-contradicted', 'COMPLETED', 'REFUND', '{}', now(), 'applied'),
                       ('rf-contradicted', 'DECLINED', 'REFUND', '{}', now(), 'ignored'),
                       ('rf-open-receipt', 'COMPLETED', 'REFUND', '{}', NULL, NULL),
                       ('rf-failed', 'COMPLETED', 'REFUND', '{}', now(), 'ignored');
                """);
        Map<Long, String> updatedBefore = query("SELECT id, updated_at::text AS v FROM psp_refund_attempt");

        flyway(null).migrate();

        assertThat(query("SELECT id, coalesce(psp_state, '-') AS v FROM psp_refund_attempt")).isEqualTo(Map.of(
                5L, "COMPLETED", 2500L, "COMPLETED", 6L, "-", 7L, "-", 8L, "-", 9L, "-", 10L, "-"));
        assertThat(query("SELECT id, updated_at::text AS v FROM psp_refund_attempt"))
                .as("updated_at is the straggler watch's clock: kept").isEqualTo(updatedBefore);
    }

    private Flyway flyway(String target) {
        var configuration = Flyway.configure()
                .dataSource(url, TestDatabase.user(), TestDatabase.password())
                .locations("classpath:db/migration")
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false"));
        if (target != null) {
            configuration.target(target);
        }
        return configuration.load();
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private Map<Long, String> query(String sql) throws SQLException {
        Map<Long, String> rows = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(url, TestDatabase.user(), TestDatabase.password());
                Statement s = c.createStatement(); var rs = s.executeQuery(sql)) {
            while (rs.next()) {
                rows.put(rs.getLong("id"), rs.getString("v"));
            }
        }
        return rows;
    }
}
