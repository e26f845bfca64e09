package com.acme.payments.secondcharge;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.OpenRows;
import com.acme.payments.sweep.Rows;

/**
 * Owns {@code duplicate_charge}. A charge is recorded once (unique PSP payment id). Its refunds are refund
 * attempts of the refund feature ({@code psp_refund_attempt.duplicate_charge_id}, at most one live), read
 * here beside the charge; the columns {@code refund_*} are retired (V317) and neither read nor written.
 */
@Repository
@Transactional
public class DuplicateChargeStore {

    private static final String RECORD = """
            INSERT INTO duplicate_charge (order_id, psp_payment_id, amount, currency)
            VALUES (:orderId, :paymentId, :amount, :currency)
            ON CONFLICT (psp_payment_id) DO NOTHING
            """;
    /** Each charge with the refund to show: its live one (at most one), else its latest. */
    private static final String WITH_REFUND = """
            SELECT d.id, d.order_id, o.order_ref, d.psp_payment_id, d.amount, d.currency, d.detected_at,
                   r.reference_id, r.state, r.psp_state, r.requested_by
              FROM duplicate_charge d JOIN orders o ON o.id = d.order_id
              LEFT JOIN LATERAL (SELECT reference_id, state, psp_state, requested_by FROM psp_refund_attempt
                                  WHERE duplicate_charge_id = d.id
                                  ORDER BY state <> 'FAILED' DESC, id DESC LIMIT 1) r ON true
            """;
    private static final String BY_PAYMENT = WITH_REFUND + " WHERE d.psp_payment_id = :paymentId";
    private static final String ALL = WITH_REFUND + " ORDER BY d.id";
    /** Charges nobody asked to refund yet (the auto-refund's work; one that failed waits for an operator). */
    private static final String NEVER_REFUNDED = """
            SELECT d.id, d.order_id, o.order_ref, d.psp_payment_id, d.amount, d.currency, d.detected_at,
                   NULL AS reference_id, NULL AS state, NULL AS psp_state, NULL AS requested_by
              FROM duplicate_charge d JOIN orders o ON o.id = d.order_id
             WHERE NOT EXISTS (SELECT 1 FROM psp_refund_attempt r WHERE r.duplicate_charge_id = d.id)
             ORDER BY d.id LIMIT :limit
            """;

    private static final String ORDER_OF = "SELECT order_id FROM duplicate_charge WHERE psp_payment_id = :paymentId";

    /** Second charges no refund of which is DONE (none asked, open, or FAILED), and the oldest one's age. */
    private static final String UNREFUNDED_STATS = """
            SELECT count(*) AS open, coalesce(extract(epoch FROM now() - min(d.detected_at)), 0) AS oldest
              FROM duplicate_charge d
             WHERE NOT EXISTS (SELECT 1 FROM psp_refund_attempt r WHERE r.duplicate_charge_id = d.id AND r.state = 'DONE')
            """;

    private static final RowMapper<DuplicateCharge> ROW = DuplicateChargeStore::map;

    private final JdbcClient jdbc;

    DuplicateChargeStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inside the apply's transaction: true only for the first record of this payment. */
    @Transactional(propagation = Propagation.MANDATORY)
    public boolean record(long orderId, String paymentId, BigDecimal amount, String currency) {
        return Rows.atMostOne(jdbc.sql(RECORD).param("orderId", orderId).param("paymentId", paymentId)
                .param("amount", amount).param("currency", currency).update(), "duplicate_charge");
    }

    /** The order a second charge was taken for, by the provider's payment id. */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    public Optional<Long> orderOf(String paymentId) {
        return jdbc.sql(ORDER_OF).param("paymentId", paymentId).query(Long.class).optional();
    }

    @Transactional(readOnly = true)
    Optional<DuplicateCharge> find(String paymentId) {
        return jdbc.sql(BY_PAYMENT).param("paymentId", paymentId).query(ROW).optional();
    }

    @Transactional(readOnly = true)
    public List<DuplicateCharge> all() {
        return jdbc.sql(ALL).query(ROW).list();
    }

    @Transactional(readOnly = true)
    OpenRows unrefunded() {
        return jdbc.sql(UNREFUNDED_STATS)
                .query((rs, n) -> new OpenRows(rs.getDouble("open"), rs.getDouble("oldest"))).single();
    }

    /** The auto-refund's batch; one statement is its own snapshot, so no transaction (and COMMIT) of its own. */
    @Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
    List<DuplicateCharge> neverRefunded(int limit) {
        return jdbc.sql(NEVER_REFUNDED).param("limit", limit).query(ROW).list();
    }

    private static DuplicateCharge map(ResultSet rs, int row) throws SQLException {
        return new DuplicateCharge(rs.getLong("id"), rs.getLong("order_id"), rs.getString("order_ref"),
                rs.getString("psp_payment_id"), rs.getBigDecimal("amount"), rs.getString("currency"),
                rs.getTimestamp("detected_at").toInstant(), rs.getString("reference_id"), rs.getString("state"),
                rs.getString("psp_state"), rs.getString("requested_by"));
    }
}
