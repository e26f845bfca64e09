package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.invoice;
import static com.acme.payments.stripe.StripeFixtures.month;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http;

import tools.jackson.databind.JsonNode;

class RenewalIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String subscriptionId = id("sub");

    @Test
    @DisplayName("renewal-grants-exactly-once")
    void renewalGrantsExactlyOnce() {
        subscribed(userId, subscriptionId);
        String eventId = id("evt");

        Http.Response response = deliver(renewal(eventId, subscriptionId, userId, 1, "conv_renewal_1"));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().path("received").asBoolean()).isTrue();
        assertThat(response.json().has("duplicate")).isFalse();
        assertThat(grantCount(subscriptionId)).isEqualTo(2); // checkout + the renewed period
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(mirrorPeriodStart(subscriptionId)).isEqualTo(month(1));
        assertThat(outboxKeys(eventId)).containsExactlyInAnyOrder(eventId + ":renewal_notice",
                eventId + ":conversion");
        JsonNode grants = admin().get("/api/billing/subscriptions/" + subscriptionId + "/grants").json();
        assertThat(grants.get(1).path("periodStart").asLong()).isEqualTo(month(1));
        assertThat(grants.get(1).path("periodEnd").asLong()).isEqualTo(month(2));
        assertThat(grants.get(1).path("source").asString()).isEqualTo("webhook");
        assertThat(grants.get(1).path("eventId").asString()).isEqualTo(eventId);
        String payload = jdbc.sql("SELECT payload::text FROM outbox WHERE idempotency_key = :k")
                .param("k", eventId + ":renewal_notice").query(String.class).single();
        assertThat(payload).contains("\"kind\": \"renewal_notice\"", "\"userId\": \"" + userId + "\"",
                "\"subscriptionId\": \"" + subscriptionId + "\"", "\"periodStart\": " + month(1));
    }

    @Test
    @DisplayName("proration-invoice-grants-nothing")
    void prorationInvoiceGrantsNothing() {
        subscribed(userId, subscriptionId);
        String eventId = id("evt");
        String body = event(eventId, "invoice.paid", invoice(id("in"), "subscription_update", subscriptionId, userId,
                month(1), month(2), 1000, "conv_proration"));

        assertThat(deliver(body).status()).isEqualTo(200);

        assertThat(grantCount(subscriptionId)).isEqualTo(1); // the checkout grant only
        assertThat(credits(userId)).isEqualTo(500);
        assertThat(outboxKeys(eventId)).isEmpty();
        assertThat(eventState(eventId)).isEqualTo("completed");
    }

    @Test
    @DisplayName("sequential-redelivery-grants-once")
    void sequentialRedeliveryGrantsOnce() {
        subscribed(userId, subscriptionId);
        String eventId = id("evt");
        String body = renewal(eventId, subscriptionId, userId, 1, "conv_seq");

        assertThat(deliver(body).status()).isEqualTo(200);
        Http.Response second = deliver(body);
        Http.Response third = deliver(body);
        // Stripe may also send the same paid period under a new event id (e.g. a resend): the ledger holds.
        String otherEventId = id("evt");
        Http.Response resend = deliver(renewal(otherEventId, subscriptionId, userId, 1, "conv_seq"));

        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().path("duplicate").asBoolean()).isTrue();
        assertThat(third.json().path("duplicate").asBoolean()).isTrue();
        assertThat(resend.status()).isEqualTo(200);
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).hasSize(2);
        assertThat(outboxKeys(otherEventId)).isEmpty();
    }

    @Test
    @DisplayName("out-of-order-pair-does-not-rewind-state")
    void outOfOrderPairDoesNotRewindState() {
        subscribed(userId, subscriptionId);
        String lateEventId = id("evt");
        String late = renewal(lateEventId, subscriptionId, userId, 1, "conv_m1");
        String early = renewal(id("evt"), subscriptionId, userId, 2, "conv_m2");
        String staleUpdate = event(id("evt"), "customer.subscription.updated", StripeFixtures.subscription(
                subscriptionId, userId, "past_due", month(1), month(2), 1, "price_pro"));

        assertThat(deliver(early).status()).isEqualTo(200); // period 2 arrives first
        assertThat(deliver(late).status()).isEqualTo(200); // then the older period 1
        assertThat(deliver(staleUpdate).status()).isEqualTo(200); // and an update describing period 1

        assertThat(mirrorPeriodStart(subscriptionId)).isEqualTo(month(2));
        assertThat(mirrorStatus(subscriptionId)).isEqualTo("active");
        // the ledger still keeps history: the late period is granted, once
        assertThat(grantCount(subscriptionId)).isEqualTo(3);
        assertThat(outboxKeys(lateEventId)).hasSize(2);
        JsonNode view = admin().get("/api/billing/subscriptions/" + subscriptionId).json();
        assertThat(view.path("currentPeriodStart").asLong()).isEqualTo(month(2));
        assertThat(view.path("currentPeriodEnd").asLong()).isEqualTo(month(3));
    }

    @Test
    @DisplayName("completion-is-recorded-with-the-grant")
    void completionIsRecordedWithTheGrant() {
        subscribed(userId, subscriptionId);
        String eventId = id("evt");
        String[] seenInside = new String[1];
        // Inside the transaction, after the business writes: the completion mark is already part of it.
        hook.afterWrites(eventId, attempt -> seenInside[0] = jdbc.sql(
                "SELECT state FROM processed_webhook_events WHERE id = :id").param("id", eventId)
                .query(String.class).single());

        assertThat(deliver(renewal(eventId, subscriptionId, userId, 1, null)).status()).isEqualTo(200);

        assertThat(seenInside[0]).isEqualTo("completed");
        assertThat(eventState(eventId)).isEqualTo("completed");
        assertThat(jdbc.sql("SELECT completed_at IS NOT NULL FROM processed_webhook_events WHERE id = :id")
                .param("id", eventId).query(Boolean.class).single()).isTrue();
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        hook.clear(eventId);
    }

    @Test
    @DisplayName("duplicate-of-completed-never-regrants")
    void duplicateOfCompletedNeverRegrants() {
        subscribed(userId, subscriptionId);
        String eventId = id("evt");
        String body = renewal(eventId, subscriptionId, userId, 1, "conv_dup");
        assertThat(deliver(body).status()).isEqualTo(200);
        ageClaim(eventId, "1 day"); // far past the claim expiry: age must not turn completed into "take over"

        Http.Response late = deliver(body);

        assertThat(late.status()).isEqualTo(200);
        assertThat(late.json().path("duplicate").asBoolean()).isTrue();
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(outboxKeys(eventId)).hasSize(2);
    }
}
