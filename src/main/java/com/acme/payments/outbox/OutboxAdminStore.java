package com.acme.payments.outbox;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/**
 * The operators' view of the outbox: listing rows by state, and telling what a redrive or discard of one
 * dead row, or a resend of one delivered row, came to. It reads {@code outbox}; the writes are {@link OutboxStore}'s (the table's one writer),
 * joined in this Store's transaction.
 */
@Repository
@Transactional
class OutboxAdminStore {

    private static final String LIST = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts, last_error,
                   created_at, next_attempt_at, delivered_at, redriven_at, dead_at, discarded_at, discarded_by,
                   discard_reason, first_failed_at, resent_at
              FROM outbox
             WHERE state = :state AND id > :afterId
             ORDER BY id
             LIMIT :limit
            """;

    private static final String FIND = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts, last_error,
                   created_at, next_attempt_at, delivered_at, redriven_at, dead_at, discarded_at, discarded_by,
                   discard_reason, first_failed_at, resent_at
              FROM outbox
             WHERE id = :id
            """;

    /** An aggregate's effects still to send (pending or dead), through the index the relay's ordering uses. */
    private static final String OPEN_FOR_AGGREGATE = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts, last_error,
                   created_at, next_attempt_at, delivered_at, redriven_at, dead_at, discarded_at, discarded_by,
                   discard_reason, first_failed_at, resent_at
              FROM outbox
             WHERE aggregate_type = :type AND aggregate_id = :id AND state IN ('pending', 'dead')
             ORDER BY id
             LIMIT :limit
            """;

    /** An outbox row as operators see it; the payload is left out (it may carry personal data). */
    record Row(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey, String state,
            String settledAs, int attempts, String lastError, Instant createdAt, Instant nextAttemptAt,
            Instant deliveredAt, Instant redrivenAt, Instant deadAt, Instant discardedAt, String discardedBy,
            String discardReason, Instant firstFailedAt, Instant resentAt) {
    }

    /** What a change asked of one row came to: done, refused (the row is not dead, or not sent), or no row. */
    enum RowChange {
        DONE, WRONG_STATE, NOT_FOUND
    }

    private final JdbcClient jdbc;
    private final OutboxStore outbox;

    OutboxAdminStore(JdbcClient jdbc, OutboxStore outbox) {
        this.jdbc = jdbc;
        this.outbox = outbox;
    }

    @Transactional(readOnly = true)
    List<Row> list(String state, long afterId, int limit) {
        return jdbc.sql(LIST)
                .param("state", state)
                .param("afterId", afterId)
                .param("limit", limit)
                .query(OutboxAdminStore::row)
                .list();
    }

    @Transactional(readOnly = true)
    List<Row> openFor(String aggregateType, String aggregateId, int limit) {
        return jdbc.sql(OPEN_FOR_AGGREGATE).param("type", aggregateType).param("id", aggregateId)
                .param("limit", limit).query(OutboxAdminStore::row).list();
    }

    @Transactional(readOnly = true)
    Optional<Row> find(long id) {
        return jdbc.sql(FIND).param("id", id).query(OutboxAdminStore::row).optional();
    }

    /** The redrive and the look-up that tells a row that is not dead from a missing one: one transaction. */
    RowChange redrive(long id) {
        return outcome(id, outbox.redrive(id));
    }

    RowChange discard(long id, String actor, String reason) {
        return outcome(id, outbox.discard(id, actor, reason));
    }

    /** A delivered row sent once more (its own send, not a duplicate's settling); else why not. */
    RowChange resend(long id) {
        return outcome(id, outbox.resend(id));
    }

    private RowChange outcome(long id, boolean done) {
        if (done) {
            return RowChange.DONE;
        }
        return find(id).isPresent() ? RowChange.WRONG_STATE : RowChange.NOT_FOUND;
    }

    private static Row row(ResultSet rs, int n) throws SQLException {
        return new Row(rs.getLong("id"), rs.getString("kind"), rs.getString("aggregate_type"),
                rs.getString("aggregate_id"), rs.getString("idempotency_key"), rs.getString("state"),
                rs.getString("settled_as"), rs.getInt("attempts"), rs.getString("last_error"),
                instant(rs, "created_at"), instant(rs, "next_attempt_at"), instant(rs, "delivered_at"),
                instant(rs, "redriven_at"), instant(rs, "dead_at"), instant(rs, "discarded_at"),
                rs.getString("discarded_by"), rs.getString("discard_reason"), instant(rs, "first_failed_at"),
                instant(rs, "resent_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
