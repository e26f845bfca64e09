package com.acme.payments.billing;

import static com.acme.payments.stripe.StripeFixtures.charge;
import static com.acme.payments.stripe.StripeFixtures.dispute;
import static com.acme.payments.stripe.StripeFixtures.event;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.stripe.StripeFixtures.invoice;
import static com.acme.payments.stripe.StripeFixtures.month;
import static com.acme.payments.stripe.StripeFixtures.session;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeApiClient;
import com.acme.payments.stripe.StripeIntegrationTest;

import tools.jackson.databind.json.JsonMapper;

/**
 * Refunds and disputes of a subscription invoice in the shape of the current API (2025-03-31.basil
 * and later): the charge carries no {@code invoice}, the invoice neither {@code charge} nor
 * {@code payment_intent}. The link is {@code GET /v1/invoice_payments} by the charge's payment
 * intent, answered by the Stripe API stand-in.
 */
class CurrentApiReversalIntegrationTests extends StripeIntegrationTest {

    private final String userId = id("user");
    private final String subscriptionId = id("sub");
    private final String invoiceId = id("in");
    private final String paymentIntentId = id("pi");
    private final String chargeId = id("ch");

    /** Checkout (500 credits) and a paid renewal (500 more) whose payload names no payment. */
    @BeforeEach
    void renewed() {
        subscribed(userId, subscriptionId);
        String renewal = invoice(invoiceId, "subscription_cycle", subscriptionId, userId, month(1), month(2), 2900,
                null);
        assertThat(JsonMapper.shared().readTree(renewal).has("payment_intent")).isFalse();
        assertThat(JsonMapper.shared().readTree(renewal).has("charge")).isFalse();
        assertThat(deliver(event(id("evt"), "invoice.paid", renewal)).status()).isEqualTo(200);
        assertThat(credits(userId)).isEqualTo(1000);
        stripeLinks(paymentIntentId, invoiceId, 2900);
    }

    @Test
    @DisplayName("a refund of a renewal's charge claws the period's credits back once, linked by invoice_payments")
    void refundOfACurrentShapeChargeClawsBackOnce() {
        String refunded = charge(chargeId, paymentIntentId, 2900, 2900);
        assertThat(JsonMapper.shared().readTree(refunded).has("invoice")).isFalse();
        String body = event(id("evt"), "charge.refunded", refunded);

        assertThat(deliver(body).status()).isEqualTo(200);
        assertThat(deliver(body).json().path("duplicate").asBoolean()).isTrue();
        assertThat(deliver(event(id("evt"), "charge.refunded", refunded)).status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(500); // the period's 500 credits, once
        assertThat(invoiceTotals()).isEqualTo("2900/0");
        psp.verify(getRequestedFor(urlPathEqualTo("/v1/invoice_payments"))
                .withQueryParam("payment[type]", equalTo("payment_intent"))
                .withQueryParam("payment[payment_intent]", equalTo(paymentIntentId))
                .withHeader("Stripe-Version", equalTo(StripeApiClient.API_VERSION)));
    }

    @Test
    @DisplayName("a dispute of a renewal's charge claws back once and alerts once")
    void disputeOfACurrentShapeChargeClawsBackOnce() {
        String disputeId = id("dp");
        String eventId = id("evt");

        assertThat(deliver(event(eventId, "charge.dispute.created", dispute(disputeId, chargeId, paymentIntentId,
                2900))).status()).isEqualTo(200);
        assertThat(deliver(event(id("evt"), "charge.dispute.created", dispute(disputeId, chargeId, paymentIntentId,
                2900))).status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(500);
        assertThat(invoiceTotals()).isEqualTo("0/2900");
        assertThat(outboxKeys(eventId)).containsExactly(eventId + ":dispute_opened");
    }

    @Test
    @DisplayName("a refund of a one-off purchase is resolved locally, without a Stripe API call")
    void purchaseRefundAsksStripeNothing() {
        String purchaseIntent = id("pi");
        assertThat(deliver(event(id("evt"), "checkout.session.completed", session(id("cs"), "payment", "paid", userId,
                null, purchaseIntent, 5000, "\"productId\": \"prod_credits_pack\""))).status()).isEqualTo(200);

        assertThat(deliver(event(id("evt"), "charge.refunded", charge(id("ch"), purchaseIntent, 5000, 5000)))
                .status()).isEqualTo(200);

        assertThat(credits(userId)).isEqualTo(1000); // 1000 + 1000 bought, 1000 clawed back
        psp.verify(0, getRequestedFor(urlPathEqualTo("/v1/invoice_payments")));
    }

    private String invoiceTotals() {
        return jdbc.sql("SELECT refunded_total || '/' || disputed_total FROM billing_invoice WHERE invoice_id = :i")
                .param("i", invoiceId).query(String.class).single();
    }
}
