package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.charge;
import static com.acme.payments.stripe.StripeFixtures.dispute;
import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.session;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeFixtures;
import com.acme.payments.stripe.StripeIntegrationTest;

class RefundIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String paymentIntentId = id("pi");
    private final String chargeId = id("ch");

    /** A purchase of 50.00 EUR that bought 1000 credits. */
    @BeforeEach
    void purchase() {
        String body = event(id("evt"), "checkout.session.completed", session(id("cs"), "payment", "paid", userId,
                null, paymentIntentId, 5000, "\"productId\": \"prod_credits_pack\""));
        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(credits(userId)).isEqualTo(1000);
    }

    @Test
    @DisplayName("refund-total-is-cumulative")
    void refundTotalIsCumulative() {
        // 10.00 refunded, then another 20.00: Stripe reports the running total (10.00, then 30.00)
        assertThat(deliver(event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 1000))).status())
                .isEqualTo(200);
        assertThat(deliver(event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 3000))).status())
                .isEqualTo(200);

        assertThat(refundedTotal()).isEqualTo(3000); // not 4000
        assertThat(credits(userId)).isEqualTo(400); // 30.00 of 50.00 refunded: 600 of 1000 credits back

        // an older total arriving late is an increment <= 0: nothing
        assertThat(deliver(event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 1000))).status())
                .isEqualTo(200);
        assertThat(refundedTotal()).isEqualTo(3000);
        assertThat(credits(userId)).isEqualTo(400);
    }

    @Test
    @DisplayName("duplicate-refund-claws-back-once")
    void duplicateRefundClawsBackOnce() {
        String body = event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 2500));
        // the same refund reported again under another event id (and the same event redelivered)
        String sameTotal = event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 2500));

        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(deliver(body).json().path("duplicate").asBoolean()).isTrue();
        assertThat(deliver(sameTotal).status()).isEqualTo(200);

        assertThat(refundedTotal()).isEqualTo(2500);
        assertThat(credits(userId)).isEqualTo(500);
    }

    @Test
    @DisplayName("a dispute claws back like a refund, once, and is recorded for a human")
    void disputeClawsBackOnceAndIsRecorded() {
        String disputeId = id("dp");
        String eventId = id("evt");
        String body = event(eventId, "charge.dispute.created", dispute(disputeId, chargeId, paymentIntentId, 5000));

        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(deliver(event(id("evt"), "charge.dispute.created",
                dispute(disputeId, chargeId, paymentIntentId, 5000))).status()).isEqualTo(200);

        assertThat(credits(userId)).isZero();
        assertThat(outboxKeys(eventId)).containsExactly(eventId + ":dispute_opened");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'dispute_opened' AND aggregate_id = :c")
                .param("c", chargeId).query(Long.class).single()).isEqualTo(1); // one alert per dispute
        String payload = jdbc.sql("SELECT payload::text FROM outbox WHERE idempotency_key = :k")
                .param("k", eventId + ":dispute_opened").query(String.class).single();
        assertThat(payload).contains("\"kind\": \"dispute_opened\"", "\"chargeId\": \"" + chargeId + "\"",
                "\"amount\": \"50.00\"", "\"currency\": \"EUR\"");
    }

    @Test
    @DisplayName("a refund of a subscription invoice is resolved through the invoice and claws back once")
    void subscriptionInvoiceRefundClawsBackOnce() {
        String subscriptionId = id("sub");
        String invoiceId = id("in");
        subscribed(userId, subscriptionId); // 1000 + 500
        assertThat(deliver(event(id("evt"), "invoice.paid", StripeFixtures.invoice(invoiceId, "subscription_cycle",
                subscriptionId, userId, StripeFixtures.month(1), StripeFixtures.month(2), 2900, null))).status())
                .isEqualTo(200);
        assertThat(credits(userId)).isEqualTo(2000);
        String refund = charge(id("ch"), id("pi"), 2900, 2900).replace("\"status\": \"succeeded\"",
                "\"invoice\": \"" + invoiceId + "\", \"status\": \"succeeded\"");

        assertThat(deliver(event(id("evt"), "charge.refunded", refund)).status()).isEqualTo(200);
        assertThat(deliver(event(id("evt"), "charge.refunded", refund)).status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(1500); // the period's 500 credits, once
    }

    private long refundedTotal() {
        return admin().get("/api/billing/purchases/" + paymentIntentId).json().path("refundedTotal").asLong();
    }
}
