package com.acme.payments.stripe;

import static com.acme.payments.stripe.StripeFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import com.acme.payments.retention.Retentions;

class ProcessedEventSweeperIntegrationTests extends StripeIntegrationTest {

    @Autowired
    Retentions retentions;

    @Test
    void prunesOnlyCompletedRowsOlderThanTheRetention() {
        String old = insert("completed", "31 days");
        String recent = insert("completed", "29 days");
        String stuck = insert("processing", "40 days");

        retentions.run(ProcessedEventSweeper.JOB);

        assertThat(eventState(old)).isNull();
        assertThat(eventState(recent)).isEqualTo("completed");
        assertThat(eventState(stuck)).isEqualTo("processing"); // the claim expiry owns these, never the prune
    }

    private String insert(String state, String age) {
        String eventId = id("evt");
        jdbc.sql("""
                INSERT INTO processed_webhook_events (id, source, event_type, state, claim_token, claimed_at,
                                                      completed_at)
                VALUES (:id, 'stripe', 'invoice.paid', :state, 'token', now() - CAST(:age AS interval),
                        CASE WHEN :state = 'completed' THEN now() - CAST(:age AS interval) END)
                """).param("id", eventId).param("state", state).param("age", age).update();
        return eventId;
    }
}
