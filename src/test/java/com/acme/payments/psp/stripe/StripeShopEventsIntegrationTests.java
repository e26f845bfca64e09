package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripePaymentEvents.dispute;
import static com.acme.payments.psp.stripe.StripePaymentEvents.event;
import static com.acme.payments.psp.stripe.StripePaymentEvents.session;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.outbox.OutboxRelay;
import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;
import com.acme.payments.support.ShopEventReceiver;
import com.acme.payments.support.ShopEventReceiver.Delivery;
import com.acme.payments.support.StandardWebhooksVerifier;

/**
 * "Events for the shop" with Stripe as the PSP, where disputes come from: a paid order's dispute is
 * {@code dispute.opened} with {@code {orderRef, pspPaymentId, amount, currency}}, after the order's
 * {@code payment.succeeded}; the redelivered Stripe event sends nothing more.
 */
@TestPropertySource(properties = "payments.psp.provider=stripe")
class StripeShopEventsIntegrationTests extends StripeIntegrationTest {

    @Autowired
    OutboxRelay relay;

    @DynamicPropertySource
    static void shopEvents(DynamicPropertyRegistry registry) {
        ShopEventReceiver.register(registry);
    }

    @Test
    @DisplayName("a dispute of a paid order: dispute.opened once, after payment.succeeded, signed")
    void aDisputeIsOneEventAfterThePayment() throws Exception {
        ShopEventReceiver.accepting(psp);
        String orderRef = new Shop(http()).createOrder("25.00", "EUR").orderRef();
        String sessionId = "cs_test_" + UUID.randomUUID().toString().replace("-", "");
        psp.stubFor(post(urlPathEqualTo("/v1/checkout/sessions")).willReturn(okJson(
                session(sessionId, null, "ref", orderRef, "open", "unpaid", 2500))));
        assertThat(new Shop(http()).checkout(orderRef).status()).isEqualTo(200);
        String attempt = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                """).param("ref", orderRef).query(String.class).single();
        String paymentIntent = id("pi");
        received(deliver(event(id("evt"), "checkout.session.completed",
                session(sessionId, paymentIntent, attempt, orderRef, "complete", "paid", 2500))));
        String disputed = event(id("evt"), "charge.dispute.created", dispute(id("dp"), paymentIntent, 2500, "fraudulent"));
        received(deliver(disputed));
        assertThat(deliver(disputed).status()).isEqualTo(200); // a redelivery: a duplicate, nothing more

        relay.runUntilIdle(Duration.ofSeconds(30));

        List<Delivery> deliveries = ShopEventReceiver.received(psp).stream()
                .filter(d -> orderRef.equals(d.orderRef())).toList();
        assertThat(deliveries).extracting(Delivery::type).containsExactly("payment.succeeded", "dispute.opened");
        Delivery opened = deliveries.get(1);
        assertThat(opened.data().properties()).extracting(java.util.Map.Entry::getKey)
                .containsExactlyInAnyOrder("orderRef", "pspPaymentId", "amount", "currency");
        assertThat(opened.data().path("pspPaymentId").asString()).isEqualTo(paymentIntent);
        assertThat(opened.data().path("amount").asString()).isEqualTo("25.00");
        assertThat(opened.data().path("currency").asString()).isEqualTo("EUR");
        assertThat(new StandardWebhooksVerifier(ShopEventReceiver.OLD_SECRET).verify(opened.id(), opened.timestamp(),
                opened.signature(), opened.body(), System.currentTimeMillis() / 1000)).isTrue();
    }

    private static void received(Response answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }
}
