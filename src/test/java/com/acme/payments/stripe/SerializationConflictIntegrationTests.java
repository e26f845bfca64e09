package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.support.Http;
import com.acme.payments.support.TestDatabase;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Real conflicts on the same rows, which READ COMMITTED still meets: inside the event transaction (its
 * claim row locked by the completion mark), an outside transaction takes the user's row and then asks
 * for that claim row; the event transaction then asks for the user's row. PostgreSQL finds the cycle
 * and aborts the event transaction with SQLSTATE 40P01 (the outside session's deadlock_timeout is a
 * minute, so the event's own one-second check is the one that finds it), and the bounded retry runs it
 * again inside the same claim.
 */
class SerializationConflictIntegrationTests extends StripeIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private final String userId = id("user");
    private final String subscriptionId = id("sub");
    private final String eventId = id("evt");
    private final List<Integer> attempts = new CopyOnWriteArrayList<>();
    private final List<SQLException> outsideFailures = new CopyOnWriteArrayList<>();
    private String body;

    @BeforeEach
    void subscribedUser() {
        subscribed(userId, subscriptionId);
        body = renewal(eventId, subscriptionId, userId, 1, "conv_conflict");
    }

    @AfterEach
    void clearHook() {
        hook.clear(eventId);
        assertThat(outsideFailures).isEmpty();
    }

    @Test
    @DisplayName("serialization-conflict-does-not-lose-the-renewal")
    void serializationConflictDoesNotLoseTheRenewal() {
        double retriesBefore = retries();
        hook.beforeWrites(eventId, attempt -> {
            attempts.add(attempt);
            if (attempt == 1) {
                deadlockOn(userId, eventId);
            }
        });

        Http.Response response = deliver(body);

        assertThat(response.status()).isEqualTo(200);
        assertThat(attempts).containsExactly(1, 2); // the first attempt was aborted by PostgreSQL, then retried
        assertThat(retries() - retriesBefore).isEqualTo(1.0);
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).hasSize(2);
        assertThat(eventState(eventId)).isEqualTo("completed");
    }

    @Test
    @DisplayName("exhausted-retries-answer-5xx-and-the-redelivery-lands")
    void exhaustedRetriesAnswer5xxAndTheRedeliveryLands() {
        hook.beforeWrites(eventId, attempt -> {
            attempts.add(attempt);
            deadlockOn(userId, eventId); // every attempt conflicts
        });

        Http.Response exhausted = deliver(body);

        assertThat(exhausted.status()).isBetween(500, 599);
        assertThat(attempts).containsExactly(1, 2, 3);
        assertThat(eventState(eventId)).isNull(); // released, so the redelivery is let in at once
        assertThat(grantCount(subscriptionId)).isEqualTo(1);
        assertThat(credits(userId)).isEqualTo(500);
        assertThat(outboxKeys(eventId)).isEmpty();

        hook.clear(eventId);
        Http.Response redelivery = deliver(body);

        assertThat(redelivery.status()).isEqualTo(200);
        assertThat(redelivery.json().has("duplicate")).isFalse();
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).hasSize(2);
    }

    /**
     * Returns once an outside transaction holds the user's row and waits for this event's claim row
     * (locked by the attempt calling this); the attempt's own write to the user's row closes the cycle.
     */
    private void deadlockOn(String userId, String eventId) {
        try {
            Connection c = TestDatabase.connect();
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET LOCAL deadlock_timeout = '60s'");
            }
            int pid;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                pid = rs.getInt(1);
            }
            try (PreparedStatement lockUser = c.prepareStatement(
                    "UPDATE billing_user SET updated_at = now() WHERE user_id = ?")) {
                lockUser.setString(1, userId);
                assertThat(lockUser.executeUpdate()).isEqualTo(1);
            }
            Thread outside = new Thread(() -> {
                try (c; PreparedStatement claimRow = c.prepareStatement(
                        "UPDATE processed_webhook_events SET claimed_at = claimed_at WHERE id = ?")) {
                    claimRow.setString(1, eventId);
                    claimRow.executeUpdate(); // waits until the event transaction has been aborted
                    c.rollback();
                } catch (SQLException e) {
                    outsideFailures.add(e);
                }
            });
            outside.start();
            awaitWaitingOnALock(pid);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Upper-bound wait (30 s) until the backend waits on a lock; the verdict never depends on the time. */
    private static void awaitWaitingOnALock(int pid) throws SQLException {
        try (Connection c = TestDatabase.connect(); PreparedStatement q = c.prepareStatement(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ? AND wait_event_type = 'Lock'")) {
            q.setInt(1, pid);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    if (rs.getLong(1) == 1) {
                        return;
                    }
                }
                Thread.onSpinWait();
            }
        }
        throw new IllegalStateException("the outside transaction never waited for the claim row");
    }

    private double retries() {
        return meters.counter("stripe.transaction.retries").count();
    }
}
