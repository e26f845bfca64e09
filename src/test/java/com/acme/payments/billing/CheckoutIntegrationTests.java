package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.session;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;

class CheckoutIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String subscriptionId = id("sub");
    private final String sessionId = id("cs");

    @Test
    @DisplayName("unpaid-session-grants-nothing")
    void unpaidSessionGrantsNothing() {
        String eventId = id("evt");
        String body = event(eventId, "checkout.session.completed",
                session(sessionId, "subscription", "unpaid", userId, subscriptionId, null, 2900,
                        "\"conversionEventId\": \"conv_unpaid\""));

        assertThat(deliver(body).status()).isEqualTo(200);

        assertThat(grantCount(subscriptionId)).isZero();
        assertThat(credits(userId)).isZero();
        assertThat(outboxKeys(eventId)).isEmpty();
        assertThat(eventState(eventId)).isEqualTo("completed");

        // the delayed method fails later: still nothing granted, the user is told
        String failedId = id("evt");
        assertThat(deliver(event(failedId, "checkout.session.async_payment_failed",
                session(sessionId, "subscription", "unpaid", userId, subscriptionId, null, 2900, null))).status())
                .isEqualTo(200);
        assertThat(grantCount(subscriptionId)).isZero();
        assertThat(outboxKeys(failedId)).containsExactly(failedId + ":async_payment_failed_notice");
    }

    @Test
    @DisplayName("paid-session-grants-once")
    void paidSessionGrantsOnce() {
        String unpaid = event(id("evt"), "checkout.session.completed",
                session(sessionId, "subscription", "unpaid", userId, subscriptionId, null, 2900, null));
        String succeededId = id("evt");
        String succeeded = event(succeededId, "checkout.session.async_payment_succeeded",
                session(sessionId, "subscription", "paid", userId, subscriptionId, null, 2900, null));
        // a second event about the same paid session (another id): the grant is unique per subscription
        String alsoPaid = event(id("evt"), "checkout.session.completed",
                session(sessionId, "subscription", "paid", userId, subscriptionId, null, 2900, null));

        assertThat(deliver(unpaid).status()).isEqualTo(200);
        assertThat(deliver(succeeded).status()).isEqualTo(200);
        assertThat(deliver(succeeded).json().path("duplicate").asBoolean()).isTrue();
        assertThat(deliver(alsoPaid).status()).isEqualTo(200);

        assertThat(grantCount(subscriptionId)).isEqualTo(1);
        assertThat(credits(userId)).isEqualTo(500);
        JsonNode grants = admin().get("/api/billing/subscriptions/" + subscriptionId + "/grants").json();
        assertThat(grants).hasSize(1);
        assertThat(grants.get(0).path("source").asString()).isEqualTo("checkout");
        assertThat(grants.get(0).path("periodStart").isNull()).isTrue();
        assertThat(grants.get(0).path("eventId").asString()).isEqualTo(succeededId);
        JsonNode user = admin().get("/api/billing/users/" + userId).json();
        assertThat(user.path("credits").asLong()).isEqualTo(500);
        assertThat(user.path("activeSubscriptions").get(0).path("subscriptionId").asString())
                .isEqualTo(subscriptionId);
    }

    @Test
    @DisplayName("paid payment-mode session records the purchase once and adds the product's credits")
    void paidPaymentSessionRecordsPurchaseOnce() {
        String paymentIntentId = id("pi");
        String body = event(id("evt"), "checkout.session.completed", session(sessionId, "payment", "paid", userId,
                null, paymentIntentId, 4999, "\"productId\": \"prod_credits_pack\""));
        String again = event(id("evt"), "checkout.session.completed", session(sessionId, "payment", "paid", userId,
                null, paymentIntentId, 4999, "\"productId\": \"prod_credits_pack\""));

        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(deliver(again).status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(1000);
        JsonNode purchase = admin().get("/api/billing/purchases/" + paymentIntentId).json();
        assertThat(purchase.path("userId").asString()).isEqualTo(userId);
        assertThat(purchase.path("productId").asString()).isEqualTo("prod_credits_pack");
        assertThat(purchase.path("amount").asLong()).isEqualTo(4999);
        assertThat(purchase.path("currency").asString()).isEqualTo("eur");
        assertThat(purchase.path("refundedTotal").asLong()).isZero();
    }

    @Test
    @DisplayName("conversion-id-survives-the-session")
    void conversionIdSurvivesTheSession() {
        String eventId = id("evt");
        String body = event(eventId, "checkout.session.completed", session(sessionId, "subscription", "paid",
                userId, subscriptionId, null, 2900, "\"conversionEventId\": \"conv_from_the_shop_42\""));

        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(deliver(body).status()).isEqualTo(200); // a redelivery changes nothing

        var payloads = jdbc.sql("SELECT payload::text FROM outbox WHERE idempotency_key = :k")
                .param("k", eventId + ":conversion").query(String.class).list();
        assertThat(payloads).hasSize(1);
        assertThat(payloads.get(0)).contains("\"event_id\": \"conv_from_the_shop_42\"",
                "\"event_name\": \"Purchase\"", "\"value\": \"29.00\"", "\"currency\": \"EUR\"",
                "\"source\": \"webhook\"");
    }

    @Test
    @DisplayName("a session without metadata.userId answers 200 and grants nothing")
    void sessionWithoutUserGrantsNothing() {
        String eventId = id("evt");
        String body = event(eventId, "checkout.session.completed",
                session(sessionId, "subscription", "paid", "", subscriptionId, null, 2900, null));

        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(grantCount(subscriptionId)).isZero();
        assertThat(admin().get("/api/billing/subscriptions/" + subscriptionId).status()).isEqualTo(404);
    }
}
