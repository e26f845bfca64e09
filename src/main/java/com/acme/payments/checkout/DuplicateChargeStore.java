package com.acme.payments.checkout;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.jobs.Sweepable;

/**
 * Owns {@code duplicate_charge}. A charge is recorded once (unique PSP payment id). Its refund follows
 * the refunds' protocol on the same row: the claim sets a reference and IN_FLIGHT in one conditional
 * UPDATE (one owner, whichever instance), commits, then the owner POSTs; settlement is
 * state-conditional; a new reference is possible only once the PSP confirmed the last one failed.
 */
@Repository
@Transactional
class DuplicateChargeStore implements Sweepable<String> {

    private static final String RECORD = """
            INSERT INTO duplicate_charge (order_id, psp_payment_id, amount, currency)
            VALUES (:orderId, :paymentId, :amount, :currency)
            ON CONFLICT (psp_payment_id) DO NOTHING
            """;
    private static final String BY_PAYMENT = """
            SELECT d.*, o.order_ref FROM duplicate_charge d JOIN orders o ON o.id = d.order_id
             WHERE d.psp_payment_id = :paymentId
            """;
    private static final String BY_REFUND = """
            SELECT d.*, o.order_ref FROM duplicate_charge d JOIN orders o ON o.id = d.order_id
             WHERE d.refund_psp_payment_id = :paymentId OR d.refund_reference_id = :referenceId
             ORDER BY d.id LIMIT 1
            """;
    private static final String ALL = """
            SELECT d.*, o.order_ref FROM duplicate_charge d JOIN orders o ON o.id = d.order_id ORDER BY d.id
            """;
    /** The refund claim: one conditional UPDATE, so two instances can never both own a refund of one charge. */
    private static final String CLAIM_REFUND = """
            UPDATE duplicate_charge
               SET refund_reference_id = :referenceId, refund_state = 'IN_FLIGHT', refund_psp_payment_id = NULL,
                   refund_error_code = NULL, refund_requested_by = :actor, refund_updated_at = now(),
                   lease_version = lease_version + 1
             WHERE psp_payment_id = :paymentId AND (refund_state IS NULL OR refund_state = 'FAILED')
            """;
    private static final String MARK_UNKNOWN = """
            UPDATE duplicate_charge SET refund_state = 'UNKNOWN', refund_updated_at = now()
             WHERE refund_reference_id = :referenceId AND refund_state = 'IN_FLIGHT'
            """;
    private static final String SETTLE = """
            UPDATE duplicate_charge
               SET refund_state = :state, refund_psp_payment_id = coalesce(refund_psp_payment_id, :refundPaymentId),
                   refund_error_code = :errorCode, refund_updated_at = now()
             WHERE refund_reference_id = :referenceId AND refund_state IN ('IN_FLIGHT', 'UNKNOWN')
            """;
    /** The PSP reversed a refund it had accepted: the charge is unrefunded again, so it may be refunded anew. */
    private static final String FAIL_DONE = """
            UPDATE duplicate_charge SET refund_state = 'FAILED', refund_error_code = :errorCode, refund_updated_at = now()
             WHERE refund_reference_id = :referenceId AND refund_state = 'DONE'
            """;
    private static final String AGE_IN_FLIGHT = """
            UPDATE duplicate_charge SET refund_state = 'UNKNOWN', refund_updated_at = now()
             WHERE id IN (SELECT id FROM duplicate_charge
                           WHERE refund_state = 'IN_FLIGHT' AND refund_updated_at < now() - :ageSeconds * interval '1 second'
                           ORDER BY refund_updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            """;
    private static final String CLAIM_UNKNOWN = """
            UPDATE duplicate_charge SET lease_version = lease_version + 1, refund_updated_at = now()
             WHERE id IN (SELECT id FROM duplicate_charge
                           WHERE refund_state = 'UNKNOWN' AND refund_updated_at < now() - :leaseSeconds * interval '1 second'
                           ORDER BY refund_updated_at LIMIT :limit FOR UPDATE SKIP LOCKED)
            RETURNING psp_payment_id
            """;
    private static final String NOT_REFUNDED = """
            SELECT psp_payment_id FROM duplicate_charge WHERE refund_state IS NULL ORDER BY id LIMIT :limit
            """;
    private static final String HOLD_LEASE = """
            SELECT id FROM duplicate_charge WHERE psp_payment_id = :paymentId AND lease_version = :version FOR UPDATE
            """;

    private static final RowMapper<DuplicateCharge> ROW = DuplicateChargeStore::map;

    private final JdbcClient jdbc;

    DuplicateChargeStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Inside the apply's transaction: true only for the first record of this payment. */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean record(long orderId, String paymentId, BigDecimal amount, String currency) {
        return single(jdbc.sql(RECORD).param("orderId", orderId).param("paymentId", paymentId)
                .param("amount", amount).param("currency", currency).update());
    }

    @Transactional(readOnly = true)
    Optional<DuplicateCharge> find(String paymentId) {
        return jdbc.sql(BY_PAYMENT).param("paymentId", paymentId).query(ROW).optional();
    }

    @Transactional(readOnly = true)
    Optional<DuplicateCharge> findByRefund(String refundPaymentId, String referenceId) {
        return jdbc.sql(BY_REFUND).param("paymentId", refundPaymentId).param("referenceId", referenceId)
                .query(ROW).optional();
    }

    @Transactional(readOnly = true)
    List<DuplicateCharge> all() {
        return jdbc.sql(ALL).query(ROW).list();
    }

    /** True when this caller now owns a new refund with this reference (and must POST it). */
    boolean claimRefund(String paymentId, String referenceId, String actor) {
        return single(jdbc.sql(CLAIM_REFUND).param("paymentId", paymentId).param("referenceId", referenceId)
                .param("actor", actor).update());
    }

    boolean markUnknown(String referenceId) {
        return single(jdbc.sql(MARK_UNKNOWN).param("referenceId", referenceId).update());
    }

    /** DONE or FAILED for an open refund; false when it was settled already. */
    boolean settle(String referenceId, boolean done, String refundPaymentId, String errorCode) {
        return single(jdbc.sql(SETTLE).param("referenceId", referenceId).param("state", done ? "DONE" : "FAILED")
                .param("refundPaymentId", refundPaymentId).param("errorCode", errorCode).update());
    }

    boolean failDone(String referenceId, String errorCode) {
        return single(jdbc.sql(FAIL_DONE).param("referenceId", referenceId).param("errorCode", errorCode).update());
    }

    @Override
    public int ageInFlight(Duration age, int limit) {
        return jdbc.sql(AGE_IN_FLIGHT).param("ageSeconds", age.toSeconds()).param("limit", limit).update();
    }

    @Override
    public List<String> claimUnknown(Duration lease, int limit) {
        return jdbc.sql(CLAIM_UNKNOWN).param("leaseSeconds", lease.toSeconds()).param("limit", limit)
                .query(String.class).list();
    }

    @Transactional(readOnly = true)
    List<String> notRefunded(int limit) {
        return jdbc.sql(NOT_REFUNDED).param("limit", limit).query(String.class).list();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    boolean holdLease(String paymentId, long version) {
        return jdbc.sql(HOLD_LEASE).param("paymentId", paymentId).param("version", version).query(Long.class)
                .optional().isPresent();
    }

    private static boolean single(int rows) {
        if (rows > 1) {
            throw new IllegalStateException("expected at most one duplicate_charge row, updated " + rows);
        }
        return rows == 1;
    }

    private static DuplicateCharge map(ResultSet rs, int row) throws SQLException {
        return new DuplicateCharge(rs.getLong("id"), rs.getLong("order_id"), rs.getString("order_ref"),
                rs.getString("psp_payment_id"), rs.getBigDecimal("amount"), rs.getString("currency"),
                rs.getTimestamp("detected_at").toInstant(), rs.getString("refund_reference_id"),
                rs.getString("refund_state"), rs.getString("refund_psp_payment_id"), rs.getString("refund_error_code"),
                rs.getString("refund_requested_by"), rs.getLong("lease_version"));
    }
}
