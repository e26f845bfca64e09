package com.acme.payments.refund;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import com.acme.payments.support.Http;
import com.acme.payments.support.Http.Response;
import com.acme.payments.support.Shop;
import com.acme.payments.support.SimulatorStack;
import com.acme.payments.sweep.Polls;

import tools.jackson.databind.JsonNode;

/**
 * A refund made in Stripe's Dashboard, end to end over HTTP: an instance of the service with
 * {@code PSP_PROVIDER=stripe} and the in-process simulator's Stripe surface as Stripe. The session is paid
 * through the simulator's hook; the Dashboard refunds part of it (its events delivered out of order and
 * twice), and a pending one fails later; another fails with its events lost and is learnt by the straggler poll
 * ({@code GET /v1/refunds/{id}}, the pull path).
 */
class StripeExternalRefundSimulatorIntegrationTests {

    private static final String SIM_ADMIN = "sim-admin";
    /** Dashboard refunds of this many cents stay pending until failed through the hook. */
    private static final long PENDING_CENTS = 1111;

    private static SimulatorStack stack;
    private static Http sim;
    private static Http api;
    private static JdbcClient jdbc;

    @BeforeAll
    static void start() {
        stack = SimulatorStack.start(SIM_ADMIN, serviceUrl -> Map.of(
                "pspsim.stripe.api-key", "sk_test_key",
                "pspsim.stripe.webhook-secret", "whsec_test_secret",
                "pspsim.stripe.webhook-url", serviceUrl + "/webhooks/stripe",
                "pspsim.stripe.webhook-retry-delays", "200ms,500ms,1s",
                "pspsim.stripe.refund-settle-delay", "200ms",
                "pspsim.stripe.refund-pending-amounts", String.valueOf(PENDING_CENTS)),
                (serviceUrl, simulatorUrl) -> Map.of(
                        "payments.psp.provider", "stripe",
                        "stripe.api-base", simulatorUrl));
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

    static JsonNode refund(String orderRef, String referenceId) {
        for (JsonNode r : api.bearer(Shop.ADMIN_KEY).get("/api/orders/" + orderRef + "/refunds").json()) {
            if (referenceId.equals(r.path("referenceId").asString())) {
                return r;
            }
        }
        return null;
    }

    static String stateOf(String orderRef, String referenceId) {
        JsonNode r = refund(orderRef, referenceId);
        return r == null ? null : r.path("state").asString() + "/" + r.path("pspState").asString();
    }

    static JsonNode discrepancy(String paymentId, String kind) {
        for (JsonNode d : api.bearer(Shop.ADMIN_KEY).get("/api/admin/discrepancies").json()) {
            if (paymentId.equals(d.path("pspPaymentId").asString()) && kind.equals(d.path("kind").asString())) {
                return d;
            }
        }
        return null;
    }

    /** Deliveries of this object's events that the service answered 200. */
    static long answered(String objectId, String type) {
        long n = 0;
        for (JsonNode attempt : sim.get("/sim/stripe/webhooks").json()) {
            if (objectId.equals(attempt.path("objectId").asString()) && type.equals(attempt.path("type").asString())
                    && attempt.path("status").asInt() == 200) {
                n++;
            }
        }
        return n;
    }

    /** A PAID order: its session paid through the simulator's hook; its PaymentIntent. */
    static String[] paidOrder(String amount) {
        String orderRef = new Shop(api).createOrder(amount, "EUR").orderRef();
        Response checkout = new Shop(api).checkout(orderRef);
        assertThat(checkout.status()).as(checkout.body()).isEqualTo(200);
        String session = jdbc.sql("SELECT psp_payment_id FROM orders WHERE order_ref = :r").param("r", orderRef)
                .query(String.class).single();
        Response paid = sim.post("/sim/stripe/sessions/" + session + "/complete", "{\"outcome\":\"pay\"}");
        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> "PAID".equals(order(orderRef).path("status").asString()));
        return new String[] { orderRef, paid.json().path("payment_intent").asString() };
    }

    @Test
    @DisplayName("Dashboard refund, events out of order and twice: booked once (origin external), receipts closed; bounds an API refund; a failure after succeeded changes nothing; a pending one's failure releases it once")
    void dashboardRefundEndToEnd() {
        String[] paid = paidOrder("50.00");
        String orderRef = paid[0];
        String pi = paid[1];
        assertThat(sim.post("/sim/faults", """
                [{"operation":"stripe-event","fault":"webhook-out-of-order","referenceId":"%s","state":"refund.created"},
                 {"operation":"stripe-event","fault":"webhook-twice","referenceId":"%s","state":"refund.updated"}]"""
                .formatted(pi, pi)).status()).isEqualTo(200);
        Response made = sim.post("/sim/stripe/payment_intents/" + pi + "/dashboard_refund", "{\"amount\":2000}");
        assertThat(made.status()).as(made.body()).isEqualTo(200);
        String re = made.json().path("id").asString();

        await().atMost(Duration.ofSeconds(30)).until(() -> answered(re, "refund.created") >= 1
                && answered(re, "refund.updated") >= 2);
        JsonNode view = refund(orderRef, re);
        assertThat(view.path("origin").asString()).isEqualTo("external");
        assertThat(view.path("pspPaymentId").asString()).isEqualTo(re);
        assertThat(view.path("refundKey").isNull()).isTrue();
        assertThat(view.path("state").asString()).isEqualTo("DONE");
        assertThat(view.path("pspState").asString()).isEqualTo("COMPLETED");
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("20.00");
        assertThat(jdbc.sql("SELECT count(*) FROM psp_refund_attempt WHERE psp_payment_id = :p").param("p", re)
                .query(Long.class).single()).isEqualTo(1);
        assertThat(jdbc.sql("SELECT count(*) FROM psp_webhook_event WHERE payment_id = :p AND processed_at IS NULL")
                .param("p", re).query(Long.class).single()).as("its receipts are closed").isZero();

        Response tooMuch = api.bearer(Shop.ADMIN_KEY).header("Idempotency-Key", "k1-" + orderRef)
                .post("/api/orders/" + orderRef + "/refunds", "{\"amount\":\"30.01\",\"currency\":\"EUR\"}");
        assertThat(tooMuch.status()).isEqualTo(422);
        assertThat(tooMuch.json().path("type").asString()).endsWith("refund-exceeds-remainder");

        assertThat(sim.post("/sim/stripe/refunds/" + re + "/fail", "{\"failure_reason\":\"expired_or_canceled_card\"}")
                .status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> answered(re, "refund.failed") >= 1
                && answered(re, "refund.updated") >= 4);
        assertThat(stateOf(orderRef, re)).as("final is final").isEqualTo("DONE/COMPLETED");
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("20.00");
        assertThat(discrepancy(re, "contradicting_report")).isNotNull();

        String pending = sim.post("/sim/stripe/payment_intents/" + pi + "/dashboard_refund",
                "{\"amount\":" + PENDING_CENTS + "}").json().path("id").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> "DONE/PENDING".equals(stateOf(orderRef, pending)));
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("31.11");
        assertThat(sim.post("/sim/stripe/refunds/" + pending + "/fail", "{}").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> answered(pending, "refund.failed") >= 1
                && answered(pending, "refund.updated") >= 2);
        assertThat(stateOf(orderRef, pending)).isEqualTo("FAILED/DECLINED");
        assertThat(order(orderRef).path("refundedAmount").asString()).as("released once").isEqualTo("20.00");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key = :k")
                .param("k", pending + ":refund_failed").query(Long.class).single()).isEqualTo(1);
    }

    @Test
    @DisplayName("a pending Dashboard refund whose failure events are lost is learnt on the pull path (the straggler poll): FAILED, released once")
    void dashboardRefundFailureLearntOnThePullPath() {
        String[] paid = paidOrder("30.00");
        String orderRef = paid[0];
        Response made = sim.post("/sim/stripe/payment_intents/" + paid[1] + "/dashboard_refund",
                "{\"amount\":" + PENDING_CENTS + "}");
        String re = made.json().path("id").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> "DONE/PENDING".equals(stateOf(orderRef, re)));
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("11.11");

        assertThat(sim.post("/sim/faults", """
                {"operation":"stripe-event","fault":"webhook-never","referenceId":"%s"}""".formatted(re)).status())
                .isEqualTo(200);
        assertThat(sim.post("/sim/stripe/refunds/" + re + "/fail", "{}").status()).isEqualTo(200);
        jdbc.sql("UPDATE psp_refund_attempt SET updated_at = now() - interval '1 hour' WHERE psp_payment_id = :p")
                .param("p", re).update();
        stack.service().getBean(Polls.class).run("refund-straggler-poll");

        assertThat(stateOf(orderRef, re)).isEqualTo("FAILED/DECLINED");
        assertThat(order(orderRef).path("refundedAmount").asString()).isEqualTo("0.00");
        assertThat(jdbc.sql("SELECT count(*) FROM outbox WHERE idempotency_key = :k").param("k", re + ":refund_failed")
                .query(Long.class).single()).isEqualTo(1);
    }
}
