package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripePaymentEvents.event;
import static com.acme.payments.psp.stripe.StripePaymentEvents.refund;
import static com.acme.payments.psp.stripe.StripePaymentEvents.session;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Shop;

/**
 * With {@code PSP_PROVIDER=gateway} (the default) nothing of Stripe-as-the-PSP is there: every Stripe event
 * is billing's, as before, even one that names one of our attempts. Same context as billing's tests.
 */
class StripePaymentRoutingGatewayModeIntegrationTests extends StripeIntegrationTest {

    @Test
    @DisplayName("gateway mode: a session naming one of our attempts is billing's, and refund.* is not even claimed")
    void withTheGatewayEveryStripeEventIsBillings() {
        Shop shop = new Shop(http());
        String orderRef = shop.createOrder("10.00", "EUR").orderRef();
        psp.stubFor(createCall().willReturn(created("pay-gw-" + orderRef, "CHECKOUT", "10.00", "EUR")));
        assertThat(shop.checkout(orderRef).status()).isEqualTo(200);
        String attempt = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :r
                """).param("r", orderRef).query(String.class).single();

        String sessionEvent = id("evt");
        assertThat(deliver(event(sessionEvent, "checkout.session.completed",
                session(id("cs"), id("pi"), attempt, orderRef, "complete", "paid", 1000))).status()).isEqualTo(200);
        String refundEvent = id("evt");
        assertThat(deliver(event(refundEvent, "refund.created",
                refund(id("re"), id("pi"), "pending", 1000, "rk", attempt, null))).status()).isEqualTo(200);

        assertThat(shop.order(orderRef).json().path("status").asString()).isEqualTo("PROCESSING");
        assertThat(eventState(sessionEvent)).as("billing's, claimed and completed").isEqualTo("completed");
        assertThat(eventState(refundEvent)).as("no handler takes refund.*: answered without a claim").isNull();
    }
}
