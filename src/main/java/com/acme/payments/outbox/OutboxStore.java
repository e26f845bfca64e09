package com.acme.payments.outbox;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import tools.jackson.databind.json.JsonMapper;

/**
 * The one writer of {@code outbox} and {@code outbox_dedup} (TableOwnershipTests): the business write's
 * enqueue, the relay's claim and fenced settling writes, the operators' redrive, discard and resend, pruning.
 * The two tables share one owner because the relay's settling statements write both in one statement
 * (a row and its key move together). Readers: {@link OutboxAdminStore} (listing) and
 * {@link OutboxStatsStore} (gauges). The database's {@code now()} is the only clock for leases and retry
 * times, so instances with skewed clocks agree.
 */
@Repository
@Transactional
public class OutboxStore {

    private static final String INSERT = """
            INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
            VALUES (:kind, :aggregateType, :aggregateId, :idempotencyKey, CAST(:payload AS jsonb), :traceParent)
            """;
    /**
     * Two effects in one statement (a PAID move's {@code order_paid} and its shop event): one round trip and one
     * execution instead of two; ids in row order. A VALUES list: cheaper to plan and run than unnesting arrays.
     */
    private static final String INSERT_TWO = """
            INSERT INTO outbox (kind, aggregate_type, aggregate_id, idempotency_key, payload, trace_parent)
            VALUES (:kind, :aggregateType, :aggregateId, :idempotencyKey, CAST(:payload AS jsonb), :traceParent),
                   (:kind2, :aggregateType2, :aggregateId2, :idempotencyKey2, CAST(:payload2 AS jsonb), :traceParent)
            """;

    /**
     * One statement: pick due rows whose aggregate has no older open (pending or dead) row going to the
     * same sink, skip rows another relay has locked, and lease them. A discarded row is settled: it holds
     * nothing back (that is what an operator discards a dead row for). Ordering is per aggregate AND sink
     * (the contract): a row whose sink is not configured, or is failing, holds back only that sink's
     * younger rows of its aggregate. {@code route} is every known kind with its sink; a kind no sink
     * knows holds back nothing. next_attempt_at moves to the lease expiry, so a leased row is simply
     * "not due" until its holder settles it or the lease runs out.
     */
    private static final String CLAIM = """
            WITH route AS (
                SELECT r.kind, r.sink FROM unnest(CAST(:routeKinds AS text[]), CAST(:routeSinks AS text[])) AS r(kind, sink))
            UPDATE outbox o
               SET lease_version = o.lease_version + 1,
                   lease_owner = :owner,
                   lease_until = now() + make_interval(secs => :leaseSeconds),
                   next_attempt_at = now() + make_interval(secs => :leaseSeconds)
             WHERE o.id IN (
                   SELECT c.id
                     FROM outbox c
                     JOIN route rc ON rc.kind = c.kind
                    WHERE c.state = 'pending'
                      AND c.next_attempt_at <= now()
                      AND c.kind IN (:kinds)
                      AND NOT EXISTS (
                          SELECT 1 FROM outbox b
                            JOIN route rb ON rb.kind = b.kind
                           WHERE b.aggregate_type = c.aggregate_type
                             AND b.aggregate_id = c.aggregate_id
                             AND b.id < c.id
                             AND b.state IN ('pending', 'dead')
                             AND rb.sink = rc.sink)
                    ORDER BY c.next_attempt_at, c.id
                    LIMIT :batchSize
                      FOR UPDATE OF c SKIP LOCKED)
            RETURNING o.id, o.kind, o.aggregate_type, o.aggregate_id, o.idempotency_key,
                      o.payload::text AS payload, o.lease_version, o.attempts, o.created_at, o.trace_parent
            """;

    /**
     * Takes the dedup key of each claimed row: a new key, or a 'sending' key whose holder is gone — its
     * lease ran out AND its relay's session lock is free (see {@link RelaySession}; our own expired keys
     * are ours to retake). A slow holder that is still alive keeps its key however late it is. Keys are
     * inserted in key order so two relays never wait on each other in a cycle; DISTINCT ON keeps one
     * row per key when a batch holds two rows with the same key. {@code taken_over}: the key existed
     * (xmax is set by the update), so an earlier send of it may have reached the sink.
     */
    private static final String CLAIM_KEYS = """
            INSERT INTO outbox_dedup AS d (idempotency_key, state, outbox_id, lease_version, lease_until, claimed_at,
                                           holder)
            SELECT DISTINCT ON (o.idempotency_key) o.idempotency_key, 'sending', o.id, o.lease_version,
                   o.lease_until, now(), :holder
              FROM outbox o
             WHERE o.id = ANY (CAST(:ids AS bigint[]))
             ORDER BY o.idempotency_key, o.id
            ON CONFLICT (idempotency_key) DO UPDATE
               SET outbox_id = EXCLUDED.outbox_id,
                   lease_version = EXCLUDED.lease_version,
                   lease_until = EXCLUDED.lease_until,
                   claimed_at = EXCLUDED.claimed_at,
                   holder = EXCLUDED.holder
             WHERE d.state = 'sending' AND d.lease_until < now()
               AND (d.holder IS NULL OR d.holder = :holder
                    OR pg_try_advisory_xact_lock(:lockNamespace, d.holder))
            RETURNING d.outbox_id, NOT (d.xmax = 0) AS taken_over
            """;

    private static final String SETTLE_DUPLICATES = """
            UPDATE outbox o
               SET state = 'delivered', settled_as = 'duplicate', delivered_at = now(),
                   lease_owner = NULL, lease_until = NULL
              FROM outbox_dedup d
             WHERE o.id IN (:ids)
               AND d.idempotency_key = o.idempotency_key
               AND d.state = 'sent'
            RETURNING o.id, o.kind
            """;

    /** Hands a row back at once, without counting an attempt; drops its dedup key if this lease holds it. */
    private static final String RELEASE = """
            WITH released AS (
                UPDATE outbox
                   SET lease_owner = NULL, lease_until = NULL, next_attempt_at = now()
                 WHERE id = :id AND state = 'pending' AND lease_version = :leaseVersion
                RETURNING id, idempotency_key),
            freed AS (
                DELETE FROM outbox_dedup d
                 USING released r
                 WHERE d.idempotency_key = r.idempotency_key AND d.outbox_id = r.id
                   AND d.lease_version = :leaseVersion AND d.state = 'sending')
            SELECT count(*) FROM released
            """;

    /**
     * Busy rows were claimed in this transaction: hand them back with the lease version they had, so
     * the relay that holds the key (slow, not dead) can still settle its row with its own fence.
     */
    private static final String RELEASE_BUSY = """
            UPDATE outbox
               SET lease_version = lease_version - 1, lease_owner = NULL, lease_until = NULL,
                   next_attempt_at = now() + make_interval(secs => :delaySeconds)
             WHERE id IN (:ids) AND state = 'pending'
            """;

    /**
     * The sink said 2xx: each row is delivered and its key sent, in one statement for a batch's rows.
     * Each row is fenced by its own (id, lease_version) pair. The pairs go as two arrays, so the text is
     * the same for every batch size and the server keeps one prepared plan.
     */
    private static final String MARK_SENT = """
            WITH claim AS (
                SELECT c.id, c.lease_version
                  FROM unnest(CAST(:ids AS bigint[]), CAST(:leaseVersions AS bigint[])) AS c(id, lease_version)),
            done AS (
                UPDATE outbox o
                   SET state = 'delivered', settled_as = 'sent', delivered_at = now(),
                       lease_owner = NULL, lease_until = NULL, last_error = NULL
                  FROM claim
                 WHERE o.id = claim.id AND o.lease_version = claim.lease_version AND o.state = 'pending'
                RETURNING o.id, o.idempotency_key, o.lease_version, coalesce(o.resent_at, o.created_at) AS due_since),
            sent AS (
                UPDATE outbox_dedup d
                   SET state = 'sent', sent_at = now(), lease_until = NULL
                  FROM done
                 WHERE d.idempotency_key = done.idempotency_key AND d.outbox_id = done.id
                   AND d.lease_version = done.lease_version AND d.state = 'sending')
            SELECT done.id, extract(epoch FROM clock_timestamp() - done.due_since) AS latency_seconds
              FROM done
            """;

    /**
     * The call failed: count the attempt, retry later or park dead (since now: what a bulk redrive's
     * {@code deadSince} compares), and free the key for a retry. Dead once the row has failed for longer
     * than the horizon, counted from its first failed try (not its creation: time spent waiting behind
     * its stream or for a sink to be configured is not failing), or at {@code maxAttempts} when that is
     * above 0.
     */
    private static final String MARK_FAILED = """
            WITH failed AS (
                UPDATE outbox
                   SET attempts = attempts + 1,
                       last_error = :error,
                       first_failed_at = coalesce(first_failed_at, now()),
                       state = CASE WHEN (:maxAttempts > 0 AND attempts + 1 >= :maxAttempts)
                                      OR now() - coalesce(first_failed_at, now())
                                         > make_interval(secs => :horizonSeconds)
                                    THEN 'dead' ELSE 'pending' END,
                       dead_at = CASE WHEN (:maxAttempts > 0 AND attempts + 1 >= :maxAttempts)
                                        OR now() - coalesce(first_failed_at, now())
                                           > make_interval(secs => :horizonSeconds)
                                      THEN now() END,
                       next_attempt_at = now() + make_interval(secs => :delaySeconds),
                       lease_owner = NULL, lease_until = NULL
                 WHERE id = :id AND state = 'pending' AND lease_version = :leaseVersion
                RETURNING id, idempotency_key, state),
            freed AS (
                DELETE FROM outbox_dedup d
                 USING failed
                 WHERE d.idempotency_key = failed.idempotency_key AND d.outbox_id = failed.id
                   AND d.lease_version = :leaseVersion AND d.state = 'sending')
            SELECT state FROM failed
            """;

    /** Only a dead row is re-driven: it starts again with a fresh attempt count and horizon, due now. */
    private static final String REDRIVE = """
            UPDATE outbox
               SET state = 'pending', attempts = 0, first_failed_at = NULL, next_attempt_at = now(),
                   redriven_at = now(), dead_at = NULL, lease_owner = NULL, lease_until = NULL
             WHERE id = :id AND state = 'dead'
            """;

    /**
     * One batch of a bulk redrive, in id order after {@code afterId} (a row that dies again while the
     * redrive runs is not taken twice). A row parked by code older than V324 has no dead_at: it counts
     * as dead since its last scheduled attempt. The outer state test re-checks each row under its lock.
     */
    private static final String REDRIVE_MATCHING = """
            UPDATE outbox
               SET state = 'pending', attempts = 0, first_failed_at = NULL, next_attempt_at = now(),
                   redriven_at = now(), dead_at = NULL, lease_owner = NULL, lease_until = NULL
             WHERE state = 'dead'
               AND id IN (SELECT id FROM outbox
                           WHERE state = 'dead' AND id > :afterId
                             AND (:allKinds OR kind = ANY (CAST(:kinds AS text[])))
                             AND coalesce(dead_at, next_attempt_at) >= :deadSince
                           ORDER BY id
                           LIMIT :batchSize)
            RETURNING id
            """;

    /**
     * A delivered row is sent once more through the relay's normal path: pending again with a fresh attempt
     * count and horizon, due now, and its key's 'sent' record forgotten (otherwise the claim would settle it
     * as a duplicate). Same key and payload, so the same body; the signature is made at send time. Only a
     * row this service sent itself: a 'duplicate' row never went out. While pending it holds back the
     * younger rows of its stream like any other.
     */
    private static final String RESEND = """
            WITH resent AS (
                UPDATE outbox
                   SET state = 'pending', settled_as = NULL, delivered_at = NULL, attempts = 0, last_error = NULL,
                       first_failed_at = NULL, next_attempt_at = now(), resent_at = now(), dead_at = NULL,
                       lease_owner = NULL, lease_until = NULL
                 WHERE id = :id AND state = 'delivered' AND settled_as = 'sent'
                RETURNING id, idempotency_key),
            forgotten AS (
                DELETE FROM outbox_dedup d
                 USING resent r
                 WHERE d.idempotency_key = r.idempotency_key AND d.state = 'sent')
            SELECT count(*) FROM resent
            """;

    /** Settles a dead row without sending it; the rows behind it in its stream go on. */
    private static final String DISCARD = """
            UPDATE outbox
               SET state = 'discarded', discarded_at = now(), discarded_by = :actor, discard_reason = :reason
             WHERE id = :id AND state = 'dead'
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

    /** How a failed delivery was recorded. */
    enum Failure {
        RETRY_LATER, DEAD, LEASE_LOST
    }

    /**
     * When a failing row is parked dead: after failing for longer than {@code horizon}, or at
     * {@code maxAttempts} attempts when that is above 0.
     */
    record GiveUp(int maxAttempts, Duration horizon) {
    }

    /** Which dead rows a bulk redrive takes: those of {@code kinds} (or of every kind) dead since then. */
    record DeadFilter(boolean allKinds, List<String> kinds, Instant deadSince) {
    }

    /** One batch's count and the highest id it took (the next batch starts after it). */
    record Batch(int rows, long lastId) {
    }

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final DeliveryTrace trace;

    OutboxStore(JdbcClient jdbc, JsonMapper json, DeliveryTrace trace) {
        this.jdbc = jdbc;
        this.json = json;
        this.trace = trace;
    }

    /** Adds the effect to the current transaction; it is delivered only if that transaction commits. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void enqueue(OutboxEntry entry) {
        enqueue(List.of(entry));
    }

    /**
     * Adds the effects to the current transaction, in the order given, two to a statement; they are delivered
     * only if that transaction commits.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void enqueue(List<OutboxEntry> entries) {
        // the writer's trace, continued by the relay when it delivers (DeliveryTrace)
        String traceParent = entries.isEmpty() ? null : trace.current();
        for (int i = 0; i < entries.size(); i += 2) {
            boolean two = i + 1 < entries.size();
            JdbcClient.StatementSpec insert = bind(two ? jdbc.sql(INSERT_TWO) : jdbc.sql(INSERT), "", entries.get(i))
                    .param("traceParent", traceParent);
            if (two) {
                insert = bind(insert, "2", entries.get(i + 1));
            }
            int rows = insert.update();
            if (rows != (two ? 2 : 1)) {
                throw new IllegalStateException("outbox insert wrote " + rows + " rows");
            }
        }
    }

    private JdbcClient.StatementSpec bind(JdbcClient.StatementSpec insert, String row, OutboxEntry entry) {
        return insert.param("kind" + row, entry.kind())
                .param("aggregateType" + row, entry.aggregateType())
                .param("aggregateId" + row, entry.aggregateId())
                .param("idempotencyKey" + row, entry.idempotencyKey())
                .param("payload" + row, payloadOf(entry));
    }

    /** The payload as JSON text: a JSON object, whatever value carried it (a map, a view record). */
    private String payloadOf(OutboxEntry entry) {
        String text = json.writeValueAsString(entry.payload());
        if (!text.startsWith("{")) {
            throw new IllegalArgumentException("an outbox payload is a JSON object, not " + entry.payload().getClass());
        }
        return text;
    }

    /**
     * Leases up to {@code batchSize} due rows of routable kinds and takes their dedup keys, all in one
     * transaction that commits before any HTTP call. Rows whose key was already sent are settled as
     * duplicates here; rows whose key another live lease holds are handed back for {@code busyDelay}.
     */
    ClaimedBatch claim(String owner, int holder, int batchSize, Duration lease, List<String> kinds,
            Duration busyDelay) {
        if (kinds.isEmpty()) {
            return ClaimedBatch.EMPTY;
        }
        List<ClaimedEffect> claimed = jdbc.sql(CLAIM)
                .param("routeKinds", SinkRoutes.sinkByKind().keySet().toArray(String[]::new))
                .param("routeSinks", SinkRoutes.sinkByKind().values().toArray(String[]::new))
                .param("owner", owner)
                .param("leaseSeconds", seconds(lease))
                .param("kinds", kinds)
                .param("batchSize", batchSize)
                .query(OutboxStore::effect)
                .list();
        if (claimed.isEmpty()) {
            return ClaimedBatch.EMPTY;
        }
        Set<Long> keyHolders = new HashSet<>();
        Set<Long> takenOverIds = new HashSet<>();
        jdbc.sql(CLAIM_KEYS)
                .param("ids", claimed.stream().map(ClaimedEffect::id).toArray(Long[]::new))
                .param("holder", holder)
                .param("lockNamespace", RelaySession.LOCK_NAMESPACE)
                .query((rs, n) -> {
                    keyHolders.add(rs.getLong("outbox_id"));
                    if (rs.getBoolean("taken_over")) {
                        takenOverIds.add(rs.getLong("outbox_id"));
                    }
                    return null;
                })
                .list();
        List<ClaimedEffect> takenOver = claimed.stream().filter(e -> takenOverIds.contains(e.id())).toList();
        List<ClaimedEffect> toDeliver = new ArrayList<>();
        List<Long> withoutKey = new ArrayList<>();
        for (ClaimedEffect effect : claimed) {
            if (keyHolders.contains(effect.id())) {
                toDeliver.add(effect);
            } else {
                withoutKey.add(effect.id());
            }
        }
        if (withoutKey.isEmpty()) {
            return new ClaimedBatch(toDeliver, List.of(), List.of(), takenOver);
        }
        List<Long> duplicateIds = new ArrayList<>();
        List<String> duplicateKinds = new ArrayList<>();
        jdbc.sql(SETTLE_DUPLICATES).param("ids", withoutKey).query((rs, n) -> {
            duplicateIds.add(rs.getLong("id"));
            duplicateKinds.add(rs.getString("kind"));
            return null;
        }).list();
        List<Long> busy = new ArrayList<>(withoutKey);
        busy.removeAll(duplicateIds);
        if (!busy.isEmpty()) {
            int released = jdbc.sql(RELEASE_BUSY)
                    .param("ids", busy)
                    .param("delaySeconds", seconds(busyDelay))
                    .update();
            if (released != busy.size()) {
                throw new IllegalStateException("released " + released + " of " + busy.size() + " busy rows");
            }
        }
        List<String> busyKinds = claimed.stream().filter(e -> busy.contains(e.id())).map(ClaimedEffect::kind).toList();
        return new ClaimedBatch(toDeliver, duplicateKinds, busyKinds, takenOver);
    }

    /**
     * Records the sink's acceptance of one row. Empty when the lease was lost (another relay owns the
     * row now). The latency is measured on the database clock, from the row's commit-time created_at.
     */
    Optional<Duration> markSent(ClaimedEffect effect) {
        return Optional.ofNullable(markSent(List.of(effect)).get(effect.id()));
    }

    /**
     * Records several acceptances in one statement; returns latency by row id, for rows still ours.
     * {@code SUPPORTS}: alone, the one statement is its own transaction (no COMMIT round trip).
     */
    @Transactional(propagation = Propagation.SUPPORTS)
    Map<Long, Duration> markSent(List<ClaimedEffect> effects) {
        Map<Long, Duration> latencies = new HashMap<>();
        if (effects.isEmpty()) {
            return latencies;
        }
        Long[] ids = new Long[effects.size()];
        Long[] leaseVersions = new Long[effects.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = effects.get(i).id();
            leaseVersions[i] = effects.get(i).leaseVersion();
        }
        jdbc.sql(MARK_SENT).param("ids", ids).param("leaseVersions", leaseVersions)
                .query((rs, n) -> latencies.put(rs.getLong("id"),
                        Duration.ofNanos((long) (rs.getDouble("latency_seconds") * 1e9))))
                .list();
        return latencies;
    }

    /** One statement, its own transaction ({@code SUPPORTS}, as {@link #markSent(List)}). */
    @Transactional(propagation = Propagation.SUPPORTS)
    Failure markFailed(ClaimedEffect effect, String error, Duration retryDelay, GiveUp giveUp) {
        List<String> states = jdbc.sql(MARK_FAILED)
                .param("id", effect.id())
                .param("leaseVersion", effect.leaseVersion())
                .param("error", error)
                .param("maxAttempts", giveUp.maxAttempts())
                .param("horizonSeconds", seconds(giveUp.horizon()))
                .param("delaySeconds", seconds(retryDelay))
                .query(String.class)
                .list();
        if (states.isEmpty()) {
            return Failure.LEASE_LOST;
        }
        if (states.size() > 1) {
            throw new IllegalStateException("failure record touched " + states.size() + " rows");
        }
        return "dead".equals(states.get(0)) ? Failure.DEAD : Failure.RETRY_LATER;
    }

    /**
     * Hands a row back unsent (shutdown, lease nearly over). False when the lease was already lost. One
     * statement, its own transaction ({@code SUPPORTS}).
     */
    @Transactional(propagation = Propagation.SUPPORTS)
    boolean release(ClaimedEffect effect) {
        long released = jdbc.sql(RELEASE)
                .param("id", effect.id())
                .param("leaseVersion", effect.leaseVersion())
                .query(Long.class)
                .single();
        if (released > 1) {
            throw new IllegalStateException("release touched " + released + " rows");
        }
        return released == 1;
    }

    /** Re-drives one dead row; false when the row is not dead or does not exist (the caller tells which). */
    boolean redrive(long id) {
        return single(jdbc.sql(REDRIVE).param("id", id).update(), "redrive");
    }

    /** Puts one delivered row back in line to be sent again; false when it was not sent or does not exist. */
    boolean resend(long id) {
        long resent = jdbc.sql(RESEND).param("id", id).query(Long.class).single();
        return single((int) resent, "resend");
    }

    /** Discards one dead row; false when the row is not dead or does not exist (the caller tells which). */
    boolean discard(long id, String actor, String reason) {
        return single(jdbc.sql(DISCARD).param("id", id).param("actor", actor).param("reason", reason).update(),
                "discard");
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

    private static boolean single(int rows, String what) {
        if (rows > 1) {
            throw new IllegalStateException(what + " touched " + rows + " rows");
        }
        return rows == 1;
    }

    private static ClaimedEffect effect(ResultSet rs, int row) throws SQLException {
        return new ClaimedEffect(rs.getLong("id"), rs.getString("kind"), rs.getString("aggregate_type"),
                rs.getString("aggregate_id"), rs.getString("idempotency_key"), rs.getString("payload"),
                rs.getLong("lease_version"), rs.getInt("attempts"),
                rs.getObject("created_at", OffsetDateTime.class).toInstant(), rs.getString("trace_parent"));
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }
}
