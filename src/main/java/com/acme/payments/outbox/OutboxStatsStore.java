package com.acme.payments.outbox;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

/** The figures behind the outbox gauges: a reader of {@code outbox}, whose one writer is {@link OutboxStore}. */
@Repository
@Transactional
class OutboxStatsStore {

    /**
     * Reads only open and discarded rows (the partial indexes); delivered history does not make it slower.
     * Discarded rows are few (one per operator decision) and leave with the pruner.
     */
    private static final String STATS = """
            SELECT count(*) FILTER (WHERE state = 'pending') AS pending,
                   count(*) FILTER (WHERE state = 'pending' AND lease_until > now()) AS in_flight,
                   count(*) FILTER (WHERE state = 'dead') AS dead,
                   count(*) FILTER (WHERE state = 'discarded') AS discarded,
                   count(*) FILTER (WHERE state = 'pending' AND kind NOT IN (:routable)) AS unroutable
              FROM outbox
             WHERE state IN ('pending', 'dead', 'discarded')
            """;
    /**
     * The oldest pending row of each kind: pending rows only (the partial index), few kinds. A resent row
     * waits since the operator asked, not since it was first written.
     */
    private static final String OLDEST_PENDING = """
            SELECT kind, extract(epoch FROM now() - min(coalesce(resent_at, created_at))) AS oldest_seconds
              FROM outbox WHERE state = 'pending' GROUP BY kind
            """;

    /** {@code oldestPendingByKind}: seconds since the oldest pending row of each kind that has one. */
    record Stats(long pending, long inFlight, long dead, long discarded, long unroutable,
            Map<String, Double> oldestPendingByKind) {
        static final Stats NONE = new Stats(0, 0, 0, 0, 0, Map.of());
    }

    private final JdbcClient jdbc;

    OutboxStatsStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    Stats stats(List<String> routableKinds) {
        // NOT IN () is not SQL; a kind name that cannot exist stands in for "no routable kinds".
        List<String> routable = routableKinds.isEmpty() ? List.of("") : routableKinds;
        Map<String, Double> oldest = new HashMap<>();
        jdbc.sql(OLDEST_PENDING).query(rs -> {
            oldest.put(rs.getString("kind"), rs.getDouble("oldest_seconds"));
        });
        return jdbc.sql(STATS)
                .param("routable", routable)
                .query((rs, n) -> new Stats(rs.getLong("pending"), rs.getLong("in_flight"), rs.getLong("dead"),
                        rs.getLong("discarded"), rs.getLong("unroutable"), Map.copyOf(oldest)))
                .single();
    }
}
