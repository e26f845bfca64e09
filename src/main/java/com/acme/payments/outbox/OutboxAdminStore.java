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

/** The operators' view of the outbox: listing rows by state and re-driving dead ones. */
@Repository
@Transactional
class OutboxAdminStore {

    private static final String LIST = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts,
                   last_error, created_at, next_attempt_at, delivered_at, redriven_at
              FROM outbox
             WHERE state = :state AND id > :afterId
             ORDER BY id
             LIMIT :limit
            """;

    private static final String FIND = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts,
                   last_error, created_at, next_attempt_at, delivered_at, redriven_at
              FROM outbox
             WHERE id = :id
            """;

    /** Only a dead row is re-driven: it starts again with a fresh attempt count, due now. */
    private static final String REDRIVE = """
            UPDATE outbox
               SET state = 'pending', attempts = 0, next_attempt_at = now(), redriven_at = now(),
                   lease_owner = NULL, lease_until = NULL
             WHERE id = :id AND state = 'dead'
            """;

    /** An outbox row as operators see it; the payload is left out (it may carry personal data). */
    record Row(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey, String state,
            String settledAs, int attempts, String lastError, Instant createdAt, Instant nextAttemptAt,
            Instant deliveredAt, Instant redrivenAt) {
    }

    enum Redrive {
        REDRIVEN, NOT_DEAD, NOT_FOUND
    }

    private final JdbcClient jdbc;

    OutboxAdminStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
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
    Optional<Row> find(long id) {
        return jdbc.sql(FIND).param("id", id).query(OutboxAdminStore::row).optional();
    }

    Redrive redrive(long id) {
        int rows = jdbc.sql(REDRIVE).param("id", id).update();
        if (rows > 1) {
            throw new IllegalStateException("redrive touched " + rows + " rows");
        }
        if (rows == 1) {
            return Redrive.REDRIVEN;
        }
        return find(id).isPresent() ? Redrive.NOT_DEAD : Redrive.NOT_FOUND;
    }

    private static Row row(ResultSet rs, int n) throws SQLException {
        return new Row(rs.getLong("id"), rs.getString("kind"), rs.getString("aggregate_type"),
                rs.getString("aggregate_id"), rs.getString("idempotency_key"), rs.getString("state"),
                rs.getString("settled_as"), rs.getInt("attempts"), rs.getString("last_error"),
                instant(rs, "created_at"), instant(rs, "next_attempt_at"), instant(rs, "delivered_at"),
                instant(rs, "redriven_at"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
