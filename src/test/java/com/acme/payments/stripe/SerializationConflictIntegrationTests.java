package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
 * Real PostgreSQL serialization failures: after the event transaction has taken its snapshot, the test
 * commits a conflicting write to the same user row on its own connection; the SERIALIZABLE business
 * transaction then fails with SQLSTATE 40001 when it writes that row.
 */
class SerializationConflictIntegrationTests extends StripeIntegrationTest {

    @Autowired
    MeterRegistry meters;

    private final String userId = id("user");
    private final String subscriptionId = id("sub");
    private final String eventId = id("evt");
    private final List<Integer> attempts = new CopyOnWriteArrayList<>();
    private String body;

    @BeforeEach
    void subscribedUser() {
        subscribed(userId, subscriptionId);
        body = renewal(eventId, subscriptionId, userId, 1, "conv_conflict");
    }

    @AfterEach
    void clearHook() {
        hook.clear(eventId);
    }

    @Test
    @DisplayName("serialization-conflict-does-not-lose-the-renewal")
    void serializationConflictDoesNotLoseTheRenewal() {
        double retriesBefore = retries();
        hook.beforeWrites(eventId, attempt -> {
            attempts.add(attempt);
            if (attempt == 1) {
                concurrentWriteTo(userId);
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
            concurrentWriteTo(userId); // every attempt conflicts
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

    /** A committed write to the user's row from outside the event transaction (autocommit, own connection). */
    private static void concurrentWriteTo(String userId) {
        try (Connection c = TestDatabase.connect();
                PreparedStatement update = c.prepareStatement(
                        "UPDATE billing_user SET updated_at = now() WHERE user_id = ?")) {
            update.setString(1, userId);
            assertThat(update.executeUpdate()).isEqualTo(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private double retries() {
        return meters.counter("stripe.transaction.retries").count();
    }
}
