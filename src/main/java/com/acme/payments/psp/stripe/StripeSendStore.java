package com.acme.payments.psp.stripe;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import com.acme.payments.sweep.Rows;

/**
 * Owns {@code stripe_psp_send}: the Stripe adapter's log of each Idempotency-Key it sent (a checkout
 * attempt's or a refund's reference). A send is recorded, committed, <em>before</em> it goes out, so "last
 * send" is never earlier than a request Stripe may still be executing; the instants are the service's
 * injected clock, the one the reconcile compares them with. Each method is its own short transaction: it is
 * called between network calls, never across one.
 */
@Repository
@Transactional
public class StripeSendStore {

    private static final String RECORD = """
            INSERT INTO stripe_psp_send (reference_id, first_sent_at, last_sent_at)
            VALUES (:referenceId, :at, :at)
            ON CONFLICT (reference_id) DO UPDATE
               SET last_sent_at = greatest(stripe_psp_send.last_sent_at, excluded.last_sent_at),
                   sends = stripe_psp_send.sends + 1
            """;
    private static final String CLOSE_REPLAY = """
            UPDATE stripe_psp_send SET replay_closed_why = :why, replay_closed_at = :at
             WHERE reference_id = :referenceId AND replay_closed_why IS NULL
            """;
    private static final String FIND = "SELECT * FROM stripe_psp_send WHERE reference_id = :referenceId";

    private final JdbcClient jdbc;

    StripeSendStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Records that the key is about to be sent at {@code at}. */
    void recordSend(String referenceId, Instant at) {
        Rows.atMostOne(jdbc.sql(RECORD).param("referenceId", referenceId).param("at", Timestamp.from(at)).update(),
                "stripe_psp_send");
    }

    /** No further replay of this key: Stripe would only answer the same. False when already closed. */
    boolean closeReplay(String referenceId, ReplayClosed why, Instant at) {
        return Rows.atMostOne(jdbc.sql(CLOSE_REPLAY).param("referenceId", referenceId).param("why", why.column())
                .param("at", Timestamp.from(at)).update(), "stripe_psp_send");
    }

    @Transactional(readOnly = true)
    Optional<Send> find(String referenceId) {
        return jdbc.sql(FIND).param("referenceId", referenceId)
                .query((rs, n) -> new Send(rs.getTimestamp("first_sent_at").toInstant(),
                        rs.getTimestamp("last_sent_at").toInstant(), rs.getInt("sends"),
                        rs.getString("replay_closed_why") != null))
                .optional();
    }

    /** One key's sends so far. */
    record Send(Instant firstSentAt, Instant lastSentAt, int sends, boolean replayClosed) {
    }

    /** Why replays of a key ended. */
    enum ReplayClosed {
        /** Stripe answered a replay with a 5xx and {@code Idempotent-Replayed: true}: the stored result is that 5xx. */
        STORED_5XX,
        /** Stripe refused the key for this request (400 {@code idempotency_error}): every replay would be refused. */
        IDEMPOTENCY_ERROR;

        String column() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
