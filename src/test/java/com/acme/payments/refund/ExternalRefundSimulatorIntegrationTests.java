package com.acme.payments.refund;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;
import com.acme.payments.support.SimulatorStack;

import tools.jackson.databind.JsonNode;

/**
 * A refund made in the Gateway's back office, end to end over HTTP: an instance of the service with the
 * in-process simulator as its PSP. The order is paid on the hosted page; the simulator's back office
 * refunds part of it (a REFUND under a foreign referenceId, delivered twice) and declines it later; the
 * service books it once as an external refund, bounds a later API refund by it and releases it once.
 */
class ExternalRefundSimulatorIntegrationTests {

    private static final String SIM_ADMIN = "sim-admin";

    private static SimulatorStack stack;
    private static Http sim;
    private static Http api;
    private static JdbcClient jdbc;

    @BeforeAll
    static void start() {
        stack = SimulatorStack.start(SIM_ADMIN, serviceUrl -> Map.of(
                "pspsim.api-key", "test-psp-key",
                "pspsim.signing-key", "test-signing-key",
                "pspsim.signature-encoding", "hex"),
                (serviceUrl, simulatorUrl) -> Map.of(
                        "payments.checkout.public-url", serviceUrl,
                        "payments.psp.api-url", simulatorUrl));
        sim = stack.sim();
        api = stack.api();
        jdbc = stack.jdbc();
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    static JsonNode order(String orderRef) {
        return api.bearer(Shop.SHOP_KEY).get("/api/orders/" + orderRef).json();
    }

    static JsonNode refunds(String orderRef) {
        return api.bearer(Shop.ADMIN_KEY).get("/api/orders/" + orderRef + "/refunds").json();
    }

    static JsonNode refund(String orderRef, String referenceId) {
        for (JsonNode r : refunds(orderRef)) {
            if (referenceId.equals(r.path("referenceId").asString())) {
                return r;
            }
        }
        return null;
    }

    static Response apiRefund(String orderRef, String amount) {
        return api.bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "k-" + UUID.randomUUID())
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"" + amount + "\",\"currency\":\"EUR\"}");
    }

    /** Deliveries the simulator made of this payment's webhook that the service answered. */
    static long answered(String paymentId) {
        long n = 0;
        for (JsonNode attempt : sim.get("/sim/webhooks").json()) {
            if (paymentId.equals(attempt.path("paymentId").asString()) && attempt.path("status").asInt() == 200) {
                n++;
            }
        }
        return n;
    }

    /** A PAID order: checked out at the simulator and paid on its hosted page; its payment id. */
    static String[] paidOrder(String amount) {
        String orderRef = new Shop(api).createOrder(amount, "EUR").orderRef();
        Response checkout = new Shop(api).checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String paymentId = jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(String.class).single();
        assertThat(new Http(stack.simulatorUrl()).post("/hosted/" + paymentId + "/pay", "").status()).isIn(200, 303);
        await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(order(orderRef).path("status").asString()));
        return new String[] { orderRef, paymentId };
    }

    static JsonNode discrepancy(String paymentId, String kind) {
        for (JsonNode d : api.bearer(Shop.ADMIN_KEY).get("/api/admin/discrepancies").json()) {
            if (paymentId.equals(d.path("pspPaymentId").asString()) && kind.equals(d.path("kind").asString())) {
                return d;
            }
        }
        return null;
    }

    @Test
    @DisplayName("back-office refund delivered twice: booked once (origin external), receipt closed; bounds an API refund; its late DECLINED releases it once; a DECLINED after COMPLETED changes nothing")
    void backOfficeRefundEndToEnd() {
        String[] paid = paidOrder("40.00");
        String orderRef = paid[0];
        String reference = "bo-" + UUID.randomUUID();
        assertThat(sim.post("/sim/faults", """
                {"operation":"webhook","fault":"webhook-twice","referenceId":"%s"}""".formatted(reference)).status())
                .isEqualTo(200);
        Response made = sim.post("/sim/payments/" + paid[1] + "/back_office_refund",
                "{\"amount\":\"15.00\",\"referenceId\":\"" + reference + "\",\"state\":\"PENDING\"}");
        assertThat(made.status()).as(made.body()).isEqualTo(200);
        String bo = made.json().path("id").asString();

        await().atMost(Duration.ofSeconds(30)).until(() -> answered(bo) >= 2);
        JsonNode view = refund(orderRef, bo);
        assertThat(view).isNotNull();
        assertThat(refunds(orderRef).size()).as("booked once").isEqualTo(1);
        assertThat(view.path("origin").asString()).isEqualTo("external");
        assertThat(view.path("pspPaymentId").asString()).isEqualTo(bo);
        assertThat(view.path("refundKey").isNull()).isTrue();
        assertThat(view.path("requestedBy").isNull()).isTrue();
        assertThat(view.path("state").asString()).isEqualTo("DONE");
        assertThat(view.path("pspState").asString()).isEqualTo("PENDING");
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("15.00");
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", bo).query(Long.class).single()).as("its receipt is closed").isZero();
        assertThat(api.bearer(Shop.ADMIN_KEY).get("/api/admin/refunds/" + bo).json().path("orderRef").asString())
                .isEqualTo(orderRef);

        Response tooMuch = apiRefund(orderRef, "25.01");
        assertThat(tooMuch.status()).isEqualTo(422);
        assertThat(tooMuch.json().path("type").asString()).endsWith("refund-exceeds-remainder");
        Response rest = apiRefund(orderRef, "25.00");
        assertThat(rest.status()).as(rest.body()).isEqualTo(201);
        assertThat(rest.json().path("origin").asString()).isEqualTo("api");
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("40.00");

        assertThat(sim.post("/sim/payments/" + bo + "/state", "{\"state\":\"DECLINED\"}").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> answered(bo) >= 4);
        assertThat(refund(orderRef, bo).path("state").asString()).isEqualTo("FAILED");
        assertThat(order(orderRef).path("refundedAmount").asString()).as("released once").isEqualTo("25.00");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key = :k").param("k", bo + ":refund_failed")
                .query(Long.class).single()).isEqualTo(1);

        String completed = sim.post("/sim/payments/" + paid[1] + "/back_office_refund", "{}").json().path("id")
                .asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> answered(completed) >= 1);
        assertThat(order(orderRef).path("refundedAmount").asString()).as("what was left, 15.00").isEqualTo("40.00");
        assertThat(sim.post("/sim/payments/" + completed + "/state", "{\"state\":\"DECLINED\"}").status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> answered(completed) >= 2);
        assertThat(refund(orderRef, completed).path("pspState").asString()).as("final is final").isEqualTo("COMPLETED");
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("40.00");
        assertThat(discrepancy(completed, "contradicting_report")).isNotNull();
    }
}
