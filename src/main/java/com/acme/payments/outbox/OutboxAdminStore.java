package com.acme.payments.outbox;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/** The operators' view of the outbox: listing rows by state, re-driving and discarding dead ones. */
@Repository
@Transactional
class OutboxAdminStore {

    private static final String LIST = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts, last_error,
                   created_at, next_attempt_at, delivered_at, redriven_at, dead_at, discarded_at, discarded_by,
                   discard_reason
              FROM outbox
             WHERE state = :state AND id > :afterId
             ORDER BY id
             LIMIT :limit
            """;

    private static final String FIND = """
            SELECT id, kind, aggregate_type, aggregate_id, idempotency_key, state, settled_as, attempts, last_error,
                   created_at, next_attempt_at, delivered_at, redriven_at, dead_at, discarded_at, discarded_by,
                   discard_reason
              FROM outbox
             WHERE id = :id
            """;

    /** Only a dead row is re-driven: it starts again with a fresh attempt count, due now. */
    private static final String REDRIVE = """
            UPDATE outbox
               SET state = 'pending', attempts = 0, next_attempt_at = now(), redriven_at = now(), dead_at = NULL,
                   lease_owner = NULL, lease_until = NULL
             WHERE id = :id AND state = 'dead'
            """;

    /**
     * One batch of a bulk redrive, in id order after {@code afterId} (a row that dies again while the
     * redrive runs is not taken twice). A row parked by code older than V324 has no dead_at: it counts
     * as dead since its last scheduled attempt. The outer state test re-checks each row under its lock.
     */
    private static final String REDRIVE_MATCHING = """
            UPDATE outbox
               SET state = 'pending', attempts = 0, next_attempt_at = now(), redriven_at = now(), dead_at = NULL,
                   lease_owner = NULL, lease_until = NULL
             WHERE state = 'dead'
               AND id IN (SELECT id FROM outbox
                           WHERE state = 'dead' AND id > :afterId
                             AND (:allKinds OR kind = ANY (CAST(:kinds AS text[])))
                             AND coalesce(dead_at, next_attempt_at) >= :deadSince
                           ORDER BY id
                           LIMIT :batchSize)
            RETURNING id
            """;

    /** Settles a dead row without sending it; the rows behind it in its stream go on. */
    private static final String DISCARD = """
            UPDATE outbox
               SET state = 'discarded', discarded_at = now(), discarded_by = :actor, discard_reason = :reason
             WHERE id = :id AND state = 'dead'
            """;

    /** An outbox row as operators see it; the payload is left out (it may carry personal data). */
    record Row(long id, String kind, String aggregateType, String aggregateId, String idempotencyKey, String state,
            String settledAs, int attempts, String lastError, Instant createdAt, Instant nextAttemptAt,
            Instant deliveredAt, Instant redrivenAt, Instant deadAt, Instant discardedAt, String discardedBy,
            String discardReason) {
    }

    /** What a change asked of one dead row came to. */
    enum DeadRowChange {
        DONE, NOT_DEAD, NOT_FOUND
    }

    /** Which dead rows a bulk redrive takes: those of {@code kinds} (or of every kind) dead since then. */
    record DeadFilter(boolean allKinds, List<String> kinds, Instant deadSince) {
    }

    /** One batch's count and the highest id it took (the next batch starts after it). */
    record Batch(int rows, long lastId) {
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

    DeadRowChange redrive(long id) {
        return outcome(id, jdbc.sql(REDRIVE).param("id", id).update(), "redrive");
    }

    DeadRowChange discard(long id, String actor, String reason) {
        int rows = jdbc.sql(DISCARD).param("id", id).param("actor", actor).param("reason", reason).update();
        return outcome(id, rows, "discard");
    }

    /** Re-drives up to {@code batchSize} matching dead rows with ids above {@code afterId}. */
    Batch redriveMatching(DeadFilter filter, long afterId, int batchSize) {
        List<Long> ids = jdbc.sql(REDRIVE_MATCHING)
                .param("afterId", afterId)
                .param("allKinds", filter.allKinds())
                .param("kinds", filter.kinds().toArray(String[]::new))
                .param("deadSince", OffsetDateTime.ofInstant(filter.deadSince(), ZoneOffset.UTC))
                .param("batchSize", batchSize)
                .query(Long.class)
                .list();
        return new Batch(ids.size(), ids.stream().mapToLong(Long::longValue).max().orElse(afterId));
    }

    private DeadRowChange outcome(long id, int rows, String what) {
        if (rows > 1) {
            throw new IllegalStateException(what + " touched " + rows + " rows");
        }
        if (rows == 1) {
            return DeadRowChange.DONE;
        }
        return find(id).isPresent() ? DeadRowChange.NOT_DEAD : DeadRowChange.NOT_FOUND;
    }

    private static Row row(ResultSet rs, int n) throws SQLException {
        return new Row(rs.getLong("id"), rs.getString("kind"), rs.getString("aggregate_type"),
                rs.getString("aggregate_id"), rs.getString("idempotency_key"), rs.getString("state"),
                rs.getString("settled_as"), rs.getInt("attempts"), rs.getString("last_error"),
                instant(rs, "created_at"), instant(rs, "next_attempt_at"), instant(rs, "delivered_at"),
                instant(rs, "redriven_at"), instant(rs, "dead_at"), instant(rs, "discarded_at"),
                rs.getString("discarded_by"), rs.getString("discard_reason"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
