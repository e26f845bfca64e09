package com.acme.payments.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * One-off purchases, keyed by PaymentIntent. Refund and dispute totals are cumulative and moved by
 * compare-and-swap on the value the caller read, so a stale or duplicated event cannot add twice.
 */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
class PurchaseStore {

    private static final String INSERT = """
            INSERT INTO billing_purchase (payment_intent_id, user_id, product_id, session_id, amount, currency,
                                          credits_granted)
            VALUES (:paymentIntentId, :userId, :productId, :sessionId, :amount, :currency, :credits)
            ON CONFLICT (payment_intent_id) DO NOTHING
            """;
    private static final String FIND = """
            SELECT payment_intent_id, user_id, product_id, amount, currency, refunded_total, disputed_total,
                   credits_granted, credits_clawed_back
            FROM billing_purchase WHERE payment_intent_id = :paymentIntentId
            """;
    private static final String FIND_FOR_UPDATE = FIND + " FOR UPDATE";
    private static final String SWAP_REVERSALS = """
            UPDATE billing_purchase
            SET refunded_total = :refunded, disputed_total = :disputed, credits_clawed_back = :clawed,
                updated_at = now()
            WHERE payment_intent_id = :paymentIntentId
              AND refunded_total = :oldRefunded AND disputed_total = :oldDisputed
              AND credits_clawed_back = :oldClawed
            """;

    private final JdbcClient jdbc;

    PurchaseStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** True when this call created the purchase; false when the PaymentIntent was already recorded. */
    boolean record(String paymentIntentId, String userId, String productId, String sessionId, long amount,
            String currency, long credits) {
        return jdbc.sql(INSERT).param("paymentIntentId", paymentIntentId).param("userId", userId)
                .param("productId", productId).param("sessionId", sessionId).param("amount", amount)
                .param("currency", currency).param("credits", credits).update() == 1;
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    Optional<Purchase> find(String paymentIntentId) {
        return jdbc.sql(FIND).param("paymentIntentId", paymentIntentId).query(PurchaseStore::map).optional();
    }

    /** The purchase, its row locked until commit: a reversal reads the totals it will swap under this lock. */
    Optional<Purchase> findForUpdate(String paymentIntentId) {
        return jdbc.sql(FIND_FOR_UPDATE).param("paymentIntentId", paymentIntentId).query(PurchaseStore::map)
                .optional();
    }

    /** Compare-and-swap from {@code before} to the new totals; false when the row moved meanwhile. */
    boolean swapReversals(Purchase before, long refunded, long disputed, long clawed) {
        int rows = jdbc.sql(SWAP_REVERSALS).param("paymentIntentId", before.paymentIntentId())
                .param("refunded", refunded).param("disputed", disputed).param("clawed", clawed)
                .param("oldRefunded", before.refundedTotal()).param("oldDisputed", before.disputedTotal())
                .param("oldClawed", before.creditsClawedBack()).update();
        if (rows > 1) {
            throw new IllegalStateException("purchase " + before.paymentIntentId() + " swap touched " + rows);
        }
        return rows == 1;
    }

    private static Purchase map(ResultSet rs, int n) throws SQLException {
        return new Purchase(rs.getString("payment_intent_id"), rs.getString("user_id"), rs.getString("product_id"),
                rs.getLong("amount"), rs.getString("currency"), rs.getLong("refunded_total"),
                rs.getLong("disputed_total"), rs.getLong("credits_granted"), rs.getLong("credits_clawed_back"));
    }

    record Purchase(String paymentIntentId, String userId, String productId, long amount, String currency,
            long refundedTotal, long disputedTotal, long creditsGranted, long creditsClawedBack) {
    }
}
