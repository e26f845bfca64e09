package com.acme.payments.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Paid subscription invoices (so a refund or dispute on their charge finds the subscription) and the
 * disputes seen. Reversal totals are cumulative and moved by compare-and-swap, as for purchases.
 */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
class InvoiceStore {

    private static final String INSERT = """
            INSERT INTO billing_invoice (invoice_id, subscription_id, payment_intent_id, amount_paid, currency,
                                         credits_basis)
            VALUES (:invoiceId, :subscriptionId, :paymentIntentId, :amountPaid, :currency, :creditsBasis)
            ON CONFLICT (invoice_id) DO NOTHING
            """;
    private static final String COLUMNS = """
            SELECT invoice_id, subscription_id, amount_paid, currency, refunded_total, disputed_total,
                   credits_basis, credits_clawed_back
            FROM billing_invoice
            """;
    private static final String FIND = COLUMNS + " WHERE invoice_id = :invoiceId";
    private static final String FIND_FOR_UPDATE = COLUMNS + " WHERE invoice_id = :invoiceId FOR UPDATE";
    private static final String FIND_BY_PAYMENT_INTENT = COLUMNS
            + " WHERE payment_intent_id = :paymentIntentId ORDER BY created_at LIMIT 1";
    private static final String SWAP_REVERSALS = """
            UPDATE billing_invoice
            SET refunded_total = :refunded, disputed_total = :disputed, credits_clawed_back = :clawed
            WHERE invoice_id = :invoiceId
              AND refunded_total = :oldRefunded AND disputed_total = :oldDisputed
              AND credits_clawed_back = :oldClawed
            """;
    private static final String INSERT_DISPUTE = """
            INSERT INTO billing_dispute (dispute_id, charge_id, amount, currency, reason)
            VALUES (:disputeId, :chargeId, :amount, :currency, :reason)
            ON CONFLICT (dispute_id) DO NOTHING
            """;

    private final JdbcClient jdbc;

    InvoiceStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** True when this call recorded the invoice; false when it was already recorded. */
    boolean record(String invoiceId, String subscriptionId, String paymentIntentId, long amountPaid, String currency,
            long creditsBasis) {
        return jdbc.sql(INSERT).param("invoiceId", invoiceId).param("subscriptionId", subscriptionId)
                .param("paymentIntentId", paymentIntentId).param("amountPaid", amountPaid)
                .param("currency", currency).param("creditsBasis", creditsBasis).update() == 1;
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    Optional<Invoice> find(String invoiceId) {
        return jdbc.sql(FIND).param("invoiceId", invoiceId).query(InvoiceStore::map).optional();
    }

    /** The invoice, its row locked until commit: a reversal reads the totals it will swap under this lock. */
    Optional<Invoice> findForUpdate(String invoiceId) {
        return jdbc.sql(FIND_FOR_UPDATE).param("invoiceId", invoiceId).query(InvoiceStore::map).optional();
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    Optional<Invoice> findByPaymentIntent(String paymentIntentId) {
        return jdbc.sql(FIND_BY_PAYMENT_INTENT).param("paymentIntentId", paymentIntentId)
                .query(InvoiceStore::map).optional();
    }

    boolean swapReversals(Invoice before, long refunded, long disputed, long clawed) {
        int rows = jdbc.sql(SWAP_REVERSALS).param("invoiceId", before.invoiceId()).param("refunded", refunded)
                .param("disputed", disputed).param("clawed", clawed).param("oldRefunded", before.refundedTotal())
                .param("oldDisputed", before.disputedTotal()).param("oldClawed", before.creditsClawedBack())
                .update();
        if (rows > 1) {
            throw new IllegalStateException("invoice " + before.invoiceId() + " swap touched " + rows);
        }
        return rows == 1;
    }

    /** True the first time this dispute is seen. */
    boolean recordDispute(String disputeId, String chargeId, long amount, String currency, String reason) {
        return jdbc.sql(INSERT_DISPUTE).param("disputeId", disputeId).param("chargeId", chargeId)
                .param("amount", amount).param("currency", currency).param("reason", reason).update() == 1;
    }

    private static Invoice map(ResultSet rs, int n) throws SQLException {
        return new Invoice(rs.getString("invoice_id"), rs.getString("subscription_id"), rs.getLong("amount_paid"),
                rs.getString("currency"), rs.getLong("refunded_total"), rs.getLong("disputed_total"),
                rs.getLong("credits_basis"), rs.getLong("credits_clawed_back"));
    }

    record Invoice(String invoiceId, String subscriptionId, long amountPaid, String currency, long refundedTotal,
            long disputedTotal, long creditsBasis, long creditsClawedBack) {
    }
}
