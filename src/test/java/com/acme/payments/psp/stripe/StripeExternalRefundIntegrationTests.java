package com.acme.payments.psp.stripe;

import static com.acme.payments.psp.stripe.StripePaymentEvents.event;
import static com.acme.payments.psp.stripe.StripePaymentEvents.refund;
import static com.acme.payments.psp.stripe.StripePaymentEvents.session;
import static com.acme.payments.stripe.StripeFixtures.id;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import com.acme.payments.stripe.StripeIntegrationTest;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;

import tools.jackson.databind.JsonNode;

/**
 * Stripe as the PSP: a refund made in Stripe's Dashboard (a refund of our PaymentIntent without our
 * {@code metadata[referenceId]}) arrives as {@code refund.*} events and is booked once as the order's
 * refund with {@code origin: "external"}, whatever the order or repetition of its events; its late failure
 * (two events) releases it once; it bounds later refunds.
 */
@TestPropertySource(properties = "payments.psp.provider=stripe")
class StripeExternalRefundIntegrationTests extends StripeIntegrationTest {

    /** A PAID order checked out at Stripe; {@code pi} its PaymentIntent. */
    record Paid(String orderRef, String pi) {
    }

    Shop shop() {
        return new Shop(http());
    }

    Paid paid(String amount) {
        String orderRef = shop().createOrder(amount, "EUR").orderRef();
        long minor = new BigDecimal(amount).movePointRight(2).longValueExact();
        String sessionId = id("cs");
        psp.stubFor(post(urlPathEqualTo("/v1/checkout/sessions")).willReturn(okJson(
                session(sessionId, null, "ref", orderRef, "open", "unpaid", minor))));
        assertThat(shop().checkout(orderRef).status()).isEqualTo(200);
        String attempt = jdbc.sql("""
                SELECT a.reference_id FROM psp_attempt a JOIN orders o ON o.id = a.order_id WHERE o.order_ref = :ref
                """).param("ref", orderRef).query(String.class).single();
        String pi = id("pi");
        received(deliver(event(id("evt"), "checkout.session.completed",
                session(sessionId, pi, attempt, orderRef, "complete", "paid", minor))));
        assertThat(shop().order(orderRef).json().path("status").asString()).isEqualTo("PAID");
        return new Paid(orderRef, pi);
    }

    /** A refund as the Dashboard makes it: no metadata of ours. */
    static String dashboardRefund(String refundId, String pi, String status, long amount, String failureReason) {
        return refund(refundId, pi, status, amount, "x", "x", failureReason)
                .replaceFirst("\"metadata\": \\{[^}]*\\}", "\"metadata\": {}");
    }

    static void received(Response answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    }

    JsonNode refunds(String orderRef) {
        return http().bearer(Shop.ADMIN_KEY).get("/api/orders/" + orderRef + "/refunds").json();
    }

    String refundedAmount(String orderRef) {
        return shop().order(orderRef).json().path("refundedAmount").asString();
    }

    long openReceipts(String paymentId) {
        return jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", paymentId).query(Long.class).single();
    }

    @Test
    @DisplayName("a Dashboard refund's refund.updated before its refund.created, and each twice: one refund, origin external, counted once, receipts closed")
    void dashboardRefundIsBookedOnceInAnyOrder() {
        Paid p = paid("50.00");
        String re = id("re");
        String updated = event(id("evt"), "refund.updated", dashboardRefund(re, p.pi(), "succeeded", 2000, null));
        String created = event(id("evt"), "refund.created", dashboardRefund(re, p.pi(), "pending", 2000, null));
        received(deliver(updated));
        received(deliver(created));
        received(deliver(updated));
        received(deliver(created));

        JsonNode list = refunds(p.orderRef());
        assertThat(list.size()).isEqualTo(1);
        JsonNode view = list.get(0);
        assertThat(view.path("origin").asString()).isEqualTo("external");
        assertThat(view.path("referenceId").asString()).isEqualTo(re);
        assertThat(view.path("pspPaymentId").asString()).isEqualTo(re);
        assertThat(view.path("refundKey").isNull()).isTrue();
        assertThat(view.path("requestedBy").isNull()).isTrue();
        assertThat(view.path("state").asString()).isEqualTo("DONE");
        assertThat(view.path("pspState").asString()).isEqualTo("COMPLETED");
        assertThat(refundedAmount(p.orderRef())).isEqualTo("20.00");
        assertThat(openReceipts(re)).isZero();
        Response lookup = http().bearer(Shop.ADMIN_KEY).get("/api/admin/refunds/" + re);
        assertThat(lookup.status()).isEqualTo(200);
        assertThat(lookup.json().path("orderRef").asString()).isEqualTo(p.orderRef());
    }

    @Test
    @DisplayName("a Dashboard refund failing later (refund.failed, then refund.updated, each twice): FAILED, released once, one refund_failed")
    void dashboardRefundFailingLaterReleasesOnce() {
        Paid p = paid("50.00");
        String re = id("re");
        received(deliver(event(id("evt"), "refund.created", dashboardRefund(re, p.pi(), "pending", 3000, null))));
        assertThat(refundedAmount(p.orderRef())).isEqualTo("30.00");
        String failed = dashboardRefund(re, p.pi(), "failed", 3000, "expired_or_canceled_card");
        String failedEvent = event(id("evt"), "refund.failed", failed);
        String updated = event(id("evt"), "refund.updated", failed);
        received(deliver(failedEvent));
        received(deliver(updated));
        received(deliver(failedEvent));
        received(deliver(updated));

        JsonNode view = refunds(p.orderRef()).get(0);
        assertThat(view.path("state").asString()).isEqualTo("FAILED");
        assertThat(view.path("pspState").asString()).isEqualTo("DECLINED");
        assertThat(view.path("errorCode").asString()).isEqualTo("expired_or_canceled_card");
        assertThat(refundedAmount(p.orderRef())).isEqualTo("0.00");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key = :k").param("k", re + ":refund_failed")
                .query(Long.class).single()).isEqualTo(1);
        assertThat(openReceipts(re)).isZero();
    }

    @Test
    @DisplayName("a later API refund is bounded by a Dashboard refund: 422 refund-exceeds-remainder")
    void dashboardRefundBoundsLaterRefunds() {
        Paid p = paid("50.00");
        received(deliver(event(id("evt"), "refund.created", dashboardRefund(id("re"), p.pi(), "succeeded", 4500, null))));
        Response tooMuch = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "k-" + p.orderRef())
                .post("/api/orders/" + p.orderRef() + "/refunds", "{\"amount\":\"5.01\",\"currency\":\"EUR\"}");
        assertThat(tooMuch.status()).isEqualTo(422);
        assertThat(tooMuch.json().path("type").asString()).endsWith("refund-exceeds-remainder");
    }
}
