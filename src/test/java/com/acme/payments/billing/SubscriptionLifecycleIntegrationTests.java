package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.month;
import static com.acme.payments.stripe.StripeFixtures.subscription;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import tools.jackson.databind.JsonNode;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;

/** Payment failures, subscription updates and the teardown. */
class SubscriptionLifecycleIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String subscriptionId = id("sub");

    @BeforeEach
    void subscribedUser() {
        subscribed(userId, subscriptionId);
        assertThat(deliver(renewal(id("evt"), subscriptionId, userId, 1, null)).status()).isEqualTo(200);
    }

    @Test
    void paymentFailureMarksPastDueAndNotifiesButNeverCancels() {
        String eventId = id("evt");
        String failed = event(eventId, "invoice.payment_failed", StripeFixtures.invoice(id("in"),
                "subscription_cycle", subscriptionId, userId, month(2), month(3), 0, null));

        assertThat(deliver(failed).status()).isEqualTo(200);

        assertThat(mirrorStatus(subscriptionId)).isEqualTo("past_due");
        assertThat(outboxKeys(eventId)).containsExactly(eventId + ":payment_failed_notice");
        String payload = jdbc.sql("SELECT payload::text FROM outbox WHERE idempotency_key = :k")
                .param("k", eventId + ":payment_failed_notice").query(String.class).single();
        assertThat(payload).contains("\"portalUrl\": \"https://invoice.stripe.com/");

        // the retried payment succeeds: the period is granted and access is active again
        assertThat(deliver(renewal(id("evt"), subscriptionId, userId, 2, null)).status()).isEqualTo(200);
        assertThat(mirrorStatus(subscriptionId)).isEqualTo("active");
        assertThat(credits(userId)).isEqualTo(1500);
    }

    @Test
    void aLateFailureForAPaidPeriodChangesNothing() {
        String eventId = id("evt");
        String failedForPaidPeriod = event(eventId, "invoice.payment_failed", StripeFixtures.invoice(id("in"),
                "subscription_cycle", subscriptionId, userId, month(1), month(2), 0, null));

        assertThat(deliver(failedForPaidPeriod).status()).isEqualTo(200);

        assertThat(mirrorStatus(subscriptionId)).isEqualTo("active");
        assertThat(outboxKeys(eventId)).isEmpty();
    }

    @Test
    @DisplayName("a late failure of the first period, paid at checkout, changes nothing and notifies no one")
    void aLateFailureOfTheCheckoutPaidFirstPeriodChangesNothing() {
        String otherUser = id("user");
        String otherSubscription = id("sub");
        subscribed(otherUser, otherSubscription); // the first period granted by the paid session, no period row
        String eventId = id("evt");
        String firstInvoiceFailed = event(eventId, "invoice.payment_failed", StripeFixtures.invoice(id("in"),
                "subscription_create", otherSubscription, otherUser, month(0), month(1), 0, null));

        assertThat(deliver(firstInvoiceFailed).status()).isEqualTo(200);

        assertThat(mirrorStatus(otherSubscription)).isEqualTo("active");
        assertThat(outboxKeys(eventId)).isEmpty();
    }

    @Test
    @DisplayName("a late failure of an invoice recorded paid changes nothing")
    void aLateFailureOfAnInvoiceRecordedPaidChangesNothing() {
        String invoiceId = id("in");
        assertThat(deliver(event(id("evt"), "invoice.paid", StripeFixtures.invoice(invoiceId, "subscription_update",
                subscriptionId, userId, month(3), month(4), 1000, null))).status()).isEqualTo(200);
        String eventId = id("evt");

        assertThat(deliver(event(eventId, "invoice.payment_failed", StripeFixtures.invoice(invoiceId,
                "subscription_update", subscriptionId, userId, month(3), month(4), 0, null))).status()).isEqualTo(200);

        assertThat(mirrorStatus(subscriptionId)).isEqualTo("active");
        assertThat(outboxKeys(eventId)).isEmpty();
    }

    @Test
    void updateAppliesWhatChangedOnTheItem() {
        String update = event(id("evt"), "customer.subscription.updated",
                subscription(subscriptionId, userId, "active", month(1), month(2), 3, "price_team"));

        assertThat(deliver(update).status()).isEqualTo(200);

        JsonNode view = admin().get("/api/billing/subscriptions/" + subscriptionId).json();
        assertThat(view.path("quantity").asInt()).isEqualTo(3);
        assertThat(view.path("priceId").asString()).isEqualTo("price_team");
        assertThat(view.path("currentPeriodStart").asLong()).isEqualTo(month(1));
        assertThat(view.path("userId").asString()).isEqualTo(userId);
        assertThat(view.path("status").asString()).isEqualTo("active");
    }

    @Test
    void deletionRevokesAccessOnceAndNotifies() {
        String eventId = id("evt");
        String deleted = event(eventId, "customer.subscription.deleted",
                subscription(subscriptionId, userId, "canceled", month(1), month(2), 1, "price_pro"));
        String lateUpdate = event(id("evt"), "customer.subscription.updated",
                subscription(subscriptionId, userId, "active", month(1), month(2), 2, "price_pro"));

        assertThat(deliver(deleted).status()).isEqualTo(200);
        assertThat(deliver(lateUpdate).status()).isEqualTo(200);
        assertThat(deliver(event(id("evt"), "customer.subscription.deleted",
                subscription(subscriptionId, userId, "canceled", month(1), month(2), 1, "price_pro"))).status())
                .isEqualTo(200);

        assertThat(mirrorStatus(subscriptionId)).isEqualTo("canceled");
        assertThat(outboxKeys(eventId)).containsExactly(eventId + ":subscription_ended_notice");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE aggregate_id = :s AND kind = 'subscription_ended_notice'")
                .param("s", subscriptionId).query(Long.class).single()).isEqualTo(1);
        JsonNode user = admin().get("/api/billing/users/" + userId).json();
        assertThat(user.path("activeSubscriptions").isEmpty()).isTrue();
    }

    @Test
    void anInvoiceForASubscriptionNeverSeenAtCheckoutCreatesItsMirror() {
        String otherUser = id("user");
        String otherSubscription = id("sub");

        assertThat(deliver(renewal(id("evt"), otherSubscription, otherUser, 4, null)).status()).isEqualTo(200);

        assertThat(mirrorStatus(otherSubscription)).isEqualTo("active");
        assertThat(mirrorPeriodStart(otherSubscription)).isEqualTo(month(4));
        assertThat(credits(otherUser)).isEqualTo(500);
    }
}
