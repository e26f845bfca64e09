package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.invoice;
import static com.acme.payments.stripe.StripeFixtures.month;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http;

import tools.jackson.databind.JsonNode;

/** "Sync now" against WireMock standing in for the Stripe API; only the grant ledger guards it. */
class ReconciliationIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String subscriptionId = id("sub");

    @BeforeEach
    void stripeKnowsTheSubscription() {
        psp.stubFor(get(urlPathEqualTo("/v1/subscriptions/" + subscriptionId))
                .withHeader("Authorization", equalTo("Bearer sk_test_key"))
                .willReturn(json(StripeFixtures.subscription(subscriptionId, userId, "active", month(2), month(3), 1,
                        "price_pro"))));
        String list = """
                { "object": "list", "url": "/v1/invoices", "has_more": false, "data": [ %s, %s, %s, %s ] }
                """.formatted(
                invoice(id("in"), "subscription_create", subscriptionId, userId, month(0), month(1), 2900, null),
                invoice(id("in"), "subscription_cycle", subscriptionId, userId, month(1), month(2), 2900, "conv_r1"),
                invoice(id("in"), "subscription_update", subscriptionId, userId, month(1), month(2), 1000, null),
                invoice(id("in"), "subscription_cycle", subscriptionId, userId, month(2), month(3), 2900, "conv_r2"));
        psp.stubFor(get(urlPathEqualTo("/v1/invoices")).willReturn(json(list)));
    }

    @Test
    @DisplayName("reconciliation-does-not-regrant")
    void reconciliationDoesNotRegrant() {
        subscribed(userId, subscriptionId);
        String eventId = id("evt");
        assertThat(deliver(renewal(eventId, subscriptionId, userId, 1, "conv_r1")).status()).isEqualTo(200);

        Http.Response sync = admin().post("/api/billing/subscriptions/" + subscriptionId + "/sync", "");

        assertThat(sync.status()).isEqualTo(200);
        assertThat(sync.json().path("granted").values()).extracting(JsonNode::asLong).containsExactly(month(2));
        assertThat(grantCount(subscriptionId)).isEqualTo(3); // checkout, month 1 (webhook), month 2 (sync)
        assertThat(credits(userId)).isEqualTo(1500);

        // a second sync, and the nightly job, grant nothing more
        JsonNode again = admin().post("/api/billing/subscriptions/" + subscriptionId + "/sync", "").json();
        assertThat(again.propertyNames()).containsExactly("granted"); // the shape {"granted":[]}, empty included
        assertThat(again.path("granted").isArray()).isTrue();
        assertThat(again.path("granted").isEmpty()).isTrue();
        assertThat(grantCount(subscriptionId)).isEqualTo(3);
        // and the webhook for the period the sync granted grants nothing either
        String lateEventId = id("evt");
        assertThat(deliver(renewal(lateEventId, subscriptionId, userId, 2, "conv_r2")).status()).isEqualTo(200);
        assertThat(grantCount(subscriptionId)).isEqualTo(3);
        assertThat(credits(userId)).isEqualTo(1500);
        assertThat(outboxKeys(lateEventId)).isEmpty();

        JsonNode grants = admin().get("/api/billing/subscriptions/" + subscriptionId + "/grants").json();
        assertThat(grants.get(2).path("source").asString()).isEqualTo("reconciliation");
        assertThat(grants.get(2).path("periodStart").asLong()).isEqualTo(month(2));
        assertThat(grants.get(2).path("eventId").isNull()).isTrue();
        assertThat(mirrorPeriodStart(subscriptionId)).isEqualTo(month(2));
        psp.verify(getRequestedFor(urlPathEqualTo("/v1/invoices"))
                .withQueryParam("subscription", equalTo(subscriptionId))
                .withQueryParam("status", equalTo("paid")));
    }

    @Test
    @DisplayName("sync of a subscription never seen by a webhook creates the mirror and grants its paid renewals")
    void syncCreatesTheMirror() {
        Http.Response sync = admin().post("/api/billing/subscriptions/" + subscriptionId + "/sync", "");

        assertThat(sync.status()).isEqualTo(200);
        assertThat(sync.json().path("granted").values()).extracting(JsonNode::asLong)
                .containsExactly(month(1), month(2));
        assertThat(credits(userId)).isEqualTo(1000);
        assertThat(mirrorStatus(subscriptionId)).isEqualTo("active");
    }

    @Test
    @DisplayName("sync needs the admin key and answers 404 for a subscription Stripe does not know")
    void syncAuthAndUnknown() {
        psp.stubFor(get(urlPathEqualTo("/v1/subscriptions/sub_unknown")).willReturn(aResponse().withStatus(404)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"error\":{\"type\":\"invalid_request_error\",\"code\":\"resource_missing\"}}")));

        assertThat(http().post("/api/billing/subscriptions/" + subscriptionId + "/sync", "").status()).isEqualTo(401);
        assertThat(http().bearer("test-shop-key").post("/api/billing/subscriptions/" + subscriptionId + "/sync", "")
                .status()).isEqualTo(403);
        assertThat(admin().post("/api/billing/subscriptions/sub_unknown/sync", "").status()).isEqualTo(404);
    }
}
