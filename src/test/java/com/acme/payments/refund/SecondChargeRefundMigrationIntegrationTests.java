package com.acme.payments.refund;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.TestDatabase;

/**
 * V317/V318 on rows written by the previous version: the refunds held in {@code duplicate_charge}'s columns
 * become refund attempts of their charge, the old columns refuse writes (an old instance in a rolling
 * deploy cannot start a second refund of a charge), and the database allows one live refund per charge.
 * Migrated in a schema of its own in this run's database, from V316 to the newest version.
 */
class SecondChargeRefundMigrationIntegrationTests {

    private static final String SCHEMA = "v317_check";

    Flyway flyway(String target) {
        return Flyway.configure().dataSource(TestDatabase.url(), TestDatabase.user(), TestDatabase.password())
                .schemas(SCHEMA).locations("classpath:db/migration").target(target)
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false")).load();
    }

    @AfterEach
    void dropSchema() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }

    @Test
    @DisplayName("existing second-charge refunds move into psp_refund_attempt; the old columns refuse writes; one live refund per charge")
    void existingSecondChargeRefundsMoveIntoTheRefundShape() throws SQLException {
        flyway("316").migrate();
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + SCHEMA);
            s.execute("""
                    INSERT INTO orders (id, order_ref, status, amount, currency, paid_amount, paid_currency,
                                        customer_ref, client_token_hash)
                    VALUES (1, 'mig-1', 'PAID', 10.00, 'EUR', 10.00, 'EUR', 'c-1', '\\x01')""");
            s.execute("""
                    INSERT INTO duplicate_charge (id, order_id, psp_payment_id, amount, currency, refund_reference_id,
                                                  refund_state, refund_psp_payment_id, refund_requested_by,
                                                  refund_updated_at)
                    VALUES (1, 1, 'pay-done', 10.00, 'EUR', 'dcr_done', 'DONE', 'rf-done', 'anna', now()),
                           (2, 1, 'pay-unknown', 10.00, 'EUR', 'dcr_unknown', 'UNKNOWN', NULL, 'admin', now()),
                           (3, 1, 'pay-none', 10.00, 'EUR', NULL, NULL, NULL, NULL, NULL)""");
        }

        flyway("latest").migrate();

        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + SCHEMA);
            List<String> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("""
                    SELECT duplicate_charge_id || ' ' || reference_id || ' ' || state || ' '
                           || coalesce(psp_payment_id, '-') || ' ' || requested_by || ' ' || amount || ' '
                           || (refund_key IS NULL) || ' ' || (psp_state IS NULL)
                      FROM psp_refund_attempt ORDER BY duplicate_charge_id""")) {
                while (rs.next()) {
                    rows.add(rs.getString(1));
                }
            }
            assertThat(rows).containsExactly("1 dcr_done DONE rf-done anna 10.00 true true",
                    "2 dcr_unknown UNKNOWN - admin 10.00 true true");

            assertThatThrownBy(() -> s.execute(
                    "UPDATE duplicate_charge SET refund_state = 'IN_FLIGHT', refund_reference_id = 'dcr_old' WHERE id = 3"))
                    .as("an old instance's claim").hasMessageContaining("retired");
            assertThatThrownBy(() -> s.execute("""
                    INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, amount, currency, state)
                    VALUES (1, 1, 'dcr_second', 10.00, 'EUR', 'IN_FLIGHT')"""))
                    .as("a second live refund of one charge").hasMessageContaining("psp_refund_one_live_per_charge");
            s.execute("""
                    INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, amount, currency, state)
                    VALUES (1, 1, 'dcr_failed', 10.00, 'EUR', 'FAILED')""");
            assertThatThrownBy(() -> s.execute("""
                    INSERT INTO psp_refund_attempt (order_id, reference_id, amount, currency, state)
                    VALUES (1, 'rfd_no_key', 10.00, 'EUR', 'IN_FLIGHT')"""))
                    .as("an order's refund without its key").hasMessageContaining("psp_refund_key_or_charge");
        }
    }
}
