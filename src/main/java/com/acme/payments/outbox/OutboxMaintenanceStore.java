package com.acme.payments.outbox;

import java.time.Duration;
import java.util.List;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/** The outbox's housekeeping SQL: the figures behind the gauges, and pruning. */
@Repository
@Transactional
class OutboxMaintenanceStore {

    /**
     * Reads only open and discarded rows (the partial indexes); delivered history does not make it slower.
     * Discarded rows are few (one per operator decision) and leave with the pruner.
     */
    private static final String STATS = """
            SELECT count(*) FILTER (WHERE state = 'pending') AS pending,
                   count(*) FILTER (WHERE state = 'pending' AND lease_until > now()) AS in_flight,
                   count(*) FILTER (WHERE state = 'dead') AS dead,
                   count(*) FILTER (WHERE state = 'discarded') AS discarded,
                   count(*) FILTER (WHERE state = 'pending' AND kind NOT IN (:routable)) AS unroutable,
                   coalesce(extract(epoch FROM now() - min(created_at) FILTER (WHERE state = 'pending')), 0)
                       AS oldest_pending_seconds
              FROM outbox
             WHERE state IN ('pending', 'dead', 'discarded')
            """;

    private static final String PRUNE_DELIVERED = """
            DELETE FROM outbox
             WHERE id IN (
                   SELECT id FROM outbox
                    WHERE state = 'delivered' AND delivered_at < now() - make_interval(secs => :retentionSeconds)
                    LIMIT :batchSize)
            """;

    /** Discarded rows are settled like delivered ones, and kept as long (from the discard). */
    private static final String PRUNE_DISCARDED = """
            DELETE FROM outbox
             WHERE id IN (
                   SELECT id FROM outbox
                    WHERE state = 'discarded' AND discarded_at < now() - make_interval(secs => :retentionSeconds)
                    LIMIT :batchSize)
            """;

    /** Sent keys past retention, and 'sending' claims whose holder died long ago. */
    private static final String PRUNE_DEDUP = """
            DELETE FROM outbox_dedup
             WHERE idempotency_key IN (
                   SELECT idempotency_key FROM outbox_dedup
                    WHERE state = 'sent' AND sent_at < now() - make_interval(secs => :retentionSeconds)
                    LIMIT :batchSize)
                OR idempotency_key IN (
                   SELECT idempotency_key FROM outbox_dedup
                    WHERE state = 'sending' AND lease_until < now() - make_interval(secs => :retentionSeconds)
                    LIMIT :batchSize)
            """;

    record Stats(long pending, long inFlight, long dead, long discarded, long unroutable,
            double oldestPendingSeconds) {
        static final Stats NONE = new Stats(0, 0, 0, 0, 0, 0);
    }

    private final JdbcClient jdbc;

    OutboxMaintenanceStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    Stats stats(List<String> routableKinds) {
        // NOT IN () is not SQL; a kind name that cannot exist stands in for "no routable kinds".
        List<String> routable = routableKinds.isEmpty() ? List.of("") : routableKinds;
        return jdbc.sql(STATS)
                .param("routable", routable)
                .query((rs, n) -> new Stats(rs.getLong("pending"), rs.getLong("in_flight"), rs.getLong("dead"),
                        rs.getLong("discarded"), rs.getLong("unroutable"), rs.getDouble("oldest_pending_seconds")))
                .single();
    }

    /** Deletes up to {@code batchSize} delivered rows older than the retention; returns how many. */
    int pruneDelivered(Duration retention, int batchSize) {
        return jdbc.sql(PRUNE_DELIVERED)
                .param("retentionSeconds", retention.toSeconds())
                .param("batchSize", batchSize)
                .update();
    }

    /** Deletes up to {@code batchSize} discarded rows older than the retention; returns how many. */
    int pruneDiscarded(Duration retention, int batchSize) {
        return jdbc.sql(PRUNE_DISCARDED)
                .param("retentionSeconds", retention.toSeconds())
                .param("batchSize", batchSize)
                .update();
    }

    /** Deletes up to 2 × {@code batchSize} old dedup records; returns how many. */
    int pruneDedup(Duration retention, int batchSize) {
        return jdbc.sql(PRUNE_DEDUP)
                .param("retentionSeconds", retention.toSeconds())
                .param("batchSize", batchSize)
                .update();
    }
}
