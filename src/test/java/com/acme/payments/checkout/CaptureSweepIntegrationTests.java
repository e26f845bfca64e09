package com.acme.payments.checkout;

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
import com.acme.payments.sweep.Sweeps;

/**
 * Found by the chaos run: a capture answered 503 before the PSP acted left its operation UNKNOWN while
 * the payment stayed AUTHORIZED, and nothing ever closed it — the order could never be captured or
 * voided again. The sweep now closes such an operation as not performed once it is older than the
 * in-flight age, and only then.
 */
class CaptureSweepIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Sweeps sweeps;

    @Test
    @DisplayName("a capture the PSP never performed (503, payment still AUTHORIZED) is closed by the sweep once old; the order can be captured again")
    void unperformedCaptureDoesNotBlockTheOrderForever() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("70.00", "EUR");
        String paymentId = "pay-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "AUTHORIZED", "70.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .willReturn(aResponse().withStatus(503)));
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "AUTHORIZED",
                "70.00", "EUR")))));
        assertThat(capture(order.orderRef()).status()).isEqualTo(409);

        // past the sweep lease but younger than the in-flight age (5m in tests): the call may still land
        backdate(order.orderRef(), "updated_at", 3);
        sweeps.run("checkout");
        assertThat(operationState(order.orderRef())).isEqualTo("UNKNOWN");

        backdate(order.orderRef(), "created_at", 10);
        backdate(order.orderRef(), "updated_at", 10);
        backdate(order.orderRef(), "lease_until", 1); // the first pass's lease has run out
        sweeps.run("checkout");
        assertThat(operationState(order.orderRef())).isEqualTo("FAILED");
        assertThat(new Shop(http()).order(order.orderRef()).json().path("status").asString()).isEqualTo("AUTHORIZED");

        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED", "70.00", "EUR")))));
        Response captured = capture(order.orderRef());
        assertThat(captured.status()).isEqualTo(200);
        assertThat(captured.json().path("status").asString()).isEqualTo("PAID");
        assertThat(psp.countRequestsMatching(postRequestedFor(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .build()).getCount()).isEqualTo(2);
    }

    @Test
    @DisplayName("the sweep looks at once: a capture just turned UNKNOWN is resolved by the next pass, not one lease later")
    void justUnknownCaptureIsResolvedByTheNextPass() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("40.00", "EUR");
        String paymentId = "pay-" + order.orderRef();
        psp.stubFor(createCall().willReturn(created(paymentId, "AUTHORIZED", "40.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .willReturn(aResponse().withStatus(503)));
        assertThat(capture(order.orderRef()).status()).isEqualTo(409);
        assertThat(operationState(order.orderRef())).isEqualTo("UNKNOWN");
        // the capture landed after all: the PSP's payment now reads COMPLETED
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED",
                "40.00", "EUR")))));

        sweeps.run("checkout"); // no backdating: the operation turned UNKNOWN a moment ago

        assertThat(operationState(order.orderRef())).isEqualTo("DONE");
        assertThat(new Shop(http()).order(order.orderRef()).json().path("status").asString()).isEqualTo("PAID");
    }

    private Response capture(String orderRef) {
        return http().bearer(Shop.ADMIN_KEY).post("/api/orders/" + orderRef + "/capture", (String) null);
    }

    private void backdate(String orderRef, String column, int minutes) {
        jdbc.sql("UPDATE psp_payment_operation p SET " + column + " = now() - :m * interval '1 minute'"
                + " FROM orders o WHERE o.id = p.order_id AND o.order_ref = :ref")
                .param("m", minutes).param("ref", orderRef).update();
    }

    private String operationState(String orderRef) {
        return jdbc.sql("""
                SELECT p.state FROM psp_payment_operation p JOIN orders o ON o.id = p.order_id
                 WHERE o.order_ref = :ref ORDER BY p.id DESC LIMIT 1""")
                .param("ref", orderRef).query(String.class).single();
    }
}
