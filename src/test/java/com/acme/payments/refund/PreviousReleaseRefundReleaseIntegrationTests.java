package com.acme.payments.refund;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.support.TestDatabase;

/**
 * A rolling deploy: the release before second-charge refunds became refund attempts (V317) runs beside this
 * one on this schema. Its statements, copied exactly from that release's {@code RefundStore} and
 * {@code OrderStore}, fail a refund and give its amount back on the order; for a second charge's refund,
 * which reserved the charge and never the order, that release would lower the order's refunded_amount and
 * free room for refunds above what it paid. V341 refuses it (the transaction rolls back, the late report is
 * retried until a current instance applies it); an order refund's release by the same statements still
 * works. Not the old jar itself: the old code's exact SQL on a schema migrated to the newest version.
 */
class PreviousReleaseRefundReleaseIntegrationTests {

    private static final String SCHEMA = "prev_release_check";

    /** The previous release's RefundStore.FAIL_DONE: a DONE refund the PSP now declines. */
    private static final String OLD_FAIL_DONE = """
            UPDATE psp_refund_attempt
               SET state = 'FAILED', psp_payment_id = coalesce(psp_payment_id, ?), psp_state = ?,
                   error_code = ?, error_message = ?, updated_at = now()
             WHERE id = ? AND state = 'DONE'
            RETURNING *
            """;
    /** The previous release's RefundStore.SETTLE (the sweep's or a retry's DECLINED for an UNKNOWN refund). */
    private static final String OLD_SETTLE = """
            UPDATE psp_refund_attempt
               SET state = ?, psp_payment_id = coalesce(psp_payment_id, ?), psp_state = ?,
                   error_code = ?, error_message = ?, updated_at = now()
             WHERE id = ? AND state IN ('IN_FLIGHT', 'UNKNOWN')
            RETURNING *
            """;
    /** The previous release's OrderStore.RELEASE_REFUND, run after either of the above moved a row. */
    private static final String OLD_RELEASE_REFUND = """
            UPDATE orders SET refunded_amount = refunded_amount - ?, updated_at = now()
             WHERE id = ? AND refunded_amount >= ?
            """;

    @BeforeAll
    static void migrate() {
        Flyway.configure().dataSource(TestDatabase.url(), TestDatabase.user(), TestDatabase.password())
                .schemas(SCHEMA).locations("classpath:db/migration")
                .configuration(Map.of("flyway.postgresql.transactional.lock", "false")).load().migrate();
    }

    @AfterAll
    static void dropSchema() throws SQLException {
        try (Connection c = TestDatabase.connect(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
        }
    }

    /** An order paid 100.00 with its own DONE refund of 50.00, and a second charge of 30.00 refunded (live). */
    private record Books(long orderId, long orderRefund, long chargeRefund) {
    }

    private static Books books(Connection c, String name, String chargeRefundState) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET search_path TO " + SCHEMA);
            long orderId = id(s, """
                    INSERT INTO orders (order_ref, status, amount, currency, paid_amount, paid_currency, refunded_amount,
                                        customer_ref, client_token_hash)
                    VALUES ('%s', 'PAID', 100.00, 'EUR', 100.00, 'EUR', 50.00, 'c-1', sha256(convert_to('%s', 'UTF8')))
                    RETURNING id"""
                    .formatted(name, name));
            long orderRefund = id(s, """
                    INSERT INTO psp_refund_attempt (order_id, refund_key, reference_id, amount, currency, state,
                                                    psp_payment_id, psp_state)
                    VALUES (%d, 'key-1', '%s-own', 50.00, 'EUR', 'DONE', '%s-rf-own', 'PENDING') RETURNING id"""
                    .formatted(orderId, name, name));
            long chargeId = id(s, """
                    INSERT INTO duplicate_charge (order_id, psp_payment_id, amount, currency)
                    VALUES (%d, '%s-second', 30.00, 'EUR') RETURNING id""".formatted(orderId, name));
            long chargeRefund = id(s, """
                    INSERT INTO psp_refund_attempt (order_id, duplicate_charge_id, reference_id, amount, currency, state,
                                                    psp_payment_id, psp_state)
                    VALUES (%d, %d, '%s-dcr', 30.00, 'EUR', '%s', '%s-rf-dcr', 'PENDING') RETURNING id"""
                    .formatted(orderId, chargeId, name, chargeRefundState, name));
            return new Books(orderId, orderRefund, chargeRefund);
        }
    }

    private static long id(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The previous release's late-DECLINED path in one transaction: FAIL_DONE, then the release it returned. */
    private static void oldLateDecline(Connection c, long refundId) throws SQLException {
        BigDecimal amount;
        long orderId;
        try (PreparedStatement fail = c.prepareStatement(OLD_FAIL_DONE)) {
            fail.setString(1, "rf");
            fail.setString(2, "DECLINED");
            fail.setString(3, "insufficient_funds");
            fail.setString(4, "declined late");
            fail.setLong(5, refundId);
            try (ResultSet rs = fail.executeQuery()) {
                assertThat(rs.next()).as("the old FAIL_DONE matches the row").isTrue();
                amount = rs.getBigDecimal("amount");
                orderId = rs.getLong("order_id");
            }
        }
        oldRelease(c, orderId, amount);
    }

    private static void oldRelease(Connection c, long orderId, BigDecimal amount) throws SQLException {
        try (PreparedStatement release = c.prepareStatement(OLD_RELEASE_REFUND)) {
            release.setBigDecimal(1, amount);
            release.setLong(2, orderId);
            release.setBigDecimal(3, amount);
            assertThat(release.executeUpdate()).isEqualTo(1);
        }
    }

    private static String state(Connection c, Books books) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
                SELECT o.refunded_amount || ' ' || own.state || ' ' || dcr.state
                  FROM orders o JOIN psp_refund_attempt own ON own.id = %d JOIN psp_refund_attempt dcr ON dcr.id = %d
                 WHERE o.id = %d""".formatted(books.orderRefund(), books.chargeRefund(), books.orderId()))) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    @DisplayName("the previous release's late DECLINED for a second charge's DONE refund cannot release it on the order")
    void oldLateDeclineOfASecondChargeRefundIsRefused() throws SQLException {
        try (Connection c = TestDatabase.connect()) {
            Books books = books(c, "prev-late", "DONE");
            c.setAutoCommit(false);

            assertThatThrownBy(() -> oldLateDecline(c, books.chargeRefund())).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23514"));
            c.rollback();

            assertThat(state(c, books)).as("refunded_amount, own refund, second charge's refund")
                    .isEqualTo("50.00 DONE DONE");
        }
    }

    @Test
    @DisplayName("the previous release's sweep settling a second charge's UNKNOWN refund FAILED cannot release it on the order")
    void oldSettleOfASecondChargeRefundIsRefused() throws SQLException {
        try (Connection c = TestDatabase.connect()) {
            Books books = books(c, "prev-sweep", "UNKNOWN");
            c.setAutoCommit(false);

            assertThatThrownBy(() -> {
                try (PreparedStatement settle = c.prepareStatement(OLD_SETTLE)) {
                    settle.setString(1, "FAILED");
                    settle.setString(2, "rf");
                    settle.setString(3, "DECLINED");
                    settle.setString(4, "declined");
                    settle.setString(5, "declined");
                    settle.setLong(6, books.chargeRefund());
                    try (ResultSet rs = settle.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                    }
                }
                oldRelease(c, books.orderId(), new BigDecimal("30.00"));
            }).isInstanceOf(SQLException.class);
            c.rollback();

            assertThat(state(c, books)).isEqualTo("50.00 DONE UNKNOWN");
        }
    }

    @Test
    @DisplayName("the previous release's late DECLINED for an order's own refund still releases it, also under a savepoint")
    void oldLateDeclineOfAnOrderRefundStillReleases() throws SQLException {
        try (Connection c = TestDatabase.connect()) {
            Books books = books(c, "prev-own", "DONE");
            c.setAutoCommit(false);

            // a refund move rolled back with its savepoint backs no release
            var undone = c.setSavepoint();
            try (PreparedStatement fail = c.prepareStatement(OLD_FAIL_DONE)) {
                fail.setString(1, "rf");
                fail.setString(2, "DECLINED");
                fail.setString(3, "insufficient_funds");
                fail.setString(4, "declined late");
                fail.setLong(5, books.orderRefund());
                fail.executeQuery().close();
            }
            c.rollback(undone);
            assertThatThrownBy(() -> oldRelease(c, books.orderId(), new BigDecimal("50.00")))
                    .isInstanceOf(SQLException.class);
            c.rollback();

            var savepoint = c.setSavepoint(); // the webhook's apply runs under one
            oldLateDecline(c, books.orderRefund());
            c.releaseSavepoint(savepoint);
            c.commit();

            assertThat(state(c, books)).isEqualTo("0.00 FAILED DONE");
        }
    }
}
