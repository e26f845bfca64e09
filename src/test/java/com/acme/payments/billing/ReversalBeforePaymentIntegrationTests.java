package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.charge;
import static com.acme.payments.stripe.StripeFixtures.dispute;
import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.invoice;
import static com.acme.payments.stripe.StripeFixtures.month;
import static com.acme.payments.stripe.StripeFixtures.session;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http;

/**
 * Delivery order never matters, reversals included: a refund or dispute that arrives before the payment
 * it reverses is kept, completed as received, and applied exactly once when the payment lands.
 */
class ReversalBeforePaymentIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String paymentIntentId = id("pi");
    private final String chargeId = id("ch");

    @Test
    @DisplayName("a refund delivered before its purchase is applied when the purchase lands, once")
    void refundBeforePurchaseIsAppliedOnce() {
        stripeLinks(paymentIntentId, null, 0); // Stripe: this payment intent paid no invoice
        String refundEvent = id("evt");
        String refund = event(refundEvent, "charge.refunded", charge(chargeId, paymentIntentId, 5000, 2500));
        String purchase = event(id("evt"), "checkout.session.completed", session(id("cs"), "payment", "paid", userId,
                null, paymentIntentId, 5000, "\"productId\": \"prod_credits_pack\""));

        Http.Response early = deliver(refund);
        assertThat(early.status()).isEqualTo(200);
        assertThat(early.json().has("duplicate")).isFalse();
        assertThat(deliver(refund).json().path("duplicate").asBoolean()).isTrue(); // completed: kept, not lost
        assertThat(pending(refundEvent)).containsExactly("unapplied");

        assertThat(deliver(purchase).status()).isEqualTo(200);
        assertThat(deliver(purchase).json().path("duplicate").asBoolean()).isTrue();

        assertThat(credits(userId)).isEqualTo(500); // 1000 bought, half refunded
        assertThat(admin().get("/api/billing/purchases/" + paymentIntentId).json().path("refundedTotal").asLong())
                .isEqualTo(2500);
        assertThat(pending(refundEvent)).containsExactly("purchase:" + paymentIntentId);

        // the same total reported again after the purchase: nothing more
        assertThat(deliver(event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 2500)))
                .status()).isEqualTo(200);
        assertThat(credits(userId)).isEqualTo(500);
    }

    @Test
    @DisplayName("two cumulative refunds before the purchase apply as their larger total")
    void refundsBeforePurchaseApplyAsTheirTotal() {
        stripeLinks(paymentIntentId, null, 0);
        assertThat(deliver(event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 3000)))
                .status()).isEqualTo(200);
        assertThat(deliver(event(id("evt"), "charge.refunded", charge(chargeId, paymentIntentId, 5000, 1000)))
                .status()).isEqualTo(200);

        assertThat(deliver(event(id("evt"), "checkout.session.completed", session(id("cs"), "payment", "paid", userId,
                null, paymentIntentId, 5000, "\"productId\": \"prod_credits_pack\""))).status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(400); // 30.00 of 50.00: 600 of 1000 credits back, not 800
    }

    @Test
    @DisplayName("a dispute delivered before its renewal invoice claws back when the invoice lands, once")
    void disputeBeforeInvoiceIsAppliedOnce() {
        String subscriptionId = id("sub");
        String invoiceId = id("in");
        subscribed(userId, subscriptionId); // 500
        stripeLinks(paymentIntentId, invoiceId, 2900); // Stripe already knows the invoice this charge paid
        String disputeId = id("dp");
        String disputeEvent = id("evt");

        assertThat(deliver(event(disputeEvent, "charge.dispute.created", dispute(disputeId, chargeId, paymentIntentId,
                2900))).status()).isEqualTo(200);
        assertThat(credits(userId)).isEqualTo(500);
        assertThat(outboxKeys(disputeEvent)).containsExactly(disputeEvent + ":dispute_opened"); // a human knows now

        assertThat(deliver(event(id("evt"), "invoice.paid", invoice(invoiceId, "subscription_cycle", subscriptionId,
                userId, month(1), month(2), 2900, null))).status()).isEqualTo(200);
        // the same dispute under another event id, after the invoice: already recorded
        assertThat(deliver(event(id("evt"), "charge.dispute.created", dispute(disputeId, chargeId, paymentIntentId,
                2900))).status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(500); // 500 + the period's 500 − the disputed period's 500
        assertThat(grantCount(subscriptionId)).isEqualTo(2);
        assertThat(pending(disputeEvent)).containsExactly("invoice:" + invoiceId);
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'dispute_opened' AND aggregate_id = :c")
                .param("c", chargeId).query(Long.class).single()).isEqualTo(1);
    }

    /** The kept reversal of one event: {@code unapplied}, or where it was applied. */
    private List<String> pending(String eventId) {
        return jdbc.sql("SELECT coalesce(applied_to, 'unapplied') FROM billing_pending_reversal WHERE event_id = :e")
                .param("e", eventId).query(String.class).list();
    }
}
