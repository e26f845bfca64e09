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
 */
@Repository
@Transactional(propagation = Propagation.SUPPORTS, readOnly = true)
class OrderListStore {

    private static final String POSITION = "SELECT created_at, id FROM orders WHERE order_ref = :orderRef";

    private static final String PAGE = """
            SELECT * FROM orders
             WHERE created_at >= coalesce(CAST(:createdFrom AS timestamptz), '-infinity')
               AND created_at < coalesce(CAST(:createdTo AS timestamptz), 'infinity')
               AND (created_at, id) < (coalesce(CAST(:afterCreatedAt AS timestamptz), 'infinity'),
                                       coalesce(CAST(:afterId AS bigint), 0))
             ORDER BY created_at DESC, id DESC
             LIMIT :limit
            """;

    /** PAGE of one status: the equality on the index's first column keeps the scan in that status. */
    private static final String PAGE_OF_STATUS = """
            SELECT * FROM orders
             WHERE status = :status
               AND created_at >= coalesce(CAST(:createdFrom AS timestamptz), '-infinity')
               AND created_at < coalesce(CAST(:createdTo AS timestamptz), 'infinity')
               AND (created_at, id) < (coalesce(CAST(:afterCreatedAt AS timestamptz), 'infinity'),
                                       coalesce(CAST(:afterId AS bigint), 0))
             ORDER BY created_at DESC, id DESC
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
        return statement
                .param("createdFrom", filter.createdFrom(), Types.TIMESTAMP_WITH_TIMEZONE)
                .param("createdTo", filter.createdTo(), Types.TIMESTAMP_WITH_TIMEZONE)
                .param("afterCreatedAt", after == null ? null : after.createdAt(), Types.TIMESTAMP_WITH_TIMEZONE)
                .param("afterId", after == null ? null : after.id(), Types.BIGINT)
                .param("limit", limit)
                .query(OrderStore.ROW).list();
    }

    /** An order's place in the list: its creation time (to the microsecond, as stored) and id. */
    record Position(OffsetDateTime createdAt, long id) {
    }

    /** What the list is narrowed to; each part optional (null). */
    record OrderFilter(OrderStatus status, OffsetDateTime createdFrom, OffsetDateTime createdTo) {
    }
}
