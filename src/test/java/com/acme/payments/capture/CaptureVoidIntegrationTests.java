package com.acme.payments.capture;

import static com.acme.payments.support.PspFixtures.PAST_READ_TIMEOUT_MS;
import static com.acme.payments.support.PspFixtures.createCall;
import static com.acme.payments.support.PspFixtures.created;
import static com.acme.payments.support.PspFixtures.envelope;
import static com.acme.payments.support.PspFixtures.getCall;
import static com.acme.payments.support.PspFixtures.payment;
import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;

class CaptureVoidIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    /** An AUTHORIZED order whose payment is {@code pay-<orderRef>}. */
    String authorizedOrder() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("70.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-" + order.orderRef(), "AUTHORIZED", "70.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        assertThat(status(order.orderRef())).isEqualTo("AUTHORIZED");
        psp.resetAll();
        return order.orderRef();
    }

    String status(String orderRef) {
        return new Shop(http()).order(orderRef).json().path("status").asString();
    }

    Response call(String orderRef, String what) {
        return http().bearer(Shop.ADMIN_KEY).post("/api/orders/" + orderRef + "/" + what, (String) null);
    }

    int posts(String path) {
        return psp.countRequestsMatching(postRequestedFor(urlEqualTo(path)).build()).getCount();
    }

    @Test
    @DisplayName("capture of an AUTHORIZED order: PAID when the PSP confirms COMPLETED, with one order_paid")
    void captureMovesToPaid() {
        String orderRef = authorizedOrder();
        String paymentId = "pay-" + orderRef;
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED", "70.00", "EUR")))));
        Response captured = call(orderRef, "capture");
        assertThat(captured.status()).isEqualTo(200);
        assertThat(captured.json().path("status").asString()).isEqualTo("PAID");
        assertThat(captured.json().path("paidAmount").asString()).isEqualTo("70.00");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE kind = 'order_paid' AND aggregate_id = :ref")
                .param("ref", orderRef).query(Integer.class).single()).isEqualTo(1);
        Response again = call(orderRef, "capture");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemSlug()).isEqualTo("order-not-authorized");
    }

    @Test
    @DisplayName("capture under timeout reconciles with GET instead of re-POSTing")
    void captureUnderTimeoutReconciles() {
        String orderRef = authorizedOrder();
        String paymentId = "pay-" + orderRef;
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED", "70.00", "EUR")))
                        .withFixedDelay(PAST_READ_TIMEOUT_MS)));
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "AUTHORIZED",
                "70.00", "EUR")))));

        Response unknown = call(orderRef, "capture");
        assertThat(unknown.status()).isEqualTo(409);
        assertThat(unknown.header("Retry-After")).isNotBlank();
        assertThat(status(orderRef)).isEqualTo("AUTHORIZED");

        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED",
                "70.00", "EUR")))));
        Response retried = call(orderRef, "capture");
        assertThat(retried.status()).isEqualTo(200);
        assertThat(retried.json().path("status").asString()).isEqualTo("PAID");
        assertThat(posts("/api/v1/payments/" + paymentId + "/capture")).as("never re-POSTed").isEqualTo(1);
    }

    @Test
    @DisplayName("void under a 5xx reconciles: CANCELLED moves the order to PAYMENT_FAILED")
    void voidUnder5xxReconciles() {
        String orderRef = authorizedOrder();
        String paymentId = "pay-" + orderRef;
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/void")).willReturn(aResponse().withStatus(502)));
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "CANCELLED",
                "70.00", "EUR")))));
        Response voided = call(orderRef, "void");
        assertThat(voided.status()).isEqualTo(200);
        assertThat(voided.json().path("status").asString()).isEqualTo("PAYMENT_FAILED");
        assertThat(posts("/api/v1/payments/" + paymentId + "/void")).isEqualTo(1);
        assertThat(jdbc.sql("""
                SELECT state FROM psp_payment_operation p JOIN orders o ON o.id = p.order_id WHERE o.order_ref = :ref""")
                .param("ref", orderRef).query(String.class).single()).isEqualTo("DONE");
    }

    @Test
    @DisplayName("capture or void of an order that is not AUTHORIZED is 409; a shop key is 403")
    void onlyAuthorizedOrdersAndOnlyAdmins() {
        var order = new Shop(http()).createOrder("1.00", "EUR");
        Response response = call(order.orderRef(), "void");
        assertThat(response.status()).isEqualTo(409);
        assertThat(response.problemSlug()).isEqualTo("order-not-authorized");
        assertThat(http().bearer(Shop.SHOP_KEY).post("/api/orders/" + order.orderRef() + "/capture", (String) null).status())
                .isEqualTo(403);
        assertThat(call("no-such-order", "capture").status()).isEqualTo(404);
    }

    @Test
    @DisplayName("an Idempotency-Key with a control character or over 255 characters is 400 and calls nothing")
    void badKeysAreRefused() {
        String orderRef = authorizedOrder();
        for (String key : new String[] { "cap\tkey", "k".repeat(256) }) {
            Response refused = http().bearer(Shop.ADMIN_KEY).header("Idempotency-Key", key)
                    .post("/api/orders/" + orderRef + "/capture", (String) null);
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.problemSlug()).isEqualTo("validation-failed");
        }
        assertThat(posts("/api/v1/payments/pay-" + orderRef + "/capture")).isZero();
        assertThat(status(orderRef)).isEqualTo("AUTHORIZED");
    }
}
