package com.acme.payments.billing;

import java.time.Instant;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The grant ledger: one row per granted period, unique on (subscription, period start), written inside
 * the granting transaction. The last line of defence against a double grant, and the only one the
 * reconciliation path (which has no event id) has.
 */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
class GrantStore {

    private static final String INSERT_PERIOD = """
            INSERT INTO billing_grant (subscription_id, period_start, period_end, source, event_id, invoice_id, credits)
            VALUES (:subscriptionId, :start, :end, :source, :eventId, :invoiceId, :credits)
            ON CONFLICT (subscription_id, period_start) DO NOTHING
            """;
    private static final String INSERT_CHECKOUT = """
            INSERT INTO billing_grant (subscription_id, source, event_id, credits)
            VALUES (:subscriptionId, 'checkout', :eventId, :credits)
            ON CONFLICT (subscription_id) WHERE period_start IS NULL DO NOTHING
            """;
    private static final String PERIOD_GRANTED = """
            SELECT count(*) FROM billing_grant WHERE subscription_id = :subscriptionId AND period_start = :start
            """;
    private static final String CHECKOUT_GRANTED = """
            SELECT count(*) FROM billing_grant WHERE subscription_id = :subscriptionId AND period_start IS NULL
            """;
    private static final String LIST = """
            SELECT period_start, period_end, source, event_id, granted_at
            FROM billing_grant WHERE subscription_id = :subscriptionId
            ORDER BY period_start NULLS FIRST, id
            """;

    private final JdbcClient jdbc;

    GrantStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** True when this call recorded the period; false when the ledger already held it. */
    boolean recordPeriod(String subscriptionId, long start, long end, String source, String eventId,
            String invoiceId, long credits) {
        return jdbc.sql(INSERT_PERIOD).param("subscriptionId", subscriptionId).param("start", start)
                .param("end", end).param("source", source).param("eventId", eventId).param("invoiceId", invoiceId)
                .param("credits", credits).update() == 1;
    }

    /** True when this call recorded the subscription's first (checkout) grant. */
    boolean recordCheckout(String subscriptionId, String eventId, long credits) {
        return jdbc.sql(INSERT_CHECKOUT).param("subscriptionId", subscriptionId).param("eventId", eventId)
                .param("credits", credits).update() == 1;
    }

    boolean periodGranted(String subscriptionId, long start) {
        return jdbc.sql(PERIOD_GRANTED).param("subscriptionId", subscriptionId).param("start", start)
                .query(Long.class).single() > 0;
    }

    /** True when the subscription's first period was granted by its paid checkout session. */
    boolean checkoutGranted(String subscriptionId) {
        return jdbc.sql(CHECKOUT_GRANTED).param("subscriptionId", subscriptionId).query(Long.class).single() > 0;
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    List<Grant> list(String subscriptionId) {
        return jdbc.sql(LIST).param("subscriptionId", subscriptionId)
                .query((rs, n) -> new Grant(rs.getObject("period_start", Long.class),
                        rs.getObject("period_end", Long.class), rs.getString("source"), rs.getString("event_id"),
                        rs.getTimestamp("granted_at").toInstant()))
                .list();
    }

    record Grant(Long periodStart, Long periodEnd, String source, String eventId, Instant grantedAt) {
    }
}
