package com.acme.payments.order;

import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * The order list's reads of {@code orders} (written only by {@link OrderStore}): pages newest first, by keyset
 * on {@code (created_at, id)} from the position of the previous page's last order, never an OFFSET. Every page
 * is read from an index in the list's order ({@code orders_created}, {@code orders_status_created}), scanned
 * backwards from the cursor and stopped at the limit, so a page costs the same on a table of any size. An
 * absent bound is NULL, read as an infinite one, so one statement per index serves every filter combination.
 * The upper bound is one row comparison, the nearer of the cursor and {@code createdTo}: given two (a plain
 * {@code created_at < :to} beside the row comparison), PostgreSQL starts the backward scan at either, and from
 * the wrong one walks the index through every newer order before the first row of the window.
 */
@Repository
@Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
class OrderListStore {

    private static final String POSITION = "SELECT created_at, id FROM orders WHERE order_ref = :orderRef";

    private static final String PAGE = """
            SELECT * FROM orders
             WHERE created_at >= coalesce(CAST(:createdFrom AS timestamptz), '-infinity')
               AND (created_at, id) < (coalesce(CAST(:beforeCreatedAt AS timestamptz), 'infinity'),
                                       coalesce(CAST(:beforeId AS bigint), 0))
             ORDER BY created_at DESC, id DESC
             LIMIT :limit
            """;

    /**
     * PAGE of one status, written as bounds on {@code (status, created_at, id)}: the rows between are exactly that
     * status's in the window, and in that order only {@code orders_status_created} holds them. With a plain
     * {@code status = :status} the planner may walk {@code orders_created} filtering on the status instead (a
     * generic plan guesses every status equally common), reading past every order of the others for a rare one.
     * {@code Long.MIN_VALUE} is below every id, so the lower bound is {@code created_at >= :createdFrom}.
     */
    private static final String PAGE_OF_STATUS = """
            SELECT * FROM orders
             WHERE (status, created_at, id) >= (:status, coalesce(CAST(:createdFrom AS timestamptz), '-infinity'),
                                                -9223372036854775808)
               AND (status, created_at, id) < (:status, coalesce(CAST(:beforeCreatedAt AS timestamptz), 'infinity'),
                                               coalesce(CAST(:beforeId AS bigint), 0))
             ORDER BY status DESC, created_at DESC, id DESC
             LIMIT :limit
            """;

    private final JdbcClient jdbc;

    OrderListStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Where an order stands in the list; empty when no order has this reference. */
    Optional<Position> position(String orderRef) {
        return jdbc.sql(POSITION).param("orderRef", orderRef)
                .query((rs, n) -> new Position(rs.getObject("created_at", OffsetDateTime.class), rs.getLong("id")))
                .optional();
    }

    /** Up to {@code limit} orders after {@code after} (from the newest when null), newest first. */
    List<Order> page(OrderFilter filter, Position after, int limit) {
        JdbcClient.StatementSpec statement = filter.status() == null ? jdbc.sql(PAGE)
                : jdbc.sql(PAGE_OF_STATUS).param("status", filter.status().name());
        Position before = before(filter.createdTo(), after);
        return statement
                .param("createdFrom", filter.createdFrom(), Types.TIMESTAMP_WITH_TIMEZONE)
                .param("beforeCreatedAt", before == null ? null : before.createdAt(), Types.TIMESTAMP_WITH_TIMEZONE)
                .param("beforeId", before == null ? null : before.id(), Types.BIGINT)
                .param("limit", limit)
                .query(OrderStore.ROW).list();
    }

    /**
     * The nearer upper bound: {@code created_at < to} is {@code (created_at, id) < (to, Long.MIN_VALUE)}; a
     * cursor at the same instant as {@code to} is past it already.
     */
    static Position before(OffsetDateTime createdTo, Position after) {
        Position to = createdTo == null ? null : new Position(createdTo, Long.MIN_VALUE);
        if (after == null || to == null) {
            return after == null ? to : after;
        }
        return after.createdAt().isBefore(createdTo) ? after : to;
    }

    /** An order's place in the list: its creation time (to the microsecond, as stored) and id. */
    record Position(OffsetDateTime createdAt, long id) {
    }

    /** What the list is narrowed to; each part optional (null). */
    record OrderFilter(OrderStatus status, OffsetDateTime createdFrom, OffsetDateTime createdTo) {
    }
}
