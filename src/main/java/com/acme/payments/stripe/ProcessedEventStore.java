package com.acme.payments.stripe;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.common.web.Secrets;

/**
 * The idempotency store of Stripe events: receipt ({@code processing}) is not completion
 * ({@code completed}). The database's {@code now()} is the only clock here, so every instance agrees
 * on a claim's age. Each claim carries a fresh token; completion and release check it, so a worker
 * that lost its claim to a takeover can neither complete nor release the new owner's claim.
 */
@Repository
@Transactional
class ProcessedEventStore {

    /**
     * The claim in one statement: the insert, or else the conflicting row's state as the statement's snapshot
     * saw it ({@code claimed} when the insert won). No row: the conflicting row committed after the snapshot
     * was taken, or was released in between; the caller asks again.
     */
    private static final String CLAIM = """
            WITH claimed AS (
                INSERT INTO processed_webhook_events (id, source, event_type, claim_token)
                VALUES (:id, 'stripe', :type, :token)
                ON CONFLICT (id) DO NOTHING
                RETURNING id)
            SELECT 'claimed' AS state, false AS expired, 0::bigint AS seconds_left FROM claimed
            UNION ALL
            SELECT state,
                   claimed_at < now() - :expiryMs * INTERVAL '1 millisecond' AS expired,
                   CEIL(EXTRACT(EPOCH FROM (claimed_at + :expiryMs * INTERVAL '1 millisecond' - now())))::bigint
                       AS seconds_left
            FROM processed_webhook_events
            WHERE id = :id AND NOT EXISTS (SELECT 1 FROM claimed)
            """;
    private static final String TAKE_OVER = """
            UPDATE processed_webhook_events
            SET claimed_at = now(), claim_token = :token
            WHERE id = :id AND state = 'processing'
              AND claimed_at < now() - :expiryMs * INTERVAL '1 millisecond'
            """;
    private static final String COMPLETE = """
            UPDATE processed_webhook_events
            SET state = 'completed', completed_at = now()
            WHERE id = :id AND state = 'processing' AND claim_token = :token
            """;
    private static final String RELEASE = """
            DELETE FROM processed_webhook_events
            WHERE id = :id AND state = 'processing' AND claim_token = :token
            """;
    private static final String PRUNE = """
            DELETE FROM processed_webhook_events
            WHERE id IN (SELECT id FROM processed_webhook_events
                         WHERE state = 'completed'
                           AND completed_at < now() - :retentionMs * INTERVAL '1 millisecond'
                         LIMIT :batch
                         FOR UPDATE SKIP LOCKED)
            """;

    /** A faulted event, kept once: a redelivery of the same bytes finds its row and changes nothing. */
    private static final String FAULT = """
            INSERT INTO processed_webhook_events (id, source, event_type, state, claim_token, fault_reason)
            VALUES (:id, 'stripe', :type, 'faulted', :token, :reason)
            ON CONFLICT (id) DO NOTHING
            """;
    private static final String LIST = """
            SELECT id, event_type, state, fault_reason, claimed_at, completed_at
            FROM processed_webhook_events
            WHERE state = :state
            ORDER BY claimed_at DESC, id
            LIMIT :limit
            """;

    private static final int CLAIM_ROUNDS = 3;

    private final JdbcClient jdbc;
    private final long expiryMs;

    ProcessedEventStore(JdbcClient jdbc, StripeProperties properties) {
        this.jdbc = jdbc;
        this.expiryMs = properties.claimExpiry().toMillis();
    }

    /**
     * Claims the event. A conflicting row answers by its state, never by its mere existence:
     * completed → duplicate; processing inside the expiry → in flight; processing past the expiry →
     * taken over by one conditional update (one row: ours; zero: somebody beat us, read again). Outside
     * any transaction: each statement commits alone (one round trip for a new event or a duplicate, no
     * COMMIT), which is all a claim needs, as the takeover is a conditional update of its own.
     */
    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    Claim claim(String eventId, String eventType) {
        for (int round = 0; round < CLAIM_ROUNDS; round++) {
            String token = Secrets.newToken();
            Optional<Existing> existing = jdbc.sql(CLAIM).param("id", eventId).param("type", eventType)
                    .param("token", token).param("expiryMs", expiryMs)
                    .query((rs, n) -> new Existing(rs.getString("state"), rs.getBoolean("expired"),
                            rs.getLong("seconds_left")))
                    .optional();
            if (existing.isEmpty()) {
                continue; // committed after our snapshot, or released in between: claim again
            }
            Existing row = existing.get();
            if (row.state().equals("claimed")) {
                return new Claim(Claim.Status.CLAIMED, eventId, token, 0);
            }
            if (row.state().equals("completed") || row.state().equals("faulted")) {
                return new Claim(Claim.Status.DUPLICATE, eventId, null, 0);
            }
            if (!row.expired()) {
                return new Claim(Claim.Status.IN_FLIGHT, eventId, null, row.secondsLeft());
            }
            int taken = jdbc.sql(TAKE_OVER).param("id", eventId).param("token", token).param("expiryMs", expiryMs)
                    .update();
            if (taken == 1) {
                return new Claim(Claim.Status.TAKEN_OVER, eventId, token, 0);
            }
            if (taken > 1) {
                throw new IllegalStateException("takeover of " + eventId + " updated " + taken + " rows");
            }
            // zero rows: another worker took it over or completed it first; read the new state
        }
        return new Claim(Claim.Status.IN_FLIGHT, eventId, null, 1);
    }

    /** The completion mark; joins the business transaction, so completed means the business write committed. */
    @Transactional(propagation = Propagation.MANDATORY)
    boolean complete(Claim claim) {
        int rows = jdbc.sql(COMPLETE).param("id", claim.eventId()).param("token", claim.token()).update();
        if (rows > 1) {
            throw new IllegalStateException("completion of " + claim.eventId() + " updated " + rows + " rows");
        }
        return rows == 1;
    }

    /** Gives the event back after a failure so the redelivery is let in; only our own processing claim. */
    boolean release(Claim claim) {
        int rows = jdbc.sql(RELEASE).param("id", claim.eventId()).param("token", claim.token()).update();
        if (rows > 1) {
            throw new IllegalStateException("release of " + claim.eventId() + " deleted " + rows + " rows");
        }
        return rows == 1;
    }

    /**
     * Records a signed event that cannot be stored as {@code faulted}, with why; {@code id} and {@code reason}
     * must already be storable text. False when the id was already known (a redelivery).
     */
    @Transactional(propagation = Propagation.NOT_SUPPORTED)
    boolean fault(String id, String type, String reason) {
        return jdbc.sql(FAULT).param("id", id).param("type", type).param("token", Secrets.newToken())
                .param("reason", reason).update() == 1;
    }

    /** The newest events in one state ({@code processing}, {@code completed} or {@code faulted}), for operators. */
    @Transactional(readOnly = true)
    List<Recorded> list(String state, int limit) {
        return jdbc.sql(LIST).param("state", state).param("limit", limit)
                .query((rs, n) -> new Recorded(rs.getString("id"), rs.getString("event_type"), rs.getString("state"),
                        rs.getString("fault_reason"), rs.getTimestamp("claimed_at").toInstant(),
                        rs.getTimestamp("completed_at") == null ? null : rs.getTimestamp("completed_at").toInstant()))
                .list();
    }

    /** One row of the store as operators see it. */
    record Recorded(String id, String type, String state, String reason, Instant receivedAt, Instant completedAt) {
    }

    /** Deletes one batch of completed rows older than the retention; returns how many. */
    int pruneCompleted(Duration retention, int batch) {
        return jdbc.sql(PRUNE).param("retentionMs", retention.toMillis()).param("batch", batch).update();
    }

    private record Existing(String state, boolean expired, long secondsLeft) {
    }

    /** The answer of a claim; {@code token} is set when the event is ours to process. */
    record Claim(Status status, String eventId, String token, long secondsLeft) {

        enum Status {
            CLAIMED, TAKEN_OVER, DUPLICATE, IN_FLIGHT
        }

        boolean ours() {
            return status == Status.CLAIMED || status == Status.TAKEN_OVER;
        }
    }
}
