package com.acme.payments.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The subscription mirror: current state, moved FORWARD only. Every period write is guarded on the
 * stored period start, never on arrival time, so a late older event cannot rewind a confirmed period.
 */
@Repository
@Transactional(propagation = Propagation.MANDATORY)
class SubscriptionStore {

    private static final String COLUMNS = """
            subscription_id, user_id, status, current_period_start, current_period_end, quantity, price_id
            """;
    private static final String FIND = "SELECT " + COLUMNS + " FROM billing_subscription WHERE subscription_id = :id";
    private static final String FIND_FOR_UPDATE = FIND + " FOR UPDATE";
    private static final String FIND_BY_USER = "SELECT " + COLUMNS + """
             FROM billing_subscription WHERE user_id = :userId AND status IN ('active', 'trialing', 'past_due')
            ORDER BY subscription_id
            """;
    private static final String OPEN_IDS = """
            SELECT subscription_id FROM billing_subscription WHERE status <> 'canceled' ORDER BY subscription_id
            """;
    private static final String CREATE_IF_ABSENT = """
            INSERT INTO billing_subscription (subscription_id, user_id, status)
            VALUES (:id, :userId, :status)
            ON CONFLICT (subscription_id) DO NOTHING
            """;
    private static final String MOVE_FORWARD = """
            UPDATE billing_subscription
            SET current_period_start = :start, current_period_end = :end, status = :status, updated_at = now()
            WHERE subscription_id = :id AND status <> 'canceled'
              AND (current_period_start IS NULL OR current_period_start <= :start)
            """;
    private static final String APPLY = """
            UPDATE billing_subscription
            SET status = :status,
                current_period_start = COALESCE(CAST(:start AS bigint), current_period_start),
                current_period_end = COALESCE(CAST(:end AS bigint), current_period_end),
                quantity = COALESCE(CAST(:quantity AS integer), quantity),
                price_id = COALESCE(CAST(:priceId AS text), price_id), updated_at = now()
            WHERE subscription_id = :id AND status <> 'canceled'
              AND (current_period_start IS NULL OR CAST(:start AS bigint) IS NULL
                   OR current_period_start <= :start)
            """;
    /** Never for a period before the current one; the caller has checked the period is not paid. */
    private static final String MARK_PAST_DUE = """
            UPDATE billing_subscription
            SET status = 'past_due', updated_at = now()
            WHERE subscription_id = :id AND status <> 'canceled'
              AND (CAST(:start AS bigint) IS NULL OR current_period_start IS NULL OR current_period_start <= :start)
            """;
    private static final String CANCEL = """
            UPDATE billing_subscription SET status = 'canceled', updated_at = now()
            WHERE subscription_id = :id AND status <> 'canceled'
            """;

    private final JdbcClient jdbc;

    SubscriptionStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    Optional<Subscription> find(String id) {
        return jdbc.sql(FIND).param("id", id).query(SubscriptionStore::map).optional();
    }

    /**
     * The mirror, its row locked until commit. Taken before reading anything a write depends on, so
     * events for one subscription serialise here under READ COMMITTED and each reads the other's commit.
     */
    Optional<Subscription> lock(String id) {
        return jdbc.sql(FIND_FOR_UPDATE).param("id", id).query(SubscriptionStore::map).optional();
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    List<Subscription> openOf(String userId) {
        return jdbc.sql(FIND_BY_USER).param("userId", userId).query(SubscriptionStore::map).list();
    }

    @Transactional(readOnly = true, propagation = Propagation.REQUIRED)
    List<String> openIds() {
        return jdbc.sql(OPEN_IDS).query(String.class).list();
    }

    /** Creates the mirror when absent; true when this call created it. */
    boolean createIfAbsent(String id, String userId, String status) {
        return jdbc.sql(CREATE_IF_ABSENT).param("id", id).param("userId", userId).param("status", status)
                .update() == 1;
    }

    /** A paid period: forward only (an equal start may refresh status). True when the mirror moved. */
    boolean moveForward(String id, long start, long end, String status) {
        return checked(jdbc.sql(MOVE_FORWARD).param("id", id).param("start", start).param("end", end)
                .param("status", status).update(), id);
    }

    /** The full state from a subscription event, guarded forward-only on the period start. */
    boolean apply(Subscription s) {
        return checked(jdbc.sql(APPLY).param("id", s.subscriptionId()).param("status", s.status())
                .param("start", s.currentPeriodStart()).param("end", s.currentPeriodEnd())
                .param("quantity", s.quantity()).param("priceId", s.priceId()).update(), s.subscriptionId());
    }

    boolean markPastDue(String id, Long periodStart) {
        return checked(jdbc.sql(MARK_PAST_DUE).param("id", id).param("start", periodStart).update(), id);
    }

    boolean cancel(String id) {
        return checked(jdbc.sql(CANCEL).param("id", id).update(), id);
    }

    private static boolean checked(int rows, String id) {
        if (rows > 1) {
            throw new IllegalStateException("subscription " + id + " write touched " + rows + " rows");
        }
        return rows == 1;
    }

    private static Subscription map(ResultSet rs, int n) throws SQLException {
        return new Subscription(rs.getString("subscription_id"), rs.getString("user_id"), rs.getString("status"),
                rs.getObject("current_period_start", Long.class), rs.getObject("current_period_end", Long.class),
                rs.getObject("quantity", Integer.class), rs.getString("price_id"));
    }

    record Subscription(String subscriptionId, String userId, String status, Long currentPeriodStart,
            Long currentPeriodEnd, Integer quantity, String priceId) {
    }
}
