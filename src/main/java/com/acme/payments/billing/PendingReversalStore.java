package com.acme.payments.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.TreeSet;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Owns {@code billing_pending_reversal}: refunds and disputes that arrived before the payment they
 * reverse, kept until the transaction that records that payment applies them (once: the row is
 * locked and marked applied in that transaction). Also the payment-key locks that make "reversal kept"
 * and "payment recorded" serialise under READ COMMITTED, where neither sees the other's uncommitted row.
 */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
class PendingReversalStore {

    /** Transaction-scoped, released at commit or rollback; the key space is this feature's alone. */
    private static final String LOCK_KEY = """
            SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))) AS locked
            """;
    private static final String INSERT = """
            INSERT INTO billing_pending_reversal (event_id, kind, payment_intent_id, invoice_id, charge_id, amount,
                                                  dispute_id)
            VALUES (:eventId, :kind, :paymentIntentId, :invoiceId, :chargeId, :amount, :disputeId)
            ON CONFLICT (event_id) DO NOTHING
            """;
    /** Oldest first, locked: a concurrent payment transaction for the same keys waits, then sees them applied. */
    private static final String PENDING_FOR = """
            SELECT event_id, kind, payment_intent_id, invoice_id, charge_id, amount, dispute_id
            FROM billing_pending_reversal
            WHERE applied_at IS NULL
              AND ((CAST(:paymentIntentId AS text) IS NOT NULL AND payment_intent_id = :paymentIntentId)
                   OR (CAST(:invoiceId AS text) IS NOT NULL AND invoice_id = :invoiceId))
            ORDER BY received_at, event_id
            FOR UPDATE
            """;
    private static final String MARK_APPLIED = """
            UPDATE billing_pending_reversal SET applied_at = now(), applied_to = :appliedTo
            WHERE event_id = :eventId AND applied_at IS NULL
            """;

    private final JdbcClient jdbc;

    PendingReversalStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Locks a payment's keys (payment intent, invoice id) for this transaction, in sorted order so two
     * transactions taking overlapping keys never deadlock. Taken first by every reversal and by every
     * transaction that records a purchase or an invoice.
     */
    void lockPaymentKeys(String... keys) {
        TreeSet<String> sorted = new TreeSet<>();
        for (String key : keys) {
            if (key != null) {
                sorted.add(key);
            }
        }
        for (String key : sorted) {
            jdbc.sql(LOCK_KEY).param("key", "billing-payment:" + key).query(Integer.class).single();
        }
    }

    /** True when this call kept the reversal; false when this event's reversal was already kept. */
    boolean keep(Pending p) {
        return jdbc.sql(INSERT).param("eventId", p.eventId()).param("kind", p.kind())
                .param("paymentIntentId", p.paymentIntentId()).param("invoiceId", p.invoiceId())
                .param("chargeId", p.chargeId()).param("amount", p.amount()).param("disputeId", p.disputeId())
                .update() == 1;
    }

    List<Pending> lockPending(String paymentIntentId, String invoiceId) {
        if (paymentIntentId == null && invoiceId == null) {
            return List.of();
        }
        return jdbc.sql(PENDING_FOR).param("paymentIntentId", paymentIntentId).param("invoiceId", invoiceId)
                .query(PendingReversalStore::map).list();
    }

    void markApplied(String eventId, String appliedTo) {
        int rows = jdbc.sql(MARK_APPLIED).param("eventId", eventId).param("appliedTo", appliedTo).update();
        if (rows != 1) { // the row is locked by this transaction: anything but one row is a broken invariant
            throw new IllegalStateException("pending reversal " + eventId + " marked applied " + rows + " times");
        }
    }

    private static Pending map(ResultSet rs, int n) throws SQLException {
        return new Pending(rs.getString("event_id"), rs.getString("kind"), rs.getString("payment_intent_id"),
                rs.getString("invoice_id"), rs.getString("charge_id"), rs.getLong("amount"),
                rs.getString("dispute_id"));
    }

    /** A reversal kept for later: {@code amount} is the cumulative refunded total, or the disputed amount. */
    record Pending(String eventId, String kind, String paymentIntentId, String invoiceId, String chargeId,
            long amount, String disputeId) {

        static final String REFUND = "refund";
        static final String DISPUTE = "dispute";
    }
}
