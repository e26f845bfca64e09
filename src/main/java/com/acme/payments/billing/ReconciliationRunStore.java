package com.acme.payments.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.Rows;

import tools.jackson.databind.json.JsonMapper;

/**
 * Owns {@code billing_reconciliation_run}: the nightly reconciliation's lease, one row per night. The
 * row is the lease (its primary key admits one runner per night across all instances; the runner renews
 * {@code lease_until} as it goes, and a row left unfinished past it is taken over) and the record of who
 * ran and what was granted. The database's {@code now()} is the clock for the lease.
 */
@Repository
@Transactional
class ReconciliationRunStore {

    /**
     * Inserts the night's row, or takes over one whose runner died (unfinished, lease past). One row
     * returned: ours; none: the night is running or done elsewhere.
     */
    private static final String TAKE = """
            INSERT INTO billing_reconciliation_run AS r (night, owner, lease_until)
            VALUES (:night, :owner, now() + CAST(:lease AS interval))
            ON CONFLICT (night) DO UPDATE
                SET owner = EXCLUDED.owner, started_at = now(), lease_until = EXCLUDED.lease_until
                WHERE r.finished_at IS NULL AND r.lease_until < now()
            RETURNING night
            """;
    /** The runner's heartbeat: its lease again from now, while the night is still its own and unfinished. */
    private static final String RENEW = """
            UPDATE billing_reconciliation_run SET lease_until = now() + CAST(:lease AS interval)
            WHERE night = :night AND owner = :owner AND finished_at IS NULL
            """;
    /** Neither finished nor held by a live runner: TAKE would succeed (a cheap look before it). */
    private static final String FREE = """
            SELECT NOT EXISTS (SELECT 1 FROM billing_reconciliation_run
                                WHERE night = :night AND (finished_at IS NOT NULL OR lease_until >= now()))
            """;
    private static final String FINISH = """
            UPDATE billing_reconciliation_run
            SET finished_at = now(), subscriptions = :subscriptions, granted = :granted, failed = :failed,
                granted_periods = CAST(:periods AS jsonb)
            WHERE night = :night AND owner = :owner AND finished_at IS NULL
            """;
    private static final String FIND = """
            SELECT night, owner, started_at, finished_at, subscriptions, granted, failed, granted_periods::text AS periods
            FROM billing_reconciliation_run WHERE night = :night
            """;
    private static final String LAST_FINISHED_AGE = """
            SELECT coalesce(extract(epoch FROM now() - max(finished_at))::float8, 'NaN'::float8)
            FROM billing_reconciliation_run
            """;

    private final JdbcClient jdbc;
    private final JsonMapper json;

    ReconciliationRunStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** True when this instance holds the night's lease now. */
    boolean take(LocalDate night, String owner, Duration lease) {
        List<LocalDate> taken = jdbc.sql(TAKE).param("night", night).param("owner", owner)
                .param("lease", lease.toSeconds() + " seconds").query(LocalDate.class).list();
        if (taken.size() > 1) {
            throw new IllegalStateException("reconciliation lease for " + night + " took " + taken.size() + " rows");
        }
        return taken.size() == 1;
    }

    /** False when the lease was taken over (the night is another runner's now): stop the pass. */
    boolean renew(LocalDate night, String owner, Duration lease) {
        return Rows.atMostOne(jdbc.sql(RENEW).param("night", night).param("owner", owner)
                .param("lease", lease.toSeconds() + " seconds").update(), "billing_reconciliation_run");
    }

    /** True when the night is neither finished nor held by a live runner (database clock). */
    @Transactional(readOnly = true)
    boolean free(LocalDate night) {
        return jdbc.sql(FREE).param("night", night).query(Boolean.class).single();
    }

    /** Records the pass; false when the lease was taken over meanwhile (the record is the new owner's). */
    boolean finish(LocalDate night, String owner, int subscriptions, List<Map<String, Object>> grantedPeriods,
            int failed) {
        int rows = jdbc.sql(FINISH).param("night", night).param("owner", owner).param("subscriptions", subscriptions)
                .param("granted", grantedPeriods.size()).param("failed", failed)
                .param("periods", json.writeValueAsString(grantedPeriods)).update();
        if (rows > 1) {
            throw new IllegalStateException("reconciliation run " + night + " finished " + rows + " rows");
        }
        return rows == 1;
    }

    @Transactional(readOnly = true)
    Optional<Run> find(LocalDate night) {
        return jdbc.sql(FIND).param("night", night).query(ReconciliationRunStore::map).optional();
    }

    /** Seconds since the last finished run, or NaN before the first one. */
    @Transactional(readOnly = true)
    double lastFinishedAgeSeconds() {
        // NaN until a first run finished: a null would fail the single-value mapping and the gauge refresh
        return jdbc.sql(LAST_FINISHED_AGE).query(Double.class).single();
    }

    private static Run map(ResultSet rs, int n) throws SQLException {
        return new Run(rs.getObject("night", LocalDate.class), rs.getString("owner"),
                rs.getTimestamp("finished_at") != null, rs.getObject("subscriptions", Integer.class),
                rs.getObject("granted", Integer.class), rs.getObject("failed", Integer.class), rs.getString("periods"));
    }

    record Run(LocalDate night, String owner, boolean finished, Integer subscriptions, Integer granted,
            Integer failed, String grantedPeriods) {
    }
}
