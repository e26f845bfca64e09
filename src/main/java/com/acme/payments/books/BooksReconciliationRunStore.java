package com.acme.payments.books;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.Rows;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Owns {@code books_reconciliation_run} and {@code books_reconciliation_mismatch}. The run row is the run's
 * lease: {@code owner} runs it while {@code lease_until} is ahead (the database's {@code now()} is the
 * clock), renewing it page by page; a running row whose lease ran out is taken over by another instance
 * ({@code takeovers} counts them) or, past the limit, marked failed. One running row per window (a partial
 * unique index) and one run per night ({@code night} unique) keep a window to one runner.
 */
@Repository
@Transactional
class BooksReconciliationRunStore {

    /** A new run, or nothing when the same window is running already (then {@link #RUNNING_WINDOW} names it). */
    private static final String START = """
            INSERT INTO books_reconciliation_run (id, window_from, window_to, night, state, requested_by, owner, lease_until)
            VALUES (:id, :from, :to, :night, 'running', :requestedBy, :owner, now() + CAST(:lease AS interval))
            ON CONFLICT DO NOTHING
            RETURNING id
            """;
    private static final String RUNNING_WINDOW = """
            SELECT id FROM books_reconciliation_run
            WHERE window_from = :from AND window_to = :to AND state = 'running'
            """;
    private static final String NIGHT_TAKEN = """
            SELECT EXISTS (SELECT 1 FROM books_reconciliation_run WHERE night = :night)
            """;
    /** The runner's heartbeat, while the run is still its own and running. */
    private static final String RENEW = """
            UPDATE books_reconciliation_run SET lease_until = now() + CAST(:lease AS interval)
            WHERE id = :id AND owner = :owner AND state = 'running'
            """;
    /** Running rows whose runner stopped renewing: taken over, each by one instance (SKIP LOCKED). */
    private static final String TAKE_OVER = """
            UPDATE books_reconciliation_run SET owner = :owner, lease_until = now() + CAST(:lease AS interval),
                takeovers = takeovers + 1
            WHERE id IN (SELECT id FROM books_reconciliation_run
                         WHERE state = 'running' AND lease_until < now() AND takeovers < :maxTakeovers
                         ORDER BY lease_until LIMIT :limit FOR UPDATE SKIP LOCKED)
            RETURNING id
            """;
    /** Running rows whose runners stopped too often: failed, never left running. */
    private static final String GIVE_UP = """
            UPDATE books_reconciliation_run
            SET state = 'failed', finished_at = now(),
                failure_reason = 'its instance stopped ' || takeovers || ' times before it finished'
            WHERE state = 'running' AND lease_until < now() AND takeovers >= :maxTakeovers
            """;
    private static final String CLEAR_MISMATCHES = """
            DELETE FROM books_reconciliation_mismatch WHERE run_id = :id
            """;
    private static final String ADD_MISMATCH = """
            INSERT INTO books_reconciliation_mismatch (run_id, seq, kind, psp_payment_id, order_ref, ours, theirs)
            VALUES (:id, :seq, :kind, :pspPaymentId, :orderRef, CAST(:ours AS jsonb), CAST(:theirs AS jsonb))
            """;
    private static final String FINISH = """
            UPDATE books_reconciliation_run
            SET state = 'done', finished_at = now(), psp_records = :pspRecords, our_records = :ourRecords,
                mismatch_count = :mismatches
            WHERE id = :id AND owner = :owner AND state = 'running'
            """;
    private static final String FAIL = """
            UPDATE books_reconciliation_run
            SET state = 'failed', finished_at = now(), failure_reason = :reason
            WHERE id = :id AND owner = :owner AND state = 'running'
            """;
    private static final String FIND = """
            SELECT id, window_from, window_to, night, state, requested_by, created_at, finished_at, psp_records,
                   our_records, mismatch_count, failure_reason, takeovers
            FROM books_reconciliation_run WHERE id = :id
            """;
    private static final String NEWEST = """
            SELECT id, window_from, window_to, night, state, requested_by, created_at, finished_at, psp_records,
                   our_records, mismatch_count, failure_reason, takeovers
            FROM books_reconciliation_run ORDER BY created_at DESC, id LIMIT :limit
            """;
    private static final String MISMATCHES = """
            SELECT kind, psp_payment_id, order_ref, ours::text AS ours, theirs::text AS theirs
            FROM books_reconciliation_mismatch WHERE run_id = :id ORDER BY seq
            """;
    /** The gauge: the mismatches of the newest finished night (0 before the first). */
    private static final String LAST_NIGHT_MISMATCHES = """
            SELECT coalesce((SELECT mismatch_count FROM books_reconciliation_run
                             WHERE night IS NOT NULL AND state = 'done' ORDER BY night DESC LIMIT 1), 0)
            """;

    private final JdbcClient jdbc;
    private final JsonMapper json;

    BooksReconciliationRunStore(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** A running run of the window, this instance its owner; the one already running it when there is one. */
    Started start(Instant from, Instant to, LocalDate night, String requestedBy, String owner, Duration lease) {
        UUID id = UUID.randomUUID();
        List<UUID> created = jdbc.sql(START).param("id", id).param("from", utc(from)).param("to", utc(to))
                .param("night", night).param("requestedBy", requestedBy).param("owner", owner)
                .param("lease", interval(lease)).query(UUID.class).list();
        if (created.size() == 1) {
            return new Started(id, true);
        }
        if (night != null) {
            return new Started(null, false); // the night's run exists: another instance started it
        }
        return new Started(jdbc.sql(RUNNING_WINDOW).param("from", utc(from)).param("to", utc(to)).query(UUID.class)
                .optional().orElseThrow(() -> new IllegalStateException("window neither started nor running")), false);
    }

    /** The run's id, and whether this call created it (false: it joined the window's running one). */
    record Started(UUID id, boolean created) {
    }

    @Transactional(readOnly = true)
    boolean nightStarted(LocalDate night) {
        return jdbc.sql(NIGHT_TAKEN).param("night", night).query(Boolean.class).single();
    }

    /** False when the run is no longer this owner's (taken over) or no longer running. */
    boolean renew(UUID id, String owner, Duration lease) {
        return Rows.atMostOne(jdbc.sql(RENEW).param("id", id).param("owner", owner).param("lease", interval(lease))
                .update(), "books_reconciliation_run");
    }

    /** Runs whose runner died, now this owner's; those that died too often are failed first. */
    List<UUID> takeOver(String owner, Duration lease, int maxTakeovers, int limit) {
        jdbc.sql(GIVE_UP).param("maxTakeovers", maxTakeovers).update();
        return jdbc.sql(TAKE_OVER).param("owner", owner).param("lease", interval(lease))
                .param("maxTakeovers", maxTakeovers).param("limit", limit).query(UUID.class).list();
    }

    /**
     * Records the run's result with at most {@code keep} of its mismatches (the count is all of them); false
     * when the run was taken over meanwhile (the result is the new owner's to record).
     */
    boolean finish(UUID id, String owner, int pspRecords, int ourRecords, List<Mismatch> mismatches, int keep) {
        int rows = jdbc.sql(FINISH).param("id", id).param("owner", owner).param("pspRecords", pspRecords)
                .param("ourRecords", ourRecords).param("mismatches", mismatches.size()).update();
        if (!Rows.atMostOne(rows, "books_reconciliation_run")) {
            return false;
        }
        jdbc.sql(CLEAR_MISMATCHES).param("id", id).update();
        int seq = 0;
        for (Mismatch m : mismatches.subList(0, Math.min(keep, mismatches.size()))) {
            Rows.atMostOne(jdbc.sql(ADD_MISMATCH).param("id", id).param("seq", seq++).param("kind", m.kind().slug())
                    .param("pspPaymentId", m.pspPaymentId()).param("orderRef", m.orderRef())
                    .param("ours", m.ours() == null ? null : json.writeValueAsString(m.ours()))
                    .param("theirs", m.theirs() == null ? null : json.writeValueAsString(m.theirs())).update(),
                    "books_reconciliation_mismatch");
        }
        return true;
    }

    /** False when the run was taken over meanwhile. */
    boolean fail(UUID id, String owner, String reason) {
        return Rows.atMostOne(jdbc.sql(FAIL).param("id", id).param("owner", owner)
                .param("reason", reason.length() > 500 ? reason.substring(0, 500) : reason).update(),
                "books_reconciliation_run");
    }

    @Transactional(readOnly = true)
    Optional<Run> find(UUID id) {
        return jdbc.sql(FIND).param("id", id).query(this::run).optional();
    }

    @Transactional(readOnly = true)
    List<Run> newest(int limit) {
        return jdbc.sql(NEWEST).param("limit", limit).query(this::run).list();
    }

    @Transactional(readOnly = true)
    List<Mismatch> mismatches(UUID id) {
        return jdbc.sql(MISMATCHES).param("id", id).query((rs, n) -> new Mismatch(MismatchKind.of(rs.getString("kind")),
                rs.getString("psp_payment_id"), rs.getString("order_ref"), side(rs.getString("ours")),
                side(rs.getString("theirs")))).list();
    }

    @Transactional(readOnly = true)
    int lastNightMismatches() {
        return jdbc.sql(LAST_NIGHT_MISMATCHES).query(Integer.class).single();
    }

    private BooksSide side(String text) {
        if (text == null) {
            return null;
        }
        JsonNode node = json.readTree(text);
        JsonNode amount = node.get("amount");
        return new BooksSide(node.path("state").isNull() ? null : node.path("state").asString(null),
                amount == null || amount.isNull() ? null : new BigDecimal(amount.asString()),
                node.path("currency").isNull() ? null : node.path("currency").asString(null));
    }

    private Run run(ResultSet rs, int n) throws SQLException {
        return new Run(rs.getObject("id", UUID.class), rs.getObject("window_from", OffsetDateTime.class).toInstant(),
                rs.getObject("window_to", OffsetDateTime.class).toInstant(), rs.getObject("night", LocalDate.class),
                rs.getString("state"), rs.getString("requested_by"),
                rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                rs.getObject("psp_records", Integer.class), rs.getObject("our_records", Integer.class),
                rs.getObject("mismatch_count", Integer.class), rs.getString("failure_reason"));
    }

    record Run(UUID id, Instant from, Instant to, LocalDate night, String state, String requestedBy, Instant createdAt,
            Integer pspRecords, Integer ourRecords, Integer mismatchCount, String failureReason) {
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static String interval(Duration lease) {
        return lease.toMillis() + " milliseconds";
    }
}
