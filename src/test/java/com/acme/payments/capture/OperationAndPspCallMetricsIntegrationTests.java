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
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http.Response;
import com.acme.payments.support.IntegrationTest;
import com.acme.payments.support.Shop;
import com.acme.payments.sweep.DatabaseGauges;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The gauge behind {@code OperationUnknownTooLong} counts a capture left UNKNOWN (and
 * not the voids), and the counter behind {@code PspErrors} tells a timeout from an error from an answer.
 */
class OperationAndPspCallMetricsIntegrationTests extends IntegrationTest {

    @Autowired
    JdbcClient jdbc;
    @Autowired
    DatabaseGauges gauges;
    @Autowired
    MeterRegistry meters;

    String authorizedOrder() {
        Shop shop = new Shop(http());
        var order = shop.createOrder("70.00", "EUR");
        psp.stubFor(createCall().willReturn(created("pay-" + order.orderRef(), "AUTHORIZED", "70.00", "EUR")));
        assertThat(shop.checkout(order.orderRef()).status()).isEqualTo(200);
        psp.resetAll();
        return order.orderRef();
    }

    Response call(String orderRef, String what) {
        return http().bearer(Shop.ADMIN_KEY).post("/api/orders/" + orderRef + "/" + what, (String) null);
    }

    double gauge(String name, String kind) {
        gauges.refresh();
        return meters.get(name).tag("kind", kind).gauge().value();
    }

    double calls(String operation, String outcome) {
        return meters.get("payments.psp.calls").tag("operation", operation).tag("outcome", outcome).counter().count();
    }

    @Test
    @DisplayName("a capture the PSP left ambiguous is an UNKNOWN capture operation, aged from its creation; a timeout is counted as one")
    void anAmbiguousCaptureIsAnUnknownOperation() {
        String orderRef = authorizedOrder();
        String paymentId = "pay-" + orderRef;
        double captures = gauge("payments.operations.unknown", "capture");
        double voids = gauge("payments.operations.unknown", "void");
        double timeouts = calls("capture", "timeout");
        double answered = calls("get", "ok");
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/capture"))
                .willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "COMPLETED", "70.00", "EUR")))
                        .withFixedDelay(PAST_READ_TIMEOUT_MS)));
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "AUTHORIZED",
                "70.00", "EUR")))));

        assertThat(call(orderRef, "capture").status()).isEqualTo(409);
        assertThat(jdbc.sql("""
                SELECT state FROM psp_payment_operation p JOIN orders o ON o.id = p.order_id WHERE o.order_ref = :ref""")
                .param("ref", orderRef).query(String.class).single()).isEqualTo("UNKNOWN");
        assertThat(calls("capture", "timeout")).as("the capture timed out").isEqualTo(timeouts + 1);
        assertThat(calls("get", "ok")).as("the look-up answered").isGreaterThan(answered);

        assertThat(gauge("payments.operations.unknown", "capture")).isEqualTo(captures + 1);
        assertThat(gauge("payments.operations.unknown", "void")).as("voids untouched").isEqualTo(voids);
        jdbc.sql("UPDATE psp_payment_operation SET created_at = now() - interval '1 hour' WHERE order_id = "
                + "(SELECT id FROM orders WHERE order_ref = :ref)").param("ref", orderRef).update();
        assertThat(gauge("payments.operations.unknown.oldest.age", "capture")).isGreaterThanOrEqualTo(3600);
    }

    @Test
    @DisplayName("a void answered 502 is a PSP error, a refusal is rejected: PspErrors counts the one, not the other")
    void errorsAndRefusalsAreCountedApart() {
        String orderRef = authorizedOrder();
        String paymentId = "pay-" + orderRef;
        double errors = calls("void", "error");
        double rejected = calls("void", "rejected");
        psp.stubFor(post(urlEqualTo("/api/v1/payments/" + paymentId + "/void")).willReturn(aResponse().withStatus(502)));
        psp.stubFor(getCall(paymentId).willReturn(okJson(envelope(payment(paymentId, null, "DEPOSIT", "CANCELLED",
                "70.00", "EUR")))));
        assertThat(call(orderRef, "void").status()).isEqualTo(200);
        assertThat(calls("void", "error")).isEqualTo(errors + 1);

        String refused = authorizedOrder();
        psp.stubFor(post(urlEqualTo("/api/v1/payments/pay-" + refused + "/void")).willReturn(aResponse().withStatus(422)
                .withHeader("Content-Type", "application/json")
                .withBody("{\"errorCode\":\"NOT_VOIDABLE\",\"errorMessage\":\"no\"}")));
        call(refused, "void");
        assertThat(calls("void", "rejected")).isEqualTo(rejected + 1);
        assertThat(calls("void", "error")).as("a refusal is an answer").isEqualTo(errors + 1);
    }
}
